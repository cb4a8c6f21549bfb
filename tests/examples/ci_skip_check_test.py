#!/usr/bin/python3
"""`.ci/run --check-skips`: the CI job's check of ctest's JUnit files. It must fail (exit 1, the
test named with the line of its output that says why) on a test skipped by exit code 77, one
GoogleTest skipped, one not run, a file with no test run and a file that is missing, and pass
(exit 0) on a file whose every test ran, failed ones included (a failure is ctest's to report).
The JUnit files are written here in the form ctest 3.25's --output-junit gives.

  ci_skip_check_test.py ROOT WORKDIR
"""
import os
import shutil
import subprocess
import sys

root, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def junit(name, cases):
    path = os.path.join(work, name + ".xml")
    body = "".join(
        f'<testcase name="{n}" classname="{n}" time="0.1" status="{status}">'
        + (f'<skipped message="{skipped}"/>' if skipped else "")
        + f"<system-out>{out}</system-out></testcase>\n"
        for n, status, out, skipped in cases)
    with open(path, "w") as f:
        f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="x" tests="{len(cases)}">\n'
                f"{body}</testsuite>\n")
    return path


def skip_check(*files):
    r = subprocess.run(["bash", os.path.join(root, ".ci/run"), "--check-skips", *files],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


ran = junit("ran", [("a", "run", "ok", ""), ("b", "fail", "assertion failed", "")])
rc, out = skip_check(ran)
check(rc == 0 and "2 of 2 tests ran, 0 skipped or not run" in out,
      f"every test ran (one failed): exit 0 ({rc}: {out})")

by_77 = junit("by_77", [("a", "run", "", ""),
                        ("needs_torch", "notrun", "skip: python3-torch is not installed", "Skipped")])
rc, out = skip_check(by_77)
check(rc == 1 and "needs_torch: notrun: skip: python3-torch is not installed" in out,
      f"a test skipped by exit code 77: exit 1, named with its reason ({rc}: {out})")

gtest = junit("gtest", [("Ort.Runs", "notrun",
                         "test.cpp:12: Skipped\nONNX Runtime is not installed\n[  SKIPPED ] Ort.Runs", "")])
rc, out = skip_check(gtest)
check(rc == 1 and "Ort.Runs: notrun: ONNX Runtime is not installed" in out,
      f"a GoogleTest skip: exit 1, with the line after 'Skipped' ({rc}: {out})")

none = junit("none", [("a", "disabled", "", "")])
rc, out = skip_check(none)
check(rc == 1 and "no test ran" in out, f"a file with no test run: exit 1 ({rc}: {out})")

rc, out = skip_check(os.path.join(work, "missing.xml"))
check(rc == 1 and "cannot read ctest's JUnit file" in out, f"a missing file: exit 1 ({rc}: {out})")

rc, out = skip_check(ran, by_77)
check(rc == 1, f"one bad file among good ones: exit 1 ({rc})")

print(f"{len(fails)} failure(s)")
sys.exit(1 if fails else 0)
