"""A numpy ONNX backend with graph machinery, for the test of machinery attribution.

MachineryBackend (an onnx.backend.base.Backend) runs numpy_backend's sequence operators (with its
deliberate SequenceAt departure: a negative position is clamped to 0) and the graph machinery
around them: Loop, If, Scan and SequenceMap with their subgraphs, which read the enclosing scopes,
plus SequenceEmpty, ConcatFromSequence, Identity, Add, Less, Gather and Constant. Any other
operator raises NotImplementedError.

SEQCONF_MACHINERY_DEFECTS in the environment (comma-separated) plants defects in the machinery,
as a backend with a bug there would have them:
  loop_cond_omitted  a Loop whose condition input is omitted never runs its body;
  scan_concat        a Loop's scan outputs of rank >= 1 are concatenated on their first axis
                     ([3, 4] per iteration over 2 iterations gives [6, 4], not [2, 3, 4]);
  body_outer_scope   a SequenceMap body cannot see values of the enclosing graphs.
"""
import os

import numpy as np
from onnx import helper, mapping

import numpy_backend
from numpy_backend import NumpyBackend, tensor_to_array

__version__ = "0.1"


def defects():
    return set(filter(None, os.environ.get("SEQCONF_MACHINERY_DEFECTS", "").split(",")))


class Outputs(tuple):
    """The outputs of an operator with several (a list is one sequence value)."""


def attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def declared_empty(value_info):
    """An empty scan output: no iteration, with the declared slice shape on a new first axis."""
    t = value_info.type.tensor_type
    dims = [d.dim_value for d in t.shape.dim]
    return np.zeros([0] + dims, dtype=mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type])


class Scope:
    def __init__(self, parent=None):
        self.values, self.parent = {}, parent

    def __getitem__(self, name):
        s = self
        while s is not None:
            if name in s.values:
                return s.values[name]
            s = s.parent
        raise KeyError("'%s' is not visible in this graph" % name)

    def __setitem__(self, name, value):
        self.values[name] = value


def run_graph(graph, parent, inputs):
    scope = Scope(parent)
    inits = {t.name for t in graph.initializer}
    for t in graph.initializer:
        scope[t.name] = tensor_to_array(t)
    names = [i.name for i in graph.input if i.name not in inits]
    for name, value in zip(names, inputs):
        scope[name] = value
    for node in graph.node:
        run_node(node, scope)
    return [scope[o.name] for o in graph.output]


def run_node(node, scope):
    args = [scope[name] if name else None for name in node.input]
    attrs = attributes(node)
    if node.op_type in MACHINERY:
        result = MACHINERY[node.op_type](node, scope, args, attrs)
    elif node.op_type in OPS:
        while args and args[-1] is None:
            args.pop()
        result = OPS[node.op_type](*args, **attrs)
    else:
        raise NotImplementedError("operator %s is not supported" % node.op_type)
    results = result if isinstance(result, Outputs) else (result,)
    for name, value in zip(node.output, results):
        if name:
            scope[name] = value


def loop(node, scope, args, attrs):
    body = attrs["body"]
    args += [None] * (2 - len(args))
    trip = None if args[0] is None else int(args[0])
    cond = True if args[1] is None else bool(args[1])
    if args[1] is None and "loop_cond_omitted" in defects():
        trip = 0
    carried = list(args[2:])
    scans = [[] for _ in range(len(body.output) - 1 - len(carried))]
    i = 0
    while cond and (trip is None or i < trip):
        out = run_graph(body, scope, [np.array(i, dtype=np.int64), np.array(cond)] + carried)
        cond = bool(out[0])
        carried = out[1:1 + len(carried)]
        for k, v in enumerate(out[1 + len(carried):]):
            scans[k].append(v)
        i += 1
    results = list(carried)
    for k, values in enumerate(scans):
        if not values:
            results.append(declared_empty(body.output[1 + len(carried) + k]))
        elif "scan_concat" in defects() and values[0].ndim >= 1:
            results.append(np.concatenate(values, axis=0))
        else:
            results.append(np.stack(values))
    return Outputs(results)


def if_(node, scope, args, attrs):
    branch = attrs["then_branch"] if bool(args[0]) else attrs["else_branch"]
    return Outputs(run_graph(branch, scope, []))


def scan(node, scope, args, attrs):
    body, m = attrs["body"], attrs["num_scan_inputs"]
    n = len(args) - m
    k = len(body.output) - n
    in_axes = attrs.get("scan_input_axes", [0] * m)
    in_dirs = attrs.get("scan_input_directions", [0] * m)
    out_axes = attrs.get("scan_output_axes", [0] * k)
    out_dirs = attrs.get("scan_output_directions", [0] * k)
    state, xs = list(args[:n]), args[n:]
    length = xs[0].shape[in_axes[0]]
    scans = [[] for _ in range(k)]
    for t in range(length):
        elems = [np.asarray(np.take(x, length - 1 - t if d else t, axis=a))
                 for x, a, d in zip(xs, in_axes, in_dirs)]
        out = run_graph(body, scope, state + elems)
        state = out[:n]
        for j, v in enumerate(out[n:]):
            scans[j].append(v)
    results = list(state)
    for j, values in enumerate(scans):
        if out_dirs[j]:
            values = values[::-1]
        results.append(np.stack(values, axis=out_axes[j]))
    return Outputs(results)


def sequence_map(node, scope, args, attrs):
    body = attrs["body"]
    n = len(args[0])
    # "a sample will be extracted from the input sequence(s) at the i-th position": a shorter
    # sequence has none past its end; a longer one is read for its first n samples (the lenient
    # reading of "should have the same number of samples", ambiguity sequence_map_lengths).
    if any(isinstance(a, list) and len(a) < n for a in args[1:]):
        raise ValueError("SequenceMap: a sequence input shorter than the first")
    parent = None if "body_outer_scope" in defects() else scope
    outs = [[] for _ in body.output]
    for i in range(n):
        sample = [a[i] if isinstance(a, list) else a for a in args]
        for j, v in enumerate(run_graph(body, parent, sample)):
            outs[j].append(v)
    return Outputs(outs)


def concat_from_sequence(seq, axis, new_axis=0):
    return np.stack(seq, axis=axis) if new_axis else np.concatenate(seq, axis=axis)


def constant(value):
    return tensor_to_array(value) if hasattr(value, "data_type") else np.array(value)


MACHINERY = {"Loop": loop, "If": if_, "Scan": scan, "SequenceMap": sequence_map}
OPS = dict(numpy_backend.OPS)
OPS.update({
    "SequenceEmpty": lambda dtype=1: [],
    "ConcatFromSequence": concat_from_sequence,
    "Identity": lambda x: x.copy() if isinstance(x, np.ndarray) else list(x),
    "Add": lambda a, b: np.asarray(np.add(a, b)),
    "Less": lambda a, b: np.asarray(np.less(a, b)),
    "Gather": lambda data, indices, axis=0: np.asarray(np.take(data, indices, axis=axis)),
    "Constant": constant,
})


class MachineryBackendRep:
    def __init__(self, model):
        self.graph = model.graph

    def run(self, inputs, **kwargs):
        return tuple(run_graph(self.graph, None, list(inputs)))


class MachineryBackend(NumpyBackend):
    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        return MachineryBackendRep(model)

