// ONNX Runtime's SequenceMap function tests (onnxruntime/test/framework/function_test.cc:
// FunctionTest.NestedConstant, OuterScopeName and ConstantFoldingInSubGraph), rebuilt here as
// models and run on the interpreter. Their inputs and expected outputs are ONNX Runtime's; they
// also follow from the spec by hand (SequenceMap applies the body to each sample).
#include <gtest/gtest.h>

#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

const DataType F = DataType::float32;

Tensor constant_f32(std::vector<int64_t> shape, std::vector<float> v) {
  return Tensor::from_values<DataType::float32>(std::move(shape), std::move(v));
}
Tensor constant_i64(int64_t v) { return Tensor::from_values<DataType::int64>({}, {v}); }

// agraph (float[N] x) => (y): xseq = SequenceConstruct(x); yseq = SequenceMap(xseq) <body>;
// y = SequenceAt(yseq, 0). `outer` nodes precede the SequenceMap in the main graph.
onnx::ModelProto map_then_first(onnx::GraphProto body, std::vector<onnx::NodeProto> outer) {
  std::vector<onnx::NodeProto> nodes = {node("SequenceConstruct", {"x"}, {"xseq"})};
  for (auto& n : outer) nodes.push_back(n);
  nodes.push_back(node("SequenceMap", {"xseq"}, {"yseq"}, {graph_attr("body", body)}));
  nodes.push_back(node("Constant", {}, {"zero"}, {tensor_attr("value", constant_i64(0))}));
  nodes.push_back(node("SequenceAt", {"yseq", "zero"}, {"y"}));
  return model(17, graph("agraph", nodes, {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
}

// NestedConstant: the body pads each sample with a Constant of three zeros (Concat axis 0).
TEST(OrtFunctionTests, NestedConstant) {
  const onnx::GraphProto body =
      graph("zeropad",
            {node("Constant", {}, {"zeros"}, {tensor_attr("value", constant_f32({3}, {0, 0, 0}))}),
             node("Concat", {"lx", "zeros"}, {"ly"}, {int_attr("axis", 0)})},
            {{"lx", tensor_type(F)}}, {{"ly", tensor_type(F)}});
  const auto out = run(map_then_first(body, {}), {f32({3}, {1, 2, 3})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tensor().identical(f32({6}, {1, 2, 3, 0, 0, 0}))) << out[0].describe();
}

// OuterScopeName: the same, with the zeros defined in the main graph and read by name from the
// body (a nested graph sees the names of its enclosing scopes).
TEST(OrtFunctionTests, OuterScopeName) {
  const onnx::GraphProto body =
      graph("zeropad", {node("Concat", {"lx", "zeros"}, {"ly"}, {int_attr("axis", 0)})},
            {{"lx", tensor_type(F)}}, {{"ly", tensor_type(F)}});
  const auto out =
      run(map_then_first(body, {node("Constant", {}, {"zeros"},
                                     {tensor_attr("value", constant_f32({3}, {0, 0, 0}))})}),
          {f32({3}, {1, 2, 3})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tensor().identical(f32({6}, {1, 2, 3, 0, 0, 0}))) << out[0].describe();
}

// ConstantFoldingInSubGraph: seq1 = SequenceConstruct(X, X, X); the body adds C = 1 + 1 to each
// sample; Y = ConcatFromSequence<axis=0>(seq2).
TEST(OrtFunctionTests, ConstantFoldingInSubGraph) {
  const onnx::GraphProto body =
      graph("add1",
            {node("Constant", {}, {"C1"}, {tensor_attr("value", constant_f32({}, {1}))}),
             node("Constant", {}, {"C2"}, {tensor_attr("value", constant_f32({}, {1}))}),
             node("Add", {"C1", "C2"}, {"C"}), node("Add", {"Z", "C"}, {"W"})},
            {{"Z", tensor_type(F)}}, {{"W", tensor_type(F)}});
  const auto m =
      model(17, graph("agraph",
                      {node("SequenceConstruct", {"X", "X", "X"}, {"seq1"}),
                       node("SequenceMap", {"seq1"}, {"seq2"}, {graph_attr("body", body)}),
                       node("ConcatFromSequence", {"seq2"}, {"Y"}, {int_attr("axis", 0)})},
                      {{"X", tensor_type(F)}}, {{"Y", tensor_type(F)}}));
  const auto out = run(m, {f32({3}, {1, 2, 3})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tensor().identical(f32({9}, {3, 4, 5, 3, 4, 5, 3, 4, 5})))
      << out[0].describe();
}

}  // namespace
}  // namespace seqconf::testing
