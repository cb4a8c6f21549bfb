#!/usr/bin/env python3
"""seqconf-runtime/1 adapter for any Python ONNX backend (onnx.backend.base.Backend).

Usage: adapter.py module:Class  (the module is found through PYTHONPATH)

    seqconf run --runtime 'process=/usr/bin/python3 adapters/onnx-backend-python/adapter.py mod:Cls'

Each request runs as Class.prepare(model).run(inputs), inputs in the order of the graph's
non-initializer inputs. Sequences are passed natively: a SequenceProto input becomes a Python
list of numpy arrays, and a list (or tuple) the backend returns for a sequence output becomes a
SequenceProto. An optional input is None or its value; None for an optional output is an empty
OptionalProto. Strings are object arrays of bytes, each as it is in the file (NULs and bytes
that are not UTF-8 kept), and are written back the same way (str as UTF-8).

Errors (see adapters/README.md): an exception raised by prepare() or run() is not_supported
when it is a NotImplementedError or its message says "not supported" / "not implemented",
internal when it is a fault of the backend's code (INTERNAL_ERRORS: ZeroDivisionError,
AssertionError, KeyError, ...), and invalid_input otherwise (the backend rejected the model or
the inputs). A failure of the adapter itself before the backend ran (reading the request's
files) is internal; after it ran (converting what the backend returned, the wrong number of
outputs) it is `adapter`: the backend accepted the model.
One bad request never ends the adapter.
"""
import importlib
import json
import os
import sys
import traceback

import numpy as np
import onnx
from onnx import numpy_helper


class AdapterError(Exception):
    """A failure of the adapter, not of the backend: reported as kind internal."""


def load_backend(spec):
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    backend = getattr(module, attr) if attr else module
    version = getattr(module, "__version__", None)
    if version is None:
        top = sys.modules.get(module_name.split(".")[0])
        version = getattr(top, "__version__", None)
    name = attr or module_name
    return backend, name, str(version) if version is not None else "unknown"


# ---- protobuf <-> Python values, chosen by the declared type ------------------------------

def tensor_to_array(t):
    """A TensorProto as a numpy array; strings as an object array of the bytes themselves.

    numpy_helper.to_array decodes strings as UTF-8 into numpy str, which drops trailing NUL
    characters and cannot hold bytes that are not UTF-8; ONNX strings are bytes.
    """
    if t.data_type == onnx.TensorProto.STRING:
        array = np.empty(len(t.string_data), dtype=object)
        array[:] = list(t.string_data)
        return array.reshape(tuple(t.dims))
    return numpy_helper.to_array(t)


def proto_to_value(data, type_proto):
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        t = onnx.TensorProto()
        t.ParseFromString(data)
        return tensor_to_array(t)
    if kind == "sequence_type":
        s = onnx.SequenceProto()
        s.ParseFromString(data)
        return sequence_to_list(s)
    if kind == "optional_type":
        o = onnx.OptionalProto()
        o.ParseFromString(data)
        return optional_to_value(o)
    raise AdapterError("input type %s is not a tensor, sequence or optional" % kind)


def sequence_to_list(s):
    if s.elem_type == onnx.SequenceProto.TENSOR:
        return [tensor_to_array(t) for t in s.tensor_values]
    if s.elem_type == onnx.SequenceProto.SEQUENCE:
        return [sequence_to_list(x) for x in s.sequence_values]
    if s.elem_type == onnx.SequenceProto.OPTIONAL:
        return [optional_to_value(x) for x in s.optional_values]
    if s.elem_type == onnx.SequenceProto.UNDEFINED:
        return []
    raise AdapterError("sequence element type %d is not supported by the adapter" % s.elem_type)


def optional_to_value(o):
    if o.elem_type == onnx.OptionalProto.TENSOR:
        return tensor_to_array(o.tensor_value)
    if o.elem_type == onnx.OptionalProto.SEQUENCE:
        return sequence_to_list(o.sequence_value)
    if o.elem_type == onnx.OptionalProto.OPTIONAL:
        return optional_to_value(o.optional_value)
    return None  # an empty optional


def tensor_proto(value, name, elem_type=0):
    array = np.asarray(value)
    if elem_type == onnx.TensorProto.BFLOAT16 and array.dtype == np.float32:
        # numpy has no bfloat16: numpy_helper widens it to float32 on the way in. On the way out
        # the upper 16 bits are the bfloat16 (exact for values that came in as bfloat16; a
        # value the backend computed in float32 is truncated).
        t = onnx.TensorProto(name=name, data_type=onnx.TensorProto.BFLOAT16)
        t.dims.extend(array.shape)
        t.raw_data = (np.ascontiguousarray(array).view(np.uint32) >> 16).astype("<u2").tobytes()
        return t
    if array.dtype.kind in "OSU":
        return string_tensor(array, name)
    return numpy_helper.from_array(array, name)


def string_tensor(array, name):
    """A string TensorProto holding each element's bytes as they are; str is written as UTF-8.

    An object array of bytes keeps every byte. numpy's fixed-width arrays (dtype S or U) have
    already dropped trailing NUL characters in the backend; nothing here can restore them.
    """
    t = onnx.TensorProto(name=name, data_type=onnx.TensorProto.STRING)
    t.dims.extend(array.shape)
    for x in array.flat:
        if isinstance(x, bytes):
            t.string_data.append(x)
        elif isinstance(x, str):
            t.string_data.append(x.encode("utf-8"))
        else:
            raise AdapterError("output %s: a %s in a string tensor" % (name, type(x).__name__))
    return t


def value_to_proto(value, type_proto, name):
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        return tensor_proto(value, name, type_proto.tensor_type.elem_type)
    if kind == "sequence_type":
        if not isinstance(value, (list, tuple)):
            raise AdapterError("sequence output %s: the backend returned %s, not a list"
                               % (name, type(value).__name__))
        s = onnx.SequenceProto(name=name)
        elem = type_proto.sequence_type.elem_type
        elem_kind = elem.WhichOneof("value")
        if elem_kind == "tensor_type":
            s.elem_type = onnx.SequenceProto.TENSOR
            s.tensor_values.extend(tensor_proto(v, "", elem.tensor_type.elem_type) for v in value)
        elif elem_kind == "sequence_type":
            s.elem_type = onnx.SequenceProto.SEQUENCE
            s.sequence_values.extend(value_to_proto(v, elem, "") for v in value)
        elif elem_kind == "optional_type":
            s.elem_type = onnx.SequenceProto.OPTIONAL
            s.optional_values.extend(value_to_proto(v, elem, "") for v in value)
        else:
            raise AdapterError("sequence output %s: element type %s" % (name, elem_kind))
        return s
    if kind == "optional_type":
        o = onnx.OptionalProto(name=name)
        if value is None:
            return o  # elem_type UNDEFINED: the optional holds no value
        elem = type_proto.optional_type.elem_type
        elem_kind = elem.WhichOneof("value")
        if elem_kind == "tensor_type":
            o.elem_type = onnx.OptionalProto.TENSOR
            o.tensor_value.CopyFrom(tensor_proto(value, "", elem.tensor_type.elem_type))
        elif elem_kind == "sequence_type":
            o.elem_type = onnx.OptionalProto.SEQUENCE
            o.sequence_value.CopyFrom(value_to_proto(value, elem, ""))
        else:
            raise AdapterError("optional output %s: element type %s" % (name, elem_kind))
        return o
    raise AdapterError("output %s: type %s is not a tensor, sequence or optional" % (name, kind))


# ---- requests ------------------------------------------------------------------------------

# Exceptions that are a fault of the backend's code rather than its check of the model or the
# inputs: arithmetic (a division by zero), a failed assert, a missing key or attribute, a name
# error, exhausted recursion or memory. Anything else a backend raises (ValueError, IndexError,
# TypeError, RuntimeError, onnx's ValidationError, its own exception types) is its rejection.
INTERNAL_ERRORS = (ArithmeticError, AssertionError, AttributeError, KeyError, NameError,
                   RecursionError, MemoryError, SystemError)


def classify(exc):
    text = str(exc).lower()
    if (isinstance(exc, NotImplementedError) or "not supported" in text
            or "not implemented" in text):
        return "not_supported"
    if isinstance(exc, INTERNAL_ERRORS):
        return "internal"
    return "invalid_input"


def describe(exc):
    return "%s: %s" % (type(exc).__name__, exc) if str(exc) else type(exc).__name__


def handle(backend, req):
    model = onnx.load(req["model"])
    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    if len(graph_inputs) != len(req["inputs"]):
        raise AdapterError("%d input files for %d graph inputs"
                           % (len(req["inputs"]), len(graph_inputs)))
    inputs = []
    for info, path in zip(graph_inputs, req["inputs"]):
        with open(path, "rb") as f:
            inputs.append(proto_to_value(f.read(), info.type))

    try:
        outputs = backend.prepare(model).run(inputs)
    except Exception as exc:  # the backend's own verdict on the model or the inputs
        traceback.print_exc(file=sys.stderr)
        return {"ok": False, "error": {"kind": classify(exc), "message": describe(exc)}}

    # From here on the backend has run the model: the adapter's own failure is kind `adapter`
    # (the backend accepted the model; its answer could not be written), never its rejection.
    try:
        outputs = list(outputs)
        if len(outputs) != len(model.graph.output):
            raise AdapterError("the backend returned %d outputs for %d graph outputs"
                               % (len(outputs), len(model.graph.output)))
        paths = []
        for k, (info, value) in enumerate(zip(model.graph.output, outputs)):
            proto = value_to_proto(value, info.type, info.name)
            path = os.path.join(req["output_dir"], "output_%d.pb" % k)
            with open(path, "wb") as f:
                f.write(proto.SerializeToString())
            paths.append(path)
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return {"ok": False, "error": {"kind": "adapter", "message": describe(exc)}}
    return {"ok": True, "outputs": paths}


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: adapter.py module:Class\n")
        return 2
    # stdout carries the protocol only: whatever the backend prints (Python or C) goes to stderr.
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    backend, name, version = load_backend(sys.argv[1])
    protocol.write(json.dumps({"protocol": "seqconf-runtime/1", "name": name,
                               "version": version, "capabilities": {"sequences": True}}) + "\n")
    protocol.flush()
    for line in sys.stdin:
        req_id = None
        try:
            req = json.loads(line)
            req_id = req["id"]
            answer = handle(backend, req)
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            answer = {"ok": False, "error": {"kind": "internal", "message": describe(exc)}}
        if req_id is None:
            continue  # not a request: nothing to answer
        answer = dict(id=req_id, **answer)
        protocol.write(json.dumps(answer) + "\n")
        protocol.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
