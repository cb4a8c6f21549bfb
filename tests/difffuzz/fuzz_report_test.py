"""seqconf fuzz's findings as departures, end to end:

  - a campaign against a seeded defect, with no expectations file, lists its departures as new
    and exits 1; its report validates against reports/seqconf-fuzz.schema.json (each finding in
    exactly one departure, the new ones first), and its HTML page shows the departures;
  - expectations/<runtime>.json in the working folder applies by default: listing the findings
    of one departure leaves the other one new, first, and exit 1; listing all gives exit 0 and
    every departure on one "known" line; --no-expectations makes them all new again;
  - a departure's rerun command reproduces it: `seqconf run` on its smallest fixture gives the
    same departure id;
  - against an oracle (--oracle): the report names it, the findings' IDs carry it, and
    expectations/<runtime>-vs-<oracle id>.json applies by default;
  - against ONNX Runtime 1.30 (skipped without it): a default campaign applies
    expectations/onnxruntime.json, matches every departure and exits 0; with
    --no-expectations it exits 1 and lists them as new; against itself at graph optimization
    disabled every finding is listed in expectations/onnxruntime-vs-onnxruntime_disabled.json.

    fuzz_report_test.py SEQCONF SOURCE_DIR WORK
"""
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from cli_check import CliCheck  # noqa: E402

seqconf, source, work = sys.argv[1:4]
t = CliCheck(seqconf, work)
schema = os.path.join(source, "reports", "seqconf-fuzz.schema.json")
validate = os.path.join(source, "tests", "reports", "validate_reports.py")
defect = "seeded=at.negative_off_by_one"
# Shorter campaigns under the sanitizers (tools/sanitize.sh sets SEQCONF_SANITIZED).
sanitized = bool(os.environ.get("SEQCONF_SANITIZED"))
seeded_programs = "100" if sanitized else "300"
ort_programs = "300" if sanitized else "1000"


def fuzz(cwd, name, *extra, runtime=defect, iterations=seeded_programs, seed="1"):
    """seqconf fuzz in cwd, report NAME.json and page NAME.html: (exit code, output, report)."""
    report, html = t.path(name + ".json"), t.path(name + ".html")
    p = subprocess.run([seqconf, "fuzz", "--runtime", runtime, "--seed", seed, "--iterations",
                        iterations, "--out", t.path(name), "--report", report, "--html", html,
                        *extra], cwd=cwd, capture_output=True, text=True, timeout=600)
    doc = json.load(open(report, encoding="utf-8")) if os.path.exists(report) else None
    return p.returncode, p.stdout + p.stderr, doc


def valid(name):
    p = subprocess.run([sys.executable, validate, schema, t.path(name + ".json")],
                       capture_output=True, text=True, timeout=300)
    return p.returncode == 0, p.stdout[-600:]


cwd = t.path("cwd")
os.makedirs(os.path.join(cwd, "expectations"))
rc, out, doc = fuzz(cwd, "none")
t.check(rc == 1 and doc is not None, "no expectations file: exit 1 (%d)" % rc)
departures = doc["departures"] if doc else []
t.check(len(departures) >= 2 and all(d["new"] for d in departures)
        and doc["expectations_file"] == "" and "no expectations applied" in out,
        "%d departures, all new, no expectations file named" % len(departures))
t.check(out.count("NEW ") == len(departures) and
        "%d departure(s), %d new" % (len(departures), len(departures)) in out,
        "the console lists each new departure")
ok, text = valid("none")
t.check(ok, "the report is valid against seqconf-fuzz.schema.json: " + text)
page = open(t.path("none.html"), encoding="utf-8").read()
t.check(all(d["title"].split(" \u2014 ")[0] in page for d in departures),
        "the HTML page shows every departure")
t.check(sum(d["programs"] for d in departures) == sum(f["occurrences"] for f in doc["findings"])
        and sum(d["count"] for d in departures) == len(doc["findings"]),
        "the departures hold every finding and count every program")

# The rerun command of the first departure reproduces it from its fixture.
first = departures[0]
rerun = shlex.split(first["rerun"])
rerun[0] = seqconf
p = subprocess.run(rerun + ["--report", t.path("rerun.json")], capture_output=True, text=True,
                   timeout=300)
replayed = json.load(open(t.path("rerun.json"), encoding="utf-8"))["departures"]
t.check(p.returncode == 1 and [d["id"] for d in replayed] == [first["id"]],
        "the rerun command gives departure %s again: %s" % (first["id"],
                                                           [d["id"] for d in replayed]))

# expectations/seeded.json in the working folder: the findings of every departure but the last.
entries = [{"id": "corpus/" + f["id"], "status": f["status"], "reason": "seeded"}
           for f in doc["findings"] if f["departure"] != departures[-1]["id"]]
own = os.path.join(cwd, "expectations", "seeded.json")
json.dump({"runtime": "seeded", "entries": entries}, open(own, "w", encoding="utf-8"))
rc, out, part = fuzz(cwd, "part")
t.check(rc == 1 and part["expectations_file"] == os.path.join("expectations", "seeded.json"),
        "expectations/seeded.json applies by default; one departure left: exit 1 (%d)" % rc)
t.check([d["id"] for d in part["departures"]][0] == departures[-1]["id"]
        and part["new_departures"] == 1 and out.count("NEW ") == 1
        and out.count("known ") == len(departures) - 1,
        "the unlisted departure comes first, the others one line each")
ok, text = valid("part")
t.check(ok, "that report is valid: " + text)

entries += [{"id": "corpus/" + f["id"], "status": f["status"], "reason": "seeded"}
            for f in doc["findings"] if f["departure"] == departures[-1]["id"]]
json.dump({"runtime": "seeded", "entries": entries}, open(own, "w", encoding="utf-8"))
rc, out, full = fuzz(cwd, "full")
t.check(rc == 0 and full["new_departures"] == 0 and all(f["expected"] for f in full["findings"])
        and "0 new" in out, "every finding listed: exit 0 (%d)" % rc)
rc, out, off = fuzz(cwd, "off", "--no-expectations")
t.check(rc == 1 and off["new_departures"] == len(departures) and off["expectations_file"] == "",
        "--no-expectations: every departure new again, exit 1 (%d)" % rc)
rc, out, _ = fuzz(cwd, "both", "--no-expectations", "--expectations", own)
t.check(rc != 0 and rc != 1, "--no-expectations with --expectations: a usage error (%d)" % rc)

# Against an oracle: the reference under test and the defect as the oracle. The report names
# the oracle, every finding's ID carries oracle=seeded, and the campaign's own expectations file
# is expectations/reference-vs-seeded.json (the runtime's own does not apply).
rc, out, vs = fuzz(cwd, "vs", "--oracle", defect, runtime="reference")
t.check(rc == 1 and vs["oracle"] == defect and vs["expectations_file"] == ""
        and len(vs["findings"]) > 0
        and all("/oracle=seeded/" in f["id"] for f in vs["findings"]),
        "--oracle %s: %d findings with oracle=seeded, no expectations file, exit 1 (%d)"
        % (defect, len(vs["findings"]), rc))
ok, text = valid("vs")
t.check(ok, "that report is valid: " + text)
json.dump({"runtime": "reference-vs-seeded",
           "entries": [{"id": "corpus/" + f["id"], "status": f["status"], "reason": "seeded"}
                       for f in vs["findings"]]},
          open(os.path.join(cwd, "expectations", "reference-vs-seeded.json"), "w",
               encoding="utf-8"))
rc, out, vs_known = fuzz(cwd, "vs-known", "--oracle", defect, runtime="reference")
t.check(rc == 0 and vs_known["expectations_file"] ==
        os.path.join("expectations", "reference-vs-seeded.json"),
        "expectations/reference-vs-seeded.json applies by default: exit 0 (%d)" % rc)
rc, out, _ = fuzz(cwd, "vs-level", "--oracle-ort-graph-optimization", "disabled")
t.check(rc == 2 and "needs --oracle" in out,
        "--oracle-ort-graph-optimization without --oracle: a usage error (%d)" % rc)

# ONNX Runtime 1.30 with the repository's expectations file.
p = subprocess.run([seqconf, "runtimes", "--json"], capture_output=True, text=True, timeout=120)
ort = [r for r in json.loads(p.stdout or "[]")
       if r.get("spec") == "onnxruntime" and r.get("available")]
if not ort or not ort[0].get("version", "").startswith("1.30"):
    print("skip: ONNX Runtime 1.30 is not available (%s)" % ort)
else:
    rc, out, known = fuzz(source, "ort", runtime="onnxruntime", seed="11", iterations=ort_programs)
    t.check(rc == 0 and known["new_departures"] == 0 and len(known["departures"]) > 0
            and known["expectations_file"] == os.path.join("expectations", "onnxruntime.json"),
            "ONNX Runtime: %d findings in %d departures, all known, exit 0 (%d)"
            % (len(known["findings"]), len(known["departures"]), rc))
    rc, out, fresh = fuzz(source, "ort-new", "--no-expectations", runtime="onnxruntime",
                          seed="11", iterations=ort_programs)
    t.check(rc == 1 and fresh["new_departures"] == len(known["departures"]),
            "ONNX Runtime with --no-expectations: %d new departures, exit 1 (%d)"
            % (fresh["new_departures"], rc))
    ok, text = valid("ort")
    t.check(ok, "its report is valid: " + text)
    # ONNX Runtime at all against itself at disabled: every finding listed in
    # expectations/onnxruntime-vs-onnxruntime_disabled.json.
    rc, out, opt = fuzz(source, "ort-opt", "--oracle", "onnxruntime",
                        "--oracle-ort-graph-optimization", "disabled", runtime="onnxruntime",
                        seed="11", iterations=ort_programs)
    t.check(rc == 0 and opt["new_departures"] == 0
            and opt["oracle"] == "onnxruntime (graph optimization: disabled)"
            and opt["expectations_file"] ==
            os.path.join("expectations", "onnxruntime-vs-onnxruntime_disabled.json"),
            "ONNX Runtime against itself at disabled: %d findings, none new, exit 0 (%d)"
            % (len(opt["findings"]), rc))
sys.exit(t.finish())
