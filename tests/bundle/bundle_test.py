#!/usr/bin/python3
"""seqconf bundle: one standalone reproducer per departure.

  bundle_test.py SEQCONF ROOT WORK MODE

MODE
  onnxruntime    ONNX Runtime 1.30 on every case (as ./run.sh runs it), bundled: one folder per
                 departure that was run, each with its files, and `node repro.js` exits 1 on
                 onnxruntime-node 1.30 for every one of them, writing no file (in the folder or
                 /tmp); every must-reject folder has a control. What it cannot vouch for exits 2:
                 a must-reject folder whose model file is damaged (its SHA-256 is not
                 values.json's, and, with values.json made to match, a file the package cannot
                 parse), a package that cannot load the models (a stand-in onnxruntime-node
                 whose sessions all fail: the control fails), a package of another version
                 (named on the first line; --any-version checks it anyway).
  fixed_release  ONNX Runtime 1.17.0 on the string SplitToSequence cases (its known defect,
                 ONNX Runtime issue 19726, gone in 1.17.3), bundled: the repro.js of each
                 wrong-values departure exits 1 on onnxruntime-node 1.17.0 and 0 on 1.17.3 with
                 --any-version (2 without it), but the one whose lifted model crashes, with no
                 control lifted alike (exit 2: docs/reports.md).
  memcheck       a memory error (a passing case of ONNX Runtime 1.30's report given memcheck's
                 error, as a run under --memcheck records it), bundled: repro.js exits 2 without
                 valgrind, 1 when memcheck reports an error (valgrind without the suppressions of
                 noise), 0 only after a clean memcheck run.
  seeded         a seeded defect (no JavaScript API): a conformance report and a fuzz report
                 bundled; the folders hold the case in ONNX's layout, and the values in
                 values.json are those of the .pb files, read independently with onnx's
                 numpy_helper; a report that is no report is refused with exit code 2; a runtime
                 that cannot be started makes `seqconf bundle` exit 1 and say how many
                 departures were not re-checked (0 with --runtime none).
Exit 77 (skip) when what a mode needs is not installed; under CI=true that is a failure (exit 1).
"""
import glob
import hashlib
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


def skip(why):
    """What a mode needs is missing: skipped (77), but a failure under CI, which installs it."""
    if os.environ.get("CI") == "true":
        print("FAIL (CI=true, where nothing is skipped):", why)
        sys.exit(1)
    print("SKIP:", why)
    sys.exit(77)


def repro(folder, package_dir, *args, env_extra=None, timeout=300):
    """Runs node repro.js in folder with the package found in package_dir; (exit code, output)."""
    env = dict(os.environ, NODE_PATH=package_dir, **(env_extra or {}))
    env.pop("ORT_DISABLE_TELEMETRY", None)  # repro.js must turn it off itself
    r = run([node, "repro.js", *args], cwd=folder, env=env, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def expect_repro(folder, package_dir, want, text, what):
    """repro.js in folder with the package in package_dir exits `want`, saying `text`."""
    code, output = repro(folder, package_dir)
    check(code == want and text in output, f"{what}: exit {want} (got {code}): {output[-300:]}")


def values_of(folder):
    with open(os.path.join(folder, "values.json")) as f:
        return json.load(f)


def copy_folder(folder, name):
    """A copy of a bundle folder to break, in WORK."""
    dst = os.path.join(work, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(folder, dst)
    return dst


def stub_package(name, index_js, version="1.30.0"):
    """A stand-in onnxruntime-node in WORK/name whose index.js is index_js; its folder, for
    NODE_PATH."""
    folder = os.path.join(work, name)
    os.makedirs(os.path.join(folder, "onnxruntime-node"), exist_ok=True)
    with open(os.path.join(folder, "onnxruntime-node/package.json"), "w") as f:
        json.dump({"name": "onnxruntime-node", "version": version, "main": "index.js"}, f)
    with open(os.path.join(folder, "onnxruntime-node/index.js"), "w") as f:
        f.write(index_js)
    return folder


# A Tensor as the package's, for the stubs.
STUB_TENSOR = "class Tensor { constructor(type, data, dims) { Object.assign(this, {type, data, dims}); } }\n"


def listing(folder):
    return sorted(p for p in glob.glob(folder + "/**", recursive=True))


def departures_run(report_path):
    with open(report_path) as f:
        report = json.load(f)
    return [d for d in report["departures"] if d.get("run", True) and d["what"] != "not run"]


os.makedirs(work, exist_ok=True)

if mode in ("onnxruntime", "fixed_release", "memcheck") and not os.path.exists(node):
    skip("node is not installed")

lib = os.path.join(root, "third_party/onnxruntime/lib/libonnxruntime.so.1")
package_dir = os.path.join(root, "third_party/npm/node_modules")
if mode in ("onnxruntime", "memcheck") and (
        not os.path.exists(lib) or not os.path.isdir(os.path.join(package_dir, "onnxruntime-node"))):
    skip("ONNX Runtime 1.30 (tools/setup-runtimes.sh) is not installed")

if mode == "onnxruntime":
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
    for folder, (code, output) in results:
        first = output.splitlines()[0] if output else ""
        check(first == "runtime: onnxruntime-node 1.30.0, the report's version",
              f"{folder}: the first line names the package and its version: {first!r}")

    # A must-reject departure exits 0 only after its control ran; what it cannot vouch for is 2.
    rejected = [f for f in folders if values_of(f)["repro"]["expect"]["kind"] == "rejected"]
    check(len(rejected) > 0, "some departures are must-reject ones")
    for f in rejected:
        check("control" in values_of(f)["repro"], f"{f}: a must-reject folder has a control")
    broken = rejected[:3]

    def sha256(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    for f in broken:
        name = os.path.basename(f.rstrip("/"))
        model = values_of(f)["repro"]["model"]
        damaged = copy_folder(f, "damaged-" + name)
        with open(os.path.join(damaged, model), "rb") as m:
            data = m.read()
        with open(os.path.join(damaged, model), "wb") as m:
            m.write(data[: len(data) // 2 + 1])  # truncated mid-message
        code, output = repro(damaged, package_dir)
        check(code == 2 and "is not the file values.json was written with" in output,
              f"{name}: a truncated {model} exits 2, its SHA-256 not values.json's (got {code}): {output[-300:]}")
        # The same with values.json made to match: the package cannot parse it, which is no
        # rejection under the spec.
        v = values_of(damaged)
        v["repro"]["sha256"][model] = sha256(os.path.join(damaged, model))
        with open(os.path.join(damaged, "values.json"), "w") as out:
            json.dump(v, out)
        code, output = repro(damaged, package_dir)
        check(code == 2, f"{name}: a truncated {model} that values.json vouches for exits 2 (got {code}): {output[-300:]}")

    # A package that cannot load the models: its control fails, so its rejection says nothing.
    stub = stub_package("stub-loads-nothing", STUB_TENSOR +
                        "module.exports = {Tensor, env: {}, InferenceSession: {create: async () => {\n"
                        "  throw new Error('Load model failed: this build does not load the model\\'s opset'); }}};\n")
    for f in broken:
        name = os.path.basename(f.rstrip("/"))
        code, output = repro(f, stub)
        check(code == 2 and "CANNOT CHECK: the control" in output,
              f"{name}: with a package that loads nothing, the control fails: exit 2 (got {code}): {output[-300:]}")

    # A must-reject folder without a control: a runtime that rejects the model could be one that
    # runs nothing of its kind, so its rejection cannot be vouched for (exit 2); a runtime that
    # runs the model still shows the departure (exit 1).
    lone = copy_folder(broken[0], "no-control-" + os.path.basename(broken[0].rstrip("/")))
    v = values_of(lone)
    del v["repro"]["control"]
    v["repro"]["no_control"] = "taken out by the test"
    with open(os.path.join(lone, "values.json"), "w") as out:
        json.dump(v, out)
    rejects_inputs = stub_package(
        "stub-rejects-every-input", STUB_TENSOR +
        "module.exports = {Tensor, env: {}, InferenceSession: {create: async () =>\n"
        "  ({inputNames: [], run: async () => { throw new Error('the inputs are invalid'); }})}};\n")
    expect_repro(lone, rejects_inputs, 2, "there is no control (taken out by the test)",
                 "a must-reject folder without a control, rejected")
    expect_repro(lone, package_dir, 1, "DEPARTURE HOLDS",
                 "a must-reject folder without a control, run")

    # A folder whose case has no output the package can show (no tensor, no lengths model): the
    # model is run, and a runtime that runs it cannot be told right or wrong (exit 2), while one
    # that fails on it still shows the departure (exit 1).
    runs_all = stub_package("stub-runs-everything", STUB_TENSOR +
                            "module.exports = {Tensor, env: {}, InferenceSession: {create: async () =>\n"
                            "  ({inputNames: [], run: async () => ({})})}};\n")
    valid = [f for f in folders if values_of(f)["repro"]["expect"]["kind"] != "rejected"]
    check(len(valid) > 0, "some departures are on valid cases")
    bare = copy_folder(valid[0], "no-outputs-" + os.path.basename(valid[0].rstrip("/")))
    v = values_of(bare)
    v["repro"]["expect"]["outputs"] = []
    v["repro"].pop("lengths_model", None)
    # The stubs run no model: what is left to see is repro.js's own logic, with no control and
    # nothing lifted to stand between it and the package.
    v["repro"].pop("control", None)
    v["repro"].pop("lifted", None)
    with open(os.path.join(bare, "values.json"), "w") as out:
        json.dump(v, out)
    expect_repro(bare, runs_all, 2, "no output the package can show",
                 "a case with no output to compare, run")
    expect_repro(bare, stub, 1, "DEPARTURE HOLDS", "a case with no output to compare, failed")

    # Another version of the package: said on the first line, exit 2 unless --any-version.
    other = stub_package("stub-other-version", "module.exports = require(%s);\n"
                         % json.dumps(os.path.join(package_dir, "onnxruntime-node")), version="9.9.9")
    f = broken[0]
    code, output = repro(f, other)
    first = output.splitlines()[0] if output else ""
    check(code == 2 and "9.9.9" in first and "1.30.0" in first,
          f"another version: exit 2, both versions on the first line (got {code}): {output[-300:]}")
    code, output = repro(f, other, "--any-version")
    check(code == 1, f"another version with --any-version: checked, exit 1 (got {code}): {output[-300:]}")

elif mode == "fixed_release":
    releases = os.path.join(root, "third_party/onnxruntime-releases")
    need = [os.path.join(releases, v, "npm/node_modules/onnxruntime-node") for v in ("1.17.0", "1.17.3")]
    if not all(os.path.isdir(p) for p in need):
        skip("ONNX Runtime 1.17.0 and 1.17.3 (ORT_VERSIONS, tools/setup-runtimes.sh) are not installed")
    report = os.path.join(work, "onnxruntime-1.17.0.json")
    run([seqconf, "run", "--runtime", "onnxruntime=" + os.path.join(releases, "1.17.0/libonnxruntime.so.1"),
         "--source", "corpus", "--corpus", os.path.join(root, "fixtures/corpus"),
         "--filter", "corpus/SplitToSequence/*dtype=string*", "--no-expectations",
         "--no-attribution", "--report", report])
    out = os.path.join(work, "bundles")
    r = bundle(report, out, "--departure", "*.wrong_values")
    check(r.returncode == 0, "seqconf bundle exits 0")
    checked = scan = 0
    for folder in sorted(glob.glob(out + "/*/")):
        with open(os.path.join(folder, "values.json")) as f:
            case = json.load(f)["case"]
        name = os.path.basename(folder.rstrip("/"))
        old, old_out = repro(folder, os.path.join(releases, "1.17.0/npm/node_modules"))
        new, new_out = repro(folder, os.path.join(releases, "1.17.3/npm/node_modules"), "--any-version")
        print(f"{name} ({case}): 1.17.0 -> {old}, 1.17.3 -> {new}")
        if "/context=scan_of_sequences/" in case:
            # Its lifted model ends onnxruntime-node 1.17.0 and 1.17.3 alike (munmap_chunk():
            # invalid pointer), while 1.17.3 passes its own model through the C API
            # (docs/reports.md); no string case of its context passed on 1.17.0, so it has no
            # control to tell that from the lifting: neither release can be judged on it.
            scan += 1
            for code, output in ((old, old_out), (new, new_out)):
                check(code == 2 and "there is no control" in output,
                      f"{name}: its lifted model fails without a control: exit 2 (got {code}): {output[-300:]}")
            continue
        checked += 1
        check(old == 1, f"{name}: repro.js exits 1 on onnxruntime-node 1.17.0: {old_out[-300:]}")
        check(new == 0, f"{name}: repro.js exits 0 on onnxruntime-node 1.17.3: {new_out[-300:]}")
        # Without --any-version, 1.17.3 is not the report's version: said, and not judged.
        code, output = repro(folder, os.path.join(releases, "1.17.3/npm/node_modules"))
        first = output.splitlines()[0] if output else ""
        check(code == 2 and "1.17.3" in first and "1.17.0" in first,
              f"{name}: on 1.17.3 without --any-version, exit 2 naming both versions first (got {code}): {output[-300:]}")
    check(checked == 8, f"8 departures judged on both releases ({checked})")
    check(scan == 1, f"1 departure whose lifted model fails without a control ({scan})")

elif mode == "memcheck":
    if not shutil.which("valgrind"):
        skip("valgrind is not installed")
    # A report of ONNX Runtime 1.30 on SequenceLength, in which one passing case is given the
    # memory error a run under --memcheck records (ONNX Runtime 1.30 has none to bundle).
    report = os.path.join(work, "onnxruntime.json")
    run([seqconf, "run", "--runtime", "onnxruntime", "--source", "corpus",
         "--corpus", os.path.join(root, "fixtures/corpus"), "--filter", "corpus/SequenceLength/*",
         "--no-expectations", "--no-attribution", "--report", report])
    with open(report) as f:
        rep = json.load(f)
    passing = sorted((c for c in rep["cases"] if c["status"] == "pass"
                      and c["context"] == "inputs"), key=lambda c: (len(c["id"]), c["id"]))
    check(len(passing) > 1, "passing SequenceLength cases to give a memory error and to control it")
    chosen = passing[0]
    chosen.update(status="fail", reason="memory_error", verdict="unexpected_failure",
                  message="memcheck: InvalidRead: Invalid read of size 8",
                  memory_error={"kind": "InvalidRead", "description": "Invalid read of size 8",
                                "frames": ["onnxruntime::SequenceLength::Compute (libonnxruntime.so.1)"]})
    with open(report, "w") as f:
        json.dump(rep, f)
    out = os.path.join(work, "bundles")
    r = bundle(report, out, "--runtime", "none", "--departure", "*memory*")
    check(r.returncode == 0, "seqconf bundle --runtime none exits 0 (nothing re-checked, as told)")
    folders = sorted(glob.glob(out + "/*/"))
    check(len(folders) == 1, f"one folder for the memory error ({len(folders)})")
    if folders:
        folder = folders[0]
        v = values_of(folder)
        check(v["case"] == chosen["id"] and v["repro"].get("memcheck", {}).get("kind") == "InvalidRead",
              "values.json says the model runs under memcheck")
        check(os.path.exists(os.path.join(folder, "memcheck.supp")), "the suppressions are there")
        # No valgrind: it cannot tell, though the outputs are the spec's.
        code, output = repro(folder, package_dir, env_extra={"VALGRIND": "/nonexistent/valgrind"})
        check(code == 2 and "valgrind" in output,
              f"without valgrind, a memory error cannot be checked: exit 2 (got {code}): {output[-300:]}")
        # valgrind without the suppressions of noise: memcheck reports an error, the departure holds.
        wrapper = os.path.join(work, "valgrind-without-suppressions")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nfor a; do shift; case "$a" in --suppressions=*) ;; *) set -- "$@" "$a";; esac; done\n'
                    'exec valgrind "$@"\n')
        os.chmod(wrapper, 0o755)
        code, output = repro(folder, package_dir, env_extra={"VALGRIND": wrapper}, timeout=1200)
        check(code == 1 and "memcheck reports an error" in output,
              f"memcheck reports an error: exit 1 (got {code}): {output[-500:]}")
        # A clean memcheck run, and the spec's outputs: gone.
        code, output = repro(folder, package_dir, timeout=1200)
        check(code == 0 and "memcheck reports no error" in output,
              f"a clean memcheck run and the spec's outputs: exit 0 (got {code}): {output[-500:]}")

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
    # A runtime that cannot be started re-checks nothing: exit 1, and how many it says.
    r = bundle(report, os.path.join(work, "no-runtime"), "--runtime",
               "onnxruntime=" + os.path.join(work, "no-such-library.so"))
    check(r.returncode == 1 and f"{len(departures_run(report))} departure(s) could not be re-checked" in r.stdout,
          f"a runtime that cannot be started: exit 1, the departures not re-checked counted (got {r.returncode})")
    r = bundle(report, os.path.join(work, "not-rerun"), "--runtime", "none")
    check(r.returncode == 0 and "could not be re-checked" not in r.stdout,
          f"--runtime none: nothing re-checked, as told: exit 0 (got {r.returncode})")
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

    # An exported model whose ReduceSum the reference's host runs (exported/sum_each_row: the
    # sum of each row, stacked): the seeded defect stacks on the last axis, and the bundle
    # expects the spec's outputs, worked out here from the input with numpy, not a rejection.
    stack = os.path.join(work, "stack.json")
    run([seqconf, "run", "--runtime", "seeded=concat.stack_on_last_axis", "--source", "exported",
         "--exported", os.path.join(root, "fixtures/exported"),
         "--filter", "exported/sum_each_row/opset=13", "--report", stack])
    stack_out = os.path.join(work, "stack-bundles")
    r = bundle(stack, stack_out)
    check(r.returncode == 0, f"the sum_each_row departure is bundled and reproduced (got {r.returncode}: {r.stdout})")
    folders = glob.glob(stack_out + "/*/values.json")
    check(len(folders) == 1, f"one folder for the sum_each_row departure ({len(folders)})")
    for path in folders:
        with open(path) as f:
            values = json.load(f)
        folder = os.path.dirname(path)
        t = TensorProto()
        with open(os.path.join(folder, "test_data_set_0", "input_0.pb"), "rb") as f:
            t.ParseFromString(f.read())
        x = numpy_helper.to_array(t)
        # The program: each row x[i:i+1] summed over axis 1 (shape [1]), stacked on axis 0.
        sums = np.stack([x[i:i + 1].sum(axis=1) for i in range(x.shape[0])], 0)
        check("outputs" in values["expected"] and "rejected" not in values["expected"],
              f"sum_each_row: the bundle expects outputs, not a rejection ({values['expected']})")
        if "outputs" in values["expected"]:
            v = values["expected"]["outputs"][0]["value"]
            check(v["dims"] == list(sums.shape) and
                  [float(a) for a in v["values"]] == [float(a) for a in sums.reshape(-1)],
                  f"sum_each_row: the expected outputs are the rows' sums {sums.tolist()} ({v})")
        with open(os.path.join(folder, "README.md")) as f:
            check("rejects the model" not in f.read(), "sum_each_row: the README asks for no rejection")

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
