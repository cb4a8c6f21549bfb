// The graph interpreter: execution order, subgraphs, opsets, and its errors. Expected values
// are worked out by hand from the operator definitions quoted in the comments.
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

TEST(Interpreter, RunsNodesInDependencyOrderNotFileOrder) {
  // Nodes listed consumer first: y = SequenceAt(SequenceConstruct(a, b), 1) must still run.
  auto m = model(
      11,
      graph("g",
            {node("SequenceAt", {"s", "pos"}, {"y"}), node("SequenceConstruct", {"a", "b"}, {"s"})},
            {{"a", tensor_type(F)}, {"b", tensor_type(F)}, {"pos", tensor_type(I64)}},
            {{"y", tensor_type(F)}}));
  auto out = run(m, {f32({1}, {1.f}), f32({2}, {2.f, 3.f}), i64(1)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tensor().identical(f32({2}, {2.f, 3.f})));
}

TEST(Interpreter, InitializersAreValuesAndInputsSkipThem) {
  auto g = graph("g", {node("Add", {"x", "w"}, {"y"})},
                 {{"x", tensor_type(F)}, {"w", tensor_type(F)}}, {{"y", tensor_type(F)}});
  auto* init = g.add_initializer();
  *init = tensor_to_proto(f32({2}, {10.f, 20.f}), TensorEncoding::raw_data, "w");
  auto prepared = InterpretedModel::prepare(model(14, g));
  ASSERT_EQ(prepared.input_names(), std::vector<std::string>{"x"});
  Context ctx;
  auto out = prepared.run({f32({2}, {1.f, 2.f})}, ctx);
  EXPECT_TRUE(out[0].tensor().identical(f32({2}, {11.f, 22.f})));
  // Prepared once, run again with another input.
  out = prepared.run({f32({2}, {0.5f, 0.f})}, ctx);
  EXPECT_TRUE(out[0].tensor().identical(f32({2}, {10.5f, 20.f})));
}

TEST(Interpreter, LoopCarriesValuesAndStacksScanOutputs) {
  // Loop-13: body(iter, cond, acc) -> (cond, acc + iter, acc + iter as scan output).
  // M = 3: acc goes 0 -> 0 -> 1 -> 3; the scan output stacks 0, 1, 3 into shape [3].
  auto body =
      graph("body",
            {node("Identity", {"cond_in"}, {"cond_out"}),
             node("Add", {"acc_in", "iter"}, {"acc_out"}), node("Identity", {"acc_out"}, {"scan"})},
            {{"iter", tensor_type(I64)},
             {"cond_in", tensor_type(DataType::bool_)},
             {"acc_in", tensor_type(I64)}},
            {{"cond_out", tensor_type(DataType::bool_)},
             {"acc_out", tensor_type(I64)},
             {"scan", tensor_type(I64)}});
  auto m = model(
      13,
      graph("g", {node("Loop", {"M", "", "acc0"}, {"acc", "scans"}, {graph_attr("body", body)})},
            {{"M", tensor_type(I64)}, {"acc0", tensor_type(I64)}},
            {{"acc", tensor_type(I64)}, {"scans", tensor_type(I64)}}));
  auto out = run(m, {i64(3), i64(0)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].tensor().identical(i64(3)));
  EXPECT_TRUE(out[1].tensor().identical(i64_vec({0, 1, 3})));
  // M = 0: no iteration; the carried value is the initial one and the scan output is empty.
  out = run(m, {i64(0), i64(7)});
  EXPECT_TRUE(out[0].tensor().identical(i64(7)));
  EXPECT_EQ(out[1].tensor().shape(), (Shape{0}));
}

TEST(Interpreter, LoopCarriesASequence) {
  // Loop-13 ("All Tensor and Sequence types"): each iteration appends Unsqueeze(iter, [0])
  // (shape [1]); after M = 3, [[0], [1], [2]].
  auto body = graph("body",
                    {node("Identity", {"cond_in"}, {"cond_out"}),
                     node("Constant", {}, {"axes"}, {tensor_attr("value", i64_vec({0}))}),
                     node("Unsqueeze", {"iter", "axes"}, {"u"}),
                     node("SequenceInsert", {"seq_in", "u"}, {"seq_out"})},
                    {{"iter", tensor_type(I64)},
                     {"cond_in", tensor_type(DataType::bool_)},
                     {"seq_in", seq_type(I64)}},
                    {{"cond_out", tensor_type(DataType::bool_)}, {"seq_out", seq_type(I64)}});
  auto m = model(13, graph("g",
                           {node("SequenceEmpty", {}, {"empty"}, {int_attr("dtype", 7)}),
                            node("Loop", {"M", "", "empty"}, {"seq"}, {graph_attr("body", body)})},
                           {{"M", tensor_type(I64)}}, {{"seq", seq_type(I64)}}));
  auto out = run(m, {i64(3)});
  const Sequence& s = out[0].sequence();
  ASSERT_EQ(s.size(), 3u);
  for (int64_t i = 0; i < 3; ++i) EXPECT_TRUE(s.at(static_cast<size_t>(i)).identical(i64_vec({i})));
}

TEST(Interpreter, IfRunsTheChosenBranch) {
  auto branch = [](float v) {
    return graph("b", {node("Constant", {}, {"c"}, {tensor_attr("value", f32({1}, {v}))})}, {},
                 {{"c", tensor_type(F)}});
  };
  auto m = model(13, graph("g",
                           {node("If", {"cond"}, {"y"},
                                 {graph_attr("then_branch", branch(1.f)),
                                  graph_attr("else_branch", branch(2.f))})},
                           {{"cond", tensor_type(DataType::bool_)}}, {{"y", tensor_type(F)}}));
  auto t = Tensor::from_values<DataType::bool_>({}, {1});
  auto f = Tensor::from_values<DataType::bool_>({}, {0});
  EXPECT_TRUE(run(m, {t})[0].tensor().identical(f32({1}, {1.f})));
  EXPECT_TRUE(run(m, {f})[0].tensor().identical(f32({1}, {2.f})));
}

TEST(Interpreter, SequenceMapBodyReadsOuterScopeByName) {
  // SequenceMap-17 with body y = Add(x, k), k defined in the outer graph as 10:
  // [[1, 2], [3]] -> [[11, 12], [13]].
  auto body = graph("body", {node("Add", {"x", "k"}, {"y"})}, {{"x", tensor_type(F)}},
                    {{"y", tensor_type(F)}});
  auto m = model(17, graph("g",
                           {node("Constant", {}, {"k"}, {tensor_attr("value", f32({}, {10.f}))}),
                            node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", body)})},
                           {{"s", seq_type(F)}}, {{"out", seq_type(F)}}));
  auto out = run(m, {Sequence(F, {f32({2}, {1.f, 2.f}), f32({1}, {3.f})})});
  const Sequence& s = out[0].sequence();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s.at(0).identical(f32({2}, {11.f, 12.f})));
  EXPECT_TRUE(s.at(1).identical(f32({1}, {13.f})));
  // An empty input sequence gives an empty output sequence typed by the body's output.
  out = run(m, {Sequence(F)});
  EXPECT_EQ(out[0].sequence().size(), 0u);
  EXPECT_EQ(out[0].sequence().elem_type(), F);
}

TEST(Interpreter, SequenceMapBodyCastsAndConcatenatesAConstant) {
  // SequenceMap-17 whose body is y = Concat(Cast(x, to=float), c, axis=0), with c = [10.0]
  // defined inside the body (a nested Constant) or in the outer graph (read by name).
  // Cast-13: int32 1, 2, 3 are the floats 1.0, 2.0, 3.0 ("Conversion from a numerical type to
  // any numerical type is always allowed."); Concat-13 appends c to each sample:
  // [[1, 2], [3], []] -> [[1, 2, 10], [3, 10], [10]].
  const auto I32 = DataType::int32;
  const onnx::NodeProto constant =
      node("Constant", {}, {"c"}, {tensor_attr("value", f32({1}, {10.f}))});
  const std::vector<onnx::NodeProto> cast_concat = {
      node("Cast", {"x"}, {"xf"}, {int_attr("to", static_cast<int64_t>(F))}),
      node("Concat", {"xf", "c"}, {"y"}, {int_attr("axis", 0)})};
  std::vector<onnx::NodeProto> nested = {constant};
  nested.insert(nested.end(), cast_concat.begin(), cast_concat.end());
  const auto nested_body =
      graph("body", nested, {{"x", tensor_type(I32)}}, {{"y", tensor_type(F)}});
  const auto outer_body =
      graph("body", cast_concat, {{"x", tensor_type(I32)}}, {{"y", tensor_type(F)}});
  const auto nested_model =
      model(17, graph("g", {node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", nested_body)})},
                      {{"s", seq_type(I32)}}, {{"out", seq_type(F)}}));
  const auto outer_model = model(
      17,
      graph("g", {constant, node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", outer_body)})},
            {{"s", seq_type(I32)}}, {{"out", seq_type(F)}}));
  const Sequence samples(I32, {Tensor::from_values<DataType::int32>({2}, {1, 2}),
                               Tensor::from_values<DataType::int32>({1}, {3}),
                               Tensor::from_values<DataType::int32>({0}, {})});
  for (const auto* m : {&nested_model, &outer_model}) {
    const auto out = run(*m, {samples});
    const Sequence& s = out[0].sequence();
    EXPECT_EQ(s.elem_type(), F);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(s.at(0).identical(f32({3}, {1.f, 2.f, 10.f})));
    EXPECT_TRUE(s.at(1).identical(f32({2}, {3.f, 10.f})));
    EXPECT_TRUE(s.at(2).identical(f32({1}, {10.f})));
  }
}

TEST(Interpreter, PolicyAndAmbiguitiesFlowThroughTheContext) {
  // Position of shape [1]: lenient accepts and records position_shape_1, strict rejects.
  auto m = model(11, graph("g", {node("SequenceInsert", {"s", "t", "p"}, {"y"})},
                           {{"s", seq_type(F)}, {"t", tensor_type(F)}, {"p", tensor_type(I64)}},
                           {{"y", seq_type(F)}}));
  const std::vector<Value> in = {Sequence(F, {f32({1}, {1.f})}), f32({1}, {2.f}), i64_vec({0})};
  Context lenient;
  auto out = run(m, in, &lenient);
  ASSERT_EQ(out[0].sequence().size(), 2u);
  EXPECT_TRUE(out[0].sequence().at(0).identical(f32({1}, {2.f})));
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  EXPECT_EQ(lenient.ambiguities[0].id, "position_shape_1");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::position_not_scalar, [&] { run(m, in, &strict); });
}

TEST(Interpreter, OperatorErrorsKeepTheirCodes) {
  auto m = model(11, graph("g", {node("SequenceAt", {"s", "p"}, {"y"})},
                           {{"s", seq_type(F)}, {"p", tensor_type(I64)}}, {{"y", tensor_type(F)}}));
  expect_error(ErrorCode::position_out_of_range, [&] {
    run(m, {Sequence(F, {f32({1}, {1.f})}), i64(1)});
  });
  expect_error(ErrorCode::missing_input, [&] { run(m, {Sequence(F)}); });
  expect_error(ErrorCode::not_a_sequence, [&] { run(m, {f32({1}, {1.f}), i64(0)}); });
}

// ---- invalid models ----

TEST(InterpreterErrors, CycleIsInvalidModel) {
  auto m = model(13, graph("g",
                           {node("Identity", {"b"}, {"a"}), node("Identity", {"a"}, {"b"}),
                            node("Identity", {"x"}, {"y"})},
                           {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Identity"), std::string::npos) << msg;
}

TEST(InterpreterErrors, DanglingNameIsInvalidModel) {
  auto m = model(13, graph("g", {node("Add", {"x", "nowhere"}, {"y"})}, {{"x", tensor_type(F)}},
                           {{"y", tensor_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("'nowhere'"), std::string::npos) << msg;
}

TEST(InterpreterErrors, DanglingNameInsideASubgraphIsInvalidModel) {
  auto body = graph("body", {node("Add", {"x", "ghost"}, {"y"})}, {{"x", tensor_type(F)}},
                    {{"y", tensor_type(F)}});
  auto m = model(17, graph("g", {node("SequenceMap", {"s"}, {"out"}, {graph_attr("body", body)})},
                           {{"s", seq_type(F)}}, {{"out", seq_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("'ghost'"), std::string::npos) << msg;
}

TEST(InterpreterErrors, UndefinedGraphOutputIsInvalidModel) {
  auto m = model(13, graph("g", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                           {{"z", tensor_type(F)}}));
  expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
}

TEST(InterpreterErrors, NameDefinedTwiceIsInvalidModel) {
  auto m = model(13, graph("g", {node("Identity", {"x"}, {"y"}), node("Identity", {"x"}, {"y"})},
                           {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
}

TEST(InterpreterErrors, MissingBodyIsInvalidModel) {
  auto m = model(17, graph("g", {node("SequenceMap", {"s"}, {"out"})}, {{"s", seq_type(F)}},
                           {{"out", seq_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("body"), std::string::npos) << msg;
  auto loop = model(13, graph("g", {node("Loop", {"M", ""}, {})}, {{"M", tensor_type(I64)}}, {}));
  expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(loop); });
}

TEST(InterpreterErrors, UnknownOperatorIsNotSupportedNamingOpAndVersion) {
  auto m = model(13, graph("g", {node("Frobnicate", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                           {{"y", tensor_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::not_supported, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("Frobnicate"), std::string::npos) << msg;
  EXPECT_NE(msg.find("opset 13"), std::string::npos) << msg;
}

TEST(InterpreterErrors, OtherDomainIsNotSupported) {
  auto m = model(13, graph("g", {node("FusedThing", {"x"}, {"y"}, {}, "com.example")},
                           {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  auto* o = m.add_opset_import();
  o->set_domain("com.example");
  o->set_version(1);
  const std::string msg =
      expect_error(ErrorCode::not_supported, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("com.example"), std::string::npos) << msg;
}

TEST(InterpreterErrors, UnimplementedVersionIsNotSupported) {
  // Slice-1 (attributes) is older than what the reference implements (Slice-10 inputs).
  auto m = model(9, graph("g", {node("Slice", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                          {{"y", tensor_type(F)}}));
  const std::string msg =
      expect_error(ErrorCode::not_supported, [&] { InterpretedModel::prepare(m); });
  EXPECT_NE(msg.find("Slice-1"), std::string::npos) << msg;
}

TEST(InterpreterErrors, OperatorNewerThanTheOpsetIsInvalidModel) {
  // SequenceAt appears in opset 11.
  auto m = model(10, graph("g", {node("SequenceAt", {"s", "p"}, {"y"})},
                           {{"s", seq_type(F)}, {"p", tensor_type(I64)}}, {{"y", tensor_type(F)}}));
  expect_error(ErrorCode::invalid_model, [&] { InterpretedModel::prepare(m); });
}

TEST(InterpreterErrors, OpsetBeyondTheReferenceIsNotSupported) {
  auto m = model(interp::kMaxOpset + 1, graph("g", {node("Identity", {"x"}, {"y"})},
                                              {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  expect_error(ErrorCode::not_supported, [&] { InterpretedModel::prepare(m); });
}

// A graph input's declared type is part of the model: a value of another element type bound to
// it is an element type mismatch naming the input, before any node runs.
TEST(InterpreterErrors, InputOfAnotherElementTypeThanDeclaredIsRejected) {
  auto seq_model = model(11, graph("g", {node("SequenceLength", {"s"}, {"n"})},
                                   {{"s", seq_type(F)}}, {{"n", tensor_type(I64)}}));
  auto msg = expect_error(ErrorCode::element_type_mismatch,
                          [&] { run(seq_model, {make_sequence(I64, 2)}); });
  EXPECT_NE(msg.find("input 's'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("seq(tensor(float))"), std::string::npos) << msg;
  // The empty sequence carries its element type too.
  expect_error(ErrorCode::element_type_mismatch, [&] { run(seq_model, {Sequence(I64)}); });

  auto tensor_model = model(13, graph("g", {node("Identity", {"x"}, {"y"})},
                                      {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  msg = expect_error(ErrorCode::element_type_mismatch, [&] { run(tensor_model, {i64(1)}); });
  EXPECT_NE(msg.find("input 'x'"), std::string::npos) << msg;
}

TEST(InterpreterErrors, WrongInputCountIsMissingInput) {
  auto m = model(13, graph("g", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                           {{"y", tensor_type(F)}}));
  expect_error(ErrorCode::missing_input, [&] { run(m, {}); });
}

}  // namespace
}  // namespace seqconf::testing
