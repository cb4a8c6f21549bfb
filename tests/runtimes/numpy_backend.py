"""A small numpy ONNX backend for the test of adapters/onnx-backend-python.

NumpyBackend (an onnx.backend.base.Backend) interprets SequenceAt, SequenceInsert,
SequenceErase, SequenceConstruct, SequenceLength and SplitToSequence on numpy arrays, sequences
being Python lists; any other operator raises NotImplementedError. It validates what the spec
requires and raises ValueError / IndexError otherwise.

Deliberate departure from the spec, which the test expects seqconf to report: SequenceAt clamps
a negative position to 0 instead of counting it from the back ("Negative value means counting
positions from the back"). So position -1 reads the first tensor, and an out-of-range negative
position (-n-1) is not rejected.

SEQCONF_LOSSY_COPY in the environment adds one lossy copy of the outputs, as a runtime that is
right but for that: negative_zero (-0.0 becomes +0.0), nan (every NaN becomes numpy's default
quiet NaN), subnormal (subnormals flushed to a zero of their sign), scale (float32 and float64
values multiplied by 1 + 1e-5), float16 (the low 3 significand bits of finite float16 values
dropped). Complex values lose it in each part.
"""
import os

import numpy as np
from onnx import TensorProto, numpy_helper
from onnx.backend.base import Backend, BackendRep

__version__ = "0.1"


def position_of(tensor):
    """The position input: an int32/int64 scalar (shape [1] accepted, as the lenient policy)."""
    if tensor.dtype not in (np.int32, np.int64):
        raise ValueError("position must be int32 or int64, got %s" % tensor.dtype)
    if tensor.shape not in ((), (1,)):
        raise ValueError("position must be a scalar, got shape %s" % (tensor.shape,))
    return int(tensor.reshape(()))


def in_range(position, low, high, n):
    if not low <= position <= high:
        raise IndexError("position %d out of range for a sequence of length %d" % (position, n))


def sequence_at(seq, position):
    n = len(seq)
    p = position_of(position)
    if p < 0:
        p = 0  # the deliberate departure: the spec says p + n
    in_range(p, 0, n - 1, n)
    return seq[p]


def sequence_insert(seq, tensor, position=None):
    n = len(seq)
    if n and seq[0].dtype != tensor.dtype:
        raise TypeError("tensor of type %s into a sequence of %s" % (tensor.dtype, seq[0].dtype))
    p = n if position is None else position_of(position)
    in_range(p, -n, n, n)
    p = p + n if p < 0 else p
    return seq[:p] + [tensor] + seq[p:]


def sequence_erase(seq, position=None):
    n = len(seq)
    p = -1 if position is None else position_of(position)
    in_range(p, -n, n - 1, n)
    p = p + n if p < 0 else p
    return seq[:p] + seq[p + 1:]


def sequence_construct(*tensors):
    if len({t.dtype for t in tensors}) > 1:
        raise TypeError("SequenceConstruct of mixed types")
    return list(tensors)


def split_to_sequence(x, split=None, axis=0, keepdims=1):
    r = x.ndim
    if r == 0:
        raise ValueError("SplitToSequence of a scalar")
    if not -r <= axis < r:
        raise ValueError("axis %d out of range for rank %d" % (axis, r))
    axis = axis + r if axis < 0 else axis
    d = x.shape[axis]
    if split is None:
        parts = [np.take(x, [k], axis=axis) for k in range(d)]
        return parts if keepdims else [np.squeeze(p, axis=axis) for p in parts]
    if split.dtype not in (np.int32, np.int64):
        raise ValueError("split must be int32 or int64, got %s" % split.dtype)
    if split.ndim == 0:
        size = int(split)
        if size <= 0:
            raise ValueError("split %d is not positive" % size)
        sizes = [size] * (d // size) + ([d % size] if d % size else [])
    elif split.ndim == 1:
        sizes = [int(s) for s in split]
        if any(s < 0 for s in sizes) or sum(sizes) != d:
            raise ValueError("split %s does not sum to the axis length %d" % (sizes, d))
        if not sizes:
            raise ValueError("split is empty")
    else:
        raise ValueError("split must be a scalar or 1-D, got rank %d" % split.ndim)
    bounds = np.cumsum([0] + sizes)
    return [np.take(x, range(bounds[k], bounds[k + 1]), axis=axis) for k in range(len(sizes))]


def tensor_to_array(t):
    """An initializer as numpy; strings as an object array of their bytes (numpy_helper would
    decode them as UTF-8 into numpy str, dropping trailing NULs)."""
    if t.data_type == TensorProto.STRING:
        array = np.empty(len(t.string_data), dtype=object)
        array[:] = list(t.string_data)
        return array.reshape(tuple(t.dims))
    return numpy_helper.to_array(t)


def lossy(a, loss):
    """The array as a copy that loses what `loss` names (see the module's docstring)."""
    if isinstance(a, list):
        return [lossy(t, loss) for t in a]
    if not isinstance(a, np.ndarray) or a.dtype.kind not in "fc":
        return a
    if a.dtype.kind == "c":
        out = a.copy()
        out.real = lossy(np.ascontiguousarray(a.real), loss)
        out.imag = lossy(np.ascontiguousarray(a.imag), loss)
        return out
    a = a.copy()
    if loss == "negative_zero":
        a[a == 0] = 0
    elif loss == "nan":
        a[np.isnan(a)] = np.nan
    elif loss == "subnormal":
        tiny = np.finfo(a.dtype).tiny
        flush = (a != 0) & (np.abs(a) < tiny)
        a[flush] = np.copysign(np.zeros_like(a[flush]), a[flush])
    elif loss == "scale" and a.dtype in (np.float32, np.float64):
        finite = np.isfinite(a)
        a[finite] = a[finite] * a.dtype.type(1 + 1e-5)
    elif loss == "float16" and a.dtype == np.float16:
        bits = a.view(np.uint16)
        finite = (bits & 0x7C00) != 0x7C00
        bits[finite] &= np.uint16(0xFFF8)
    return a


class NumpyBackendRep(BackendRep):
    def __init__(self, model):
        super().__init__()
        self.graph = model.graph
        for node in self.graph.node:
            if node.op_type not in OPS or node.domain not in ("", "ai.onnx"):
                raise NotImplementedError("operator %s is not supported" % node.op_type)

    def run(self, inputs, **kwargs):
        env = {t.name: tensor_to_array(t) for t in self.graph.initializer}
        names = [i.name for i in self.graph.input if i.name not in env]
        env.update(zip(names, inputs))
        for node in self.graph.node:
            args = [env[name] if name else None for name in node.input]
            while args and args[-1] is None:
                args.pop()  # an absent trailing optional input takes its default
            attrs = {a.name: a.i for a in node.attribute}
            result = OPS[node.op_type](*args, **attrs)
            env[node.output[0]] = result
        outputs = tuple(env[o.name] for o in self.graph.output)
        loss = os.environ.get("SEQCONF_LOSSY_COPY")
        return tuple(lossy(o, loss) for o in outputs) if loss else outputs


OPS = {
    "SequenceAt": sequence_at,
    "SequenceInsert": sequence_insert,
    "SequenceErase": sequence_erase,
    "SequenceConstruct": sequence_construct,
    "SequenceLength": lambda seq: np.array(len(seq), dtype=np.int64),
    "SplitToSequence": split_to_sequence,
}


class NumpyBackend(Backend):
    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        return NumpyBackendRep(model)

    @classmethod
    def supports_device(cls, device):
        return device == "CPU"
