#!/usr/bin/env python3
"""A model-to-model tool that breaks models on purpose, one way per mode, for the tests of
transform=process=COMMAND (runtimes/transform.h). Usage: breaking_tool.py MODE INPUT OUTPUT.

  identity    writes the input model unchanged
  fail        refuses: exit status 3, a message on stderr
  crash       dies by SIGSEGV
  hang        sleeps for an hour
  silent      exits 0 without writing an output model
  garbage     writes bytes that are not a model
  drop-type   clears the type of the first graph input (or output, when there is no input)
  invalid     adds a node whose input nothing produces (ONNX's checker rejects the model)
  negate      negates every float constant (Constant nodes and initializers): the result changes
"""
import os
import shutil
import signal
import sys
import time


def main():
    mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "identity":
        shutil.copyfile(src, dst)
        return 0
    if mode == "fail":
        print("breaking_tool: refusing this model on purpose", file=sys.stderr)
        return 3
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(3600)
    if mode == "silent":
        return 0
    if mode == "garbage":
        with open(dst, "wb") as f:
            f.write(b"this is not an ONNX model")
        return 0

    import onnx
    from onnx import numpy_helper

    model = onnx.load(src)
    graph = model.graph
    if mode == "drop-type":
        target = graph.input[0] if len(graph.input) else graph.output[0]
        target.ClearField("type")
    elif mode == "invalid":
        graph.node.append(onnx.helper.make_node("Identity", ["produced_by_nobody"], ["dangling"]))
    elif mode == "negate":
        def negated(t):
            if t.data_type != onnx.TensorProto.FLOAT:
                return t
            n = numpy_helper.from_array(-numpy_helper.to_array(t), t.name)
            return n

        for node in graph.node:
            if node.op_type == "Constant":
                for a in node.attribute:
                    if a.name == "value":
                        a.t.CopyFrom(negated(a.t))
        for k, t in enumerate(graph.initializer):
            graph.initializer[k].CopyFrom(negated(t))
    else:
        print("breaking_tool: unknown mode " + mode, file=sys.stderr)
        return 2
    onnx.save(model, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
