#!/usr/bin/python3
"""End-to-end check of `seqconf diff` on the ONNX backend cases with the reference:

  - shards 1/2 and 2/2 merged with `seqconf merge` against the unsharded run: no change, exit 0
    (both ways);
  - a copy of the run with one pass flipped to fail (and another runtime version): exit 1, the
    case listed as regressed in the console, --json (valid against the diff schema) and --html,
    both runtimes named;
  - the reverse diff: one progression, exit 0;
  - a missing report, a file that is not JSON and JSON that is not a report: exit 2, naming the
    file.

  cli_diff_test.py SEQCONF DIFF_SCHEMA WORKDIR
"""
import json
import os
import sys

SEQCONF, SCHEMA, WORK = sys.argv[1:4]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

t = CliCheck(SEQCONF, WORK)
check, run, path, load, save = t.check, t.run, t.path, t.load, t.save


base = ["run", "--runtime", "reference", "--source", "onnx-backend"]
run(*base, "--report", path("full.json"))
run(*base, "--shard", "1/2", "--report", path("shard1.json"))
run(*base, "--shard", "2/2", "--report", path("shard2.json"))
rc, out = run("merge", path("shard1.json"), path("shard2.json"), "--report", path("merged.json"))
check(rc in (0, 1) and os.path.exists(path("merged.json")), f"shards merged (exit {rc})")
full = load("full.json")
total = len(full["cases"])
check(total > 0 and full["summary"]["passed"] > 0, f"the unsharded run has {total} cases")

no_change = f"regressed 0, progressed 0, changed 0, appeared 0, disappeared 0, unchanged {total}"
for a, b in (("full.json", "merged.json"), ("merged.json", "full.json")):
    rc, out = run("diff", path(a), path(b))
    check(rc == 0 and no_change in out and "runtime changed" not in out,
          f"diff {a} {b}: no change, exit 0 (exit {rc})\n{out}")

passing = next(c for c in full["cases"] if c["status"] == "pass")
worse = json.loads(json.dumps(full))
flipped = next(c for c in worse["cases"] if c["id"] == passing["id"])
flipped.update(status="fail", reason="value_mismatch", verdict="unexpected_failure",
               message="output 0 element 0: expected 1, got 2")
worse["runtime"]["version"] = "9.9.9"
save("regressed.json", worse)
rc, out = run("diff", path("full.json"), path("regressed.json"), "--json", path("diff.json"),
              "--html", path("diff.html"))
check(rc == 1, f"a regression exits 1 (exit {rc})")
check(f"regressed 1, progressed 0, changed 0, appeared 0, disappeared 0, unchanged {total - 1}"
      in out, "the counts name one regression")
check(f"runtime changed: reference {full['runtime']['version']} -> reference 9.9.9" in out,
      "both runtime versions are printed")
check(f"{passing['op']} [inputs] pass -> fail/value_mismatch" in out and passing["id"] in out,
      "the regression's departure and id are printed\n" + out)
d = load("diff.json")
check(d["counts"]["regressed"] == 1 and d["regressed"][0]["id"] == passing["id"]
      and d["regressed"][0]["base_status"] == "pass" and d["regressed"][0]["new_status"] == "fail"
      and d["regressed"][0]["new_reason"] == "value_mismatch" and d["runtime_changed"] is True,
      "--json lists the regression")
with open(path("diff.html"), encoding="utf-8") as f:
    page = f.read()
check(f'<tr data-case-id="{passing["id"]}" data-change="regressed">' in page
      and 'id="verdict">1 case(s) regressed (pass in base' in page, "--html lists the regression")
try:
    import jsonschema
    with open(SCHEMA, encoding="utf-8") as f:
        errors = list(jsonschema.Draft202012Validator(json.load(f)).iter_errors(d))
    check(not errors, f"--json is valid against the diff schema {[e.message for e in errors]}")
except ImportError:
    print("skip: python3-jsonschema is not installed; the diff JSON is not validated")

rc, out = run("diff", path("regressed.json"), path("full.json"))
check(rc == 0 and "progressed 1," in out and "regressed 0," in out,
      f"the reverse diff is one progression, exit 0 (exit {rc})")

with open(path("not-json.json"), "w", encoding="utf-8") as f:
    f.write("this is not JSON\n")
save("not-a-report.json", {"cases": []})
for name, why in (("missing.json", "a missing report"), ("not-json.json", "a file that is not JSON"),
                  ("not-a-report.json", "JSON that is not a report")):
    for args in ((path(name), path("full.json")), (path("full.json"), path(name))):
        rc, out = run("diff", *args)
        check(rc == 2 and name in out, f"{why} exits 2 naming the file (exit {rc}: {out.strip()})")

sys.exit(t.finish())
