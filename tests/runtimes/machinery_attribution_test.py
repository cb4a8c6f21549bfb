#!/usr/bin/python3
"""Departures of the graph machinery on a runtime that is not ONNX Runtime (about 1 min).

Runs `seqconf run` on machinery_backend.MachineryBackend through adapters/onnx-backend-python,
over the machinery probes and every corpus case of SequenceAt, SequenceErase and SequenceInsert
(all contexts), four times:

  none               no machinery defect: every probe passes (the backend's machinery is a second,
                     independent derivation of the probes' expected values), and no departure is
                     named for a machinery. SequenceAt's own defect (numpy_backend: a negative
                     position clamped to 0) gives SequenceAt departures.
  loop_cond_omitted  one departure is named for Loop; it holds the Loop probes with the condition
                     omitted and every non-passing case of a Loop context whose bare case passes
                     or is absent; no operator departure holds such a case.
  body_outer_scope   the same for the SequenceMap body and the sequence_map_body context.
  all three          (with scan_concat) one Loop departure holds and names the probes of both Loop
                     defects with the Loop contexts' cases; the SequenceMap body as above.

In every run the cases whose bare case fails (SequenceAt's defect) stay the operator's.

  machinery_attribution_test.py SEQCONF SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys

SEQCONF, SOURCE, WORK = sys.argv[1:4]
ADAPTER = os.path.join(SOURCE, "adapters", "onnx-backend-python", "adapter.py")
BACKEND_DIR = os.path.join(SOURCE, "tests", "runtimes")
FILTERS = ["corpus/*/context=machinery", "corpus/SequenceAt/*", "corpus/SequenceErase/*",
           "corpus/SequenceInsert/*"]
LOOP_CONTEXTS = {"loop_body", "list_append", "loop_counter_position", "loop_carried",
                 "scan_of_sequences"}
MAP_CONTEXTS = {"sequence_map_body"}
failures = []


def check(cond, what):
    if not cond:
        print("FAIL: " + what)
        failures.append(what)


def context_of(case_id):
    for part in case_id.split("/"):
        if part.startswith("context="):
            return part[len("context="):]
    return "inputs"


def bare_of(case_id):
    at = case_id.find("/context=")
    return case_id[:at] + "/context=inputs"


def run(name, defects):
    report = os.path.join(WORK, name + ".json")
    env = dict(os.environ, PYTHONPATH=BACKEND_DIR, SEQCONF_MACHINERY_DEFECTS=",".join(defects))
    command = [SEQCONF, "run", "--runtime",
               "process=%s %s machinery_backend:MachineryBackend" % (sys.executable, ADAPTER),
               "--source", "corpus", "--corpus", os.path.join(SOURCE, "fixtures", "corpus"),
               "--jobs", "2", "--report", report]
    for f in FILTERS:
        command += ["--filter", f]
    result = subprocess.run(command, env=env, cwd=WORK, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    if not os.path.exists(report):
        print(result.stdout[-3000:], result.stderr[-3000:])
        sys.exit("%s: seqconf wrote no report (exit %d)" % (name, result.returncode))
    with open(report) as f:
        r = json.load(f)
    status = {c["id"]: c["status"] for c in r["cases"]}
    print("%s: %d cases, %d departures; %s" % (
        name, len(r["cases"]), len(r["departures"]),
        "; ".join("%s %s (%d)" % (d["op"], d["what"], d["count"]) for d in r["departures"]
                  if d.get("machinery"))))
    return r, status


def operator_departures(r):
    return [d for d in r["departures"] if not d.get("machinery")]


def check_grouped(name, r, status, machinery, contexts, probe_prefix):
    """One departure named for machinery holds its probes that depart and every non-passing
    case of its contexts whose bare case passes or is absent; no operator departure holds one."""
    named = [d for d in r["departures"] if d.get("machinery") == machinery]
    check(len(named) == 1, "%s: one %s departure, got %s" % (
        name, machinery, [d["id"] for d in named]))
    if not named:
        return
    d = named[0]
    cases = set(d["cases"])
    probes = {c for c in cases if context_of(c) == "machinery"}
    check(probes and all(c.startswith(probe_prefix) for c in probes),
          "%s: the %s departure holds its probes: %s" % (name, machinery, sorted(probes)))
    explained = {c for c, s in status.items()
                 if s != "pass" and context_of(c) in contexts
                 and status.get(bare_of(c), "pass") == "pass"}
    check(len(explained) > 0, "%s: the defect makes %s-context cases fail" % (name, machinery))
    check(explained <= cases, "%s: %d %s-context failures outside the %s departure, e.g. %s" % (
        name, len(explained - cases), machinery, machinery, sorted(explained - cases)[:3]))
    check(d["explained_cases"] == len(cases - probes),
          "%s: explained_cases %d, context cases %d" % (name, d["explained_cases"],
                                                          len(cases - probes)))
    check(d["spec"].startswith("1 %s departure explains %d case(s)" % (machinery, len(cases))),
          "%s: the departure says what it explains: %s" % (name, d["spec"][:120]))
    for od in operator_departures(r):
        mixed = [c for c in od["cases"] if c in explained]
        check(not mixed, "%s: operator departure %s holds %s-context cases %s" % (
            name, od["id"], machinery, mixed[:3]))


def check_operator_defect_stays(name, r, status):
    """SequenceAt's own defect: its failing bare cases, and the context cases whose bare fails,
    are in SequenceAt departures."""
    at = [d for d in operator_departures(r) if d["op"] == "SequenceAt"]
    check(at, "%s: SequenceAt's defect gives a SequenceAt departure" % name)
    in_at = {c for d in at for c in d["cases"]}
    bare_failing = {c for c, s in status.items()
                    if s != "pass" and c.startswith("corpus/SequenceAt/")
                    and context_of(c) == "inputs"}
    check(bare_failing and bare_failing <= in_at,
          "%s: SequenceAt's failing bare cases are in its departures" % name)
    machinery_cases = {c for d in r["departures"] if d.get("machinery") for c in d["cases"]}
    stray = [c for c in machinery_cases if context_of(c) != "machinery"
             and status.get(bare_of(c)) not in (None, "pass")]
    check(not stray, "%s: cases whose bare case fails are in a machinery departure: %s"
          % (name, stray[:3]))


os.makedirs(WORK, exist_ok=True)

r, status = run("none", [])
probes = {c: s for c, s in status.items() if context_of(c) == "machinery"}
check(len(probes) >= 20, "the probes ran: %d" % len(probes))
check(all(s == "pass" for s in probes.values()),
      "a backend without machinery defects passes every probe: %s"
      % sorted(c for c, s in probes.items() if s != "pass"))
check(not any(d.get("machinery") for d in r["departures"]),
      "no machinery departure without a machinery defect: %s"
      % [d["id"] for d in r["departures"] if d.get("machinery")])
check_operator_defect_stays("none", r, status)

r, status = run("loop_cond_omitted", ["loop_cond_omitted"])
check_grouped("loop_cond_omitted", r, status, "Loop", LOOP_CONTEXTS, "corpus/Loop/")
check_operator_defect_stays("loop_cond_omitted", r, status)
check(not any(d.get("machinery") not in (None, "Loop") for d in r["departures"]),
      "loop_cond_omitted: only Loop is blamed")

r, status = run("body_outer_scope", ["body_outer_scope"])
check_grouped("body_outer_scope", r, status, "SequenceMap body", MAP_CONTEXTS,
              "corpus/SequenceMap/")
check_operator_defect_stays("body_outer_scope", r, status)

r, status = run("all", ["loop_cond_omitted", "scan_concat", "body_outer_scope"])
check_grouped("all", r, status, "Loop", LOOP_CONTEXTS, "corpus/Loop/")
loop = [d for d in r["departures"] if d.get("machinery") == "Loop"]
for probe in ("corpus/Loop/probe=cond_omitted/trips=3/context=machinery",
              "corpus/Loop/probe=scan_rank2/trips=2/context=machinery"):
    check(loop and probe in loop[0]["cases"] and probe in loop[0]["spec"],
          "all: the Loop departure holds and names the probe of each Loop defect: %s" % probe)
check_grouped("all", r, status, "SequenceMap body", MAP_CONTEXTS, "corpus/SequenceMap/")
check_operator_defect_stays("all", r, status)

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("ok")
