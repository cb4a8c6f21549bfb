#!/usr/bin/python3
"""ONNX's strict type check as a cross-check of the reference's static pass.

Each model below breaks, or keeps, a rule on types of the sequence operators. ONNX's shape
inference with check_type and strict_mode (the linked onnx) rejects some for a type reason; every
one it rejects must be invalid for the reference too, on every data set, whatever its inputs
("the model is invalid under the spec, whatever its inputs", the operator's own code). The
reference also rejects the same rules inside an If branch that no data set takes, where ONNX 1.12
does not look (its inference does not descend into the branches of If): those are listed as such,
and the test fails if that changes, so that the note in docs/reference.md stays true.

  strict_checker_test.py SEQCONF WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

seqconf, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
models = os.path.join(work, "models")
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


F, I64 = TensorProto.FLOAT, TensorProto.INT64


def const(name, value, dtype=I64):
    return helper.make_node("Constant", [], [name], value=helper.make_tensor("v", dtype, [], [value]))


# The nodes that read the sequence s = SequenceConstruct(x) into r (a float tensor).
RULES = {
    # SequenceAt's type constraint I: tensor(int32), tensor(int64).
    "at_float_position": (lambda p: [const(p + "pos", 0.0, F),
                                     helper.make_node("SequenceAt", [p + "s", p + "pos"], [p + "r"])], "position_type"),
    # SplitToSequence's type constraint I: tensor(int32), tensor(int64).
    "split_float_split": (lambda p: [const(p + "split", 1.0, F), const(p + "z", 0),
                                     helper.make_node("SplitToSequence", ["x", p + "split"], [p + "s2"]),
                                     helper.make_node("SequenceAt", [p + "s2", p + "z"], [p + "r"])], "split_type"),
    # SequenceInsert: "Tensor to be inserted, its data type must be same as that of input_sequence."
    "insert_int64_into_floats": (lambda p: [const(p + "i", 1), const(p + "z", 0),
                                            helper.make_node("SequenceInsert", [p + "s", p + "i"], [p + "s2"]),
                                            helper.make_node("SequenceAt", [p + "s2", p + "z"], [p + "r"])],
                                 "element_type_mismatch"),
    # The control: an int64 position.
    "at_int64_position": (lambda p: [const(p + "pos", 0),
                                     helper.make_node("SequenceAt", [p + "s", p + "pos"], [p + "r"])], None),
}


def model_of(rule, where):
    """The rule's nodes at the top of the graph, or in the then or else branch of an If on c."""
    nodes_of, _ = RULES[rule]
    inputs = [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
              helper.make_tensor_value_info("x", F, [2])]
    out = [helper.make_tensor_value_info("y", F, None)]
    if where == "top":
        nodes = [helper.make_node("SequenceConstruct", ["x"], ["s"])] + nodes_of("")
        nodes.append(helper.make_node("Identity", ["r"], ["y"]))
    else:
        reads = helper.make_graph([helper.make_node("SequenceConstruct", ["x"], ["bs"])] + nodes_of("b"),
                                  "reads", [], [helper.make_tensor_value_info("br", F, None)])
        plain = helper.make_graph([helper.make_node("Identity", ["x"], ["px"])], "plain", [],
                                  [helper.make_tensor_value_info("px", F, None)])
        then_b, else_b = (reads, plain) if where == "then" else (plain, reads)
        nodes = [helper.make_node("If", ["c"], ["y"], then_branch=then_b, else_branch=else_b)]
    g = helper.make_graph(nodes, rule + "_" + where, inputs, out)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="strict_checker_test")
    m.ir_version = 8
    return m


onnx_rejects = {}
for rule in RULES:
    for where in ("top", "then", "else"):
        name = f"{rule}_{where}"
        m = model_of(rule, where)
        try:
            onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
            onnx_rejects[name] = None
        except Exception as e:  # onnx's InferenceError
            onnx_rejects[name] = str(e).splitlines()[0]
        folder = os.path.join(models, name)
        # Data set 0 takes the then branch, data set 1 the else branch.
        for k, c in enumerate([True, False]):
            ds = os.path.join(folder, "test_data_set_%d" % k)
            os.makedirs(ds)
            x = np.array([1.5, -2], np.float32)
            for j, v in enumerate([np.array(c), x]):
                with open(os.path.join(ds, "input_%d.pb" % j), "wb") as f:
                    f.write(numpy_helper.from_array(v).SerializeToString())
            with open(os.path.join(ds, "output_0.pb"), "wb") as f:
                f.write(numpy_helper.from_array(x).SerializeToString())
        onnx.save(m, os.path.join(folder, "model.onnx"))

report = os.path.join(work, "report.json")
subprocess.run([seqconf, "run", "--runtime", "reference", "--source", "exported", "--exported", models,
                "--no-host", "--no-expectations", "--report", report], capture_output=True, timeout=600)
with open(report) as f:
    cases = {c["id"].split("/")[1]: c for c in json.load(f)["cases"]}

for rule, (_, code) in RULES.items():
    for where in ("top", "then", "else"):
        name = f"{rule}_{where}"
        c = cases.get(name, {})
        exporter = c.get("exported", {}).get("exporter", {})
        invalid = "whatever its inputs" in exporter.get("message", "") and \
            c.get("actual", "").startswith("invalid_input " + str(code))
        if code is None:
            check(c.get("status") == "pass" and exporter.get("status") == "pass" and not onnx_rejects[name],
                  f"{name}: valid for the reference and for ONNX ({c.get('status')}, {exporter})")
            continue
        # Every model ONNX rejects for a type reason is invalid for the reference.
        if onnx_rejects[name]:
            check(invalid, f"{name}: ONNX rejects it ({onnx_rejects[name]}); the reference must too "
                           f"({c.get('actual')}; {exporter.get('message')})")
        # The reference rejects the rule wherever it stands, a branch no data set takes included.
        check(invalid, f"{name}: invalid for the reference whatever its inputs, {code} "
                       f"({c.get('actual')}; {exporter.get('message')})")
        print(f"{name}: ONNX {'rejects: ' + onnx_rejects[name] if onnx_rejects[name] else 'accepts'}; "
              f"the reference: {code}")
        # ONNX 1.12 does not descend into If's branches: what the reference's note says.
        if where != "top":
            check(onnx_rejects[name] is None or onnx.__version__ != "1.12.0",
                  f"{name}: ONNX {onnx.__version__} now rejects a branch ({onnx_rejects[name]}): "
                  "update docs/reference.md")

print(f"{len(fails)} failure(s)")
sys.exit(1 if fails else 0)
