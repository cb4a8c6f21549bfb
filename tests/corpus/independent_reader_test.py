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
