#!/usr/bin/python3
"""A runtime engineer's model with its inputs only (fixtures/user_models: model.onnx and
test_data_set_0/input_0.pb, no outputs, no case.json) is judged against the spec:

  inputs_only_test.py SEQCONF SCHEMA USER_MODELS WORKDIR

- matmul_unbind (MatMul, then SplitToSequence with a scalar split of 1 and keepdims=0): the
  reference passes it, its MatMul run on the host; ONNX Runtime departs from the spec, whose
  chunks keep the axis (keepdims "is ignored" when split is given): fail, wrong shape, in a
  SplitToSequence departure, exit 1;
- matmul_unbind_control (split omitted, where keepdims=0 applies): ONNX Runtime passes, no
  departure, exit 0;
- with no framework outputs the exporter and end-to-end verdicts are skipped, never a pass and
  never a departure; the reports validate against the report schema;
- ONNX Runtime's departure is localized, on its own values, to the SplitToSequence node (past
  the MatMul, which the reference's host runs), on the user's model and on an exported unbind
  model; no node is blamed where the runtime passes.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

seqconf, schema_path, models, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
schema = json.load(open(schema_path))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(runtime, folder):
    report = os.path.join(work, f"{runtime}-{folder}.json")
    p = subprocess.run([seqconf, "run", "--runtime", runtime, "--source", "exported",
                        "--exported", os.path.join(models, folder), "--no-expectations",
                        "--report", report], capture_output=True, text=True, timeout=300)
    r = json.load(open(report))
    jsonschema.validate(r, schema)
    check(len(r["cases"]) == 1, f"{runtime} on {folder}: one case")
    return p, r, r["cases"][0]


for runtime in ("reference", "onnxruntime"):
    for folder in ("matmul_unbind", "matmul_unbind_control"):
        p, r, c = run(runtime, folder)
        x = c.get("exported", {})
        check(x.get("exporter", {}).get("status") == "skipped",
              f"{runtime} on {folder}: the exporter verdict is skipped: {x.get('exporter')}")
        check(x.get("end_to_end", {}).get("status") == "skipped",
              f"{runtime} on {folder}: the end-to-end verdict is skipped: {x.get('end_to_end')}")
        check(not r.get("exporter_departures") and not r.get("end_to_end_departures"),
              f"{runtime} on {folder}: no exporter or end-to-end departure")
        departs = runtime == "onnxruntime" and folder == "matmul_unbind"
        if departs:
            check(p.returncode == 1, f"ONNX Runtime on {folder}: exit 1, got {p.returncode}")
            check(c["status"] == "fail" and c["reason"] == "shape_mismatch",
                  f"ONNX Runtime on {folder}: fail, shape_mismatch: {c['status']} {c['reason']}")
            check("expected shape [1,4], got [4]" in c["message"],
                  f"ONNX Runtime on {folder}: the chunks lose the axis: {c['message']}")
            # Localized on ONNX Runtime's own values: its MatMul (run on the reference's host
            # for the comparison) agrees, its SplitToSequence departs.
            loc = c.get("localization", {})
            check(loc.get("kind") == "node" and loc.get("op") == "SplitToSequence" and
                  loc.get("index") == 1 and loc.get("name") == "unbind" and
                  "expected shape [1,4], got [4]" in loc.get("message", ""),
                  f"ONNX Runtime on {folder}: localized to node 1 'unbind': {loc}")
            ops = [d["op"] for d in r["departures"]]
            check(ops == ["SplitToSequence"], f"ONNX Runtime on {folder}: one SplitToSequence "
                                              f"departure: {ops}")
        else:
            check(p.returncode == 0, f"{runtime} on {folder}: exit 0, got {p.returncode}: "
                                     f"{p.stdout[-400:]}")
            check(c["status"] == "pass", f"{runtime} on {folder}: pass: {c['message']}")
            check(not r["departures"], f"{runtime} on {folder}: no departure")
            check("localization" not in c, f"{runtime} on {folder}: no node blamed")
        if runtime == "reference":
            check(c.get("delegated", {}).get("ops", {}).get("MatMul-13", 0) >= 1,
                  f"the reference runs MatMul on its host: {c.get('delegated')}")

# The bundle of that departure carries the node alone, on ONNX Runtime's own values.
import onnx  # noqa: E402  (Debian's python3-onnx)
from onnx import numpy_helper  # noqa: E402

bundles = os.path.join(work, "bundles")
shutil.rmtree(bundles, ignore_errors=True)
p = subprocess.run([seqconf, "bundle", os.path.join(work, "onnxruntime-matmul_unbind.json"),
                    "--out", bundles], capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"bundle exits 0: {p.stderr[-400:]}")
folders = sorted(os.listdir(bundles)) if os.path.isdir(bundles) else []
check(len(folders) == 1, f"one bundle folder: {folders}")
if folders:
    node = os.path.join(bundles, folders[0], "node")
    ok = os.path.isfile(os.path.join(node, "model.onnx"))
    check(ok, "the bundle has node/model.onnx")
    if ok:
        m = onnx.load(os.path.join(node, "model.onnx"))
        check([n.op_type for n in m.graph.node] == ["SplitToSequence"],
              f"node/model.onnx is the SplitToSequence node alone: {[n.op_type for n in m.graph.node]}")
        for f in ("input_0.pb", "input_1.pb", "output_0.pb"):
            check(os.path.isfile(os.path.join(node, "test_data_set_0", f)), f"node/{f} is written")
        # Its input is the MatMul's product as ONNX Runtime computed it: x @ w.
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(node, "test_data_set_0", "input_0.pb"), "rb").read())
        y = numpy_helper.to_array(t).tolist()
        check(y == [[32.0, 38.0, 44.0, 50.0], [68.0, 83.0, 98.0, 113.0]],
              f"node/input_0.pb is x @ w as the runtime gave it: {y}")
    readme = open(os.path.join(bundles, folders[0], "README.md")).read()
    check("## The node at fault" in readme and "node 1 (SplitToSequence-13 'unbind')" in readme,
          "the bundle's README names the node at fault")

# An exported unbind model (a Constant, then SplitToSequence): ONNX Runtime's departure is
# SplitToSequence's, not the model's.
report = os.path.join(work, "unbind.json")
p = subprocess.run([seqconf, "run", "--runtime", "onnxruntime", "--source", "exported",
                    "--filter", "exported/unbind_axis1/opset=13", "--no-expectations",
                    "--report", report], capture_output=True, text=True, timeout=300)
r = json.load(open(report))
jsonschema.validate(r, schema)
loc = r["cases"][0].get("localization", {})
check(loc.get("kind") == "node" and loc.get("op") == "SplitToSequence",
      f"the unbind model's departure is localized to SplitToSequence: {loc}")
check([d["op"] for d in r["departures"]] == ["SplitToSequence"],
      f"one SplitToSequence departure: {[d['title'] for d in r['departures']]}")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
