#!/usr/bin/python3
"""A hostile seqconf-runtime/1 process runtime (tests/hardening/hostile_runtime_test.py).

  hostile_runtime.py MODE [CANARY]

MODE is one behaviour for every request, or `cycle`: request N gets behaviour (N - 1) mod 13 in
the order of BEHAVIOURS. CANARY is the file the outside_file answer names (outside output_dir).
If HOSTILE_LOG is set, each request's model path is appended to it (the test checks that
seqconf removed those folders).
"""
import json
import os
import random
import signal
import sys
import time

import onnx
from onnx import helper

HOSTILE = "<script>alert(1)</script> $(touch /tmp/pwned) `touch /tmp/pwned` \x1b[31mred\x1b[0m"


def answer(req_id, **fields):
    print(json.dumps({"id": req_id, **fields}), flush=True)


def error(req_id, message, kind="internal"):
    answer(req_id, ok=False, error={"kind": kind, "message": message})


def graph_outputs(req):
    return onnx.load(req["model"], load_external_data=False).graph.output


def write_outputs(req, content):
    """One file per graph output under output_dir, content(k, output) giving its bytes."""
    paths = []
    for k, out in enumerate(graph_outputs(req)):
        path = os.path.join(req["output_dir"], "output_%d.pb" % k)
        with open(path, "wb") as f:
            f.write(content(k, out))
        paths.append(path)
    return paths


def segfault(req):
    os.kill(os.getpid(), signal.SIGSEGV)


def hang(req):
    time.sleep(3600)


def exit0(req):
    sys.exit(0)


def garbage(req):
    # Lines seqconf must skip, then an `ok` answer to another request (it must not be taken for
    # this one), then the real answer.
    print("this is not JSON {", flush=True)
    print('[1, 2, 3]\n"a string"\nnull\n{"id": "%s"}\n{"id": null, "ok": true}' % req["id"],
          flush=True)
    answer(req["id"] + 1000, ok=True, outputs=list(req["inputs"]))
    error(req["id"], "the real answer came after the garbage")


def random_output(req):
    rng = random.Random(req["id"])
    answer(req["id"], ok=True, outputs=write_outputs(req, lambda k, out: rng.randbytes(4096)))


def tensor_for_sequence(req):
    # A TensorProto for every output, whatever its declared type (sequence or optional too).
    tensor = helper.make_tensor("t", onnx.TensorProto.FLOAT, [2], [1.0, 2.0])
    answer(req["id"], ok=True,
           outputs=write_outputs(req, lambda k, out: tensor.SerializeToString()))


def holding(tensor, type_proto):
    """The message of type_proto's kind (tensor, sequence or optional) holding tensor."""
    if type_proto.HasField("sequence_type"):
        return onnx.SequenceProto(elem_type=onnx.SequenceProto.TENSOR, tensor_values=[tensor])
    if type_proto.HasField("optional_type"):
        elem = type_proto.optional_type.elem_type
        if elem.HasField("sequence_type"):
            return onnx.OptionalProto(elem_type=onnx.OptionalProto.SEQUENCE,
                                      sequence_value=holding(tensor, elem))
        return onnx.OptionalProto(elem_type=onnx.OptionalProto.TENSOR, tensor_value=tensor)
    return tensor


def huge_tensor(req):
    # dims [10^6, 10^6] (10^12 float elements) and no data, in a message of the declared kind.
    tensor = onnx.TensorProto(data_type=onnx.TensorProto.FLOAT, dims=[1000000, 1000000])
    answer(req["id"], ok=True, outputs=write_outputs(
        req, lambda k, out: holding(tensor, out.type).SerializeToString()))


def flood(req):
    # 50 MB before the answer: 25 MB in 1 MiB lines, then 25 MB in one line.
    mib = b"x" * (1 << 20)
    for _ in range(25):
        sys.stdout.buffer.write(mib + b"\n")
    for _ in range(25):
        sys.stdout.buffer.write(mib)
    sys.stdout.buffer.write(b"\n")
    sys.stdout.flush()
    error(req["id"], "the answer after 50 MB of flood")


def outside_file(req):
    answer(req["id"], ok=True, outputs=[CANARY for _ in graph_outputs(req)])


def hostile_messages(req):
    kinds = ["internal", "not_supported", "invalid_input"]
    error(req["id"], HOSTILE + " (request %d)" % req["id"], kinds[req["id"] % 3])


def fifo_output(req):
    # A FIFO in output_dir, which nobody writes: reading it would block for ever.
    paths = []
    for k, _ in enumerate(graph_outputs(req)):
        path = os.path.join(req["output_dir"], "output_%d.pb" % k)
        os.mkfifo(path)
        paths.append(path)
    answer(req["id"], ok=True, outputs=paths)


def dev_zero(req):
    # An endless file: reading it whole would exhaust the memory.
    answer(req["id"], ok=True, outputs=["/dev/zero" for _ in graph_outputs(req)])


def trickle(req):
    # A stray line every second, the answer after 8 s: the time limit counts from the request.
    for _ in range(8):
        print("still working", flush=True)
        time.sleep(1)
    error(req["id"], "the answer after 8 s of stray lines")


BEHAVIOURS = [segfault, hang, exit0, garbage, random_output, tensor_for_sequence, huge_tensor,
              flood, outside_file, hostile_messages, fifo_output, dev_zero, trickle]
BY_NAME = {b.__name__: b for b in BEHAVIOURS}

mode = sys.argv[1]
CANARY = sys.argv[2] if len(sys.argv) > 2 else "/nonexistent/canary.pb"
if mode != "cycle" and mode not in BY_NAME:
    sys.exit("unknown mode %s; one of: cycle %s" % (mode, " ".join(BY_NAME)))

name = "hostile " + HOSTILE if mode in ("hostile_messages", "cycle") else "hostile"
print(json.dumps({"protocol": "seqconf-runtime/1", "name": name, "version": "1",
                  "capabilities": {"sequences": True}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if os.environ.get("HOSTILE_LOG"):
        with open(os.environ["HOSTILE_LOG"], "a") as log:
            log.write(req["model"] + "\n")
    behaviour = (BEHAVIOURS[(req["id"] - 1) % len(BEHAVIOURS)] if mode == "cycle"
                 else BY_NAME[mode])
    behaviour(req)
