// One-node ONNX models for the benchmarks, built in code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <onnx/onnx_pb.h>

namespace seqconf::bench {

// SplitToSequence(input float[rows, cols], split int64 scalar if with_split) -> seq(float).
onnx::ModelProto split_model(int64_t rows, int64_t cols, int64_t axis, bool with_split);
// SequenceInsert(seq(float), tensor float, position int64) -> seq(float).
onnx::ModelProto insert_model();
// SequenceErase(seq(float), position int64) -> seq(float).
onnx::ModelProto erase_model();
// SequenceAt(seq(float), position int64) -> tensor float.
onnx::ModelProto at_model();
// SequenceMap over seq(float) of [n]: body Identity(x), or Add(x, b) with b a float[n] input.
onnx::ModelProto map_model(int64_t n, bool add);
// Add-14 of two float tensors of n elements.
onnx::ModelProto add_model(int64_t n);

}  // namespace seqconf::bench
