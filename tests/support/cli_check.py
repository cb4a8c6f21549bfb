"""What the end-to-end tests of the CLI share: run seqconf, check a condition and remember the
failures, and read and write JSON in the test's work folder.

    sys.path.insert(0, <tests/support>); from cli_check import CliCheck
    t = CliCheck(seqconf, work)      # work is emptied
    rc, out = t.run("diff", t.path("a.json"), t.path("b.json"))
    t.check(rc == 0, "no change")
    sys.exit(t.finish())
"""
import json
import os
import shutil
import subprocess


class CliCheck:
    def __init__(self, seqconf, work, fresh=True):
        self.seqconf = seqconf
        self.work = work
        self.failures = []
        if fresh:
            shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work, exist_ok=True)

    def check(self, cond, what):
        print(("ok:   " if cond else "FAIL: ") + what)
        if not cond:
            self.failures.append(what)
        return cond

    def run(self, *args, timeout=600):
        """seqconf ARGS: (exit code, stdout + stderr)."""
        p = subprocess.run([self.seqconf, *args], capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr

    def path(self, name):
        return os.path.join(self.work, name)

    def load(self, name):
        with open(self.path(name), encoding="utf-8") as f:
            return json.load(f)

    def save(self, name, doc):
        with open(self.path(name), "w", encoding="utf-8") as f:
            json.dump(doc, f)

    def finish(self):
        """Prints the count of failures; the exit code of the test."""
        print(f"{len(self.failures)} failure(s)")
        return 1 if self.failures else 0
