#!/usr/bin/python3
"""The table by which seqconf reads ONNX Runtime's errors (runtimes/onnxruntime_errors.json), met
with real errors of onnxruntime-node and onnxruntime-web 1.30 and with V8's WebAssembly traps,
through the JavaScript that applies it (runtimes/onnxruntime_errors.js, used by the
onnxruntime-web adapter and by a bundle's repro.js). The C API meets the same rules in
tests/runtimes/onnxruntime_errors_test.cpp.

  onnxruntime_errors_test.py SOURCE_DIR WORKDIR

For each model here, the rule that must decide its error is named from what the failure is (a
missing kernel, a SafeInt trap, ...), per package. Then the onnxruntime-web adapter: an error of
ONNX Runtime is answered with its rule's kind, and the adapter's own failure once the model ran
(its outputs cannot be written) is answered `adapter`, never a rejection.

Exits 77 (skipped) without onnx, node, onnxruntime-node or onnxruntime-web.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    from onnx import TensorProto as T
    from onnx import helper as h
except ImportError as exc:
    print("skipped: %s (install python3-onnx)" % exc)
    sys.exit(77)

SOURCE, WORK = sys.argv[1:3]
NPM = os.path.join(SOURCE, "third_party", "npm", "node_modules")
PROBE = os.path.join(SOURCE, "tests", "runtimes", "onnxruntime_errors_probe.js")
ADAPTER = os.path.join(SOURCE, "adapters", "onnxruntime-web", "adapter.js")
if not shutil.which("node"):
    print("skipped: node is not installed (tools/setup-runtimes.sh)")
    sys.exit(77)
for package in ("onnxruntime-node", "onnxruntime-web"):
    if not os.path.isdir(os.path.join(NPM, package)):
        print("skipped: %s is not installed (tools/setup-runtimes.sh)" % package)
        sys.exit(77)

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
seq = h.make_tensor_sequence_value_info
tensor = h.make_tensor_value_info


def model(name, nodes, inputs, outputs, feeds, opset=17, ir=8, initializers=()):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = ir
    path = os.path.join(WORK, name + ".onnx")
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    with open(path + ".json", "w") as f:
        json.dump({"inputs": feeds}, f)
    return path


def floats(*dims):
    return {"type": "float32", "dims": list(dims)}


identity = ([h.make_node("Identity", ["X"], ["Y"])], [tensor("X", T.FLOAT, [3])],
            [tensor("Y", T.FLOAT, [3])], {"X": floats(3)})
MODELS = {
    # SplitToSequence's kernel is registered for bool, float, double, float16, int32, int64 and
    # string only.
    "no_kernel": model("no_kernel", [h.make_node("SplitToSequence", ["X"], ["S"])],
                       [tensor("X", T.INT8, [3])], [seq("S", T.INT8, None)],
                       {"X": {"type": "int8", "dims": [3]}}),
    # No build has complex128.
    "complex128": model("complex128", [h.make_node("SequenceConstruct", ["X"], ["S"])],
                        [tensor("X", T.COMPLEX128, [3])], [seq("S", T.COMPLEX128, None)], {}),
    "opset99": model("opset99", *identity, opset=99),
    "ir99": model("ir99", *identity, ir=99),
    "no_such_operator": model("no_such_operator", [h.make_node("NoSuchOperator", ["X"], ["Y"])],
                              *identity[1:]),
    # SequenceErase with no position on an empty sequence: the last index, -1, in SafeInt.
    "erase_empty": model("erase_empty",
                         [h.make_node("SequenceEmpty", [], ["E"], dtype=T.FLOAT),
                          h.make_node("SequenceErase", ["E"], ["S"])],
                         [tensor("X", T.FLOAT, [3])], [seq("S", T.FLOAT, None)],
                         {"X": floats(3)}),
    # SplitToSequence-24, a scalar split of 2 with keepdims=0: Tensor::Reshape's size check.
    "split_scalar_keepdims0": model(
        "split_scalar_keepdims0",
        [h.make_node("SplitToSequence", ["X", "s"], ["S"], keepdims=0)],
        [tensor("X", T.BOOL, [5]), tensor("s", T.INT64, [])], [seq("S", T.BOOL, None)],
        {"X": {"type": "bool", "dims": [5]}, "s": {"type": "int64", "dims": [], "values": [2]}},
        opset=24, ir=10),
    # 2^50 floats.
    "huge": model("huge", [h.make_node("ConstantOfShape", ["shape"], ["Y"])],
                  [tensor("shape", T.INT64, [2])], [tensor("Y", T.FLOAT, None)],
                  {"shape": {"type": "int64", "dims": [2], "values": [1 << 20, 1 << 30]}}),
    # A constant split of 0: ONNX's shape inference takes the axis length modulo it (a SIGFPE
    # natively, so this one is run on the WebAssembly build only).
    "split_by_zero": model("split_by_zero",
                           [h.make_node("SplitToSequence", ["X", "s"], ["S"])],
                           [tensor("X", T.FLOAT, [4])], [seq("S", T.FLOAT, None)],
                           {"X": floats(4)},
                           initializers=[h.make_tensor("s", T.INT64, [], [0])]),
}
garbage = os.path.join(WORK, "garbage.onnx")
with open(garbage, "wb") as f:
    f.write(b"\x08\xff\xff\xff garbage")
with open(garbage + ".json", "w") as f:
    json.dump({"inputs": {}}, f)
MODELS["garbage"] = garbage

# The rule that must decide each model's error, per package (None: no rule, which repro.js reads
# as a check and the adapters as internal).
EXPECTED = {
    "no_kernel": ("no_kernel", "no_kernel"),
    "complex128": ("unregistered_type", "unregistered_type"),
    "opset99": ("opset_newer", "opset_newer"),
    "ir99": ("ir_version_newer", "ir_version_newer"),
    "garbage": ("unreadable", "unreadable"),
    # A check: onnxruntime-node gives no code and no marker; the WebAssembly build gives
    # RUNTIME_EXCEPTION for it.
    "no_such_operator": (None, "check_web"),
    "erase_empty": ("safeint", "safeint"),
    "split_scalar_keepdims0": ("framework_invariant", "framework_invariant"),
    "huge": ("framework_invariant", "framework_invariant"),
    "split_by_zero": (None, "wasm_trap"),
}


def probe(package, build, names):
    # Without ORT_DISABLE_TELEMETRY, onnxruntime-node writes /tmp/mat-debug-<pid>.log, which
    # bundle.onnxruntime, running beside this test, counts as repro.js's.
    out = subprocess.run(["node", PROBE, package, build] + names, capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, ORT_DISABLE_TELEMETRY="1"))
    if out.returncode != 0:
        check(False, "%s: the probe failed: %s" % (package, out.stderr[-2000:]))
        return {}
    return {r["model"]: r for r in map(json.loads, out.stdout.splitlines())}


for column, (package, build) in enumerate((("onnxruntime-node", "native"),
                                           ("onnxruntime-web", "web"))):
    names = [MODELS[m] for m in MODELS if not (m == "split_by_zero" and build == "native")]
    got = probe(os.path.join(NPM, package), build, names)
    for name, expected in EXPECTED.items():
        if name == "split_by_zero" and build == "native":
            continue
        r = got.get(name)
        if r is None:
            check(False, "%s: %s: no answer" % (package, name))
            continue
        check(r["message"] != "ran" and r["rule"] == expected[column],
              "%s: %s is decided by rule %s (got %s): %s"
              % (package, name, expected[column], r["rule"], r["message"][:300]))

# V8's own words for the four WebAssembly traps, which onnxruntime-web's code can meet.
traps = probe("v8", "web", [])
for f, what in (("d", "an integer division by zero"), ("r", "an integer remainder by zero"),
                ("m", "a load outside the memory"), ("u", "unreachable")):
    r = traps.get("v8:" + f, {})
    check(r.get("rule") == "wasm_trap" and r.get("kind") == "internal",
          "V8's trap for %s is rule wasm_trap (got %s): %s" % (what, r.get("rule"), r.get("message")))

# The onnxruntime-web adapter, through the protocol.
adapter = subprocess.Popen(["node", ADAPTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)
hello = json.loads(adapter.stdout.readline())
check(hello.get("name") == "onnxruntime-web", "the adapter answers its handshake")


def ask(req_id, model_path, inputs, output_dir):
    adapter.stdin.write(json.dumps({"id": req_id, "model": model_path, "inputs": inputs,
                                    "output_dir": output_dir}) + "\n")
    adapter.stdin.flush()
    return json.loads(adapter.stdout.readline())


x = os.path.join(WORK, "x.pb")
with open(x, "wb") as f:
    f.write(h.make_tensor("X", T.FLOAT, [3], [1.0, 2.0, 3.0]).SerializeToString())
out_dir = os.path.join(WORK, "out")
os.makedirs(out_dir)
identity_path = model("identity", *identity)
ran = ask(1, identity_path, [x], out_dir)
check(ran.get("ok") is True, "the adapter runs Identity: %s" % ran)
# Its outputs cannot be written: the runtime ran the model, so this is no rejection of it.
lost = ask(2, identity_path, [x], os.path.join(WORK, "no-such-folder"))
check(lost.get("error", {}).get("kind") == "adapter",
      "the adapter's failure to write outputs is kind adapter: %s" % lost)
for req_id, (name, kind) in enumerate((("no_such_operator", "invalid_input"),
                                       ("erase_empty", "internal"),
                                       ("ir99", "not_supported")), start=3):
    answer = ask(req_id, MODELS[name], [x], out_dir)
    check(answer.get("error", {}).get("kind") == kind,
          "the adapter answers %s with kind %s: %s" % (name, kind, answer))
adapter.stdin.close()
adapter.wait(timeout=60)

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
