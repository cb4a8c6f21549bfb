#!/usr/bin/python3
"""A Python ONNX backend as the reference's host (`--host 'process=... adapter.py module:Class'`),
on an exported folder of two data sets the backend answers on one only; and a host that crashes.

The model (x: float[N]): r = Relu(x); s = SequenceConstruct(r); s2 = SequenceInsert(s, x,
SequenceLength(s)); y = SequenceAt(s2, -1). SequenceInsert's position n appends, so y is x
whatever Relu gives; the framework's y is x. The backend here runs Relu ("y = max(0, x)",
computed with numpy) on tensors of three elements and refuses any other: data set 0 (three
elements) is judged, data set 1 (two) is not.
  - the reference with that host: pass, 1 of 2 data sets judged, Relu-14 delegated to the
    adapter's backend;
  - the seeded defect insert.at_length_goes_front (position n inserts at the front, so y is
    Relu(x)) with that host: fail on test_data_set_0, although data set 1 is a gap;
  - both again with --isolate: the same verdicts (the worker makes the same host);
  - a host that dies on every request (tests/hardening/hostile_runtime.py segfault): not judged
    with reason host_rejected, the run goes on to its report and exits 0;
  - a backend that runs a must-reject corpus case and returns no output: the adapter's failure
    afterwards (kind `adapter`) is fail / accepted_invalid, not a rejection.

  python_host_test.py SEQCONF ROOT WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

seqconf, root, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
models = os.path.join(work, "models")
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


# The backend, as a module on PYTHONPATH for the adapter.
os.makedirs(work)
with open(os.path.join(work, "three_relu.py"), "w") as f:
    f.write('''"""An ONNX backend that runs one Relu node on three elements."""
import numpy as np
from onnx.backend.base import Backend, BackendRep

__version__ = "1"


class Rep(BackendRep):
    def __init__(self, model):
        self.model = model

    def run(self, inputs, **kwargs):
        (node,) = self.model.graph.node
        if node.op_type != "Relu":
            raise NotImplementedError(node.op_type + " is not supported")
        (x,) = inputs
        if x.size != 3:
            raise ValueError("this backend runs Relu on three elements only")
        return [np.maximum(x, 0).astype(x.dtype)]


class ThreeRelu(Backend):
    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        return Rep(model)
''')

F = TensorProto.FLOAT
graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"]),
     helper.make_node("SequenceConstruct", ["r"], ["s"]),
     helper.make_node("SequenceLength", ["s"], ["n"]),
     helper.make_node("SequenceInsert", ["s", "x", "n"], ["s2"]),
     helper.make_node("Constant", [], ["last"], value=helper.make_tensor("v", TensorProto.INT64, [], [-1])),
     helper.make_node("SequenceAt", ["s2", "last"], ["y"])],
    "relu_then_append", [helper.make_tensor_value_info("x", F, ["N"])],
    [helper.make_tensor_value_info("y", F, ["N"])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                          producer_name="python_host_test")
model.ir_version = 8
folder = os.path.join(models, "relu_then_append")
os.makedirs(folder)
onnx.save(model, os.path.join(folder, "model.onnx"))
for k, x in enumerate([np.array([-1.5, 0, 2.25], np.float32), np.array([-4, 8], np.float32)]):
    ds = os.path.join(folder, "test_data_set_%d" % k)
    os.makedirs(ds)
    with open(os.path.join(ds, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(ds, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "y").SerializeToString())  # the program's y is x

adapter = os.path.join(root, "adapters/onnx-backend-python/adapter.py")
host = "process=/usr/bin/python3 %s three_relu:ThreeRelu" % adapter
env = dict(os.environ, PYTHONPATH=work)


def run(name, runtime, host_spec, *extra):
    report = os.path.join(work, name + ".json")
    r = subprocess.run([seqconf, "run", "--runtime", runtime, "--source", "exported", "--exported",
                        models, "--host", host_spec, "--no-expectations", "--report", report,
                        *extra], capture_output=True, text=True, env=env, timeout=600)
    if not os.path.exists(report):
        check(False, f"{name}: a report is written (exit {r.returncode}: {r.stderr[-500:]})")
        return r.returncode, {}
    with open(report) as f:
        cases = json.load(f)["cases"]
    check(len(cases) == 1, f"{name}: one case ({len(cases)})")
    return r.returncode, cases[0] if cases else {}


for iso in ([], ["--isolate"]):
    tag = "isolated" if iso else "in-process"
    rc, c = run("reference" + "".join(iso), "reference", host, *iso)
    check(rc == 0 and c.get("status") == "pass",
          f"reference, {tag}: pass (exit {rc}, {c.get('status')} {c.get('reason')}: {c.get('message')})")
    check(c.get("data_sets") == {"total": 2, "judged": 1},
          f"reference, {tag}: 1 of 2 data sets judged ({c.get('data_sets')})")
    check(c.get("delegated", {}).get("ops", {}).get("Relu-14", 0) >= 1 and
          c.get("delegated", {}).get("host", "").startswith("ThreeRelu"),
          f"reference, {tag}: Relu-14 delegated to the Python backend ({c.get('delegated')})")
    check(c.get("exported", {}).get("exporter", {}).get("status") == "pass",
          f"reference, {tag}: the exporter passes on the data set judged ({c.get('exported')})")
    rc, c = run("seeded" + "".join(iso), "seeded=insert.at_length_goes_front", host, *iso)
    check(c.get("status") == "fail" and c.get("reason") == "value_mismatch" and
          c.get("message", "").startswith("test_data_set_0"),
          f"seeded defect, {tag}: charged on the data set judged ({c.get('status')} "
          f"{c.get('reason')}: {c.get('message')})")

hostile = "process=/usr/bin/python3 %s segfault" % os.path.join(root, "tests/hardening/hostile_runtime.py")
rc, c = run("hostile", "reference", hostile)
check(rc == 0 and c.get("status") == "not_judged" and c.get("reason") == "host_rejected",
      f"a host that crashes: not judged, host_rejected, exit 0 (exit {rc}, {c.get('status')} "
      f"{c.get('reason')}: {c.get('message')})")

# Whether the host is the runtime under test is told by the runtime itself: ONNX Runtime as host
# and as runtime under test (the default library) is; the Python backend as host beside ONNX
# Runtime under test is not.
for name, host_spec, same in (("ort-host", "", True), ("python-host", host, False)):
    report = os.path.join(work, name + ".json")
    args = [seqconf, "run", "--runtime", "onnxruntime", "--source", "exported", "--exported",
            models, "--no-expectations", "--report", report]
    if host_spec:
        args += ["--host", host_spec]
    subprocess.run(args, capture_output=True, env=env, timeout=600)
    with open(report) as f:
        delegation = json.load(f).get("delegation", {})
    check(delegation.get("host_is_runtime_under_test") is same,
          f"{name}: the host is the runtime under test: {same} ({delegation})")

# A backend that runs whatever it is given and returns no output: on a must-reject case (a
# SequenceAt whose position is a float, position_type) it accepted the model, and the adapter's
# failure to write the answer afterwards is not the backend's rejection.
with open(os.path.join(work, "runs_anything.py"), "w") as f:
    f.write('''"""An ONNX backend that runs any model and returns nothing."""
from onnx.backend.base import Backend, BackendRep


class Rep(BackendRep):
    def run(self, inputs, **kwargs):
        return []


class RunsAnything(Backend):
    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        return Rep()
''')
case = "corpus/SequenceAt/position=0/ptype=float/dtype=float/n=5/context=all_constant"
report = os.path.join(work, "accepts.json")
r = subprocess.run([seqconf, "run", "--runtime",
                    "process=/usr/bin/python3 %s runs_anything:RunsAnything" % adapter,
                    "--source", "corpus", "--filter", case, "--no-expectations",
                    "--report", report], capture_output=True, text=True, env=env, timeout=600)
with open(report) as f:
    c = json.load(f)["cases"][0]
check(c["status"] == "fail" and c["reason"] == "accepted_invalid" and
      "it ran the model, then its answer could not be read" in c["message"],
      f"a must-reject case run by the backend, then the adapter failed: accepted_invalid "
      f"({c['status']} {c['reason']}: {c['message']})")

print(f"{len(fails)} failure(s)")
sys.exit(1 if fails else 0)
