#!/usr/bin/python3
"""SIGTERM to `seqconf run` at moments from its first fifth of a second on, for one source:
while it selects and loads the cases as well as while it runs them. Each run must end with
exit code 0 (it finished before the signal) or 1 (interrupted), never be killed by the signal
(143), and leave a report that the report schema accepts; an interrupted one says complete:
false and counts no more cases than it selected. Under the sanitizers (SEQCONF_SANITIZED, set by
tools/sanitize.sh) the program takes several times as long to start and to load, so every
moment is three times as late: a signal before main() has installed its handlers kills any
program.

At least one signal must come while the cases load, and this is seen, not assumed: inotify
watches the case folders of a copy of FOLDER that only these runs read, and right after the
signal is sent the test opens a file of its own in a watched folder. A case.json (read while the
cases load, not while they run) that the run opens after that mark was read after the signal;
such a run must end interrupted with no case run. One signal is sent as soon as the run has opened its first case.json, whatever the
machine's speed, and must find case.json files opened both before and after it.

  signal_while_loading_test.py SEQCONF SCHEMA WORKDIR SOURCE FOLDER [seqconf run options...]
    SOURCE corpus or exported, read from FOLDER (--corpus or --exported FOLDER)
"""
import ctypes
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

seqconf, schema_path, work, source, fixtures = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


# The run reads a copy of its own (hard links where the file system allows): inotify cannot tell
# who opened a file, and other tests read the fixtures at the same time.
folder = os.path.join(work, "cases")
shutil.copytree(fixtures, folder, copy_function=link_or_copy)
extra = ["--" + source, folder, *sys.argv[6:]]

IN_OPEN, IN_Q_OVERFLOW, IN_ISDIR = 0x20, 0x4000, 0x40000000
# Read while the cases are selected and loaded, and not again while they run (model.onnx is).
CASE_FILES = (b"case.json",)


class Opens:
    """The files opened in the watched folders, in the order they were opened (one inotify queue
    keeps the order across folders), read by a thread so that the queue never fills up."""

    def __init__(self, folders):
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(os.O_CLOEXEC)
        if self.fd < 0:
            sys.exit(f"FAILED: inotify_init1: {os.strerror(ctypes.get_errno())}")
        for d in folders:
            if libc.inotify_add_watch(self.fd, os.fsencode(d), IN_OPEN) < 0:
                sys.exit(f"FAILED: inotify_add_watch {d}: {os.strerror(ctypes.get_errno())} "
                         f"({len(folders)} folders; /proc/sys/fs/inotify/max_user_watches)")
        self.names = []  # file names, b"" for a folder itself
        self.overflowed = False
        self.seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            buf = os.read(self.fd, 1 << 16)
            at, names = 0, []
            while at < len(buf):
                _, mask, _, length = struct.unpack_from("iIII", buf, at)
                name = buf[at + 16:at + 16 + length].rstrip(b"\0")
                at += 16 + length
                if mask & IN_Q_OVERFLOW:
                    self.overflowed = True
                elif not mask & IN_ISDIR:
                    names.append(name)
            with self.seen:
                self.names += names
                self.seen.notify_all()

    def mark(self, name):
        """Opens WORK/name (watched); its place among the events is now."""
        open(os.path.join(work, name), "w").close()

    def wait_for_case_file(self, after, timeout):
        """Waits until a case file is opened after mark `after`; False when none was in time."""
        mark = after.encode()

        def opened_after():
            # The mark's own event may not have been read yet.
            if mark not in self.names:
                return False
            return any(n in CASE_FILES for n in self.names[self.names.index(mark) + 1:])

        with self.seen:
            return self.seen.wait_for(opened_after, timeout=timeout)

    def between(self, first, last):
        """The names opened after mark `first` and before mark `last` (waits for `last`)."""
        with self.seen:
            if not self.seen.wait_for(lambda: last.encode() in self.names, timeout=30):
                return None
            names = self.names
            return names[names.index(first.encode()) + 1:names.index(last.encode())]


case_folders = [d for d, _, files in os.walk(folder) if any(f.encode() in CASE_FILES for f in files)]
opens = Opens([work, *case_folders])
print(f"watching case.json in {len(case_folders)} folders")

try:
    import jsonschema

    with open(schema_path) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
except ImportError:
    validator = None
    print("note: python3-jsonschema is not installed; reports are read, not validated")

failures = []
interrupted = 0
while_loading = 0
scale = 3.0 if os.environ.get("SEQCONF_SANITIZED") else 1.0
# The moments: at the first case file the run opens, which is within the loading whatever the
# machine's speed, then at fixed times.
moments = [None, *(round(scale * d, 2) for d in (0.2, 0.5, 1.0, 1.5, 3.0))]
for delay in moments:
    label = "first case file" if delay is None else f"{delay} s"
    tag = "first" if delay is None else str(delay)
    report = os.path.join(work, f"report-{tag}.json")
    cmd = [seqconf, "run", "--source", source, "--report", report, *extra]
    opens.mark(f"started-{tag}")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if delay is None:
        if not opens.wait_for_case_file(f"started-{tag}", timeout=60):
            failures.append(f"{label}: no case file opened within 60 s")
    else:
        time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    opens.mark(f"sent-{tag}")
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        failures.append(f"{label}: still running 60 s after SIGTERM")
        continue
    opens.mark(f"ended-{tag}")
    before = opens.between(f"started-{tag}", f"sent-{tag}")
    after = opens.between(f"sent-{tag}", f"ended-{tag}")
    if before is None or after is None or opens.overflowed:
        failures.append(f"{label}: the file opens were not all seen (inotify)")
        before, after = [], []
    read_before = sum(1 for name in before if name in CASE_FILES)
    read_after = sum(1 for name in after if name in CASE_FILES)
    text = out.decode(errors="replace")
    # A signal that comes before the program has started (its static initialisation, slow under
    # the sanitizers on a loaded machine: nothing printed, no case file opened) ends it as the
    # signal's default action does; there is no run to report yet.
    if p.returncode == -signal.SIGTERM and not text and read_before == 0 and delay is not None:
        print(f"{label}: SIGTERM came before the program started (no output, no case file)")
        continue
    if p.returncode not in (0, 1):
        failures.append(f"{label}: exit code {p.returncode} (0 or 1 expected); output: "
                        f"{text[-300:]!r}")
        continue
    if not os.path.exists(report):
        failures.append(f"{label}: no report written (exit code {p.returncode})")
        continue
    with open(report) as f:
        r = json.load(f)
    if validator:
        errors = list(validator.iter_errors(r))
        if errors:
            failures.append(f"{label}: the report breaks the schema: {errors[0].message}")
    if p.returncode == 1:
        interrupted += 1
        if r["complete"] is not False:
            failures.append(f"{label}: exit code 1 but the report says complete: true")
        if "interrupted by signal 15" not in text:
            failures.append(f"{label}: the console does not say the run was interrupted")
    elif r["complete"] is not True:
        failures.append(f"{label}: exit code 0 with an incomplete report")
    # Case files read both before and after the signal: it came while they were loading.
    if read_before and read_after:
        while_loading += 1
    if read_after and (p.returncode != 1 or r["summary"]["total"] != 0):
        failures.append(f"{label}: the signal came before the cases were all loaded, yet exit "
                        f"code {p.returncode} with {r['summary']['total']} cases run (1 and 0 "
                        "expected)")
    if delay is None and not (read_before and read_after):
        failures.append(f"{label}: the signal did not fall within the loading ({read_before} case.json "
                        f"opened before it, {read_after} after)")
    print(f"SIGTERM at {label}: exit code {p.returncode}, {r['summary']['total']} cases, "
          f"complete {r['complete']}; case.json opened {read_before} before the signal, "
          f"{read_after} after")

if interrupted == 0:
    failures.append("no run was interrupted: the signals all came after the end")
if while_loading == 0:
    failures.append("no signal came while the cases were loading (case.json opened both "
                    "before and after it)")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
