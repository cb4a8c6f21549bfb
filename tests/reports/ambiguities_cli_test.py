#!/usr/bin/python3
"""seqconf ambiguities end to end, on ONNX Runtime:

  ambiguities_cli_test.py SEQCONF SCHEMA WORKDIR

- the JSON validates against reports/seqconf-ambiguities.schema.json, and the schema rejects a
  broken copy (an answer without its reading);
- every question is there with at least one case and its sentence; every implementation that
  answered answers every case of every question once; each summary counts the answers;
- ONNX Runtime's row holds what its source says it does (sequence_ops.cc reads the first element
  of a position of shape [1]; its SplitToSequence drops the axis for keepdims=0 with a scalar
  split of 1, which the exported unbind programs compute too);
- the Markdown reads as one issue per question (its sections, every model path exists), the HTML
  has one section per question;
- `seqconf merge --index --ambiguities` links the page;
- bad input: an unknown question or runtime exits 2 with a clear error.
"""
import html.parser
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

seqconf, schema_path, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([seqconf, *args], capture_output=True, text=True, timeout=600)


out = os.path.join(work, "amb")
p = run("ambiguities", "--runtime", "onnxruntime", "--out", out)
check(p.returncode == 0, f"ambiguities exits 0, got {p.returncode}: {p.stderr}")
report = json.load(open(os.path.join(out, "ambiguities.json")))
schema = json.load(open(schema_path))
jsonschema.validate(report, schema)
broken = json.loads(json.dumps(report))
del broken["questions"][0]["answers"][0]["reading"]
try:
    jsonschema.validate(broken, schema)
    check(False, "the schema rejects an answer without its reading")
except jsonschema.ValidationError:
    pass

questions = {q["id"]: q for q in report["questions"]}
for qid in ("position_shape_1", "split_zero_entry", "sequence_map_lengths",
            "legacy_broadcast_size1", "scan_output_stacking", "split_keepdims_with_split",
            "concat_empty_sequence"):
    check(qid in questions, f"question {qid} is listed")
answered = [i["id"] for i in report["implementations"] if "note" not in i]
check({"reference-lenient", "reference-strict", "onnxruntime", "framework"} <= set(answered),
      f"the reference under each policy, ONNX Runtime and the programs answer: {answered}")
for q in report["questions"]:
    check(len(q["cases"]) >= 1, f"{q['id']}: has a case")
    check(all(s["text"] for s in q["sentences"]), f"{q['id']}: quotes its sentence")
    ids = [c["id"] for c in q["cases"]]
    for impl in answered:
        mine = [a["case"] for a in q["answers"] if a["implementation"] == impl]
        if impl == "framework":
            expected = [c["id"] for c in q["cases"] if c["source"] == "exported"]
        else:
            expected = ids
        check(sorted(mine) == sorted(expected), f"{q['id']}: {impl} answers each case once")
        if mine:
            counts = {}
            for a in q["answers"]:
                if a["implementation"] == impl:
                    counts[a["reading"]] = counts.get(a["reading"], 0) + 1
            total = sum(counts.values())
            want = ", ".join(f"{r} {n}/{total}" for r, n in sorted(counts.items()))
            check(q["summary"].get(impl) == want, f"{q['id']}: {impl}'s summary counts its answers")


def row(qid, impl):
    return {a["case"]: a["reading"] for a in questions[qid]["answers"]
            if a["implementation"] == impl}


pos = row("position_shape_1", "onnxruntime")
check(pos and all(r == "lenient" for r in pos.values()),
      f"ONNX Runtime reads a position of shape [1]: {pos}")
keep = row("split_keepdims_with_split", "onnxruntime")
exported = [c["id"] for c in questions["split_keepdims_with_split"]["cases"]
            if c["source"] == "exported"]
check(exported and all(keep[c] == "scalar_split_drops_axis" for c in exported),
      f"ONNX Runtime drops the axis on the unbind models as the programs do: {keep}")

md = open(os.path.join(out, "ambiguities.md")).read()
for q in report["questions"]:
    part = md.split("## " + q["title"], 1)
    check(len(part) == 2, f"{q['id']}: has its Markdown section")
    if len(part) == 2:
        body = part[1].split("\n---\n", 1)[0]
        for heading in ("### What the spec says", "### Readings", "### Minimal models",
                        "### What each implementation does",
                        "### Proposed wording (a proposal, not the spec)"):
            check(heading in body, f"{q['id']}: Markdown has '{heading}'")
    for c in q["cases"]:
        check(os.path.isfile(c["model"]), f"{q['id']}: model {c['model']} exists")


class Sections(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.questions = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "data-question" in a:
            self.questions.append(a["data-question"])


s = Sections()
s.feed(open(os.path.join(out, "ambiguities.html")).read())
check(s.questions == [q["id"] for q in report["questions"]], "the HTML has one section per question")

# The index links the page.
rep = os.path.join(work, "reference.json")
p = run("run", "--runtime", "reference", "--source", "corpus", "--filter",
        "corpus/SequenceAt/*pshape=1*", "--no-expectations", "--report", rep)
check(p.returncode == 0, f"run exits 0: {p.stderr}")
index = os.path.join(work, "index.html")
p = run("merge", rep, "--index", index, "--ambiguities", os.path.join(out, "ambiguities.html"))
check(p.returncode == 0, f"merge exits 0: {p.stderr}")
check('href="amb/ambiguities.html"' in open(index).read(), "the index links the page")
p = run("merge", rep, "--index", index, "--ambiguities", os.path.join(work, "missing.html"))
check(p.returncode == 2 and "missing.html" in p.stderr, "a missing page is an error")

# Bad input.
p = run("ambiguities", "--question", "no_such_question", "--runtime", "reference",
        "--out", os.path.join(work, "bad"))
check(p.returncode == 2 and "no_such_question" in p.stderr,
      f"an unknown question exits 2 naming it: {p.returncode} {p.stderr}")
p = run("ambiguities", "--runtime", "no_such_runtime", "--out", os.path.join(work, "bad"))
check(p.returncode == 2 and "no_such_runtime" in p.stderr,
      f"an unknown runtime exits 2 naming it: {p.returncode} {p.stderr}")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
