#!/usr/bin/python3
"""One seqconf run against the hostile process runtime (hostile_runtime.py) in one mode.

  hostile_runtime_test.py SEQCONF MODE WORKDIR [--filter ID]...

Runs `seqconf run --source onnx-backend --timeout-ms 3000` with JSON, HTML and JUnit reports,
TMPDIR pointing to WORKDIR/scratch, and checks:
  - seqconf ends by itself with exit code 0 or 1 (not 2, not a signal);
  - the reports are valid (tests/reports/validate_reports.py), the JSON one complete, with every
    selected case, and the statuses the mode allows (never pass for a hostile answer);
  - the canary file (the outside_file answer names it; it holds the expected output of
    simple/test_sequence_model7) is byte-identical afterwards;
  - files: in WORKDIR nothing is created or removed but the three reports, the runtime's log and
    what is under scratch/; each seqconf-process-* folder the runtime saw a request from is
    under TMPDIR (scratch/) and gone; /tmp/pwned does not exist. (/tmp as a whole is not
    compared: other tests and builds write there at the same time; new /tmp entries are listed
    for information.)
  - the HTML holds the hostile strings only escaped (no raw `<script>alert`), and the console
    output holds no control character but newline and tab (ANSI escapes shown as "\x1b[31m");
  - no process of the run is left (pgrep on the runtime's command line, which holds WORKDIR);
  - seqconf's peak memory (RUSAGE_CHILDREN) stays under 256 MiB, also after a 50 MB flood.
Exit 0 when every check holds, 1 otherwise.
"""
import collections
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTDATA = os.environ.get("SEQCONF_ONNX_TESTDATA", "/usr/share/libonnx-testdata/data")
CANARY_SOURCE = os.path.join(TESTDATA, "simple/test_sequence_model7/test_data_set_0/output_0.pb")

# Statuses each mode may give; pass is never one of them.
ALLOWED = {
    "segfault": {"crash"},
    "hang": {"timeout"},
    "exit0": {"crash"},
    "garbage": {"error"},
    "random_output": {"error", "fail"},
    "tensor_for_sequence": {"error", "fail"},
    "huge_tensor": {"error"},
    "flood": {"error"},
    "outside_file": {"error", "fail"},
    "hostile_messages": {"error", "not_supported"},
    "fifo_output": {"error"},
    "dev_zero": {"error"},
    "trickle": {"timeout"},
    "cycle": {"crash", "timeout", "error", "fail", "not_supported"},
}
# Text every case's message must hold.
MESSAGE = {
    "segfault": "SIGSEGV",
    "hang": "gave no answer within 3000 ms",
    "exit0": "exited with status 0",
    "garbage": "the real answer came after the garbage",
    "huge_tensor": "exceeds the limit",
    # 25 MB of 1 MiB stray lines are skipped, then a 25 MB line is cut at 16 MiB and the runtime
    # killed: no answer of the protocol is that long.
    "flood": "wrote a line longer than 16777216 bytes",
    "hostile_messages": "<script>alert(1)</script>",
    "fifo_output": "is not a regular file",
    "dev_zero": "is not a regular file",
    "trickle": "gave no answer within 3000 ms",
}
# The reason every case of the mode must carry.
REASON = {
    # The suite's size limit, not a fault of the runtime: for valid and must-reject cases alike.
    "huge_tensor": "limit_exceeded",
}
# Under AddressSanitizer (tools/sanitize.sh sets ASAN_OPTIONS) the same run takes about 4x the
# memory (shadow memory, quarantine), so the bound is looser there.
MAX_RSS_KIB = (1024 if "ASAN_OPTIONS" in os.environ else 256) * 1024


def listing(top):
    found = set()
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            found.add(os.path.relpath(os.path.join(d, n), top))
    return found


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    seqconf, mode, work = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    filters = sys.argv[4:]
    problems = []

    def check(ok, what):
        if not ok:
            problems.append(what)

    shutil.rmtree(work, ignore_errors=True)
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch)
    canary = os.path.join(work, "canary.pb")
    shutil.copyfile(CANARY_SOURCE, canary)
    canary_hash = sha256(canary)
    with open(os.path.join(work, "bystander.txt"), "w") as f:
        f.write("must stay\n")
    log = os.path.join(work, "requests.log")
    report, html, junit = (os.path.join(work, "report." + e) for e in ("json", "html", "xml"))
    check(not os.path.exists("/tmp/pwned"), "/tmp/pwned exists before the run")

    before = listing(work)
    tmp_before = set(os.listdir("/tmp"))
    runtime = "/usr/bin/python3 %s %s %s" % (os.path.join(HERE, "hostile_runtime.py"), mode, canary)
    cmd = [seqconf, "run", "--runtime", "process=" + runtime, "--source", "onnx-backend",
           "--timeout-ms", "3000", "--report", report, "--html", html, "--junit", junit]
    for f in filters:
        cmd += ["--filter", f]
    env = dict(os.environ, TMPDIR=scratch, HOSTILE_LOG=log)
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300)
    seconds = time.monotonic() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = proc.stdout.decode("utf-8", "replace")
    print(out[-3000:])
    print("mode %s: seqconf exit code %d after %.1f s, peak RSS %d KiB"
          % (mode, proc.returncode, seconds, rss))

    check(proc.returncode in (0, 1), "exit code %d, expected 0 or 1" % proc.returncode)
    check(rss < MAX_RSS_KIB, "peak RSS %d KiB over %d KiB" % (rss, MAX_RSS_KIB))

    # Processes: the runtime's command line holds WORKDIR (through the canary path).
    for _ in range(50):
        left = subprocess.run(["pgrep", "-af", "hostile_runtime.py %s %s" % (mode, canary)],
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        if not left:
            break
        time.sleep(0.1)
    check(not left, "processes of the run left 5 s after it ended:\n" + left)

    # Reports.
    validate = subprocess.run([sys.executable, os.path.join(ROOT, "tests/reports/validate_reports.py"),
                               os.path.join(ROOT, "reports/seqconf-report.schema.json"), report,
                               junit], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(validate.stdout.strip())
    check(validate.returncode == 0, "the reports are not valid")
    doc = json.load(open(report, encoding="utf-8")) if os.path.exists(report) else {}
    cases = doc.get("cases", [])
    check(doc.get("complete") is True, "the report is not complete: true")
    expected_count = len(filters) if filters else 26
    check(len(cases) == expected_count, "%d cases, expected %d" % (len(cases), expected_count))
    print("statuses:", dict(collections.Counter(c["status"] for c in cases)))
    for c in cases:
        print("  %-9s %s  %s" % (c["status"], c["id"], c.get("message", "")[:150].encode(
            "unicode_escape").decode()))
        check(c["status"] in ALLOWED[mode], "%s: status %s, allowed %s"
              % (c["id"], c["status"], sorted(ALLOWED[mode])))
        if mode in MESSAGE:
            check(MESSAGE[mode] in c.get("message", ""),
                  "%s: the message lacks %r" % (c["id"], MESSAGE[mode]))
        if mode in REASON:
            check(c.get("reason") == REASON[mode],
                  "%s: reason %s, expected %s" % (c["id"], c.get("reason"), REASON[mode]))

    # The canary.
    check(os.path.exists(canary) and sha256(canary) == canary_hash, "the canary file changed")

    # Files.
    after = listing(work)
    owned = {"report.json", "report.html", "report.xml", "requests.log", "scratch"}
    created = sorted(p for p in after - before
                     if p not in owned and not p.startswith("scratch" + os.sep))
    removed = sorted(before - after)
    check(not created, "files created outside the scratch folder: %s" % created)
    check(not removed, "files removed: %s" % removed)
    under_scratch = sorted(p for p in after if p.startswith("scratch" + os.sep))
    print("left under scratch/:", under_scratch or "nothing")
    work_dirs = set()
    if os.path.exists(log):
        for line in open(log):
            work_dirs.add(os.path.dirname(os.path.dirname(line.strip())))
    for d in sorted(work_dirs):
        check(not os.path.exists(d), "the runtime's work folder %s is still there" % d)
        check(d.startswith(scratch + os.sep), "the runtime's work folder %s is not under TMPDIR" % d)
    print("runtime work folders seen (all must be gone):", sorted(work_dirs))
    print("new /tmp entries (not attributed, for information):",
          sorted(set(os.listdir("/tmp")) - tmp_before))
    check(not os.path.exists("/tmp/pwned"), "/tmp/pwned was created")

    # The HTML shows the hostile strings as text.
    page = open(html, encoding="utf-8", errors="replace").read() if os.path.exists(html) else ""
    check("<script>alert" not in page, "the HTML holds a raw <script>alert")
    if mode in ("hostile_messages", "cycle"):
        check("&lt;script&gt;alert(1)&lt;/script&gt;" in page,
              "the HTML does not show the escaped <script> message")

    # The console shows the hostile strings as text: no ESC or other control byte reaches it.
    controls = sorted({b for b in proc.stdout if (b < 0x20 and b not in (9, 10)) or b == 0x7f})
    check(not controls, "the console output holds control bytes %s" % [hex(b) for b in controls])
    if mode in ("hostile_messages", "cycle"):
        check("\\x1b[31mred" in out, "the console does not show the ANSI escape as text")

    for p in problems:
        print("FAILED:", p)
    print("mode %s: %s" % (mode, "FAILED" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
