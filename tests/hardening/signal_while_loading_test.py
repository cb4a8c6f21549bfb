#!/usr/bin/python3
"""SIGTERM to `seqconf run` at moments from its first fifth of a second on, for one source:
while it selects and loads the cases as well as while it runs them. Each run must end with
exit code 0 (it finished before the signal) or 1 (interrupted), never be killed by the signal
(143), and leave a report that the report schema accepts; an interrupted one says complete:
false and counts no more cases than it selected. Under the sanitizers (SEQCONF_SANITIZED, set by
tools/sanitize.sh) the program takes several times as long to start and to load, so every
moment is three times as late: a signal before main() has installed its handlers kills any
program.

  signal_while_loading_test.py SEQCONF SCHEMA WORKDIR SOURCE [seqconf run options...]
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

seqconf, schema_path, work, source = sys.argv[1:5]
extra = sys.argv[5:]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

try:
    import jsonschema

    with open(schema_path) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
except ImportError:
    validator = None
    print("note: python3-jsonschema is not installed; reports are read, not validated")

failures = []
interrupted = 0
scale = 3.0 if os.environ.get("SEQCONF_SANITIZED") else 1.0
for delay in (round(scale * d, 2) for d in (0.2, 0.5, 1.0, 1.5, 3.0)):
    report = os.path.join(work, f"report-{delay}.json")
    cmd = [seqconf, "run", "--source", source, "--report", report, *extra]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        failures.append(f"{delay} s: still running 60 s after SIGTERM")
        continue
    text = out.decode(errors="replace")
    if p.returncode not in (0, 1):
        failures.append(f"{delay} s: exit code {p.returncode} (0 or 1 expected); output: "
                        f"{text[-300:]!r}")
        continue
    if not os.path.exists(report):
        failures.append(f"{delay} s: no report written (exit code {p.returncode})")
        continue
    with open(report) as f:
        r = json.load(f)
    if validator:
        errors = list(validator.iter_errors(r))
        if errors:
            failures.append(f"{delay} s: the report breaks the schema: {errors[0].message}")
    if p.returncode == 1:
        interrupted += 1
        if r["complete"] is not False:
            failures.append(f"{delay} s: exit code 1 but the report says complete: true")
        if "interrupted by signal 15" not in text:
            failures.append(f"{delay} s: the console does not say the run was interrupted")
    elif r["complete"] is not True:
        failures.append(f"{delay} s: exit code 0 with an incomplete report")
    print(f"SIGTERM at {delay} s: exit code {p.returncode}, {r['summary']['total']} cases, "
          f"complete {r['complete']}")

if interrupted == 0:
    failures.append("no run was interrupted: the signals all came after the end")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
