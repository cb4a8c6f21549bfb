#!/usr/bin/python3
"""Writes fixtures exported by torch.onnx from the list programs of programs.py.

    /usr/bin/python3 generators/exported/generate.py --out DIR

For each program and each opset 11..17: DIR/<program>/opset=<N>/{model.onnx, case.json,
test_data_set_K/{input_I.pb, output_I.pb}}, and DIR/catalog.json listing every program with
its source and, per opset, the folder or the exporter's refusal. The expected outputs are
eager PyTorch's: the scripted module run by the TorchScript interpreter. The output is the
same, byte for byte, on every run.
"""

import argparse
import inspect
import io
import json
import os
import re
import shutil
import sys
import textwrap
import time
import warnings

import numpy as np
import onnx
from onnx import numpy_helper

import torch

sys.dont_write_bytecode = True  # leave no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402

OPSETS = list(range(11, 18))
FIVE = ("SequenceAt", "SequenceErase", "SequenceInsert", "SequenceMap", "SplitToSequence")
SEQUENCE_OPS = set(FIVE) | {"ConcatFromSequence", "SequenceConstruct", "SequenceEmpty",
                            "SequenceLength"}


def dumps(obj):
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def source_of(module_class):
    return textwrap.dedent(inspect.getsource(module_class.forward))


def op_types(graph, into):
    """Every op_type of graph and of its subgraphs (attributes of type GRAPH and GRAPHS)."""
    for node in graph.node:
        into.append(node.op_type)
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                op_types(attr.g, into)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for g in attr.graphs:
                    op_types(g, into)
    return into


def refusal_message(exc):
    """The first lines of an exception's message, without paths of this machine."""
    text = "%s: %s" % (type(exc).__name__, exc)
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    kept = []
    for line in lines[:3]:
        kept.append(line)
        if len(" ".join(kept)) > 240:
            break
    message = " ".join(kept)
    # No absolute paths: keep a file's name only.
    message = re.sub(r"(/[^\s:'\"]+)+/([^/\s:'\"]+)", r"\2", message)
    message = re.sub(r"\s+", " ", message).strip()
    if len(message) > 400:
        message = message[:397] + "..."
    return message


def strip_model(model):
    """Drops what could differ between runs or machines: doc strings and metadata."""
    model.doc_string = ""
    del model.metadata_props[:]

    def graph_docs(graph):
        graph.doc_string = ""
        for node in graph.node:
            node.doc_string = ""
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    graph_docs(attr.g)
                elif attr.type == onnx.AttributeProto.GRAPHS:
                    for g in attr.graphs:
                        graph_docs(g)

    graph_docs(model.graph)


def to_numpy(tensor):
    return tensor.detach().cpu().contiguous().numpy()


def tensor_proto(value, name):
    if isinstance(value, torch.Tensor):
        array = to_numpy(value)
    elif isinstance(value, bool):
        array = np.array(value, dtype=np.bool_)
    elif isinstance(value, int):
        array = np.array(value, dtype=np.int64)
    elif isinstance(value, float):
        array = np.array(value, dtype=np.float32)
    else:
        raise TypeError("cannot write %r as a tensor" % type(value))
    return numpy_helper.from_array(array, name=name)


def sequence_proto(values, name):
    seq = onnx.SequenceProto()
    seq.name = name
    seq.elem_type = onnx.SequenceProto.TENSOR
    for v in values:
        if not isinstance(v, torch.Tensor):
            raise TypeError("a list element is %r, not a tensor" % type(v))
        seq.tensor_values.append(numpy_helper.from_array(to_numpy(v)))
    return seq


def flatten_outputs(result):
    """forward's result as the list of its outputs (a tuple is several outputs)."""
    if isinstance(result, tuple):
        return list(result)
    return [result]


def same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) == type(b) and a == b


def value_proto(value, graph_output):
    """One output file's message: a SequenceProto for a sequence output, else a TensorProto.

    Eager's element type must be the one the graph declares: a file of another type could not
    be loaded as the model's output, so such a program is an error of the catalog."""
    is_sequence = graph_output.type.WhichOneof("value") == "sequence_type"
    if is_sequence:
        if not isinstance(value, list):
            raise TypeError("graph output %s is a sequence, eager's is %r"
                            % (graph_output.name, type(value)))
        proto = sequence_proto(value, graph_output.name)
        declared = graph_output.type.sequence_type.elem_type.tensor_type.elem_type
        got = {t.data_type for t in proto.tensor_values}
    else:
        if isinstance(value, list):
            raise TypeError("graph output %s is a tensor, eager's is a list" % graph_output.name)
        proto = tensor_proto(value, graph_output.name)
        declared = graph_output.type.tensor_type.elem_type
        got = {proto.data_type}
    if declared and got - {declared}:
        raise TypeError("graph output %s declares element type %d, eager's is %s"
                        % (graph_output.name, declared, sorted(got)))
    return proto


def export(scripted, program, args, opset):
    f = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(scripted, args, f, opset_version=opset,
                          input_names=program.input_names, output_names=program.output_names,
                          dynamic_axes=program.dynamic_axes or None, do_constant_folding=True)
    model = onnx.load_from_string(f.getvalue())
    strip_model(model)
    return model


def write_case(out_dir, program, source, opset, model, datasets, results):
    folder = os.path.join(out_dir, program.name, "opset=%d" % opset)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())

    initializers = {init.name for init in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    arg_index = {name: k for k, name in enumerate(program.input_names)}
    for i in graph_inputs:
        if i.name not in arg_index:
            raise RuntimeError("%s: graph input %s is none of the program's inputs"
                               % (program.name, i.name))
    graph_outputs = list(model.graph.output)
    if len(graph_outputs) != len(results[0]):
        raise RuntimeError("%s opset %d: %d graph outputs, eager has %d"
                           % (program.name, opset, len(graph_outputs), len(results[0])))

    for k, (args, outs) in enumerate(zip(datasets, results)):
        data_dir = os.path.join(folder, "test_data_set_%d" % k)
        os.makedirs(data_dir, exist_ok=True)
        for i, gi in enumerate(graph_inputs):
            proto = tensor_proto(args[arg_index[gi.name]], gi.name)
            with open(os.path.join(data_dir, "input_%d.pb" % i), "wb") as f:
                f.write(proto.SerializeToString())
        for i, (go, value) in enumerate(zip(graph_outputs, outs)):
            proto = value_proto(value, go)
            with open(os.path.join(data_dir, "output_%d.pb" % i), "wb") as f:
                f.write(proto.SerializeToString())

    ops = sorted(set(op_types(model.graph, [])))
    seq_ops = sorted(o for o in ops if o in SEQUENCE_OPS)
    five = [o for o in seq_ops if o in FIVE]
    try:
        onnx.checker.check_model(model)
        check = "pass"
    except Exception:  # noqa: BLE001 - any checker failure is a "fail"
        check = "fail"

    dtype = programs.ONNX_DTYPE_NAMES[program.dtype]
    case = {
        "id": "%s/opset=%d" % (program.name, opset),
        "op": five[0] if len(five) == 1 else "model",
        "opset": opset,
        "dtype": dtype,
        "expectation": {"kind": "outputs"},
        "producer": {
            "framework": "pytorch",
            "framework_version": torch.__version__,
            "exporter": "torch.onnx",
            "exporter_version": torch.__version__,
            "opset": opset,
            "program": program.name,
            "idiom": program.idiom,
            "source": source,
        },
        "sequence_ops": seq_ops,
        "ops_used": ops,
        "static": {"check_model": check},
        "params": {"program": program.name, "opset": str(opset), "idiom": program.idiom,
                   "dtype": dtype},
        "inputs": [gi.name for gi in graph_inputs],
        "outputs": [go.name for go in graph_outputs],
    }
    with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as f:
        f.write(dumps(case))
    return case


def run_program(out_dir, program):
    torch.manual_seed(0)
    source = source_of(program.module)
    eager = program.module().eval()
    scripted = torch.jit.script(program.module().eval())
    datasets = program.make_inputs(program.dtype)
    results = []
    with torch.no_grad():
        for args in datasets:
            got = flatten_outputs(scripted(*args))
            plain = flatten_outputs(eager(*args))
            if not same(got, plain):
                raise RuntimeError("%s: the scripted module and the Python module disagree"
                                   % program.name)
            results.append(got)

    entry = {
        "program": program.name,
        "idiom": program.idiom,
        "dtype": programs.ONNX_DTYPE_NAMES[program.dtype],
        "source": source,
        "inputs": list(program.input_names),
        "outputs": list(program.output_names),
        "data_sets": len(datasets),
        "opsets": {},
    }
    for opset in OPSETS:
        try:
            model = export(scripted, program, datasets[0], opset)
        except Exception as exc:  # noqa: BLE001 - every refusal is recorded
            entry["opsets"][str(opset)] = {"status": "refused", "error": refusal_message(exc)}
            continue
        case = write_case(out_dir, program, source, opset, model, datasets, results)
        entry["opsets"][str(opset)] = {
            "status": "exported",
            "folder": "%s/opset=%d" % (program.name, opset),
            "sequence_ops": case["sequence_ops"],
            "check_model": case["static"]["check_model"],
        }
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--out", required=True, help="the folder to write (replaced)")
    parser.add_argument("--only", action="append", default=[],
                        help="write only this program (repeatable; for a look at one idiom)")
    args = parser.parse_args()

    start = time.monotonic()
    torch.set_num_threads(1)
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)

    selected = [p for p in programs.PROGRAMS if not args.only or p.name in args.only]
    catalog = []
    for program in selected:
        catalog.append(run_program(args.out, program))

    exported = sum(1 for e in catalog for o in e["opsets"].values() if o["status"] == "exported")
    refused = sum(1 for e in catalog for o in e["opsets"].values() if o["status"] == "refused")
    doc = {
        "framework": "pytorch",
        "framework_version": torch.__version__,
        "exporter": "torch.onnx",
        "onnx_version": onnx.__version__,
        "opsets": OPSETS,
        "programs": catalog,
        "counts": {"programs": len(catalog), "exported": exported, "refused": refused},
    }
    with open(os.path.join(args.out, "catalog.json"), "w", encoding="utf-8") as f:
        f.write(dumps(doc))
    print("%d programs, %d models exported, %d refused, %.1f s"
          % (len(catalog), exported, refused, time.monotonic() - start), file=sys.stderr)


if __name__ == "__main__":
    main()
