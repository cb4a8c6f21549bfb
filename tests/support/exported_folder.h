// Exported folders written by a test, as a user brings them: <root>/<program>/opset=<N>/ with
// model.onnx and one test_data_set_K per (inputs, framework outputs), no case.json.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "reference/proto.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {

// Writes the folder and returns its case as load_exported(root) reads it.
inline Case write_exported(
    const std::filesystem::path& root, const std::string& program, const onnx::ModelProto& m,
    const std::vector<std::pair<std::vector<Value>, std::vector<Value>>>& sets) {
  const std::filesystem::path dir =
      root / program / ("opset=" + std::to_string(m.opset_import(0).version()));
  write_file(dir / "model.onnx", m.SerializeAsString());
  for (size_t s = 0; s < sets.size(); ++s) {
    const std::filesystem::path ds = dir / ("test_data_set_" + std::to_string(s));
    for (size_t k = 0; k < sets[s].first.size(); ++k)
      write_file(ds / ("input_" + std::to_string(k) + ".pb"),
                 value_to_bytes(sets[s].first[k], TensorEncoding::raw_data));
    for (size_t k = 0; k < sets[s].second.size(); ++k)
      write_file(ds / ("output_" + std::to_string(k) + ".pb"),
                 value_to_bytes(sets[s].second[k], TensorEncoding::raw_data));
  }
  for (const Case& c : load_exported(root))
    if (c.dir == dir) return c;
  ADD_FAILURE() << dir << " was not loaded";
  return {};
}

// x -> Relu -> SequenceConstruct(relu, x) -> SequenceAt 0: y = Relu(x). Relu: "y = max(0, x)",
// applied elementwise, so [-1.5, 0, 2.25] gives [0, 0, 2.25]. Relu is an operator
// the reference lacks (its host runs it).
inline onnx::ModelProto relu_then_sequence() {
  return model(
      14, graph("relu_seq",
                {node("Relu", {"x"}, {"r"}, {}, ""), node("SequenceConstruct", {"r", "x"}, {"s"}),
                 node("Constant", {}, {"zero"}, {tensor_attr("value", i64(0))}),
                 node("SequenceAt", {"s", "zero"}, {"y"})},
                {{"x", tensor_type(DataType::float32)}}, {{"y", tensor_type(DataType::float32)}}));
}

}  // namespace seqconf::testing
