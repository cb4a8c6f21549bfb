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


def tensor_record(t):
    np_type = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type]
    shape = list(t.dims)
    if t.data_type == onnx.TensorProto.STRING:
        # numpy_helper decodes strings as UTF-8 text; the spec's strings are bytes.
        data = [bytes(s).hex() for s in t.string_data]
        if len(data) != int(np.prod(shape, dtype=np.int64)):
            raise ValueError("string_data holds %d values for shape %s" % (len(data), shape))
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
