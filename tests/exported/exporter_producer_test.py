#!/usr/bin/python3
"""The exporter's expectations file says what it accepts, on the CLI (the reference runs the
models; the unbind construct departs under the spec, "If input 'split' is specified, this
attribute is ignored.", so every unbind model's exporter verdict is fail / shape_mismatch):

  - models of a producer the file was measured on (torch.onnx 1.13 writes producer_name
    "pytorch", producer_version "1.13.0"), in a folder without case.json: the file applies by
    default, exit 0;
  - the same models as another version wrote them (producer_version "2.1.0"): no exporter
    expectations by default (the report names none, every case says why, the console says the
    file was not applied), exit 1; given with --exporter-expectations it applies, and the
    console says so, exit 0;
  - a program the unbind entry does not list (exported/unbind_* over unbind_brand_new): the run
    warns about the entry, the cases are not covered, exit 1;
  - an entry with the right status but another outcome_reason: not covered, and the console and
    the report say why, exit 1.

  exporter_producer_test.py SEQCONF SOURCE_DIR WORKDIR
"""
import json
import os
import shutil
import sys

import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

seqconf, source, work = sys.argv[1:4]
t = CliCheck(seqconf, work)
fixture = os.path.join(source, "fixtures", "exported", "unbind_axis0")
torch_onnx = os.path.join(source, "expectations", "torch-onnx.json")
opsets = sorted(os.listdir(fixture))


def folder(name, program, producer_version=None):
    """A folder of the unbind_axis0 models as program/opset=N, without case.json."""
    root = t.path(name)
    for opset in opsets:
        dst = os.path.join(root, program, opset)
        shutil.copytree(os.path.join(fixture, opset), dst)
        os.remove(os.path.join(dst, "case.json"))
        if producer_version is not None:
            m = onnx.load(os.path.join(dst, "model.onnx"))
            m.producer_version = producer_version
            onnx.save(m, os.path.join(dst, "model.onnx"))
    return root


def run(root, report, *extra):
    rc, out = t.run("run", "--runtime", "reference", "--source", "exported", "--exported", root,
                    "--no-host", "--report", t.path(report), *extra)
    return rc, out, t.load(report) if os.path.exists(t.path(report)) else None


def exported(r):
    return [c for c in r["cases"] if "exported" in c] if r else []


n = len(opsets)

# Measured-on producer, no case.json: applied by default.
same = folder("same", "unbind_axis0")
rc, out, r = run(same, "same.json")
cases = exported(r)
t.check(rc == 0, f"producer pytorch 1.13.0: exit 0 (got {rc})")
t.check(len(cases) == n and all(c["exported"]["producer"] == "pytorch 1.13.0" for c in cases),
        f"the {n} models' producer is the model's own, pytorch 1.13.0")
t.check(r is not None and r.get("exporter_expectations_file", "").endswith("torch-onnx.json")
        and all(c["exported"]["exporter_verdict"] == "expected_failure" for c in cases),
        "torch-onnx.json applies: every exporter verdict is an expected failure")

# Another version: not applied by default.
other = folder("other", "unbind_axis0", "2.1.0")
rc, out, r = run(other, "other.json")
cases = exported(r)
t.check(rc == 1, f"producer pytorch 2.1.0: exit 1 (got {rc})")
t.check(r is not None and "exporter_expectations_file" not in r,
        "the report names no exporter expectations file")
t.check(len(cases) == n and all(
    c["exported"]["exporter_verdict"] == "unexpected_failure"
    and "exporter_expectation" not in c["exported"]
    and "producer is pytorch 2.1.0" in c["exported"].get("exporter_expectation_mismatch", "")
    for c in cases), f"each of the {n} cases says why no exporter expectation applies")
t.check(f"not applied to the exported cases of other producers: pytorch 2.1.0 ({n})" in out,
        "the console says the file was not applied, and to what")

# Another version, the file given: applied, and said.
rc, out, r = run(other, "other-given.json", "--exporter-expectations", torch_onnx)
t.check(rc == 0, f"producer pytorch 2.1.0 with --exporter-expectations: exit 0 (got {rc})")
t.check(f"applied, as --exporter-expectations asks, to the exported cases of other producers: "
        f"pytorch 2.1.0 ({n})" in out, "the console says it was applied to another producer")

# A program the unbind entry does not list.
unlisted = folder("unlisted", "unbind_brand_new")
rc, out, r = run(unlisted, "unlisted.json")
cases = exported(r)
t.check(rc == 1, f"program unbind_brand_new: exit 1 (got {rc})")
t.check("entry 'exported/unbind_*' matches cases of programs it does not list, which it does "
        f"not cover: unbind_brand_new ({n})" in out, "the run warns about the wildcard entry")
t.check(len(cases) == n and all(c["exported"]["exporter_verdict"] == "unexpected_failure"
                                for c in cases), "its cases are not covered")

# The right status, another reason.
with open(torch_onnx, encoding="utf-8") as f:
    doc = json.load(f)
for e in doc["entries"]:
    if e["id"] == "exported/unbind_*":
        e["outcome_reason"] = "value_mismatch"
t.save("other-reason.json", doc)
rc, out, r = run(same, "reason.json", "--exporter-expectations", t.path("other-reason.json"))
cases = exported(r)
why = ("entry 'exported/unbind_*' expects fail [value_mismatch], the case is fail "
       "[shape_mismatch] (another reason)")
t.check(rc == 1, f"outcome_reason value_mismatch on shape_mismatch cases: exit 1 (got {rc})")
t.check(out.count(why) == n, f"the console says why for each of the {n} cases")
t.check(len(cases) == n and all(c["exported"].get("exporter_expectation_mismatch") == why
                                for c in cases), "the report says why")
sys.exit(t.finish())
