#!/usr/bin/python3
"""seqconf bundle: one standalone reproducer per departure.

  bundle_test.py SEQCONF ROOT WORK MODE

MODE
  onnxruntime    ONNX Runtime 1.30 on every case (as ./run.sh runs it), bundled: one folder per
                 departure that was run, each with its files, and `node repro.js` exits 1 on
                 onnxruntime-node 1.30 for every one of them, writing no file (in the folder or
                 /tmp).
  fixed_release  ONNX Runtime 1.17.0 on the string SplitToSequence cases (its known defect,
                 ONNX Runtime issue 19726, gone in 1.17.3), bundled: the repro.js of each
                 wrong-values departure exits 1 on onnxruntime-node 1.17.0 and 0 on 1.17.3
                 (but one, shown: docs/reports.md).
  seeded         a seeded defect (no JavaScript API): a conformance report and a fuzz report
                 bundled; the folders hold the case in ONNX's layout, and the values in
                 values.json are those of the .pb files, read independently with onnx's
                 numpy_helper; a report that is no report is refused with exit code 2.
Exit 77 (skip) when what a mode needs is not installed.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

seqconf, root, work, mode = sys.argv[1:5]
node = "/usr/bin/node"
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def bundle(report, out, *extra):
    shutil.rmtree(out, ignore_errors=True)  # folders of an earlier run are not this run's
    r = run([seqconf, "bundle", report, "--out", out, *extra])
    print(r.stdout[-2000:], r.stderr[-2000:])
    return r


def repro(folder, package_dir):
    """Runs node repro.js in folder with the package found in package_dir; (exit code, output)."""
    env = dict(os.environ, NODE_PATH=package_dir)
    env.pop("ORT_DISABLE_TELEMETRY", None)  # repro.js must turn it off itself
    r = run([node, "repro.js"], cwd=folder, env=env, timeout=300)
    return r.returncode, r.stdout + r.stderr


def listing(folder):
    return sorted(p for p in glob.glob(folder + "/**", recursive=True))


def departures_run(report_path):
    with open(report_path) as f:
        report = json.load(f)
    return [d for d in report["departures"] if d.get("run", True) and d["what"] != "not run"]


os.makedirs(work, exist_ok=True)

if mode in ("onnxruntime", "fixed_release") and not os.path.exists(node):
    print("SKIP: node is not installed")
    sys.exit(77)

if mode == "onnxruntime":
    lib = os.path.join(root, "third_party/onnxruntime/lib/libonnxruntime.so.1")
    package_dir = os.path.join(root, "third_party/npm/node_modules")
    if not os.path.exists(lib) or not os.path.isdir(os.path.join(package_dir, "onnxruntime-node")):
        print("SKIP: ONNX Runtime 1.30 (tools/setup-runtimes.sh) is not installed")
        sys.exit(77)
    report = os.path.join(work, "onnxruntime.json")
    r = run([seqconf, "run", "--runtime", "onnxruntime", "--source", "all",
             "--corpus", os.path.join(root, "fixtures/corpus"),
             "--exported", os.path.join(root, "fixtures/exported"),
             "--expectations", os.path.join(root, "expectations/onnxruntime.json"),
             "--no-attribution", "--report", report])
    check(r.returncode == 0, "the ONNX Runtime run has no unexpected outcome: " + r.stdout[-500:])
    out = os.path.join(work, "bundles")
    r = bundle(report, out)
    check(r.returncode == 0, "seqconf bundle exits 0 (every departure bundled and reproduced)")
    expected = departures_run(report)
    folders = sorted(glob.glob(out + "/*/"))
    check(len(folders) == len(expected),
          f"one folder per departure: {len(folders)} folders, {len(expected)} departures")
    for d in expected:
        folder = os.path.join(out, d["id"])
        for name in ("model.onnx", "values.json", "README.md", "repro.js"):
            check(os.path.exists(os.path.join(folder, name)), f"{d['id']}: {name} is there")
        with open(os.path.join(folder, "README.md")) as f:
            readme = f.read()
        check(readme.startswith(f"# {d['op']}: {d['what']} (onnxruntime 1.30.0)"),
              f"{d['id']}: the README's title names the operator and what happens")
        first_sentence = d["spec"].split("\n")[0][:60]
        check(first_sentence in readme, f"{d['id']}: the README quotes the spec sentence")
        check("npm install onnxruntime-node@1.30.0" in readme,
              f"{d['id']}: the README says the npm install it needs")
        check(d["rerun"] in readme, f"{d['id']}: the README has the seqconf command")
    before_tmp = set(glob.glob("/tmp/mat-debug-*.log"))
    before = {f: listing(f) for f in folders}

    def one(folder):
        return folder, repro(folder, package_dir)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, folders))
    for folder, (code, output) in results:
        name = os.path.basename(folder.rstrip("/"))
        print(f"{code} {name}: {output.strip().splitlines()[-1] if output.strip() else ''}")
        check(code == 1, f"{name}: repro.js exits 1 on onnxruntime-node 1.30 (got {code}): {output[-400:]}")
        check(listing(folder) == before[folder], f"{name}: repro.js writes no file in its folder")
    left = set(glob.glob("/tmp/mat-debug-*.log")) - before_tmp
    check(not left, f"repro.js leaves no telemetry log in /tmp: {sorted(left)}")

elif mode == "fixed_release":
    releases = os.path.join(root, "third_party/onnxruntime-releases")
    need = [os.path.join(releases, v, "npm/node_modules/onnxruntime-node") for v in ("1.17.0", "1.17.3")]
    if not all(os.path.isdir(p) for p in need):
        print("SKIP: ONNX Runtime 1.17.0 and 1.17.3 (ORT_VERSIONS, tools/setup-runtimes.sh) are not installed")
        sys.exit(77)
    report = os.path.join(work, "onnxruntime-1.17.0.json")
    run([seqconf, "run", "--runtime", "onnxruntime=" + os.path.join(releases, "1.17.0/libonnxruntime.so.1"),
         "--source", "corpus", "--corpus", os.path.join(root, "fixtures/corpus"),
         "--filter", "corpus/SplitToSequence/*dtype=string*", "--no-expectations",
         "--no-attribution", "--report", report])
    out = os.path.join(work, "bundles")
    r = bundle(report, out, "--departure", "*.wrong_values")
    check(r.returncode == 0, "seqconf bundle exits 0")
    checked = 0
    for folder in sorted(glob.glob(out + "/*/")):
        with open(os.path.join(folder, "values.json")) as f:
            case = json.load(f)["case"]
        name = os.path.basename(folder.rstrip("/"))
        old, old_out = repro(folder, os.path.join(releases, "1.17.0/npm/node_modules"))
        new, new_out = repro(folder, os.path.join(releases, "1.17.3/npm/node_modules"))
        print(f"{name} ({case}): 1.17.0 -> {old}, 1.17.3 -> {new}")
        if "/context=scan_of_sequences/" in case:
            # Its lifted model ends onnxruntime-node 1.17.0 and 1.17.3 alike (munmap_chunk():
            # invalid pointer), while 1.17.3 passes its own model through the C API
            # (docs/reports.md): shown, not judged.
            continue
        checked += 1
        check(old == 1, f"{name}: repro.js exits 1 on onnxruntime-node 1.17.0: {old_out[-300:]}")
        check(new == 0, f"{name}: repro.js exits 0 on onnxruntime-node 1.17.3: {new_out[-300:]}")
    check(checked == 8, f"8 departures judged on both releases ({checked})")

elif mode == "seeded":
    import numpy as np
    from onnx import TensorProto, numpy_helper

    corpus = os.path.join(root, "fixtures/corpus")
    report = os.path.join(work, "seeded.json")
    r = run([seqconf, "run", "--runtime", "seeded=at.negative_off_by_one", "--source", "corpus",
             "--corpus", corpus, "--filter", "corpus/SequenceAt/*", "--report", report])
    out = os.path.join(work, "bundles")
    r = bundle(report, out)
    check(r.returncode == 0, "seqconf bundle of a seeded run exits 0 (every departure reproduced)")
    expected = departures_run(report)
    folders = sorted(glob.glob(out + "/*/"))
    check(len(expected) > 0 and len(folders) == len(expected),
          f"one folder per departure ({len(folders)} of {len(expected)})")
    for folder in folders:
        name = os.path.basename(folder.rstrip("/"))
        check(not os.path.exists(os.path.join(folder, "repro.js")),
              f"{name}: no repro.js for a runtime without a JavaScript API")
        with open(os.path.join(folder, "values.json")) as f:
            values = json.load(f)
        # The inputs of values.json against the .pb files, decoded by onnx itself.
        for k, entry in enumerate(values["inputs"]):
            pb = os.path.join(folder, "test_data_set_0", f"input_{k}.pb")
            check(os.path.exists(pb), f"{name}: input_{k}.pb is there")
            v = entry["value"]
            if "type" not in v:
                continue  # a sequence: its tensors are checked by the next mode's run
            t = TensorProto()
            with open(pb, "rb") as f:
                t.ParseFromString(f.read())
            arr = numpy_helper.to_array(t)
            check(list(arr.shape) == v["dims"], f"{name}: input {k}'s dims")
            flat = arr.reshape(-1)
            if v["type"] in ("float", "double", "float16"):
                width = {"float": np.uint32, "double": np.uint64, "float16": np.uint16}[v["type"]]
                bits = [int(b, 16) for b in v["bits"]]
                check(flat.view(width).tolist() == bits, f"{name}: input {k}'s bits")
            elif v["type"] in ("int64", "uint64"):
                check([int(x) for x in v["values"]] == flat.tolist(), f"{name}: input {k}'s values")
            elif v["type"] != "string":
                check(list(v["values"]) == flat.tolist(), f"{name}: input {k}'s values")
        with open(os.path.join(folder, "README.md")) as f:
            readme = f.read()
        check("seeded" in readme.splitlines()[0], f"{name}: the title names the runtime")
        check(os.path.exists(os.path.join(folder, "actual")), f"{name}: the actual outputs are there")

    # A fuzz report of the same defect, bundled from the fixtures it names.
    fuzz_out = os.path.join(work, "fuzz-fixtures")
    fuzz_report = os.path.join(work, "fuzz.json")
    run([seqconf, "fuzz", "--runtime", "seeded=at.negative_off_by_one", "--iterations", "300",
         "--seed", "1", "--out", fuzz_out, "--report", fuzz_report, "--no-expectations"])
    with open(fuzz_report) as f:
        fz = json.load(f)
    check(len(fz["departures"]) > 0, "the campaign found the seeded defect")
    r = bundle(fuzz_report, os.path.join(work, "fuzz-bundles"))
    check(r.returncode == 0, "seqconf bundle of a fuzz report exits 0")
    check(len(glob.glob(os.path.join(work, "fuzz-bundles/*/model.onnx"))) == len(fz["departures"]),
          "one folder per fuzz departure, each with its model")

    # Bad input: clear error, exit 2.
    bad = os.path.join(work, "not-a-report.json")
    with open(bad, "w") as f:
        f.write('{"hello": 1}')
    r = run([seqconf, "bundle", bad, "--out", os.path.join(work, "bad")])
    check(r.returncode == 2 and "neither a conformance report nor a fuzz report" in r.stderr,
          f"a file that is no report: exit 2 and a clear message (got {r.returncode}: {r.stderr})")
else:
    print("unknown mode", mode)
    sys.exit(2)

print(f"{len(fails)} failure(s)")
sys.exit(1 if fails else 0)
