"""seqconf selftest end to end, in three parts that ctest runs as three tests:
  cases  every seeded defect is caught by the committed cases and the report names the smallest
         case for each; --list, and an unknown defect glob is a usage error;
  gap    a corpus with a gap (the edge-value cases removed) is reported as such, exit status 1;
  fuzz   fuzzing finds the value and SequenceInsert defects with two seeds.

    selftest_cli_test.py SEQCONF CORPUS WORK cases|gap|fuzz

Under the sanitizers (tools/sanitize.sh sets SEQCONF_SANITIZED) a case costs about nine times as
much: the parts then take the three value defects only (cases), the cut corpus's `inputs` context
only (gap), and for fuzz, whose corpus only precedes the fuzzing, that context's SequenceInsert cases
and three SequenceInsert defects. The others' coverage is these same tests'
in the unsanitized stage, and what the sanitizers look at (the harness, the selftest's bookkeeping,
the seeded kernels) is the same code. (As one test, with the value and bits defects and the whole
cut corpus, it took 498 s under ASan.)
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from cli_check import CliCheck  # noqa: E402

seqconf, corpus, work, part = sys.argv[1:5]
t = CliCheck(seqconf, work)
sanitized = bool(os.environ.get("SEQCONF_SANITIZED"))


def cut_corpus(op=""):
    """The corpus without its edge-value cases (values=edge, and values=bits, which hold such
    values too); ONNX's fixtures are left out by --source corpus. Under the sanitizers, its
    `inputs` context only, and only the cases of op (a folder prefix such as "test_sequence_insert")
    when one is given."""
    cut = t.path("cut")
    os.makedirs(cut)
    for name in sorted(os.listdir(corpus)):
        if "values-edge" not in name and "values-bits" not in name and \
                (not sanitized or (name.endswith("__context-inputs") and name.startswith(op))):
            shutil.copytree(os.path.join(corpus, name), os.path.join(cut, name),
                            copy_function=os.link)
    return cut


def cases():
    rc, out = t.run("selftest", "--list")
    listed = [line for line in out.splitlines() if "\t" in line]
    t.check(rc == 0 and len(listed) >= 20, f"--list names {len(listed)} defects (at least 20)")

    # The whole selftest on the cases, without fuzzing: every defect on every case.
    only = ["value.*"] if sanitized else []
    if only:
        listed = [line for line in listed if line.split("\t")[0].startswith("value.")]
    rc, out = t.run("selftest", "--fuzz-seeds", "0", "--jobs", "2", "--report", t.path("all.json"),
                    *[a for g in only for a in ("--defects", g)], timeout=1700)
    t.check(rc == 0, f"selftest on every case exits 0 (got {rc}): {out[-400:]}")
    r = t.load("all.json")
    t.check(r["kind"] == "seqconf-selftest", "report kind")
    t.check(r["reference"]["failures"] == 0, "the reference passes every case")
    t.check(len(r["defects"]) == len(listed), "one entry per listed defect")
    for d in r["defects"]:
        t.check(d["caught_by"] > 0 and d["smallest"].startswith(("corpus/", "onnx-backend/", "exported/")),
                f"{d['id']} is caught ({d['caught_by']} cases, smallest {d['smallest']})")
        t.check(d["fuzz"] == [], f"{d['id']}: no fuzzing asked, none run")

    rc, out = t.run("selftest", "--defects", "no.such.*")
    t.check(rc == 2 and "no seeded defect matches" in out, "an unknown defect glob is a usage error")


def gap():
    # A gap: the corpus without its edge-value cases (values=edge, and values=bits, which hold such
    # values too) and ONNX's fixtures left out. The defects only those cases catch (strings cut at
    # NUL, uint64 read as signed) must be reported as caught by no case, and the run must fail.
    cut = cut_corpus()
    rc, out = t.run("selftest", "--source", "corpus", "--corpus", cut, "--fuzz-seeds", "0",
                    "--defects", "value.*", "--report", t.path("cut.json"))
    t.check(rc == 1, f"a corpus with a gap exits 1 (got {rc})")
    t.check("2 caught by no case" in out, "the summary counts the two defects no case catches")
    caught = {d["id"]: d["caught_by"] for d in t.load("cut.json")["defects"]}
    t.check(caught.get("value.string_cut_at_nul") == 0, "NUL strings: caught by no case of the cut")
    t.check(caught.get("value.uint64_read_as_signed") == 0, "uint64: caught by no case of the cut")
    t.check(caught.get("value.empty_tensor_shape_lost", 0) > 0, "empty shapes: still caught")


def fuzz():
    # Fuzzing: each value and SequenceInsert defect found with two seeds within the budget.
    inserts = ["insert.out_of_range_wraps", "insert.negative_inserts_after",
               "insert.crash_on_empty_sequence"] if sanitized else ["insert.*"]
    cut = cut_corpus("test_sequence_insert__")
    rc, out = t.run("selftest", "--source", "corpus", "--corpus", cut, "--defects", "value.*",
                    *[a for g in inserts for a in ("--defects", g)], "--fuzz-seeds", "2",
                    "--fuzz-budget", "10", "--report", t.path("fuzz.json"))
    defects = t.load("fuzz.json")["defects"]
    inserts_listed = [d for d in t.run("selftest", "--list")[1].splitlines()
                      if d.startswith("insert.")]
    asked = 3 + (len(inserts) if sanitized else len(inserts_listed))  # three value defects
    t.check(len(defects) == asked,
            f"the value and SequenceInsert defects are all in the report ({len(defects)})")
    for d in defects:
        t.check(len(d["fuzz"]) == 2 and all(f["found"] for f in d["fuzz"]),
                f"{d['id']}: found by fuzzing with both seeds ({[f['finding'] for f in d['fuzz']]})")


{"cases": cases, "gap": gap, "fuzz": fuzz}[part]()
sys.exit(t.finish())
