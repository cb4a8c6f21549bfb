#!/usr/bin/python3
"""ONNX's own node tests as an oracle for the reference's supporting operators:

  seqconf run --runtime reference --source onnx-backend --onnx-all-ops
      --expectations tests/cases/onnx_node_exclusions.json

selects every ONNX backend model whose ops the reference all implements (not only the sequence
ones). Checks: exit code 0 (every selected test passes but the listed exclusions, and no listed
one passes: a stale entry is an unexpected pass); the selection holds node tests of each
supporting operator named below, so a loader that stopped selecting them cannot pass unseen.

  onnx_node_oracle_test.py SEQCONF SOURCE_DIR WORKDIR
"""
import os
import re
import sys

SEQCONF, SOURCE, WORK = sys.argv[1:4]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

t = CliCheck(SEQCONF, WORK)
exclusions = os.path.join(SOURCE, "tests", "cases", "onnx_node_exclusions.json")
rc, out = t.run("run", "--runtime", "reference", "--source", "onnx-backend", "--onnx-all-ops",
                "--expectations", exclusions, "--report", t.path("report.json"))
print(out[-1500:])
t.check(rc == 0, f"every selected node test passes or is listed, no listed one passes (exit {rc})")
report = t.load("report.json")
ops = {}
for c in report["cases"]:
    m = re.match(r"onnx-backend/node/test_([a-z]+)", c["id"])
    if m:
        ops.setdefault(m.group(1), []).append(c["status"])
for op in ("cast", "concat", "gather", "sub", "mul", "div", "equal", "less", "greater", "where",
           "squeeze", "reshape", "size", "constantofshape", "range", "add", "shape", "slice",
           "unsqueeze", "identity", "not"):
    t.check(op in ops and "pass" in ops[op], f"node tests of {op} selected and passing: {ops.get(op)}")
t.check(len(report["cases"]) >= 150, f"{len(report['cases'])} cases selected (at least 150)")
t.check(report["options"].get("onnx_all_ops") is True, "the report records --onnx-all-ops")
sys.exit(t.finish())
