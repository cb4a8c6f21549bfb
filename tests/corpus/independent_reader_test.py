#!/usr/bin/python3
"""The reference's protobuf reader against ONNX's own Python decoder (python3-onnx).

Every .pb of the generated corpus and of ONNX's sequence fixtures is decoded twice: by the
reference (dump_values, through cases/ and reference/proto.h, one process for all files) and
here, with onnx's protobuf classes and onnx.numpy_helper, which share no code with ours. Both
must agree on the kind of value, the element type, every shape and every element bit for bit:
floats as their bytes (NaN payloads included), float16 and bfloat16 as their 16 bits, strings as
bytes. A file
either side cannot decode, or that one side sees and the other does not, is a failure too.

Usage: independent_reader_test.py DUMP_VALUES CORPUS_DIR ONNX_TESTDATA_DIR
"""
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

SEQUENCE_OPS = ("ConcatFromSequence", "SplitToSequence")


def op_types(graph):
    for node in graph.node:
        yield node.op_type
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from op_types(attr.g)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for g in attr.graphs:
                    yield from op_types(g)


def case_dirs(corpus, onnx_root):
    """Corpus folders (with a case.json) and ONNX fixture folders whose model uses a sequence op."""
    dirs = []
    for root, _, files in os.walk(corpus):
        if "case.json" in files:
            dirs.append(root)
    for root, _, files in os.walk(onnx_root):
        if "model.onnx" in files:
            model = onnx.load(os.path.join(root, "model.onnx"), load_external_data=False)
            if any(op.startswith("Sequence") or op in SEQUENCE_OPS for op in op_types(model.graph)):
                dirs.append(root)
    return sorted(dirs)


def typed_data_bytes(t, field):
    """A tensor's float_data (field 4) or double_data (field 10) as little-endian bytes, read from
    its wire form. numpy_helper cannot be used for them: a Python float is a double, and
    converting a float's signalling NaN to it quiets the NaN (numpy_helper reads float_data that
    way), while the message itself keeps the bits; and ONNX 1.12's numpy_helper raises a
    TypeError on complex64 and complex128 in the typed fields."""
    buf, i, out = t.SerializeToString(), 0, bytearray()

    def varint():
        nonlocal i
        value = shift = 0
        while True:
            b = buf[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    while i < len(buf):
        key = varint()
        wire = key & 7
        if wire == 0:
            varint()
        elif wire == 1:
            if key >> 3 == field:
                out += buf[i:i + 8]
            i += 8
        elif wire == 2:
            n = varint()
            if key >> 3 == field:
                out += buf[i:i + n]
            i += n
        elif wire == 5:
            if key >> 3 == field:
                out += buf[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d in a TensorProto" % wire)
    return bytes(out)


# The types whose typed field is read from the wire (typed_data_bytes): the field number.
TYPED_FIELD = {onnx.TensorProto.FLOAT: 4, onnx.TensorProto.COMPLEX64: 4,
               onnx.TensorProto.DOUBLE: 10, onnx.TensorProto.COMPLEX128: 10}


def tensor_record(t):
    np_type = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type]
    shape = list(t.dims)
    if t.data_type == onnx.TensorProto.STRING:
        # numpy_helper decodes strings as UTF-8 text; the spec's strings are bytes.
        data = [bytes(s).hex() for s in t.string_data]
        if len(data) != int(np.prod(shape, dtype=np.int64)):
            raise ValueError("string_data holds %d values for shape %s" % (len(data), shape))
    elif t.data_type in TYPED_FIELD and not t.raw_data:
        raw = typed_data_bytes(t, TYPED_FIELD[t.data_type])
        want = int(np.prod(shape, dtype=np.int64)) * np.dtype(np_type).itemsize
        if len(raw) != want:
            raise ValueError("typed field holds %d bytes for shape %s of %s" % (len(raw), shape, np_type))
        data = raw.hex()
    else:
        a = numpy_helper.to_array(t)
        if a.dtype != np_type or list(a.shape) != shape:
            raise ValueError("decoded as %s%s, expected %s%s" % (a.dtype, list(a.shape), np_type, shape))
        if t.data_type == onnx.TensorProto.BFLOAT16:
            # numpy has no bfloat16: numpy_helper widens it to float32, whose upper 16 bits are
            # the bfloat16 bits.
            a = (np.ascontiguousarray(a).view(np.uint32) >> 16).astype("<u2")
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes().hex()
    return {"dtype": t.data_type, "shape": shape, "data": data}


def declared_tensor_elem(tp):
    return tp.tensor_type.elem_type if tp.HasField("tensor_type") else 0


def decode(path, declared):
    with open(path, "rb") as f:
        raw = f.read()
    if declared.HasField("tensor_type"):
        t = onnx.TensorProto()
        t.ParseFromString(raw)
        return {"kind": "tensor", "elem": t.data_type, "tensors": [tensor_record(t)]}
    if declared.HasField("sequence_type"):
        s = onnx.SequenceProto()
        s.ParseFromString(raw)
        tensors = [tensor_record(t) for t in s.tensor_values]
        elem = declared_tensor_elem(declared.sequence_type.elem_type)
        if not elem and tensors:
            elem = tensors[0]["dtype"]
        return {"kind": "sequence", "elem": elem, "tensors": tensors}
    if declared.HasField("optional_type"):
        o = onnx.OptionalProto()
        o.ParseFromString(raw)
        inner = declared.optional_type.elem_type
        rec = {"kind": "optional", "tensors": []}
        if o.elem_type == onnx.OptionalProto.TENSOR:
            rec["holds_sequence"] = False
            rec["empty"] = not o.HasField("tensor_value")
            if not rec["empty"]:
                rec["tensors"] = [tensor_record(o.tensor_value)]
        elif o.elem_type == onnx.OptionalProto.SEQUENCE:
            rec["holds_sequence"] = True
            rec["empty"] = not o.HasField("sequence_value")
            if not rec["empty"]:
                rec["tensors"] = [tensor_record(t) for t in o.sequence_value.tensor_values]
        else:
            rec["holds_sequence"] = inner.HasField("sequence_type")
            rec["empty"] = True
        if rec["tensors"]:
            rec["elem"] = rec["tensors"][0]["dtype"]
        elif rec["holds_sequence"]:
            rec["elem"] = declared_tensor_elem(inner.sequence_type.elem_type)
        else:
            rec["elem"] = declared_tensor_elem(inner)
        return rec
    raise ValueError("declared type is neither a tensor, a sequence nor an optional")

# The edge values (values=edge cases), as the corpus documentation states them per type, read
# here by python3-onnx: every such case's inputs must hold all of them.
def edge_values():
    def ints(bits, signed):
        if signed:
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            return [lo, hi, -1, lo + 1]
        return [(1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) + 1, 0]
    inf, nan = float("inf"), float("nan")
    T = onnx.TensorProto
    bf16_max = float(np.array([0x7F7F0000], dtype=np.uint32).view(np.float32)[0])
    return {
        T.STRING: [b"nul\x00inside", b"\x00", b"tail\x00", "\u20ac\U0001F600".encode()],
        T.BOOL: [True, False],
        T.FLOAT: [inf, -inf, nan, float(np.finfo(np.float32).min)],
        T.DOUBLE: [inf, -inf, nan, float(np.finfo(np.float64).min)],
        T.FLOAT16: [inf, -inf, nan, -65504.0],
        T.BFLOAT16: [inf, -inf, nan, -bf16_max],
        T.INT8: ints(8, True), T.INT16: ints(16, True), T.INT32: ints(32, True),
        T.INT64: ints(64, True), T.UINT8: ints(8, False), T.UINT16: ints(16, False),
        T.UINT32: ints(32, False), T.UINT64: ints(64, False),
        T.COMPLEX64: [inf, -inf, nan, float(np.finfo(np.float32).max)],
        T.COMPLEX128: [inf, -inf, nan, float(np.finfo(np.float64).max)],
    }


def element_values(t):
    if t.data_type == onnx.TensorProto.STRING:
        return [bytes(v) for v in t.string_data]
    a = numpy_helper.to_array(t).ravel()
    if a.dtype.kind == "c":  # complex: the parts
        return [float(x) for z in a for x in (z.real, z.imag)]
    if a.dtype.kind == "b":
        return [bool(x) for x in a]
    if a.dtype.kind in "iu":
        return [int(x) for x in a]
    return [float(x) for x in a]


def check_edge_values(dirs):
    """Failures: values=edge cases (context inputs, where the data set holds every operand)
    whose inputs miss one of their type's edge values; and the number of such cases."""
    failures, seen = [], 0
    expected = edge_values()
    for d in dirs:
        if not os.path.basename(d).endswith("__values-edge__context-inputs"):
            continue
        seen += 1
        with open(os.path.join(d, "case.json")) as f:
            dtype = onnx.TensorProto.DataType.Value(json.load(f)["dtype"].upper())
        model = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
        values = []
        for k, declared in enumerate(model.graph.input):
            with open(os.path.join(d, "test_data_set_0", "input_%d.pb" % k), "rb") as f:
                raw = f.read()
            if declared.type.HasField("sequence_type"):
                seq = onnx.SequenceProto()
                seq.ParseFromString(raw)
                tensors = list(seq.tensor_values)
            else:
                t = onnx.TensorProto()
                t.ParseFromString(raw)
                tensors = [t]
            for t in tensors:
                if t.data_type == dtype:
                    values += element_values(t)
        missing = []
        for want in expected[dtype]:
            if isinstance(want, float) and want != want:
                ok = any(isinstance(v, float) and v != v for v in values)
            else:
                ok = want in values
            if not ok:
                missing.append(repr(want))
        if missing:
            failures.append("%s: edge values missing from its inputs: %s" % (d, ", ".join(missing)))
    return failures, seen

# The values that show a lossy copy (values=bits and bits_typed cases), stated here from the IEEE
# 754 formats as bit patterns: -0.0, quiet NaN payload 1, negative quiet NaN with a payload,
# signalling NaN payload 1, negative signalling NaN, smallest subnormal, largest subnormal,
# negative smallest subnormal, smallest normal, largest finite, lowest, 1 - ulp, 1 + ulp, +inf,
# -inf, an inexact fraction.
BITS = {
    "float": ("<u4", [0x80000000, 0x7FC00001, 0xFFC12345, 0x7F800001, 0xFF812345, 0x00000001,
                      0x007FFFFF, 0x80000001, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F7FFFFF,
                      0x3F800001, 0x7F800000, 0xFF800000, 0x3E4CCCCD]),
    "double": ("<u8", [0x8000000000000000, 0x7FF8000000000001, 0xFFF8000000012345,
                       0x7FF0000000000001, 0xFFF0000000012345, 0x0000000000000001,
                       0x000FFFFFFFFFFFFF, 0x8000000000000001, 0x0010000000000000,
                       0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x3FEFFFFFFFFFFFFF,
                       0x3FF0000000000001, 0x7FF0000000000000, 0xFFF0000000000000,
                       0x3FB999999999999A]),
    "float16": ("<u2", [0x8000, 0x7E01, 0xFE45, 0x7C01, 0xFC45, 0x0001, 0x03FF, 0x8001, 0x0400,
                        0x7BFF, 0xFBFF, 0x3BFF, 0x3C01, 0x7C00, 0xFC00, 0x3555]),
    "bfloat16": ("<u2", [0x8000, 0x7FC1, 0xFFC5, 0x7F81, 0xFF85, 0x0001, 0x007F, 0x8001, 0x0080,
                         0x7F7F, 0xFF7F, 0x3F7F, 0x3F81, 0x7F80, 0xFF80, 0x3E4D]),
}
BITS["complex64"] = BITS["float"]
BITS["complex128"] = BITS["double"]
BITS_STRINGS = [b"", b"nul\0inside", b"\0", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80",
                b"x" * 100000, b"\xc0\x80"]


def check_bits_values(dirs, records):
    """Failures: values=bits cases (context inputs) whose input and output files, as python3-onnx
    reads them, miss one of their type's bit patterns, or do not use the encoding the case names
    (raw_data for bits, the typed fields for bits_typed); and the number of such cases."""
    failures, seen = [], 0
    for d in dirs:
        base = os.path.basename(d)
        typed = base.endswith("__values-bits_typed__context-inputs")
        if not typed and not base.endswith("__values-bits__context-inputs"):
            continue
        seen += 1
        with open(os.path.join(d, "case.json")) as f:
            dtype = json.load(f)["dtype"]
        if dtype not in BITS and dtype != "string":
            continue
        for kind in ("input", "output"):
            files = sorted(p for p in records if p.startswith(os.path.join(d, "test_data_set_0", kind + "_")))
            elements, found = [], False
            for p in files:
                for t in records[p]["tensors"]:
                    if t["dtype"] == onnx.TensorProto.STRING:
                        elements += [bytes.fromhex(x) for x in t["data"]]
                        found = True
                    elif onnx.TensorProto.DataType.Name(t["dtype"]).lower() == dtype:
                        fmt, _ = BITS[dtype]
                        elements += [int(x) for x in np.frombuffer(bytes.fromhex(t["data"]), dtype=fmt)]
                        found = True
            want = BITS_STRINGS if dtype == "string" else BITS[dtype][1]
            missing = [w for w in want if w not in elements]
            if not found or missing:
                failures.append("%s: %s files miss bit patterns: %s" % (
                    d, kind, ", ".join((w[:12].hex() if isinstance(w, bytes) else hex(w)) for w in missing[:4]) or "all"))
            for p in files:
                with open(p, "rb") as f:
                    raw = f.read()
                msg = onnx.TensorProto() if records[p]["kind"] == "tensor" else onnx.SequenceProto()
                msg.ParseFromString(raw)
                tensors = [msg] if records[p]["kind"] == "tensor" else list(msg.tensor_values)
                for t in tensors:
                    if t.data_type == onnx.TensorProto.STRING:
                        continue
                    if typed == bool(t.raw_data):
                        failures.append("%s: %s in %s, not %s" % (
                            p, "raw_data" if t.raw_data else "typed fields", base,
                            "typed fields" if typed else "raw_data"))
    return failures, seen


def python_view(dirs):
    """file -> record, and file -> error for the files python cannot decode."""
    records, errors = {}, {}
    numbered = re.compile(r"^(input|output)_(\d+)\.pb$")
    for d in dirs:
        model = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
        inits = {i.name for i in model.graph.initializer}
        declared = {
            "input": [i.type for i in model.graph.input if i.name not in inits],
            "output": [o.type for o in model.graph.output],
        }
        for ds in sorted(os.listdir(d)):
            ds_dir = os.path.join(d, ds)
            if not ds.startswith("test_data_set_") or not os.path.isdir(ds_dir):
                continue
            for name in sorted(os.listdir(ds_dir)):
                m = numbered.match(name)
                if not m:
                    continue
                path = os.path.join(ds_dir, name)
                try:
                    records[path] = decode(path, declared[m.group(1)][int(m.group(2))])
                except Exception as e:  # any failure of ONNX's decoder names the file
                    errors[path] = "%s: %s" % (type(e).__name__, e)
    return records, errors


def main():
    dump, corpus, onnx_root = sys.argv[1:4]
    start = time.time()
    dirs = case_dirs(corpus, onnx_root)
    out = subprocess.run([dump, corpus, onnx_root], check=True, stdout=subprocess.PIPE).stdout
    ours, rejected = {}, {}
    for line in out.decode().splitlines():
        j = json.loads(line)
        if "error" in j:
            rejected[os.path.normpath(j["case"])] = j["error"]
        else:
            ours[os.path.normpath(j.pop("file"))] = j
    theirs, errors = python_view(dirs)
    theirs = {os.path.normpath(k): v for k, v in theirs.items()}

    failures = []
    for path, err in sorted(errors.items()):
        failures.append("%s: python3-onnx cannot decode it: %s" % (path, err))
    for d, err in sorted(rejected.items()):
        failures.append("%s: the reference rejects the case: %s" % (d, err))
    rejected_dirs = tuple(d + os.sep for d in rejected)
    for path in sorted(set(theirs) - set(ours)):
        if not path.startswith(rejected_dirs):
            failures.append("%s: not decoded by the reference" % path)
    for path in sorted(set(ours) - set(theirs) - set(errors)):
        failures.append("%s: decoded by the reference but not found here" % path)
    for path in sorted(set(ours) & set(theirs)):
        a, b = ours[path], theirs[path]
        if a != b:
            diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
            failures.append("%s: differs in %s:\n  reference: %s\n  onnx:      %s"
                            % (path, ", ".join(diff), json.dumps(a)[:400], json.dumps(b)[:400]))

    edge_failures, edge_cases = check_edge_values(dirs)
    failures += edge_failures
    if edge_cases == 0:
        failures.append("no values=edge case found")
    print("%d values=edge cases hold their type's edge values" % (edge_cases - len(edge_failures)))
    bits_failures, bits_cases = check_bits_values(dirs, theirs)
    failures += bits_failures
    if bits_cases == 0:
        failures.append("no values=bits case found")
    print("%d values=bits cases hold their type's bit patterns, in the encoding they name"
          % (bits_cases - len(bits_failures)))
    print("%d case folders, %d files decoded by both, %.1f s" % (len(dirs), len(set(ours) & set(theirs)),
                                                              time.time() - start))
    if failures:
        for f in failures[:40]:
            print("FAIL", f)
        print("%d failures" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
