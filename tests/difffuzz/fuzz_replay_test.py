"""The libFuzzer differential target and its replay, end to end (built without libFuzzer as
replay_diff, the same LLVMFuzzerTestOneInput):

  - with $SEQCONF_FUZZ_RUNTIME unset the reference runs against itself: no input aborts;
  - with a seeded defect some of 64 small inputs abort, naming the disagreement;
  - `seqconf fuzz --replay INPUT --runtime SPEC --out DIR` turns such an input into one shrunk
    fixture (exit 1), which fails on the defect and passes on the reference;
  - the same for the encoded programs fuzz_make_seeds writes as seeds of the structural mutator
    (difffuzz/encoding.h): the fixture's reproduce command replays the input.

    fuzz_replay_test.py SEQCONF REPLAY_DIFF MAKE_SEEDS WORK
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from cli_check import CliCheck  # noqa: E402

seqconf, replay, make_seeds, work = sys.argv[1:5]
t = CliCheck(seqconf, work)
defect = "seeded=insert.negative_inserts_after"
inputs = t.path("inputs")
os.makedirs(inputs)
for i in range(64):
    with open(os.path.join(inputs, "in%02d" % i), "wb") as f:
        f.write(bytes([i, 255 - i, i * 7 % 256, 3]))

env = {k: v for k, v in os.environ.items() if k != "SEQCONF_FUZZ_RUNTIME"}
p = subprocess.run([replay, inputs], env=env, capture_output=True, text=True, timeout=600)
t.check(p.returncode == 0 and "64 input(s) ran" in p.stdout,
        "the reference against itself: the 64 inputs run without a disagreement (exit %d) %s"
        % (p.returncode, p.stderr[-300:]))

aborting = []
for name in sorted(os.listdir(inputs)):
    path = os.path.join(inputs, name)
    p = subprocess.run([replay, path], env=dict(env, SEQCONF_FUZZ_RUNTIME=defect),
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        t.check("disagrees with the reference" in p.stderr,
                "%s aborts naming the disagreement: %s" % (name, p.stderr[-300:]))
        aborting.append(path)
t.check(len(aborting) > 0, "%s: %d of 64 inputs abort" % (defect, len(aborting)))

# Encoded programs: the seeds of the structural mutator.
seeds = t.path("seeds")
p = subprocess.run([make_seeds, seeds], capture_output=True, text=True, timeout=600)
programs = os.path.join(seeds, "diff")
count = len(os.listdir(programs)) if os.path.isdir(programs) else 0
t.check(p.returncode == 0 and count == 100,
        "fuzz_make_seeds writes 100 encoded programs (exit %d, %d) %s"
        % (p.returncode, count, p.stderr[-300:]))
p = subprocess.run([replay, programs], env=env, capture_output=True, text=True, timeout=600)
t.check(p.returncode == 0 and "100 input(s) ran" in p.stdout,
        "the reference against itself on the encoded programs: no disagreement (exit %d) %s"
        % (p.returncode, p.stderr[-300:]))
encoded_aborting = []
for name in sorted(os.listdir(programs)) if count else []:
    path = os.path.join(programs, name)
    p = subprocess.run([replay, path], env=dict(env, SEQCONF_FUZZ_RUNTIME=defect),
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        encoded_aborting.append(path)
t.check(len(encoded_aborting) > 0,
        "%s: %d of 100 encoded programs abort" % (defect, len(encoded_aborting)))
if encoded_aborting:
    out = t.path("encoded-fixture")
    rc, text = t.run("fuzz", "--replay", encoded_aborting[0], "--runtime", defect, "--out", out)
    t.check(rc == 1 and "NEW " in text and "smallest: elem=" in text,
            "--replay decodes the program and finds it again (exit %d): %s" % (rc, text[-300:]))
    folders = os.listdir(out) if os.path.isdir(out) else []
    t.check(len(folders) == 1, "one fixture written: %s" % folders)
    if len(folders) == 1:
        with open(os.path.join(out, folders[0], "case.json")) as f:
            reproduce = json.load(f).get("reproduce", "")
        t.check("--replay " + encoded_aborting[0] in reproduce,
                "its reproduce command replays the input: %s" % reproduce)

if aborting:
    out = t.path("fixture")
    rc, text = t.run("fuzz", "--replay", aborting[0], "--runtime", defect, "--out", out)
    t.check(rc == 1 and "NEW " in text, "--replay finds it again (exit %d): %s" % (rc, text[-300:]))
    folders = os.listdir(out) if os.path.isdir(out) else []
    t.check(len(folders) == 1, "one fixture written: %s" % folders)
    rc, text = t.run("run", "--runtime", defect, "--source", "corpus", "--corpus", out)
    t.check(rc == 1, "the fixture fails on the defect (exit %d)" % rc)
    rc, text = t.run("run", "--runtime", "reference", "--source", "corpus", "--corpus", out)
    t.check(rc == 0, "the fixture passes on the reference (exit %d)" % rc)

rc, text = t.run("fuzz", "--runtime", "reference", "--out", t.path("x"))
t.check(rc == 2 and "--seed or --replay" in text, "neither --seed nor --replay: usage error")
sys.exit(t.finish())
