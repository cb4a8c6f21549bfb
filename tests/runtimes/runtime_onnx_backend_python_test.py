#!/usr/bin/python3
"""End-to-end check of adapters/onnx-backend-python with numpy_backend.NumpyBackend (about 10 s).

Runs `seqconf run --runtime 'process=/usr/bin/python3 <adapter> numpy_backend:NumpyBackend'` on
the corpus cases with graph inputs (context=inputs) of SequenceAt, SequenceInsert, SequenceErase
and SplitToSequence, plus the SequenceMap body=shape cases, and checks each case's status
against the one derived from its ID:

  - SequenceAt with a negative position: the backend clamps it to 0 (its deliberate departure),
    so it returns item 0 where the spec reads item p + n, and returns item 0 where the spec
    rejects p < -n. The case fails unless both agree: n = 0 (both reject) or p + n = 0.
  - bfloat16 outside SplitToSequence-24 (IDs with dtype=bfloat16 and no opset=24): the type
    constraints exclude it, but the backend checks no types and computes: fail (accepted);
  - every other case of the four operators passes, in every dtype of the corpus (numpy holds
    them all; strings as object arrays, bfloat16 widened to float32 by numpy_helper and
    narrowed back by the adapter);
  - SequenceMap is not in the backend: not_supported (NotImplementedError);
  - strings arrive as the bytes they are and come back unchanged: the string edge values
    (values=edge: "tail\\0", "\\0", "nul\\0inside") and bits values (values=bits: bytes that
    are not UTF-8, such as b"\\xff\\xfe") pass like any other value;
  - then the backend with each of numpy_backend's lossy copies (SEQCONF_LOSSY_COPY): at least
    10 of the cases of context=inputs that passed fail with the reason that names the loss.

  runtime_onnx_backend_python_test.py SEQCONF SOURCE_DIR WORKDIR
Exits 77 (skipped) when onnx or numpy cannot be imported.
"""
import json
import os
import subprocess
import sys

try:
    import numpy  # noqa: F401
    import onnx  # noqa: F401
except ImportError as exc:
    print("skipped: %s (install python3-onnx)" % exc)
    sys.exit(77)

SEQCONF, SOURCE, WORK = sys.argv[1:4]
ADAPTER = os.path.join(SOURCE, "adapters", "onnx-backend-python", "adapter.py")
BACKEND_DIR = os.path.join(SOURCE, "tests", "runtimes")
FILTERS = ["corpus/SequenceAt/*context=inputs", "corpus/SequenceInsert/*context=inputs",
           "corpus/SequenceErase/*context=inputs", "corpus/SplitToSequence/*context=inputs",
           "corpus/SequenceMap/body=shape/*context=inputs"]
failures = []


def check(cond, what):
    if not cond:
        print("FAIL: " + what)
        failures.append(what)


def params(case_id):
    """corpus/Op/k=v/k=v -> (Op, {k: v})"""
    parts = case_id.split("/")
    return parts[1], dict(p.split("=", 1) for p in parts[2:])


def spec_position(token, n):
    """The position class of an ID (-1, -n, -n-1, mid, n+1, ...) as a number."""
    if token == "mid":
        return n // 2
    return eval(token, {"__builtins__": {}, "n": n})  # -1, -n, -n-1, n-1, n, n+1, 0, 1


def expected_status(case_id):
    op, p = params(case_id)
    if op == "SequenceMap":
        return "not_supported"
    if p.get("dtype") == "bfloat16" and p.get("opset") != "24":
        return "fail"  # the backend checks no type constraint
    if op == "SequenceAt" and p.get("position") not in (None, "default"):
        reaches_position = (p.get("ptype") in ("int32", "int64")
                            and p.get("pshape", "1") == "1")  # else rejected before
        n = int(p["n"])
        position = spec_position(p["position"], n)
        if reaches_position and position < 0 and n > 0 and position + n != 0:
            return "fail"  # clamped to 0: item 0 instead of item p + n, or instead of rejecting
    return "pass"


os.makedirs(WORK, exist_ok=True)
report = os.path.join(WORK, "onnx-backend-python.json")
env = dict(os.environ, PYTHONPATH=BACKEND_DIR)
command = [SEQCONF, "run", "--runtime",
           "process=%s %s numpy_backend:NumpyBackend" % (sys.executable, ADAPTER),
           "--source", "corpus", "--corpus", os.path.join(SOURCE, "fixtures", "corpus"),
           "--report", report]
for f in FILTERS:
    command += ["--filter", f]
run = subprocess.run(command, env=env, cwd=WORK, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, universal_newlines=True)
summary = [line for line in run.stdout.splitlines() if " cases: " in line]
print(summary[0] if summary else run.stdout[-2000:])
check(os.path.exists(report), "seqconf wrote no report (exit %d): %s"
      % (run.returncode, run.stderr[-2000:]))
if failures:
    sys.exit(1)

with open(report) as f:
    r = json.load(f)
check(r["runtime"]["name"] == "NumpyBackend" and r["runtime"]["version"] == "0.1",
      "handshake name and version: %s" % r["runtime"])
cases = r["cases"]
ops = {params(c["id"])[0] for c in cases}
check(ops == {"SequenceAt", "SequenceInsert", "SequenceErase", "SplitToSequence",
              "SequenceMap"}, "operators run: %s" % sorted(ops))
counts = {}
for c in cases:
    want = expected_status(c["id"])
    counts[want] = counts.get(want, 0) + 1
    check(c["status"] == want, "%s: %s, expected %s (%s)" % (c["id"], c["status"], want,
                                                            c["message"][:200]))
    if want == "fail":
        # The clause of the departure: the position's, or the type constraint's for bfloat16.
        clause = ("SplitToSequence.input_types" if c["id"].startswith("corpus/SplitToSequence/")
                  else "SequenceMap.sequence_types" if c["id"].startswith("corpus/SequenceMap/")
                  else "position.")
        if "dtype=bfloat16" not in c["id"]:
            clause = "position."
        check(any(k.startswith(clause) for k in c["clauses"]),
              "%s: the failure names the clause %s: %s" % (c["id"], clause, c["clauses"]))
print("expected: %s" % ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())))
check(counts.get("fail", 0) > 0 and counts.get("pass", 0) > 0, "both sides are exercised")
# The strings that numpy's str arrays or a UTF-8 decoding would change are among the cases run.
for values in ("edge", "bits"):
    hard = [c for c in cases if "dtype=string" in c["id"] and "values=%s" % values in c["id"]
            and c["id"].split("/")[1] != "SequenceMap"]
    check({params(c["id"])[0] for c in hard} == {"SequenceAt", "SequenceInsert", "SequenceErase",
                                                "SplitToSequence"},
          "string values=%s cases run: %s" % (values, [c["id"] for c in hard]))

# The same backend, right but for one lossy copy of its outputs (numpy_backend's
# SEQCONF_LOSSY_COPY): each loss turns at least 10 cases of context=inputs that pass above into
# failures, with the reason that names the loss (a scaled value that overflows to infinity is a
# wrong value; float16's low bits dropped from a subnormal flush it or move it past the
# tolerance).
LOSSES = {
    "negative_zero": {"zero_sign_changed"},
    "nan": {"nan_changed"},
    "subnormal": {"subnormal_flushed"},
    "scale": {"bits_changed", "value_mismatch"},
    "float16": {"bits_changed", "value_mismatch", "subnormal_flushed"},
}
passed = {c["id"] for c in cases if c["status"] == "pass" and c["context"] == "inputs"}
for loss, reasons in sorted(LOSSES.items()):
    lossy_report = os.path.join(WORK, "lossy-%s.json" % loss)
    lossy_command = [a for a in command]
    lossy_command[lossy_command.index("--report") + 1] = lossy_report
    subprocess.run(lossy_command, env=dict(env, SEQCONF_LOSSY_COPY=loss), cwd=WORK,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    with open(lossy_report) as f:
        lossy_cases = json.load(f)["cases"]
    flagged = [c for c in lossy_cases if c["id"] in passed and c["status"] != "pass"]
    named = [c for c in flagged if c["status"] == "fail" and c["reason"] in reasons]
    print("lossy copy %s: %d cases of context=inputs flagged, %d by %s"
          % (loss, len(flagged), len(named), "/".join(sorted(reasons))))
    check(len(named) >= 10, "lossy copy %s flagged only %d cases with %s" % (loss, len(named), reasons))
    check(len(named) == len(flagged), "lossy copy %s: other reasons: %s" % (
        loss, sorted({c["reason"] for c in flagged} - reasons)))
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok: %d cases as expected" % len(cases))
