#!/usr/bin/python3
"""End-to-end check of the reports of `seqconf run` and `seqconf merge` on the ONNX backend
cases with the reference:

  - a normal run writes JSON, JUnit and HTML; every JSON/XML written here validates;
  - every ONNX backend case counts as graph context "inputs";
  - shards 1/2 and 2/2 merged equal the unsharded run (cases, summary and both matrices, times
    ignored);
  - `seqconf list --coverage` prints op x dtype and op x context counts that agree;
  - --jobs 2 gives the same cases as --jobs 1;
  - an expectations entry on a passing case makes an unexpected pass (exit 1);
  - an interrupted run (a real SIGINT after 3 cases, --stop-after) writes complete=false, exit 1;
  - usage errors (bad --shard, unreadable expectations, a report with an unknown reason) exit 2;
  - the corpus's SplitToSequence-24 cases (IR 12, opset 24, newer than ONNX 1.12 reads) pass and
    record static checks as not applicable, with no static finding.

  cli_reports_test.py SEQCONF SCHEMA VALIDATOR WORKDIR
"""
import json
import os
import subprocess
import sys

SEQCONF, SCHEMA, VALIDATOR, WORK = sys.argv[1:5]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

t = CliCheck(SEQCONF, WORK)
check, run, load, path = t.check, t.run, t.load, t.path


def comparable(cases):
    return [{k: v for k, v in c.items() if k != "duration_ms"} for c in cases]


base = ["run", "--runtime", "reference", "--source", "onnx-backend"]

rc, out = run(*base, "--report", path("full.json"), "--junit", path("full.xml"),
              "--html", path("full.html"))
full = load("full.json")
total = full["summary"]["total"]
check(rc == (1 if full["summary"]["unexpected_failures"] else 0),
      f"normal run exit code {rc} agrees with its summary")
check(total > 0 and len(full["cases"]) == total, f"normal run has {total} cases")
check(full["complete"] is True, "normal run is complete")
check(full["options"].get("source") == "onnx-backend", "options are recorded")
check(os.path.getsize(path("full.html")) > 0 and os.path.getsize(path("full.xml")) > 0,
      "JUnit and HTML written")
check("passed/total" in out, "the summary table is printed")
check(all(c["context"] == "inputs" for c in full["cases"])
      and [c["context"] for c in full["context_matrix"]["cells"]] ==
      ["inputs"] * len(full["matrix"]["ops"]) and full["context_matrix"]["contexts"] == ["inputs"],
      "ONNX backend cases have graph context inputs, one context cell per op")
check(sum(c["total"] for c in full["context_matrix"]["cells"]) == total,
      "the op x context matrix counts every case once")

rc1, _ = run(*base, "--shard", "1/2", "--report", path("shard1.json"))
rc2, _ = run(*base, "--shard", "2/2", "--report", path("shard2.json"))
s1, s2 = load("shard1.json"), load("shard2.json")
check(s1["summary"]["total"] > 0 and s2["summary"]["total"] > 0, "both shards hold cases")
check(s1["summary"]["total"] + s2["summary"]["total"] == total, "shards partition the cases")
rc, out = run("merge", path("shard1.json"), path("shard2.json"), "--report", path("merged.json"))
merged = load("merged.json")
check(comparable(merged["cases"]) == comparable(full["cases"]), "merged cases == unsharded")
check(merged["summary"] == full["summary"], "merged summary == unsharded")
check(merged["matrix"] == full["matrix"], "merged matrix == unsharded")
check(merged["context_matrix"] == full["context_matrix"], "merged context matrix == unsharded")
check(len(merged["merged_from"]) == 2, "merged_from names both shards")
odd = load("shard1.json")
odd["cases"][0]["reason"] = "signal"
with open(path("odd-reason.json"), "w", encoding="utf-8") as f:
    json.dump(odd, f)
rc, out = run("merge", path("odd-reason.json"), path("shard2.json"), "--report", path("odd.json"))
check(rc == 2 and 'unknown reason "signal"' in out and "odd-reason.json" in out
      and not os.path.exists(path("odd.json")),
      f"merge rejects a report with an unknown reason, naming file and reason (exit {rc})")

rc, _ = run(*base, "--jobs", "2", "--report", path("jobs2.json"))
check(comparable(load("jobs2.json")["cases"]) == comparable(full["cases"]),
      "--jobs 2 gives the cases of --jobs 1")

passing = next(c["id"] for c in full["cases"] if c["status"] == "pass")
with open(path("expectations-in.json"), "w", encoding="utf-8") as f:
    json.dump({"runtime": "reference",
               "entries": [{"id": passing, "status": "fail", "reason": "test entry",
                            "link": "https://example.org/x"}]}, f)
rc, out = run(*base, "--expectations", path("expectations-in.json"),
              "--report", path("expectations.json"), "--junit", path("expectations.xml"))
ex = load("expectations.json")
check(rc == 1, f"unexpected pass exits 1 (got {rc})")
check(ex["summary"]["unexpected_passes"] == 1, "one unexpected pass counted")
case = next(c for c in ex["cases"] if c["id"] == passing)
check(case["verdict"] == "unexpected_pass" and case["expectation"]["reason"] == "test entry",
      "the case carries its verdict and expectation")

rc, out = run(*base, "--stop-after", "3", "--report", path("interrupted.json"))
intr = load("interrupted.json")
check(rc == 1, f"interrupted run exits 1 (got {rc})")
check(intr["complete"] is False, "interrupted run has complete=false")
check(intr["summary"]["total"] == 3, f"interrupted run has 3 cases (got {intr['summary']['total']})")

rc, out = run("list", "--coverage")
lines = out.splitlines()


def table(title):
    """The rows of a coverage table: {op: total cases}."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title)) + 2
    rows = {}
    for line in lines[start:]:
        if not line.strip():
            break
        rows[line.split()[0]] = line.split()[-1]
    return rows


by_dtype, by_context = table("cases per op x dtype"), table("cases per op x context")
# The nine sequence operators, and the machinery probes' If, Loop and Scan (SequenceMap has both).
check(rc == 0 and len(by_dtype) == 12 and {"If", "Loop", "Scan"} <= set(by_dtype)
      and by_context == by_dtype,
      f"list --coverage: op x context totals equal op x dtype totals ({by_context})")

rc, out = run("run", "--runtime", "reference", "--source", "corpus", "--filter",
              "corpus/SplitToSequence/opset=24/*context=inputs", "--report", path("opset24.json"))
o24 = load("opset24.json")["cases"]
check(rc == 0 and len(o24) >= 14 * 16 and all(c["status"] == "pass" for c in o24),
      f"SplitToSequence-24 cases pass on the reference ({len(o24)}, exit {rc})")
check(all("opset 24" in c.get("static_checks_not_applicable", "") and not c.get("findings")
          for c in o24),
      "every opset-24 case records static checks as not applicable, and no static finding")

rc, out = run(*base, "--shard", "3/2", "--report", path("bad.json"))
check(rc == 2 and not os.path.exists(path("bad.json")), f"bad --shard exits 2 (got {rc})")
rc, out = run(*base, "--expectations", path("missing.json"))
check(rc == 2, f"missing expectations file exits 2 (got {rc})")

rc = subprocess.run(["/usr/bin/python3", VALIDATOR, SCHEMA] +
                    [path(n) for n in ("full.json", "shard1.json", "merged.json", "jobs2.json",
                                       "expectations.json", "interrupted.json", "full.xml",
                                       "expectations.xml", "opset24.json")]).returncode
check(rc == 0, "every report written validates against the schema")

sys.exit(t.finish())
