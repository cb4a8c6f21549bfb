#!/usr/bin/python3
"""Strings through the process adapters: ONNX strings are bytes, and an adapter either carries
them unchanged, both ways, or answers not_supported saying why (never a changed value, which
would read as a departure of the runtime).

  adapter_strings_test.py python ADAPTER WORKDIR
      adapters/onnx-backend-python/adapter.py (ADAPTER) with a backend defined here that returns
      its inputs and checks that every string element it receives is a bytes object. Each value
      (a tensor, a sequence, an optional, an optional sequence) must come back byte for byte,
      trailing NULs and bytes that are not UTF-8 included.
  adapter_strings_test.py web ADAPTER WORKDIR
      adapters/onnxruntime-web/adapter.js (ADAPTER) under node. onnxruntime-web passes strings as
      NUL-terminated UTF-8 (see adapters/README.md): valid UTF-8 without NUL (U+FFFD itself
      included) must come back byte for byte; an input string with a NUL or not UTF-8, and a
      model holding such a string (a Constant, an initializer, a Constant inside a branch),
      must be answered not_supported, the message naming the cause.

Exits 77 (skipped) without onnx and numpy, or, for web, without node or onnxruntime-web.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import numpy  # noqa: F401
    import onnx
    from onnx import TensorProto, helper
except ImportError as exc:
    print("skipped: %s (install python3-onnx)" % exc)
    sys.exit(77)

WHICH, ADAPTER, WORK = sys.argv[1:4]

# Bytes an ONNX string may hold, each with what makes it hard to carry.
LOSSY = {
    "trailing NUL": b"tail\x00",
    "only a NUL": b"\x00",
    "inner NUL": b"nul\x00inside",
    "not UTF-8": b"\xff\xfe",
    "cut UTF-8 sequence": b"\xe2\x82",
}
CLEAN = {
    "empty": b"",
    "ASCII": b"plain",
    "multi-byte UTF-8": "\u00e9\u20ac\U0001f600".encode("utf-8"),
    "U+FFFD itself": "\ufffd".encode("utf-8"),
}
failures = []


def check(cond, what):
    if not cond:
        print("FAIL: " + what)
        failures.append(what)


class Adapter:
    """One adapter process, spoken to through the protocol."""

    def __init__(self, command, env=None):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, universal_newlines=True)
        self.handshake = json.loads(self.proc.stdout.readline())
        self.next_id = 0

    def run(self, model, inputs):
        """Writes the model and the input protos, runs them; the answer, outputs parsed."""
        self.next_id += 1
        run_dir = os.path.join(WORK, "run-%d" % self.next_id)
        os.makedirs(os.path.join(run_dir, "out"))
        model_path = os.path.join(run_dir, "model.onnx")
        onnx.save(model, model_path)
        paths = []
        for k, proto in enumerate(inputs):
            paths.append(os.path.join(run_dir, "input_%d.pb" % k))
            with open(paths[-1], "wb") as f:
                f.write(proto.SerializeToString())
        self.proc.stdin.write(json.dumps({"id": self.next_id, "model": model_path,
                                          "inputs": paths,
                                          "output_dir": os.path.join(run_dir, "out")}) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        assert answer["id"] == self.next_id, answer
        if answer["ok"]:
            answer["values"] = []
            for path, out in zip(answer["outputs"], model.graph.output):
                kind = out.type.WhichOneof("value")
                proto = {"tensor_type": onnx.TensorProto, "sequence_type": onnx.SequenceProto,
                         "optional_type": onnx.OptionalProto}[kind]()
                with open(path, "rb") as f:
                    proto.ParseFromString(f.read())
                answer["values"].append(proto)
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def strings_tensor(values, name=""):
    return helper.make_tensor(name, TensorProto.STRING, [len(values)], values)


def identity_model(value_infos, nodes=(), initializers=()):
    """Each input i_k passed to output o_k through Identity (or nodes given)."""
    nodes = list(nodes) or [helper.make_node("Identity", ["i%d" % k], ["o%d" % k])
                            for k in range(len(value_infos))]
    graph = helper.make_graph(
        nodes, "strings",
        [helper.make_value_info("i%d" % k, t) for k, t in enumerate(value_infos)],
        [helper.make_value_info("o%d" % k, t) for k, t in enumerate(value_infos)],
        initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


STRING_TENSOR = helper.make_tensor_type_proto(TensorProto.STRING, None)


# ---- the Python backend adapter --------------------------------------------------------------

ECHO_BACKEND = '''
import numpy as np
from onnx.backend.base import Backend, BackendRep

__version__ = "1"


def bytes_only(value):
    """Raises unless every string element of the value is a bytes object."""
    if isinstance(value, (list, tuple)):
        for v in value:
            bytes_only(v)
    elif value is not None:
        for x in np.asarray(value).flat:
            if not isinstance(x, bytes):
                raise TypeError("a string element arrived as %s: %r" % (type(x).__name__, x))


class EchoRep(BackendRep):
    def run(self, inputs, **kwargs):
        bytes_only(inputs)
        return tuple(inputs)


class EchoBackend(Backend):
    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        return EchoRep()
'''


def python_adapter():
    with open(os.path.join(WORK, "echo_backend.py"), "w") as f:
        f.write(ECHO_BACKEND)
    adapter = Adapter([sys.executable, ADAPTER, "echo_backend:EchoBackend"],
                      env=dict(os.environ, PYTHONPATH=WORK))
    seq_type = helper.make_sequence_type_proto(STRING_TENSOR)
    types = [STRING_TENSOR, STRING_TENSOR, STRING_TENSOR, seq_type,
             helper.make_optional_type_proto(STRING_TENSOR),
             helper.make_optional_type_proto(seq_type)]
    # One run per hard string (so that each loss is named on its own), then all of them at once.
    runs = [(what, [lossy]) for what, lossy in sorted(LOSSY.items())]
    runs.append(("all together", list(LOSSY.values())))
    for what, hard in runs:
        strings = list(CLEAN.values()) + hard
        sequence = onnx.SequenceProto(elem_type=onnx.SequenceProto.TENSOR)
        sequence.tensor_values.extend(strings_tensor([s]) for s in strings)
        optional = onnx.OptionalProto(elem_type=onnx.OptionalProto.TENSOR)
        optional.tensor_value.CopyFrom(strings_tensor(strings))
        optional_sequence = onnx.OptionalProto(elem_type=onnx.OptionalProto.SEQUENCE)
        optional_sequence.sequence_value.CopyFrom(sequence)
        matrix = helper.make_tensor("", TensorProto.STRING, [len(strings), 1], strings)
        scalar = helper.make_tensor("", TensorProto.STRING, [], [hard[0]])
        inputs = [strings_tensor(strings), matrix, scalar, sequence, optional, optional_sequence]
        answer = adapter.run(identity_model(types), inputs)
        check(answer["ok"], "%s: the echo backend's run: %s" % (what, answer.get("error")))
        if not answer["ok"]:
            continue
        got = answer["values"]
        check(list(got[0].string_data) == strings,
              "%s: tensor: %r" % (what, list(got[0].string_data)))
        check(list(got[1].string_data) == strings and list(got[1].dims) == [len(strings), 1],
              "%s: 2-D tensor: %r %s" % (what, list(got[1].string_data), list(got[1].dims)))
        check(list(got[2].string_data) == hard[:1] and list(got[2].dims) == [],
              "%s: scalar: %r %s" % (what, list(got[2].string_data), list(got[2].dims)))
        check([list(t.string_data) for t in got[3].tensor_values] == [[s] for s in strings],
              "%s: sequence: %r" % (what, [list(t.string_data) for t in got[3].tensor_values]))
        check(list(got[4].tensor_value.string_data) == strings,
              "%s: optional: %r" % (what, list(got[4].tensor_value.string_data)))
        check([list(t.string_data) for t in got[5].sequence_value.tensor_values]
              == [[s] for s in strings], "%s: optional sequence: %r" % (
                  what, [list(t.string_data) for t in got[5].sequence_value.tensor_values]))
    adapter.close()


# ---- onnxruntime-web ------------------------------------------------------------------------

def web_adapter():
    node = shutil.which("node")
    if node is None:
        print("skipped: node is not installed")
        sys.exit(77)
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ADAPTER))))
    package = os.environ.get("SEQCONF_ORT_WEB") or os.path.join(
        source, "third_party", "npm", "node_modules", "onnxruntime-web")
    if not os.path.exists(os.path.join(package, "package.json")):
        print("skipped: %s is missing (run tools/setup-runtimes.sh)" % package)
        sys.exit(77)
    adapter = Adapter([node, ADAPTER])
    check(adapter.handshake["capabilities"]["sequences"] is False, "handshake: %s"
          % adapter.handshake)

    def not_supported(answer, words, what):
        check(not answer["ok"] and answer["error"]["kind"] == "not_supported"
              and words in answer["error"]["message"],
              "%s: not_supported naming %r, got %s" % (what, words, answer))

    clean = list(CLEAN.values())
    answer = adapter.run(identity_model([STRING_TENSOR]), [strings_tensor(clean)])
    check(answer["ok"] and list(answer["values"][0].string_data) == clean,
          "clean strings come back unchanged: %s" % answer)
    for what, lossy in sorted(LOSSY.items()):
        answer = adapter.run(identity_model([STRING_TENSOR]), [strings_tensor(clean + [lossy])])
        not_supported(answer, "NUL" if b"\x00" in lossy else "UTF-8", "input, " + what)

    # The model's own strings come back through the same reading as the outputs.
    tail = strings_tensor([b"tail\x00"], "c")
    constant = identity_model(
        [STRING_TENSOR], [helper.make_node("Constant", [], ["c"], value=tail),
                          helper.make_node("Concat", ["i0", "c"], ["o0"], axis=0)])
    answer = adapter.run(constant, [strings_tensor(clean)])
    not_supported(answer, "model's string", "a Constant holding a trailing NUL")
    initializer = identity_model(
        [STRING_TENSOR], [helper.make_node("Concat", ["i0", "c"], ["o0"], axis=0)],
        [strings_tensor([b"\xff\xfe"], "c")])
    answer = adapter.run(initializer, [strings_tensor(clean)])
    not_supported(answer, "model's string", "an initializer not UTF-8")
    branch = helper.make_graph([helper.make_node("Constant", [], ["b"], value=tail)], "branch",
                               [], [helper.make_value_info("b", STRING_TENSOR)])
    in_branch = identity_model(
        [STRING_TENSOR],
        [helper.make_node("Constant", [], ["t"], value=helper.make_tensor(
            "", TensorProto.BOOL, [], [True])),
         helper.make_node("If", ["t"], ["c"], then_branch=branch, else_branch=branch),
         helper.make_node("Concat", ["i0", "c"], ["o0"], axis=0)])
    answer = adapter.run(in_branch, [strings_tensor(clean)])
    not_supported(answer, "model's string", "a Constant inside an If branch")
    # A model whose strings are all carried runs (the check is not a blanket refusal).
    fine = identity_model(
        [STRING_TENSOR], [helper.make_node("Constant", [], ["c"],
                                           value=strings_tensor([CLEAN["U+FFFD itself"]], "c")),
                          helper.make_node("Concat", ["i0", "c"], ["o0"], axis=0)])
    answer = adapter.run(fine, [strings_tensor(clean)])
    check(answer["ok"] and list(answer["values"][0].string_data)
          == clean + [CLEAN["U+FFFD itself"]], "a Constant of valid UTF-8: %s" % answer)
    adapter.close()


os.makedirs(WORK, exist_ok=True)
for entry in os.listdir(WORK):
    if entry.startswith("run-"):
        shutil.rmtree(os.path.join(WORK, entry))
{"python": python_adapter, "web": web_adapter}[WHICH]()
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok: strings through the %s adapter" % WHICH)
