#!/usr/bin/python3
"""Keeps examples/ci/seqconf.yml working: parses the workflow (YAML) and checks its shape, then
runs its seqconf steps here, in job order, for the reference (every shard of the matrix):

  - the conformance job: one run per shard; the merge job: the shards merged into a report with
    as many cases as the unsharded run, its JUnit and HTML written where the upload step looks;
  - the diff step without a baseline passes with a notice; with the merged report as baseline it
    exits 0; with one case turned from pass into fail in the new report it exits 1 (the job
    fails) naming the regression;
  - the history job writes its page and JSON with a column for the reference.

Steps that only exist on GitHub (uses: actions/...) are not run.

  ci_workflow_test.py SEQCONF SOURCE_DIR WORKDIR
"""
import copy
import os
import re
import subprocess
import sys

import yaml

SEQCONF, SOURCE, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_check import CliCheck  # noqa: E402

t = CliCheck(SEQCONF, WORK)
check, run, path, load, save = t.check, t.run, t.path, t.load, t.save

with open(os.path.join(SOURCE, "examples", "ci", "seqconf.yml"), encoding="utf-8") as f:
    wf = yaml.safe_load(f)

jobs = wf["jobs"]
check(list(jobs) == ["conformance", "merge", "history"], f"jobs: {list(jobs)}")
matrix = jobs["conformance"]["strategy"]["matrix"]
shards = int(wf["env"]["SHARDS"])
check("reference" in matrix["runtime"] and len(matrix["runtime"]) >= 2,
      f"a matrix of runtimes: {matrix['runtime']}")
check(matrix["shard"] == list(range(1, shards + 1)), f"shards 1..{shards}: {matrix['shard']}")
check(jobs["merge"]["needs"] == "conformance" and jobs["history"]["needs"] == "merge",
      "merge after conformance, history after merge")


def steps_running(job, needle):
    return [s for s in jobs[job]["steps"] if needle in s.get("run", "")]


def uploads(job):
    return [s["with"]["path"] for s in jobs[job]["steps"]
            if s.get("uses", "").startswith("actions/upload-artifact")]


check(len(steps_running("merge", '"$SEQCONF" diff')) == 1, "the merge job diffs")
check(any("seqconf-out/merged" in p for p in uploads("merge")),
      f"the merge job uploads the merged JUnit and HTML: {uploads('merge')}")
check(len(steps_running("history", '"$SEQCONF" history')) == 1, "the history job runs history")


def env_for(job, values):
    env = dict(os.environ)
    for scope in (wf.get("env", {}), jobs[job].get("env", {})):
        for k, v in scope.items():
            env[k] = re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(values[m.group(1)]),
                            str(v))
    env.update(SEQCONF=SEQCONF, OUT=path("out"), BASELINE=path("baseline"))
    env.pop("GITHUB_STEP_SUMMARY", None)
    return env


def run_step(job, step, values):
    p = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], cwd=SOURCE,
                       env=env_for(job, values), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def run_job(job, values):
    """Runs the job's seqconf steps in order; (name, exit code, output) of each."""
    results = []
    for step in jobs[job]["steps"]:
        if '"$SEQCONF"' in step.get("run", ""):
            rc, out = run_step(job, step, values)
            results.append((step.get("name", "?"), rc, out))
            if rc != 0:
                break
    return results


for shard in matrix["shard"]:
    for name, rc, out in run_job("conformance", {"runtime": "reference", "shard": shard}):
        check(rc == 0, f"conformance shard {shard}: {name} exits 0 (exit {rc})\n{out[-600:]}")
merge_results = run_job("merge", {"runtime": "reference"})
for name, rc, out in merge_results:
    check(rc == 0, f"merge: {name} exits 0 (exit {rc})\n{out[-600:]}")
check(any("no " + path("baseline") + "/reference.json" in out for _, _, out in merge_results),
      "without a baseline the diff step says so and passes")

rc, out = run("run", "--runtime", "reference", "--source", "all", "--report", path("full.json"))
full = load("full.json")
merged = load("out/merged/reference.json")
check(len(merged["cases"]) == len(full["cases"]) > 0,
      f"the merged shards have the unsharded run's {len(full['cases'])} cases "
      f"({len(merged['cases'])})")
for ext in ("xml", "html"):
    check(os.path.exists(path(f"out/merged/reference.{ext}")), f"merged reference.{ext} written")

(diff_step,) = steps_running("merge", '"$SEQCONF" diff')
os.makedirs(path("baseline"), exist_ok=True)
save("baseline/reference.json", merged)
rc, out = run_step("merge", diff_step, {"runtime": "reference"})
check(rc == 0 and "regressed 0," in out, f"the merged run against itself as baseline: exit {rc}")
worse = copy.deepcopy(merged)
flipped = next(c for c in worse["cases"] if c["status"] == "pass")
flipped.update(status="fail", reason="value_mismatch", verdict="unexpected_failure",
               message="output 0 element 0: expected 1, got 2")
save("out/merged/reference.json", worse)
rc, out = run_step("merge", diff_step, {"runtime": "reference"})
check(rc == 1 and "regressed 1," in out and flipped["id"] in out,
      f"a regression against the baseline fails the step (exit {rc}) and names the case")
check(os.path.exists(path("out/merged/reference-diff.html")), "the diff page is written")

for name, rc, out in run_job("history", {}):
    check(rc == 0, f"history: {name} exits 0 (exit {rc})\n{out[-600:]}")
h = load("out/history.json")
check([c["runtime"]["name"] for c in h["columns"]] == ["reference"]
      and h["columns"][0]["cases"] == len(full["cases"]),
      "the history has the reference's column (the diff JSON is left out)")
check(os.path.exists(path("out/history.html")), "the history page is written")

sys.exit(t.finish())
