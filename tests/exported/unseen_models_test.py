#!/usr/bin/python3
"""Exported models the suite has never seen, in plain ONNX backend layout (model.onnx and
test_data_set_0, no case.json), given with `seqconf run --exported DIR`, get the three verdicts.

Two PyTorch programs that are not in the catalog are scripted and exported here, with eager
PyTorch's outputs as the expected values:
  - rows_of_wide: list(x.unbind(1)) of a [2, 3, 5] tensor. torch.onnx writes
    SplitToSequence(split = scalar 1, keepdims = 0); the spec ignores keepdims when split is
    given, so under the spec each element is [2, 1, 5] where PyTorch gives [2, 5]: the exporter
    verdict is fail / shape_mismatch, and the reference's end-to-end verdict the same.
  - insert_then_cat: lst = list(x.split([1, 2], 0)); lst.insert(1, y); torch.cat(lst, 0). The
    model means what PyTorch computes: every verdict passes on the reference.
  - dense_around_list: a list filled with relu(x @ w), x.sum(0) and ceil(x) % 3, then
    concatenated: MatMul, Relu, ReduceSum, Ceil and Floor (torch.onnx writes a float % as
    x - floor(x / 3) * 3), which the reference does not implement,
    run on its host (ONNX Runtime). The model means what PyTorch computes: every verdict passes,
    and the report names the delegated operators. With --no-host the case is not judged: never
    a must-reject, never the exporter's departure.
  - nonzero_rows: list(torch.nonzero(x).unbind(1)). NonZero runs on the host, and behind it the
    exporter's unbind construct departs as in rows_of_wide: fail / shape_mismatch.

  unseen_models_test.py SEQCONF SCHEMA WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys
from typing import List

try:
    import torch
    from torch import Tensor
except ImportError:
    print("skip: python3-torch is not installed")
    sys.exit(77)
import onnx
from onnx import numpy_helper

seqconf, schema_path, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
models = os.path.join(work, "models")


class RowsOfWide(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(1))


class InsertThenCat(torch.nn.Module):
    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        lst = list(x.split([1, 2], 0))
        lst.insert(1, y)
        return torch.cat(lst, 0)


class DenseAroundList(torch.nn.Module):
    def forward(self, x: Tensor, w: Tensor) -> Tensor:
        lst: List[Tensor] = []
        lst.append(torch.relu(x @ w))
        lst.append(x.sum(0, keepdim=True))
        lst.append(torch.ceil(x) % 3)
        return torch.cat(lst, 0)


class NonzeroRows(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(torch.nonzero(x).unbind(1))


def write(name, module, inputs, input_names):
    folder = os.path.join(models, name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data)
    scripted = torch.jit.script(module)
    torch.onnx.export(scripted, tuple(inputs), os.path.join(folder, "model.onnx"),
                      opset_version=13, input_names=input_names, output_names=["out"])
    result = scripted(*inputs)
    for k, (t, n) in enumerate(zip(inputs, input_names)):
        with open(os.path.join(data, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(t.numpy(), n).SerializeToString())
    if isinstance(result, list):
        out = numpy_helper.from_list([t.numpy() for t in result], "out")
    else:
        out = numpy_helper.from_array(result.numpy(), "out")
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(out.SerializeToString())


write("rows_of_wide", RowsOfWide(),
      [torch.arange(30, dtype=torch.float32).reshape(2, 3, 5)], ["x"])
write("insert_then_cat", InsertThenCat(),
      [torch.arange(6, dtype=torch.float32).reshape(3, 2), torch.full((1, 2), -1.0)], ["x", "y"])

write("dense_around_list", DenseAroundList(),
      [torch.tensor([[0.5, -1.25], [2.0, 0.75]]), torch.tensor([[1.0, -2.0], [0.5, 3.0]])],
      ["x", "w"])
write("nonzero_rows", NonzeroRows(), [torch.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])], ["x"])

report = os.path.join(work, "report.json")
p = subprocess.run([seqconf, "run", "--source", "exported", "--exported", models,
                    "--report", report], capture_output=True, text=True)
print(p.stdout[-2000:])
failures = []


def check_schema(r, what):
    try:
        import jsonschema
    except ImportError:
        print("note: python3-jsonschema is not installed; the report is not validated")
        return
    with open(schema_path) as f:
        errors = list(jsonschema.Draft202012Validator(json.load(f)).iter_errors(r))
    if errors:
        failures.append(f"{what} breaks the schema: {errors[0].message}")


with open(report) as f:
    r = json.load(f)
check_schema(r, "the report")

cases = {c["id"]: c for c in r["cases"]}
expected = {
    "exported/rows_of_wide": ("fail", "shape_mismatch"),
    "exported/insert_then_cat": ("pass", ""),
    "exported/dense_around_list": ("pass", ""),
    "exported/nonzero_rows": ("fail", "shape_mismatch"),
}
for case_id, (status, reason) in expected.items():
    c = cases.get(case_id)
    if c is None:
        failures.append(f"{case_id}: not in the report (ids: {sorted(cases)})")
        continue
    x = c.get("exported")
    if x is None:
        failures.append(f"{case_id}: no three verdicts")
        continue
    print(case_id, "runtime", c["status"], "exporter", x["exporter"]["status"],
          x["exporter"]["reason"], "end to end", x["end_to_end"]["status"])
    if c["status"] != "pass":
        failures.append(f"{case_id}: the reference departs from its own reading: {c['message']}")
    if (x["exporter"]["status"], x["exporter"]["reason"]) != (status, reason):
        failures.append(f"{case_id}: exporter verdict {x['exporter']['status']}/"
                        f"{x['exporter']['reason']}, expected {status}/{reason}: "
                        f"{x['exporter']['message']}")
    if x["end_to_end"]["status"] != status:
        failures.append(f"{case_id}: end-to-end verdict {x['end_to_end']['status']}, "
                        f"expected {status}")
    if status != "pass" and x["end_to_end_layer"] != "exporter":
        failures.append(f"{case_id}: end-to-end layer {x['end_to_end_layer']!r}, expected exporter")
delegated = r.get("delegation", {}).get("ops", {})
for op in ("MatMul-13", "Relu-13", "ReduceSum-13", "Ceil-13", "Floor-13", "NonZero-13"):
    if op not in delegated:
        failures.append(f"{op} is not among the delegated operators: {r.get('delegation')}")
if cases.get("exported/dense_around_list", {}).get("comparison") != "tolerance rtol=0.001 atol=1e-07":
    failures.append("dense_around_list computes: it compares within the tolerance")
if cases.get("exported/insert_then_cat", {}).get("comparison") != "exact":
    failures.append("insert_then_cat only moves values: it compares bit for bit")
if r.get("exported", {}).get("cases") != 4:
    failures.append(f"the report's exported summary: {r.get('exported')}")
# Without case.json the exporter departure is unlisted: the run says so with exit code 1.
if p.returncode != 1:
    failures.append(f"exit code {p.returncode}, expected 1 (an unlisted exporter departure)")
# Without a host the reference's gaps are not judged, never read as the spec's rejection.
report_no_host = os.path.join(work, "report-no-host.json")
subprocess.run([seqconf, "run", "--source", "exported", "--exported", models, "--no-host",
                "--report", report_no_host], capture_output=True, text=True)
with open(report_no_host) as f:
    r = json.load(f)
check_schema(r, "--no-host: the report")
for c in r["cases"]:
    gap = c["id"] in ("exported/dense_around_list", "exported/nonzero_rows")
    if gap and (c["status"], c["reason"]) != ("not_judged", "reference_not_supported"):
        failures.append(f"--no-host: {c['id']}: {c['status']}/{c['reason']}, expected "
                        f"not_judged/reference_not_supported: {c['message']}")
    if gap and c["exported"]["exporter"]["status"] != "not_judged":
        failures.append(f"--no-host: {c['id']}: exporter verdict {c['exported']['exporter']}")
if r["summary"].get("not_judged") != 2:
    failures.append(f"--no-host: summary {r['summary']}")
if any(i in ("exported/dense_around_list", "exported/nonzero_rows")
       for d in r.get("exporter_departures", []) + r.get("departures", []) for i in d["cases"]):
    failures.append("--no-host: a gap of the reference became an exporter departure")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
