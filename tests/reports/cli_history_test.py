#!/usr/bin/python3
"""End-to-end check of `seqconf history` on the ONNX backend cases with the reference:

  - three copies of one run, labelled as releases 1.10.0, 1.9.0 and 1.11.0 and given in that
    order: the table is in release order (1.9.0, 1.10.0, 1.11.0); one pass turned into a wrong
    value in 1.9.0 only is a departure first seen in 1.9.0 and first gone in 1.10.0; one turned
    into a crash in 1.11.0 only is first seen there and never gone; exit 0; --json valid against
    the history schema, --html and --markdown carry the same;
  - two reports of one release, a missing report and a file that is not a report: exit 2.

  cli_history_test.py SEQCONF HISTORY_SCHEMA WORKDIR
"""
import copy
import json
import os
import sys

SEQCONF, SCHEMA, WORK = sys.argv[1:4]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

t = CliCheck(SEQCONF, WORK)
check, run, path, load, save = t.check, t.run, t.path, t.load, t.save

rc, out = run("run", "--runtime", "reference", "--source", "onnx-backend",
              "--report", path("run.json"))
run_doc = load("run.json")
passing = [c for c in run_doc["cases"] if c["status"] == "pass"]
check(len(passing) >= 2, f"the reference run has {len(passing)} passing cases")
wrong, crashed = passing[0], passing[1]


def release(version, flip=None, status=None, reason=None, name=None):
    doc = copy.deepcopy(run_doc)
    doc["runtime"]["version"] = version
    for c in doc["cases"]:
        if flip and c["id"] == flip["id"]:
            c.update(status=status, reason=reason, verdict="unexpected_failure", message="x")
    # The departures are derived again when the report is read (as after seqconf merge).
    name = name or f"r{version}.json"
    save(name, doc)
    return path(name)


r110 = release("1.10.0")
r19 = release("1.9.0", wrong, "fail", "value_mismatch")
r111 = release("1.11.0", crashed, "crash", "crash")
rc, out = run("history", r110, r19, r111, "--json", path("h.json"), "--html", path("h.html"),
              "--markdown", path("h.md"))
check(rc == 0, f"history exits 0 (exit {rc})\n{out}")
h = load("h.json")
labels = [c["label"] for c in h["columns"]]
check(labels == ["reference 1.9.0", "reference 1.10.0", "reference 1.11.0"],
      f"columns in release order: {labels}")
rows = {(d["op"], d["what"]): d for d in h["departures"]}
check(len(h["departures"]) == 2, f"two departures: {sorted(rows)}")
w = rows.get((wrong["op"], "wrong values"))
check(w is not None and w["counts"] == [1, 0, 0] and w["first_seen"] == "reference 1.9.0"
      and w["first_gone"] == "reference 1.10.0" and w["smallest"] == wrong["id"],
      f"the wrong value of 1.9.0: first seen 1.9.0, gone in 1.10.0 ({w})")
c = rows.get((crashed["op"], "crash"))
check(c is not None and c["counts"] == [0, 0, 1] and c["first_seen"] == "reference 1.11.0"
      and c["first_gone"] is None, f"the crash of 1.11.0: first seen there, never gone ({c})")
check("2 distinct departure(s) over 3 run(s)" in out, "the console names the count")
with open(path("h.html"), encoding="utf-8") as f:
    page = f.read()
check('data-first-seen="reference 1.11.0" data-first-gone=""' in page
      and '<th data-column="reference 1.9.0"' in page, "--html carries the table")
with open(path("h.md"), encoding="utf-8") as f:
    md = f.read()
check(f"| {crashed['op']}: crash" in md and "| · | · | 1 | 1.11.0 | — |" in md,
      "--markdown carries the table\n" + md)
try:
    import jsonschema
    with open(SCHEMA, encoding="utf-8") as f:
        errors = list(jsonschema.Draft202012Validator(json.load(f)).iter_errors(h))
    check(not errors, f"--json is valid against the history schema {[e.message for e in errors]}")
except ImportError:
    print("skip: python3-jsonschema is not installed; the history JSON is not validated")

rc, out = run("history", r19, r110, release("1.9.0", name="again.json"))
check(rc == 2 and "reference 1.9.0" in out, f"two runs of one release exit 2 ({rc}: {out.strip()})")
with open(path("not-json.json"), "w", encoding="utf-8") as f:
    f.write("not JSON\n")
for name in ("missing.json", "not-json.json"):
    rc, out = run("history", r19, path(name))
    check(rc == 2 and name in out, f"{name} exits 2 naming the file ({rc}: {out.strip()})")

sys.exit(t.finish())
