#!/usr/bin/python3
"""Ratio table from one seqconf-bench run.

Usage:
  seqconf-bench --benchmark_repetitions=5 --benchmark_format=json --benchmark_out=bench.json
  bench/ratios.py bench.json [--real] [--markdown]

For each workload (<op>/<workload>): the reference's time, ONNX Runtime's time, ORT / reference
(how many times faster the reference is), and each runtime's time over memcpy of the same bytes.
With repetitions the medians are used. Times are CPU time unless --real (the machine may be
shared: CPU time of these single-threaded runs is the steadier figure). Then the performance
targets, each with its figures and pass / MISS.
"""
import argparse
import json
import os
import re
import sys

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path, real):
    with open(path) as f:
        data = json.load(f)
    key = "real_time" if real else "cpu_time"
    medians, runs, extra = {}, {}, {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        # Harness rows are timed in real time: their names end in /real_time.
        name = re.sub(r"/real_time$", "", b.get("run_name", b["name"]))
        seconds = b[key] * UNIT[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = seconds
                if "items_per_second" in b:
                    extra[name] = b
        else:
            runs.setdefault(name, []).append(seconds)
            extra.setdefault(name, b)
    times = {}
    for name, values in runs.items():
        values = sorted(values)
        times[name] = values[len(values) // 2]
    times.update(medians)
    return data.get("context", {}), times, extra


def fmt_time(s):
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def fmt_ratio(r):
    return "-" if r is None else f"{r:.3g}x"


def div(a, b):
    return a / b if a is not None and b else None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("json")
    p.add_argument("--real", action="store_true", help="use real (wall) time, not CPU time")
    p.add_argument("--markdown", action="store_true", help="Markdown table")
    args = p.parse_args()
    context, times, extra = load(args.json, args.real)

    workloads = []
    for name in times:
        w = name.rsplit("/", 1)[0]
        if w not in workloads and not w.startswith("Harness/"):
            workloads.append(w)

    print(f"seqconf-bench {context.get('date', '?')} on {context.get('host_name', '?')}: "
          f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz, "
          f"load average {context.get('load_avg', '?')}; ONNX Runtime "
          f"{context.get('onnxruntime', '?')}; {'real' if args.real else 'CPU'} time, medians")
    header = ["workload", "reference", "onnxruntime", "ORT/ref", "ref/memcpy", "ORT/memcpy"]
    rows = []
    for w in workloads:
        ref, ort, mem = (times.get(f"{w}/{r}") for r in ("reference", "onnxruntime", "memcpy"))
        rows.append([w, fmt_time(ref), fmt_time(ort), fmt_ratio(div(ort, ref)),
                     fmt_ratio(div(ref, mem)), fmt_ratio(div(ort, mem))])
    for name, b in sorted(extra.items()):
        if name.startswith("Harness/") and "items_per_second" in b:
            rows.append([name, f"{b['items_per_second']:.0f} cases/s", "", "", "", ""])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
        for r in [header] + rows:
            print("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                            for i, c in enumerate(r)))

    def t(w, r):
        return times.get(f"{w}/{r}")

    def cases_per_s(source, runtime):
        b = extra.get(f"Harness/{source}/{runtime}")
        return b["items_per_second"] if b else None

    checks = []

    def target(what, value, ok):
        checks.append((what, value, ok))

    def at_least(what, value, bound):
        target(what, fmt_ratio(value), None if value is None else value >= bound)

    # The ratio targets of bench/targets.json (the table bench/gate.py also reads).
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets.json")) as f:
        table = json.load(f)
    real_times = load(args.json, True)[1]
    for tg in table["targets"]:
        clock = tg.get("time", "cpu")
        ts = real_times if clock == "real" else times

        def tt(w, r):
            return ts.get(f"{w}/{r}")

        at_least("%s: %s/%s >= %g (%s time)" % (tg["id"], tg["numerator"][1],
                                                tg["denominator"][1], tg["at_least"], clock),
                 div(tt(*tg["numerator"]), tt(*tg["denominator"])), tg["at_least"])
    # Shape targets, not ratios between runtimes.
    for op in ("SequenceInsert", "SequenceErase"):
        small, big = t(f"{op}/at0_L10000_4KiB", "reference"), t(f"{op}/at0_L10000_64KiB",
                                                                "reference")
        r = div(big, small)
        target(f"{op} L=10000: ref 64KiB/4KiB within 1.5 (cost independent of tensor bytes)",
               fmt_ratio(r), None if r is None else 1 / 1.5 <= r <= 1.5)
    for w in ("half_L1000_4KiB", "half_L10000_4KiB", "half_L1000_64KiB", "half_L10000_64KiB"):
        at_least(f"SequenceAt {w}: ORT/ref >= 1",
                 div(t(f"SequenceAt/{w}", "onnxruntime"), t(f"SequenceAt/{w}", "reference")), 1)
    for body in ("identity", "add"):
        r = div(t(f"SequenceMap/{body}_L10000", "reference"),
                t(f"SequenceMap/{body}_L1000", "reference"))
        target(f"SequenceMap {body}: ref L10000/L1000 <= 12 (linear)", fmt_ratio(r),
               None if r is None else r <= 12)
    for source in ("corpus", "onnx-backend"):
        for runtime, bound in (("reference", 5000), ("onnxruntime", 1000)):
            v = cases_per_s(source, runtime)
            if v is not None:
                target(f"harness {source} on {runtime}: >= {bound} cases/s", f"{v:.0f}/s",
                       v >= bound)
    print("\ntargets:")
    for what, value, ok in checks:
        print(f"  {'-' if ok is None else ('pass' if ok else 'MISS'):4}  {what}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
