// The empty name "" in the interpreter: a node input or output named "" is absent (IR.md:
// "There are two ways to leave an optional input or output unspecified: the first, available
// only for trailing inputs and outputs, is to simply not provide that input or output; the
// second method is to use an empty string in place of an input or output name."), everywhere
// the interpreter reads one; a required input given as "" is missing_input naming op, version
// and input index. Expected values come from the operator definitions quoted next to each case.
#include <gtest/gtest.h>

#include "reference/interpreter/interpreter.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using interp::InterpretedModel;
using interp::run_model;

const auto F = DataType::float32;
const auto I64 = DataType::int64;
const auto BOOL = DataType::bool_;

Sequence abc() { return Sequence(F, {f32({1}, {1.f}), f32({1}, {2.f}), f32({1}, {3.f})}); }

// A model of one node reading graph inputs (named in `inputs`, "" allowed) of the given types.
onnx::ModelProto one_node(int64_t opset, const std::string& op, std::vector<std::string> inputs,
                          std::vector<NamedType> graph_inputs, NamedType output,
                          std::vector<onnx::AttributeProto> attrs = {}) {
  return model(opset,
               graph("g", {node(op, inputs, {output.first}, attrs)}, graph_inputs, {output}));
}

// Expects missing_input at prepare whose message holds every one of `parts`.
void expect_missing(const onnx::ModelProto& m, const std::vector<std::string>& parts) {
  const std::string msg =
      expect_error(ErrorCode::missing_input, [&] { InterpretedModel::prepare(m); });
  for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " in: " << msg;
}

// SequenceErase-11: "'position' is optional, by default it erases the last tensor from
// 'input_sequence'."
TEST(EmptyNames, SequenceEraseWithEmptyPositionErasesTheLastTensor) {
  const NamedType s{"s", seq_type(F)};
  const auto given_empty = one_node(11, "SequenceErase", {"s", ""}, {s}, {"y", seq_type(F)});
  const auto omitted = one_node(11, "SequenceErase", {"s"}, {s}, {"y", seq_type(F)});
  const Sequence expected(F, {f32({1}, {1.f}), f32({1}, {2.f})});
  EXPECT_TRUE(run(given_empty, {abc()})[0].sequence().identical(expected));
  EXPECT_TRUE(run(omitted, {abc()})[0].sequence().identical(expected));
}

// SequenceInsert-11: "'position' is optional, by default it inserts 'tensor' to the back of
// 'input_sequence'."
TEST(EmptyNames, SequenceInsertWithEmptyPositionAppends) {
  const auto m = one_node(11, "SequenceInsert", {"s", "t", ""},
                          {{"s", seq_type(F)}, {"t", tensor_type(F)}}, {"y", seq_type(F)});
  const Sequence expected(
      F, {f32({1}, {1.f}), f32({1}, {2.f}), f32({1}, {3.f}), f32({2}, {4.f, 5.f})});
  EXPECT_TRUE(run(m, {abc(), f32({2}, {4.f, 5.f})})[0].sequence().identical(expected));
}

// SplitToSequence-11: "If 'split' is not specified, 'input' is split into ... chunks of size 1";
// keepdims: "If input 'split' is specified, this attribute is ignored." With keepdims=0 an
// absent split gives scalars, a given one would not: "" must be the absent split.
TEST(EmptyNames, SplitToSequenceWithEmptySplitEqualsNoSplit) {
  const NamedType x{"x", tensor_type(F)};
  const auto keepdims0 = int_attr("keepdims", 0);
  const auto given_empty =
      one_node(11, "SplitToSequence", {"x", ""}, {x}, {"y", seq_type(F)}, {keepdims0});
  const auto omitted = one_node(11, "SplitToSequence", {"x"}, {x}, {"y", seq_type(F)}, {keepdims0});
  const Sequence expected(F, {f32({}, {1.f}), f32({}, {2.f}), f32({}, {3.f})});
  const Tensor in = f32({3}, {1.f, 2.f, 3.f});
  EXPECT_TRUE(run(given_empty, {in})[0].sequence().identical(expected));
  EXPECT_TRUE(run(omitted, {in})[0].sequence().identical(expected));
}

// Loop: 'input ("", cond) // Note this is analogous to a while loop': no trip count. The body
// negates cond, so cond = true runs one iteration (the scan output stacks iter 0) and
// cond = false none.
TEST(EmptyNames, LoopWithEmptyTripCountIsAWhileLoop) {
  auto body =
      graph("body", {node("Not", {"cond_in"}, {"cond_out"}), node("Identity", {"iter"}, {"scan"})},
            {{"iter", tensor_type(I64)}, {"cond_in", tensor_type(BOOL)}},
            {{"cond_out", tensor_type(BOOL)}, {"scan", tensor_type(I64, {})}});
  auto m = model(13, graph("g", {node("Loop", {"", "cond"}, {"y"}, {graph_attr("body", body)})},
                           {{"cond", tensor_type(BOOL)}}, {{"y", tensor_type(I64)}}));
  EXPECT_TRUE(
      run(m, {Tensor::from_values<DataType::bool_>({}, {1})})[0].tensor().identical(i64_vec({0})));
  EXPECT_EQ(run(m, {Tensor::from_values<DataType::bool_>({}, {0})})[0].tensor().shape(),
            (Shape{0}));
}

// OptionalHasElement-18: "If the input is not provided or is an empty optional-type, this op
// returns false." Version 15 requires the input.
TEST(EmptyNames, OptionalHasElementOfAnEmptyNameIsFalseFromVersion18) {
  auto m = [](int64_t opset) {
    return model(opset, graph("g", {node("OptionalHasElement", {""}, {"y"})}, {},
                              {{"y", tensor_type(BOOL)}}));
  };
  EXPECT_TRUE(run(m(18), {})[0].tensor().identical(Tensor::from_values<DataType::bool_>({}, {0})));
  expect_missing(m(15), {"OptionalHasElement-15", "input 0 (input)", "empty name"});
}

// Optional-15: "Constructs an optional-type value containing either an empty optional of a
// certain type specified by the attribute, or a non-empty value containing the input element."
TEST(EmptyNames, OptionalOfAnEmptyNameIsTheEmptyOptionalOfItsType) {
  onnx::AttributeProto type;
  type.set_name("type");
  type.set_type(onnx::AttributeProto::TYPE_PROTO);
  *type.mutable_tp() = tensor_type(I64);
  auto m = model(15, graph("g", {node("Optional", {""}, {"y"}, {type})}, {},
                           {{"y", model::optional_of(tensor_type(I64))}}));
  const Value out = run(m, {})[0];
  ASSERT_TRUE(out.is_optional());
  EXPECT_EQ(out.optional().element, nullptr);
  EXPECT_FALSE(out.optional().holds_sequence);
  EXPECT_EQ(out.optional().elem_type, I64);
}

// A subgraph reading "" reads nothing from the enclosing graph: If's branch erases the last
// tensor of the outer sequence s.
TEST(EmptyNames, ASubgraphsEmptyNameIsNoFreeName) {
  auto branch = graph("b", {node("SequenceErase", {"s", ""}, {"r"})}, {}, {{"r", seq_type(F)}});
  auto m = model(
      13, graph("g",
                {node("If", {"cond"}, {"y"},
                      {graph_attr("then_branch", branch), graph_attr("else_branch", branch)})},
                {{"cond", tensor_type(BOOL)}, {"s", seq_type(F)}}, {{"y", seq_type(F)}}));
  EXPECT_TRUE(
      run(m, {Tensor::from_values<DataType::bool_>({}, {1}), abc()})[0].sequence().identical(
          Sequence(F, {f32({1}, {1.f}), f32({1}, {2.f})})));
}

TEST(EmptyNames, ARequiredInputGivenAsTheEmptyNameIsMissingInput) {
  // SequenceAt-11: position is required.
  expect_missing(one_node(11, "SequenceAt", {"s", ""}, {{"s", seq_type(F)}}, {"y", tensor_type(F)}),
                 {"SequenceAt-11", "input 1 (position)", "empty name"});
  // SequenceInsert-11: tensor is required even though position (after it) is optional.
  expect_missing(one_node(11, "SequenceInsert", {"s", "", "p"},
                          {{"s", seq_type(F)}, {"p", tensor_type(I64)}}, {"y", seq_type(F)}),
                 {"SequenceInsert-11", "input 1 (tensor)"});
  expect_missing(one_node(14, "Add", {"a", ""}, {{"a", tensor_type(F)}}, {"c", tensor_type(F)}),
                 {"Add-14", "input 1 (B)"});
  expect_missing(one_node(13, "If", {""}, {}, {"y", tensor_type(F)}), {"If-13", "input 0 (cond)"});
  // Every value of a variadic input is required.
  expect_missing(
      one_node(11, "SequenceConstruct", {"a", ""}, {{"a", tensor_type(F)}}, {"s", seq_type(F)}),
      {"SequenceConstruct-11", "input 1 (inputs, variadic)"});
  auto body = graph("body", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                    {{"y", tensor_type(F)}});
  expect_missing(one_node(17, "SequenceMap", {"s", ""}, {{"s", seq_type(F)}}, {"y", seq_type(F)},
                          {graph_attr("body", body)}),
                 {"SequenceMap-17", "input 1 (additional_inputs, variadic)"});
  expect_missing(
      one_node(17, "SequenceMap", {""}, {}, {"y", seq_type(F)}, {graph_attr("body", body)}),
      {"SequenceMap-17", "input 0 (input_sequence)"});
  // An input left out at the end is missing too.
  expect_missing(one_node(11, "SequenceAt", {"s"}, {{"s", seq_type(F)}}, {"y", tensor_type(F)}),
                 {"SequenceAt-11", "input 1 (position)", "only 1 input"});
}

// A graph's own inputs, initializers and outputs are values, not omitted ones.
TEST(EmptyNames, AGraphValueWithTheEmptyNameIsInvalidModel) {
  auto expect_invalid = [](const onnx::ModelProto& m, const std::string& part) {
    const std::string msg =
        expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
  };
  expect_invalid(
      model(13, graph("g", {node("Identity", {"x"}, {"y"})},
                      {{"x", tensor_type(F)}, {"", tensor_type(F)}}, {{"y", tensor_type(F)}})),
      "input 1 has the empty name");
  expect_invalid(model(13, graph("g", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                                 {{"", tensor_type(F)}})),
                 "output 0 has the empty name");
  auto g = graph("g", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                 {{"y", tensor_type(F)}});
  *g.add_initializer() = tensor_to_proto(f32({1}, {1.f}), TensorEncoding::raw_data, "");
  expect_invalid(model(13, g), "initializer 0 has the empty name");
}

}  // namespace
}  // namespace seqconf::testing
