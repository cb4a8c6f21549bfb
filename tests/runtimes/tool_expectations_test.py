#!/usr/bin/env python3
"""The expectations of the model-to-model tools hold: every case of a full run of each tool
(ONNX's version converter to opset 17; ONNX Runtime 1.30.0's optimizers at basic) ends as its
expectations file says, and the reports (with the tools' kept models) are valid. A full run of
ONNX Runtime 1.30.0 attributes every departure, with a valid report.
Usage: tool_expectations_test.py SEQCONF SOURCE_DIR WORK_DIR PART, PART one of converter,
optimizer, attribution (three ctest tests, each well within the time of one test). Exit 77
(skipped) when ONNX Runtime 1.30.0 is unavailable for the optimizer or the attribution."""
import json
import os
import subprocess
import sys


def valid(source, report):
    p = subprocess.run(["/usr/bin/python3",
                        os.path.join(source, "tests", "reports", "validate_reports.py"),
                        os.path.join(source, "reports", "seqconf-report.schema.json"), report],
                       capture_output=True, text=True)
    print(p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr[-500:])
    return p.returncode in (0, 77)


def run(seqconf, source, work, spec, expectations):
    report = os.path.join(work, spec.replace(":", "_").replace("=", "_") + ".json")
    p = subprocess.run([seqconf, "run", "--runtime", "transform=" + spec, "--source", "all",
                        "--jobs", "2", "--expectations", os.path.join(source, expectations),
                        "--report", report], capture_output=True, text=True)
    r = json.load(open(report))
    s = r["summary"]
    print("%s: exit %d, %d cases, %d passed, %d expected failures, %d unexpected failures, "
          "%d unexpected passes" % (spec, p.returncode, s["total"], s["passed"],
                                    s["expected_failures"], s["unexpected_failures"],
                                    s["unexpected_passes"]))
    kept = [c["kept_model"] for c in r["cases"] if c.get("kept_model")]
    print("  %d kept models, all present: %s" % (len(kept), all(os.path.exists(k) for k in kept)))
    ok = (p.returncode == 0 and s["unexpected_failures"] == 0 and s["unexpected_passes"] == 0 and
          all(os.path.exists(k) for k in kept) and valid(source, report))
    if not ok:
        print(p.stdout[-3000:])
        print(p.stderr[-2000:])
    return ok


def ort_1_30(seqconf):
    listed = subprocess.run([seqconf, "runtimes", "--json"], capture_output=True, text=True)
    ort = [x for x in json.loads(listed.stdout or "[]")
           if x.get("spec") == "onnxruntime" and x.get("available")]
    return bool(ort) and ort[0].get("version") == "1.30.0"


def main():
    seqconf, source, work, part = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    os.makedirs(work, exist_ok=True)
    if part == "converter":
        ok = run(seqconf, source, work, "onnx-version-converter:17",
                 "expectations/onnx-version-converter.json")
        return 0 if ok else 1
    if not ort_1_30(seqconf):
        print("ONNX Runtime 1.30.0 unavailable")
        return 77
    if part == "optimizer":
        ok = run(seqconf, source, work, "onnxruntime-optimizer:basic",
                 "expectations/onnxruntime-optimizer.json")
    else:
        ok = attributed(seqconf, source, work)
    return 0 if ok else 1


def attributed(seqconf, source, work):
    """Every departure of a full ONNX Runtime run carries a layer, with its three runs."""
    report = os.path.join(work, "onnxruntime.json")
    subprocess.run([seqconf, "run", "--runtime", "onnxruntime", "--source", "all", "--jobs", "2",
                    "--report", report], capture_output=True, text=True)
    r = json.load(open(report))
    layers = {}
    for d in r["departures"]:
        a = d.get("attribution")
        if not a or len(a["runs"]) != 3:
            print("departure without an attribution: " + d["id"])
            return False
        layers[a["layer"]] = layers.get(a["layer"], 0) + 1
    print("onnxruntime: %d departures, layers %s" % (len(r["departures"]), layers))
    return len(r["departures"]) > 0 and r["options"].get("attribution") is True and \
        valid(source, report)


if __name__ == "__main__":
    sys.exit(main())
