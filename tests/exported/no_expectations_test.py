#!/usr/bin/python3
"""`seqconf run --source exported --no-expectations` on the reference exits 1 because of the
exporter's departures, and only them: the console lists each departure as listed by no
expectation, and the cases it counts as unexpected are exactly those the exporter's expectations
list when they are read (a second run, with them, exits 0). Any other exit code fails, a usage
error (2) among them.

  no_expectations_test.py SEQCONF EXPORTED_DIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

seqconf, exported, work = sys.argv[1:4]
t = CliCheck(seqconf, work)
run = ("run", "--runtime", "reference", "--source", "exported", "--exported", exported)


def exporter_verdicts(report):
    return {c["id"]: c["exported"]["exporter_verdict"] for c in report["cases"] if "exported" in c}


rc, out = t.run(*run, "--no-expectations", "--report", t.path("without.json"))
print(out)
t.check(rc == 1, f"exit code 1 without expectations (got {rc})")
if os.path.exists(t.path("without.json")):
    r = t.load("without.json")
    verdicts = exporter_verdicts(r)
    new = {case for case, v in verdicts.items() if v == "unexpected_failure"}
    s = r["summary"]
    t.check(len(new) > 0 and s["unexpected_exporter"] == len(new),
            f"{len(new)} exporter departures are new, as the summary counts "
            f"({s['unexpected_exporter']})")
    t.check(s["unexpected_failures"] == 0 and s["unexpected_passes"] == 0,
            "nothing else is unexpected: the exit code is the exporter's departures' "
            f"(unexpected failures {s['unexpected_failures']}, passes {s['unexpected_passes']})")
    # Each departure on the console: its model count, what it is, its smallest case, listed
    # by none.
    departures = r["exporter_departures"]
    t.check(sum(d["count"] for d in departures) == len(new),
            f"the departures count the {len(new)} new cases")
    lines = out.splitlines()
    for d in departures:
        shown = any(d["what"] in line and d["smallest"] in line and " none " in line
                    and line.split()[0] == str(d["count"]) for line in lines)
        t.check(d["listed"] == "none" and shown,
                f"printed as new: {d['count']} {d['what']} ({d['smallest']})")

    rc, out = t.run(*run, "--report", t.path("with.json"))
    t.check(rc == 0, f"exit code 0 with the exporter's expectations (got {rc})")
    listed = {case for case, v in exporter_verdicts(t.load("with.json")).items()
              if v == "expected_failure"}
    t.check(new == listed,
            f"the new departures are the {len(listed)} cases the expectations list "
            f"({len(new - listed)} not listed, {len(listed - new)} listed but not new)")
else:
    t.check(False, "the run wrote its report")
sys.exit(t.finish())
