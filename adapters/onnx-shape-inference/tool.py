#!/usr/bin/env python3
"""ONNX's shape inference as a model-to-model tool: reads the model at INPUT, writes it with the
inferred value_info added to OUTPUT. Tools that rewrite models (exporters, optimizers) run it as
a step, so its output must stay a valid model that computes the same result.

    seqconf run --runtime 'transform=process=python3 adapters/onnx-shape-inference/tool.py'

Usage: tool.py INPUT OUTPUT. Exit status 0 when OUTPUT was written; otherwise the reason is on
stderr.
"""
import sys

import onnx
import onnx.shape_inference


def main(argv):
    if len(argv) != 3:
        print("usage: tool.py INPUT OUTPUT", file=sys.stderr)
        return 2
    model = onnx.load(argv[1])
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    onnx.save(inferred, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
