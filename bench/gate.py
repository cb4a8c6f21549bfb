#!/usr/bin/python3
"""The benchmark ratio gate (ctest label bench-gate): the targets of bench/targets.json marked
`gate`, measured briefly in one seqconf-bench run (both sides in one process, medians of
--repetitions), each failing when its ratio falls below at_least * (1 - margin), with the
target's own margin where it has one. A target's times are CPU times unless its `time` is
"real".

Usage: gate.py SEQCONF_BENCH TARGETS_JSON [--repetitions N] [--min-time S]
Exits 0 when every gated ratio holds, 1 when one falls short, 77 (skipped) when ONNX Runtime is
not available to the benchmark (no ratio can be measured).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import ratios  # bench/ratios.py, beside this file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("targets")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--min-time", default="0.05")
    args = ap.parse_args()
    with open(args.targets) as f:
        table = json.load(f)
    margin = table["margin"]
    gated = [t for t in table["targets"] if t.get("gate")]
    workloads = sorted({t[side][0] for t in gated for side in ("numerator", "denominator")})
    pattern = ("^(" + "|".join(re.escape(w) for w in workloads) +
               ")/(reference|onnxruntime|memcpy|static_checks)(/real_time)?$")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.json")
        run = subprocess.run([args.bench, "--benchmark_filter=" + pattern,
                              "--benchmark_min_time=" + args.min_time,
                              "--benchmark_repetitions=%d" % args.repetitions,
                              "--benchmark_report_aggregates_only=true",
                              "--benchmark_format=json", "--benchmark_out=" + out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             universal_newlines=True)
        if run.returncode != 0 or not os.path.exists(out):
            print("seqconf-bench failed (exit %d): %s" % (run.returncode, run.stderr[-2000:]))
            return 1
        # Medians by name (without "/real_time") for each clock, read as bench/ratios.py reads them.
        medians = {clock: ratios.load(out, clock == "real")[1] for clock in ("cpu", "real")}
    load = os.getloadavg()
    print("load average %.2f %.2f %.2f; margin %.0f%% unless a target says; medians of %d" % (
        load[0], load[1], load[2], 100 * margin, args.repetitions))
    if not any(name.endswith("/onnxruntime") for name in medians["cpu"]):
        print("skipped: no ONNX Runtime measurement (is it installed?)")
        return 77
    failed = 0
    for t in gated:
        clock = t.get("time", "cpu")
        num = medians[clock].get("/".join(t["numerator"]))
        den = medians[clock].get("/".join(t["denominator"]))
        if num is None or den is None or den <= 0:
            print("FAIL  %s: not measured" % t["id"])
            failed += 1
            continue
        ratio, floor = num / den, t["at_least"] * (1 - t.get("margin", margin))
        ok = ratio >= floor
        failed += not ok
        print("%s  %s: %.2fx (%s time; target %gx, fails below %gx)" % (
            "pass" if ok else "FAIL", t["id"], ratio, clock, t["at_least"], floor))
    print("%d passed, %d failed" % (len(gated) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
