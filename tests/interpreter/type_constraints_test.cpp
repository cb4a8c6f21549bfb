// The type table (reference/interpreter/type_constraints.h) and the checks the interpreter makes
// with it. The table is compared with the schemas of the installed ONNX library for every
// version that library knows; the expected outcomes of the models below come from the type
// constraints of Operators.md / Changelog.md quoted next to them.
#include <map>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include "reference/interpreter/interpreter.h"
#include "reference/interpreter/type_constraints.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using interp::FormalParameter;
using interp::OperatorSignature;
using interp::run_model;

const auto F = DataType::float32;
const auto I64 = DataType::int64;
const auto BOOL = DataType::bool_;

// Expects invalid_model whose message holds every one of `parts`.
void expect_invalid(const onnx::ModelProto& m, std::vector<Value> inputs,
                    const std::vector<std::string>& parts) {
  const std::string msg = expect_error(ErrorCode::invalid_model, [&] { run(m, inputs); });
  for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " in: " << msg;
}

Tensor bool_scalar(bool v) { return Tensor::from_values<DataType::bool_>({}, {v}); }
Sequence seq_of(std::vector<Tensor> ts) {
  const DataType d = ts.at(0).dtype();
  return Sequence(d, std::move(ts));
}
Optional opt_of(const Value& v) { return make_optional(v); }

onnx::TypeProto opt_tensor_type(DataType d) { return model::optional_of(tensor_type(d)); }

// ---------------------------------------------------------------------------------------------
// The table

TEST(TypeTable, HasOneRowForEveryOperatorVersionTheInterpreterRuns) {
  std::set<std::pair<std::string, int64_t>> rows;
  for (const OperatorSignature& s : interp::operator_signatures())
    EXPECT_TRUE(rows.insert({std::string(s.op), s.since_version}).second)
        << s.op << "-" << s.since_version << " has two rows";
  const auto implemented = interp::implemented_operator_versions();
  const std::set<std::pair<std::string, int64_t>> runs(implemented.begin(), implemented.end());
  EXPECT_EQ(runs, rows);
  // The five operators under test check their own types (reference/ops), nothing else does.
  std::set<std::string> by_operator;
  for (const OperatorSignature& s : interp::operator_signatures())
    if (s.checked_by_operator) by_operator.insert(std::string(s.op));
  EXPECT_EQ(by_operator, (std::set<std::string>{"SequenceAt", "SequenceErase", "SequenceInsert",
                                                "SequenceMap", "SplitToSequence"}));
}

// "seq(tensor(float))" -> (kind bit, element type); nullopt for a type the suite does not carry.
std::optional<std::pair<uint8_t, DataType>> parse_type(std::string s) {
  auto strip = [&](const std::string& prefix) {
    if (s.rfind(prefix, 0) != 0) return false;
    s = s.substr(prefix.size(), s.size() - prefix.size() - 1);
    return true;
  };
  const bool optional = strip("optional(");
  const bool sequence = strip("seq(");
  if (!strip("tensor(")) ADD_FAILURE() << "unexpected type " << s;
  const uint8_t kind = optional ? (sequence ? interp::kOptionalSequence : interp::kOptionalTensor)
                                : (sequence ? interp::kSequence : interp::kTensor);
  const auto d = dtype_from_name(s);
  if (!d) return std::nullopt;
  return std::make_pair(kind, *d);
}

std::set<std::pair<uint8_t, DataType>> expand(const interp::TypeConstraint& c) {
  std::set<std::pair<uint8_t, DataType>> out;
  for (uint8_t k :
       {interp::kTensor, interp::kSequence, interp::kOptionalTensor, interp::kOptionalSequence})
    for (DataType d : kCarriedDataTypes)
      if ((c.kinds & k) && (c.allowed(k) & (interp::ElemTypeSet{1} << static_cast<int>(d))))
        out.insert({k, d});
  return out;
}

void expect_formals(const std::string& row, const char* side,
                    const std::vector<FormalParameter>& ours,
                    const std::vector<onnx::OpSchema::FormalParameter>& theirs) {
  ASSERT_EQ(ours.size(), theirs.size()) << row << " " << side;
  for (size_t i = 0; i < ours.size(); ++i) {
    const std::string where = row + " " + side + " " + std::to_string(i);
    EXPECT_EQ(ours[i].name, theirs[i].GetName()) << where;
    EXPECT_EQ(ours[i].type, theirs[i].GetTypeStr()) << where;
    const auto option = ours[i].option == FormalParameter::single     ? onnx::OpSchema::Single
                        : ours[i].option == FormalParameter::optional ? onnx::OpSchema::Optional
                                                                      : onnx::OpSchema::Variadic;
    EXPECT_EQ(option, theirs[i].GetOption()) << where;
    if (option == onnx::OpSchema::Variadic) {
      EXPECT_EQ(ours[i].homogeneous, theirs[i].GetIsHomogeneous()) << where;
      EXPECT_EQ(ours[i].min_arity, theirs[i].GetMinArity()) << where;
    }
  }
}

// Every row up to the newest opset of the installed ONNX library against its schema: formal
// inputs and outputs (name, type, single/optional/variadic), and each type constraint's
// parameter, sentence and allowed types (restricted to the 16 types the suite carries). Rows of
// later versions (Changelog.md) cannot be compared here.
TEST(TypeTable, RowsMatchTheInstalledOnnxSchemas) {
  const int newest = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("").second;
  int compared = 0;
  for (const OperatorSignature& s : interp::operator_signatures()) {
    if (s.since_version > newest) continue;
    const std::string row = std::string(s.op) + "-" + std::to_string(s.since_version);
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(std::string(s.op), static_cast<int>(s.since_version), "");
    ASSERT_NE(schema, nullptr) << row;
    EXPECT_EQ(schema->SinceVersion(), s.since_version) << row << " is not a since_version";
    expect_formals(row, "input", s.inputs, schema->inputs());
    expect_formals(row, "output", s.outputs, schema->outputs());
    std::map<std::string, const onnx::OpSchema::TypeConstraintParam*> theirs;
    for (const auto& tc : schema->typeConstraintParams()) theirs[tc.type_param_str] = &tc;
    size_t named = 0;
    for (const interp::TypeConstraint& c : s.constraints) {
      std::set<std::pair<uint8_t, DataType>> allowed;
      if (c.description.empty()) {  // a formal typed directly, such as tensor(int64)
        const auto t = parse_type(std::string(c.param));
        ASSERT_TRUE(t) << row << " " << c.param;
        allowed.insert(*t);
      } else {
        ++named;
        auto it = theirs.find(std::string(c.param));
        ASSERT_NE(it, theirs.end()) << row << " has no type constraint " << c.param;
        EXPECT_EQ(c.description, it->second->description) << row << " " << c.param;
        for (const auto& str : it->second->allowed_type_strs)
          if (auto t = parse_type(str)) allowed.insert(*t);
      }
      EXPECT_EQ(expand(c), allowed) << row << " " << c.param << ": " << interp::allowed_text(c);
    }
    EXPECT_EQ(named, theirs.size()) << row;
    ++compared;
  }
  // Opset 17 (ONNX 1.12) covers 42 rows.
  EXPECT_GE(compared, 42);
}

// ---------------------------------------------------------------------------------------------
// Identity: "T: Constrain input and output types to all tensor types." (1, 13), "V: ... all
// tensor and sequence types." (14), "V: ... all tensor, sequence, and optional types." (16+).

TEST(TypeConstraints, Identity13OnASequenceIsInvalidNamingTheConstraint) {
  auto m = one_node(13, "Identity", {{"x", seq_type(F)}}, {{"y", seq_type(F)}});
  expect_invalid(
      m, {seq_of({f32({1}, {1.f})})},
      {"Identity-13", "input 0 (input)", "seq(tensor(float))", "type constraint T",
       "Constrain input and output types to all tensor types.", "allows tensor(all 16 types)"});
}

TEST(TypeConstraints, Identity14AcceptsASequence) {
  auto m = one_node(14, "Identity", {{"x", seq_type(F)}}, {{"y", seq_type(F)}});
  const Sequence s = seq_of({f32({1}, {1.f}), f32({2}, {2.f, 3.f})});
  EXPECT_TRUE(run(m, {s})[0].sequence().identical(s));
}

TEST(TypeConstraints, Identity14RejectsAnOptionalWhichIdentity16Accepts) {
  const Value o = opt_of(f32({1}, {1.f}));
  expect_invalid(one_node(14, "Identity", {{"x", opt_tensor_type(F)}}, {{"y", opt_tensor_type(F)}}),
                 {o},
                 {"Identity-14", "optional(tensor(float))", "type constraint V",
                  "allows tensor(all 16 types), seq(tensor(all 15 types))"});
  EXPECT_TRUE(
      run(one_node(16, "Identity", {{"x", opt_tensor_type(F)}}, {{"y", opt_tensor_type(F)}}),
          {o})[0]
          .identical(o));
}

// ---------------------------------------------------------------------------------------------
// If: "V: All Tensor types" (1, 11), "All Tensor and Sequence types" (13), optionals from 16;
// "B: Only bool".

onnx::ModelProto if_of_sequences(int64_t opset) {
  auto branch = [](float v) {
    return graph("b",
                 {node("Constant", {}, {"c"}, {tensor_attr("value", f32({1}, {v}))}),
                  node("SequenceConstruct", {"c"}, {"s"})},
                 {}, {{"s", seq_type(F)}});
  };
  return model(opset, graph("g",
                            {node("If", {"cond"}, {"y"},
                                  {graph_attr("then_branch", branch(1.f)),
                                   graph_attr("else_branch", branch(2.f))})},
                            {{"cond", tensor_type(BOOL)}}, {{"y", seq_type(F)}}));
}

TEST(TypeConstraints, If11WhoseBranchOutputsASequenceIsInvalid) {
  expect_invalid(if_of_sequences(11), {bool_scalar(true)},
                 {"If-11", "output 0 (outputs)", "seq(tensor(float))", "type constraint V",
                  "All Tensor types", "allows tensor(all 15 types)"});
}

TEST(TypeConstraints, If13AcceptsABranchOutputtingASequence) {
  const auto out = run(if_of_sequences(13), {bool_scalar(false)});
  EXPECT_TRUE(out[0].sequence().identical(seq_of({f32({1}, {2.f})})));
}

TEST(TypeConstraints, IfCondIsOnlyBool) {
  auto m = if_of_sequences(13);
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int32_t>(I64));
  expect_invalid(m, {i64(1)}, {"If-13", "input 0 (cond)", "tensor(int64)", "Only bool"});
}

// ---------------------------------------------------------------------------------------------
// Loop: "V: All Tensor types" (1, 11), "All Tensor and Sequence types" (13), "All Tensor,
// Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types" (16+); "I: tensor of
// int64"; v_final_and_scan_outputs (13+): "Scan outputs must be Tensors."

// Loop(M, "", v) whose body outputs its inputs cond and v (no node: Identity-13 would not
// take a sequence).
onnx::ModelProto pass_through_loop(int64_t opset, const onnx::TypeProto& carried) {
  auto body = graph("body", {},
                    {{"iter", tensor_type(I64)}, {"cond_in", tensor_type(BOOL)}, {"v_in", carried}},
                    {{"cond_in", tensor_type(BOOL)}, {"v_in", carried}});
  return model(opset, graph("g", {node("Loop", {"M", "", "v"}, {"y"}, {graph_attr("body", body)})},
                            {{"M", tensor_type(I64)}, {"v", carried}}, {{"y", carried}}));
}

TEST(TypeConstraints, Loop11WithALoopCarriedSequenceIsInvalid) {
  expect_invalid(pass_through_loop(11, seq_type(F)), {i64(2), seq_of({f32({1}, {1.f})})},
                 {"Loop-11", "input 2 (v_initial)", "seq(tensor(float))", "type constraint V",
                  "All Tensor types"});
}

TEST(TypeConstraints, Loop13AcceptsALoopCarriedSequence) {
  const Sequence s = seq_of({f32({1}, {1.f})});
  EXPECT_TRUE(run(pass_through_loop(13, seq_type(F)), {i64(2), s})[0].sequence().identical(s));
}

TEST(TypeConstraints, Loop13RejectsALoopCarriedOptionalWhichLoop16Accepts) {
  const Value o = opt_of(f32({1}, {1.f}));
  expect_invalid(pass_through_loop(13, opt_tensor_type(F)), {i64(2), o},
                 {"Loop-13", "input 2 (v_initial)", "optional(tensor(float))",
                  "All Tensor and Sequence types"});
  EXPECT_TRUE(run(pass_through_loop(16, opt_tensor_type(F)), {i64(2), o})[0].identical(o));
}

TEST(TypeConstraints, LoopTripCountIsTensorOfInt64) {
  auto m = pass_through_loop(13, tensor_type(F));
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int32_t>(DataType::int32));
  expect_invalid(m, {i32(2), f32({1}, {1.f})},
                 {"Loop-13", "input 0 (M)", "tensor(int32)", "type constraint I",
                  "tensor of int64, which should be a scalar."});
}

// Loop(M, "") whose body has one scan output: `scan` built from the iteration number.
onnx::ModelProto scan_loop(std::vector<onnx::NodeProto> scan_nodes, onnx::TypeProto scan_type) {
  std::vector<onnx::NodeProto> nodes = {node("Identity", {"cond_in"}, {"cond_out"})};
  nodes.insert(nodes.end(), scan_nodes.begin(), scan_nodes.end());
  auto body = graph("body", nodes, {{"iter", tensor_type(I64)}, {"cond_in", tensor_type(BOOL)}},
                    {{"cond_out", tensor_type(BOOL)}, {"scan", scan_type}});
  return model(13, graph("g", {node("Loop", {"M", ""}, {"y"}, {graph_attr("body", body)})},
                         {{"M", tensor_type(I64)}}, {{"y", tensor_type(I64)}}));
}

TEST(TypeConstraints, LoopScanOutputsMustBeTensors) {
  auto m = scan_loop({node("SequenceConstruct", {"iter"}, {"scan"})}, seq_type(I64));
  expect_invalid(
      m, {i64(2)},
      {"Loop-13", "scan output 0", "seq(tensor(int64))", "Scan outputs must be Tensors."});
}

TEST(TypeConstraints, LoopScanOutputsKeepTheirShapeAndTypeAcrossIterations) {
  // "It is an error if the dimensions or data type of these scan_outputs change across loop
  // iterations." Dimensions: scan = Slice([0, 1, 2], [0], [iter + 1]) has shape [1], then [2].
  auto m = scan_loop({node("Constant", {}, {"x"}, {tensor_attr("value", i64_vec({0, 1, 2}))}),
                      node("Constant", {}, {"zero"}, {tensor_attr("value", i64_vec({0}))}),
                      node("Constant", {}, {"one"}, {tensor_attr("value", i64(1))}),
                      node("Add", {"iter", "one"}, {"end"}),
                      node("Constant", {}, {"axes"}, {tensor_attr("value", i64_vec({0}))}),
                      node("Unsqueeze", {"end", "axes"}, {"end1"}),
                      node("Slice", {"x", "zero", "end1"}, {"scan"})},
                     tensor_type(I64));
  // One iteration: the scan output stacks [0] into [[0]].
  EXPECT_TRUE(
      run(m, {i64(1)})[0].tensor().identical(Tensor::from_values<DataType::int64>({1, 1}, {0})));
  std::string msg = expect_error(ErrorCode::shape_mismatch, [&] { run(m, {i64(2)}); });
  EXPECT_NE(msg.find("change across loop iterations"), std::string::npos) << msg;

  // Data type: scan = v_in, where v starts as a float and the body carries out an int64.
  onnx::TypeProto any_tensor;
  any_tensor.mutable_tensor_type()->set_elem_type(0);
  auto body =
      graph("body",
            {node("Constant", {}, {"v_out"}, {tensor_attr("value", i64(1))}),
             node("Identity", {"v_in"}, {"scan"})},
            {{"iter", tensor_type(I64)}, {"cond_in", tensor_type(BOOL)}, {"v_in", any_tensor}},
            {{"cond_in", tensor_type(BOOL)}, {"v_out", any_tensor}, {"scan", any_tensor}});
  auto retyped = model(
      13, graph("g", {node("Loop", {"M", "", "v"}, {"v_final", "y"}, {graph_attr("body", body)})},
                {{"M", tensor_type(I64)}, {"v", tensor_type(F)}},
                {{"v_final", any_tensor}, {"y", any_tensor}}));
  const auto out = run(retyped, {i64(1), f32({}, {2.f})});
  EXPECT_TRUE(out[0].tensor().identical(i64(1)));
  EXPECT_TRUE(out[1].tensor().identical(f32({1}, {2.f})));
  msg = expect_error(ErrorCode::invalid_model, [&] { run(retyped, {i64(2), f32({}, {2.f})}); });
  EXPECT_NE(msg.find("is tensor(int64)[] but was tensor(float)[]"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------------
// Add: "T: Constrain input and output types to high-precision numeric tensors." (7, 13: float16,
// float, double, int32, int64, uint32, uint64); "... all numeric tensors." (14 adds int8, int16,
// uint8, uint16).

TEST(TypeConstraints, AddOnStringsIsInvalid) {
  auto m = one_node(14, "Add",
                    {{"a", tensor_type(DataType::string)}, {"b", tensor_type(DataType::string)}},
                    {{"c", tensor_type(DataType::string)}});
  const Tensor s = Tensor::from_strings({1}, {"x"});
  expect_invalid(m, {s, s},
                 {"Add-14", "input 0 (A)", "tensor(string)", "type constraint T",
                  "Constrain input and output types to all numeric tensors.",
                  "allows tensor(int8|int16|int32|int64|uint8|uint16|uint32|uint64|float16|float|"
                  "double|bfloat16)"});
}

TEST(TypeConstraints, Add14AcceptsInt8WhichAdd13Rejects) {
  const auto I8 = DataType::int8;
  auto m = [&](int64_t opset) {
    return one_node(opset, "Add", {{"a", tensor_type(I8)}, {"b", tensor_type(I8)}},
                    {{"c", tensor_type(I8)}});
  };
  const Tensor a = Tensor::from_values<DataType::int8>({2}, {1, -4});
  const Tensor b = Tensor::from_values<DataType::int8>({2}, {2, 1});
  EXPECT_TRUE(
      run(m(14), {a, b})[0].tensor().identical(Tensor::from_values<DataType::int8>({2}, {3, -3})));
  expect_invalid(m(13), {a, b}, {"Add-13", "tensor(int8)", "high-precision numeric tensors"});
}

TEST(TypeConstraints, AddBindsAAndBToOneType) {
  auto m = one_node(14, "Add", {{"a", tensor_type(F)}, {"b", tensor_type(DataType::float64)}},
                    {{"c", tensor_type(F)}});
  expect_invalid(m, {f32({1}, {1.f}), Tensor::from_values<DataType::float64>({1}, {1.0})},
                 {"Add-14", "input 1 (B) is tensor(double)", "input 0 (A) is tensor(float)",
                  "type constraint T"});
}

// ---------------------------------------------------------------------------------------------
// The other supporting operators: one accepted and one rejected value each.

TEST(TypeConstraints, SequenceConstructTakesTensorsOfOneType) {
  // "T: Constrain input types to any tensor type."; T binds every input to one type.
  auto m = one_node(11, "SequenceConstruct", {{"a", tensor_type(F)}, {"b", tensor_type(I64)}},
                    {{"s", seq_type(F)}});
  expect_invalid(m, {f32({1}, {1.f}), i64(2)},
                 {"SequenceConstruct-11", "input 1 (inputs) is tensor(int64)",
                  "input 0 (inputs) is tensor(float)", "type constraint T"});
  auto ok = one_node(11, "SequenceConstruct", {{"a", tensor_type(F)}, {"b", tensor_type(F)}},
                     {{"s", seq_type(F)}});
  EXPECT_TRUE(run(ok, {f32({1}, {1.f}), f32({}, {2.f})})[0].sequence().identical(
      seq_of({f32({1}, {1.f}), f32({}, {2.f})})));
  // A sequence is not a tensor.
  auto seq_in = one_node(11, "SequenceConstruct", {{"a", seq_type(F)}}, {{"s", seq_type(F)}});
  expect_invalid(seq_in, {seq_of({f32({1}, {1.f})})}, {"input 0 (inputs) is seq(tensor(float))"});
}

TEST(TypeConstraints, SequenceEmptyDtypeIsOneOfTheOutputsTypes) {
  // S: "Constrain output types to any tensor type." (no bfloat16 at version 11).
  auto m = [](int64_t dtype) {
    return one_node(11, "SequenceEmpty", {}, {{"s", seq_type(F)}}, {int_attr("dtype", dtype)});
  };
  const Value out = run(m(7), {})[0];
  EXPECT_EQ(out.sequence().size(), 0u);
  EXPECT_EQ(out.sequence().elem_type(), I64);
  expect_invalid(m(16), {},
                 {"SequenceEmpty-11", "attribute dtype", "seq(tensor(bfloat16))",
                  "type constraint S", "allows seq(tensor(all 15 types))"});
  expect_invalid(m(0), {}, {"seq(tensor(undefined))"});
}

TEST(TypeConstraints, SequenceLengthReadsASequence) {
  auto m = one_node(11, "SequenceLength", {{"s", seq_type(F)}}, {{"n", tensor_type(I64)}});
  EXPECT_TRUE(run(m, {seq_of({f32({1}, {1.f}), f32({1}, {2.f})})})[0].tensor().identical(i64(2)));
  auto t = one_node(11, "SequenceLength", {{"s", tensor_type(F)}}, {{"n", tensor_type(I64)}});
  expect_invalid(t, {f32({1}, {1.f})},
                 {"SequenceLength-11", "input 0 (input_sequence) is tensor(float)",
                  "allows seq(tensor(all 15 types))"});
}

TEST(TypeConstraints, ConcatFromSequenceReadsASequence) {
  auto m = one_node(11, "ConcatFromSequence", {{"s", seq_type(F)}}, {{"y", tensor_type(F)}},
                    {int_attr("axis", 0)});
  EXPECT_TRUE(run(m, {seq_of({f32({1}, {1.f}), f32({2}, {2.f, 3.f})})})[0].tensor().identical(
      f32({3}, {1.f, 2.f, 3.f})));
  auto t = one_node(11, "ConcatFromSequence", {{"s", tensor_type(F)}}, {{"y", tensor_type(F)}},
                    {int_attr("axis", 0)});
  expect_invalid(t, {f32({1}, {1.f})},
                 {"ConcatFromSequence-11", "tensor(float)", "type constraint S"});
}

TEST(TypeConstraints, ShapeTakesAnyTensor) {
  // "T: Input tensor can be of arbitrary type."
  auto m = one_node(15, "Shape", {{"x", tensor_type(DataType::string)}}, {{"y", tensor_type(I64)}});
  EXPECT_TRUE(
      run(m, {Tensor::from_strings({2, 1}, {"a", "b"})})[0].tensor().identical(i64_vec({2, 1})));
  auto s = one_node(15, "Shape", {{"x", seq_type(F)}}, {{"y", tensor_type(I64)}});
  expect_invalid(s, {seq_of({f32({1}, {1.f})})},
                 {"Shape-15", "input 0 (data) is seq(tensor(float))",
                  "Input tensor can be of arbitrary type."});
}

TEST(TypeConstraints, Constant1IsFloatOnlyAndConstant9AnyTensor) {
  // Constant-1 "T: Constrain input and output types to float tensors."; Constant-9: "... to all
  // tensor types."
  auto m = [](int64_t opset) {
    return model(opset, graph("g", {node("Constant", {}, {"c"}, {tensor_attr("value", i64(5))})},
                              {}, {{"c", tensor_type(I64)}}));
  };
  EXPECT_TRUE(run(m(9), {})[0].tensor().identical(i64(5)));
  expect_invalid(m(8), {},
                 {"Constant-1", "output 0 (output) is tensor(int64)",
                  "Constrain input and output types to float tensors.",
                  "allows tensor(float16|float|double)"});
}

TEST(TypeConstraints, SliceIndicesShareOneIntegerType) {
  // "Tind: Constrain indices to integer types" (int32, int64), one type for starts, ends, axes
  // and steps.
  auto m = [](DataType ends) {
    return one_node(13, "Slice",
                    {{"x", tensor_type(F)},
                     {"starts", tensor_type(DataType::int32)},
                     {"ends", tensor_type(ends)}},
                    {{"y", tensor_type(F)}});
  };
  const Tensor x = f32({4}, {0.f, 1.f, 2.f, 3.f});
  const Tensor starts = Tensor::from_values<DataType::int32>({1}, {1});
  EXPECT_TRUE(
      run(m(DataType::int32), {x, starts, Tensor::from_values<DataType::int32>({1}, {3})})[0]
          .tensor()
          .identical(f32({2}, {1.f, 2.f})));
  expect_invalid(m(I64), {x, starts, i64_vec({3})},
                 {"Slice-13", "input 2 (ends) is tensor(int64)",
                  "input 1 (starts) is tensor(int32)", "type constraint Tind"});
}

TEST(TypeConstraints, Unsqueeze13AxesAreInt64) {
  // Unsqueeze-13: axes (non-differentiable) : tensor(int64).
  auto m = [](DataType axes) {
    return one_node(13, "Unsqueeze", {{"x", tensor_type(F)}, {"axes", tensor_type(axes)}},
                    {{"y", tensor_type(F)}});
  };
  EXPECT_TRUE(run(m(I64), {f32({}, {7.f}), i64_vec({0})})[0].tensor().identical(f32({1}, {7.f})));
  expect_invalid(m(DataType::int32),
                 {f32({}, {7.f}), Tensor::from_values<DataType::int32>({1}, {0})},
                 {"Unsqueeze-13", "input 1 (axes) is tensor(int32)", "its type is tensor(int64)"});
}

TEST(TypeConstraints, NotIsBoolOnly) {
  // "T: Constrain input/output to boolean tensors."
  auto m = [](DataType d) {
    return one_node(1, "Not", {{"x", tensor_type(d)}}, {{"y", tensor_type(d)}});
  };
  EXPECT_TRUE(
      run(m(BOOL), {Tensor::from_values<DataType::bool_>({2}, {1, 0})})[0].tensor().identical(
          Tensor::from_values<DataType::bool_>({2}, {0, 1})));
  expect_invalid(m(F), {f32({1}, {1.f})}, {"Not-1", "tensor(float)", "allows tensor(bool)"});
}

TEST(TypeConstraints, OptionalWrapsATensorOrSequenceOnly) {
  // "V: Constrain input type to all tensor and sequence types."
  auto m = one_node(15, "Optional", {{"x", tensor_type(F)}}, {{"y", opt_tensor_type(F)}});
  EXPECT_TRUE(run(m, {f32({1}, {1.f})})[0].identical(opt_of(f32({1}, {1.f}))));
  auto o = one_node(15, "Optional", {{"x", opt_tensor_type(F)}}, {{"y", opt_tensor_type(F)}});
  expect_invalid(o, {opt_of(f32({1}, {1.f}))},
                 {"Optional-15", "input 0 (input) is optional(tensor(float))",
                  "Constrain input type to all tensor and sequence types."});
}

TEST(TypeConstraints, OptionalHasElementTakesATensorFromVersion18) {
  // Version 15: "O: Constrain input type to optional tensor and optional sequence types.";
  // version 18: "Returns true if ... (2) the input is a tensor or sequence type."
  auto m = [](int64_t opset) {
    return one_node(opset, "OptionalHasElement", {{"x", tensor_type(F)}},
                    {{"y", tensor_type(BOOL)}});
  };
  EXPECT_TRUE(run(m(18), {f32({1}, {1.f})})[0].tensor().identical(bool_scalar(true)));
  expect_invalid(m(15), {f32({1}, {1.f})},
                 {"OptionalHasElement-15", "input 0 (input) is tensor(float)", "type constraint O",
                  "allows optional(tensor(all 15 types)), optional(seq(tensor(all 15 types)))"});
}

TEST(TypeConstraints, OptionalGetElementTakesATensorFromVersion18) {
  // Version 18: "If the input is a tensor or sequence type, it returns the input."
  auto m = [](int64_t opset) {
    return one_node(opset, "OptionalGetElement", {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}});
  };
  EXPECT_TRUE(run(m(18), {f32({1}, {1.f})})[0].tensor().identical(f32({1}, {1.f})));
  expect_invalid(m(15), {f32({1}, {1.f})}, {"OptionalGetElement-15", "type constraint O"});
}

// ---------------------------------------------------------------------------------------------
// The five operators under test check their own types (reference/ops): the interpreter leaves
// their codes alone, and a value of the wrong kind is a clear error naming op and input.

// ---------------------------------------------------------------------------------------------
// Static types: ONNX types a model's values statically, so a node that takes a value its
// constraints do not allow makes the model invalid whatever the inputs, also where no data set
// runs it. prepare() checks every node of every graph before any data set.

const char* kStatic = "the model is invalid under the spec, whatever its inputs";

// SequenceConstruct(x) -> s; If(cond): the then branch takes s through an Identity, the else
// branch returns s as it is.
onnx::ModelProto identity_in_a_branch(int64_t opset) {
  auto then_branch =
      graph("then", {node("Identity", {"s"}, {"t"}, {}, "")}, {}, {{"t", seq_type(F)}});
  auto else_branch = graph("else", {}, {}, {{"s", seq_type(F)}});
  return model(
      opset,
      graph(
          "g",
          {node("SequenceConstruct", {"x"}, {"s"}),
           node("If", {"cond"}, {"y"},
                {graph_attr("then_branch", then_branch), graph_attr("else_branch", else_branch)})},
          {{"cond", tensor_type(BOOL)}, {"x", tensor_type(F)}}, {{"y", seq_type(F)}}));
}

TEST(StaticTypes, AnIdentity13OverASequenceInABranchIsInvalidAlsoWhereTheBranchIsNotTaken) {
  const auto m = identity_in_a_branch(13);
  for (bool cond : {true, false})
    expect_invalid(m, {bool_scalar(cond), f32({1}, {1.f})},
                   {kStatic, "node 0 (Identity-13) of graph 'then'", "Identity-13",
                    "input 0 (input) is seq(tensor(float))", "type constraint T",
                    "allows tensor(all 16 types)"});
  // Identity-14 takes sequences: the same model at opset 14 runs on both data sets.
  const Sequence s = seq_of({f32({1}, {1.f})});
  for (bool cond : {true, false})
    EXPECT_TRUE(
        run(identity_in_a_branch(14), {bool_scalar(cond), f32({1}, {1.f})})[0].sequence().identical(
            s));
}

// A Loop that runs zero times (M = 0) over a sequence: its body takes SequenceAt of the
// sequence (a tensor: its type is derived, not declared) through Not, which takes only bool.
onnx::ModelProto loop_body_not_over(DataType elem) {
  auto body =
      graph("body",
            {node("Constant", {}, {"zero"}, {tensor_attr("value", i64(0))}),
             node("SequenceAt", {"v_in", "zero"}, {"e"}), node("Not", {"e"}, {"ne"}),
             node("SequenceInsert", {"v_in", "ne"}, {"v_out"})},
            {{"iter", tensor_type(I64)}, {"cond_in", tensor_type(BOOL)}, {"v_in", seq_type(elem)}},
            {{"cond_in", tensor_type(BOOL)}, {"v_out", seq_type(elem)}});
  return model(13,
               graph("g", {node("Loop", {"M", "", "v"}, {"y"}, {graph_attr("body", body)})},
                     {{"M", tensor_type(I64)}, {"v", seq_type(elem)}}, {{"y", seq_type(elem)}}));
}

TEST(StaticTypes, ABodyThatNeverRunsIsCheckedWithTheTypesItWouldSee) {
  const Sequence floats = seq_of({f32({1}, {1.f})});
  expect_invalid(loop_body_not_over(F), {i64(0), floats},
                 {kStatic, "node 2 (Not-1) of graph 'body'", "Not-1",
                  "input 0 (X) is tensor(float)", "allows tensor(bool)"});
  // Over bool the body is valid: zero trips return the sequence as it is.
  const Sequence bools = seq_of({bool_scalar(true)});
  EXPECT_TRUE(run(loop_body_not_over(BOOL), {i64(0), bools})[0].sequence().identical(bools));
}

// A node kept for the host (here Relu, which the reference lacks) is checked against ONNX's
// schema of its operator. Relu-13: "T: tensor(float16), tensor(float), tensor(double),
// tensor(bfloat16). Constrain input and output types to float tensors."; Relu-14 adds int8,
// int16, int32 and int64 ("Constrain input and output types to signed numeric tensors.").
onnx::ModelProto relu_of(int64_t opset, DataType elem) {
  return one_node(opset, "Relu", {{"x", tensor_type(elem)}}, {{"y", tensor_type(elem)}});
}

TEST(StaticTypes, ANodeForTheHostIsCheckedAgainstOnnxsSchema) {
  const std::string msg = expect_error(ErrorCode::invalid_model, [&] {
    interp::InterpretedModel::prepare(relu_of(13, I64), /*delegate=*/true);
  });
  for (const std::string part :
       {kStatic, "node 0 (Relu) of graph", "Relu-13: input 0 (X) is tensor(int64)",
        "type constraint T", "tensor(float)", "ONNX's schema of Relu-13"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " in: " << msg;
  // Relu-14 takes int64, and Relu-13 takes float: both are prepared for the host.
  EXPECT_NO_THROW(interp::InterpretedModel::prepare(relu_of(14, I64), true));
  EXPECT_NO_THROW(interp::InterpretedModel::prepare(relu_of(13, F), true));
}

// The schema also types a host node's outputs: Relu-13's Y is T, bound to float by its X, so a
// Not (which takes only bool) over it is invalid before any data set, with no value_info.
TEST(StaticTypes, AHostNodesOutputIsTypedByItsSchema) {
  auto over = [](DataType elem) {
    return model(13, graph("g", {node("Relu", {"x"}, {"r"}), node("Not", {"r"}, {"y"})},
                           {{"x", tensor_type(elem)}}, {{"y", tensor_type(BOOL)}}));
  };
  const std::string msg = expect_error(ErrorCode::invalid_model, [&] {
    interp::InterpretedModel::prepare(over(F), /*delegate=*/true);
  });
  for (const std::string part :
       {kStatic, "node 1 (Not-1) of graph 'g'", "input 0 (X) is tensor(float)"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " in: " << msg;
}

// The five operators' own rules on types hold whatever the values: a node that breaks one makes
// the model invalid before any data set, in a branch no data set takes too, with the code the
// operator raises when it runs. If(cond) returns x in one branch and, in the other, reads
// SequenceAt(SequenceConstruct(x), p) where `bad` is that branch's node.
onnx::ModelProto sequence_op_in_a_branch(bool bad_in_then, const onnx::NodeProto& bad,
                                         const std::vector<onnx::NodeProto>& before = {}) {
  std::vector<onnx::NodeProto> nodes = {node("SequenceConstruct", {"x"}, {"s"})};
  nodes.insert(nodes.end(), before.begin(), before.end());
  nodes.push_back(bad);
  auto reads = graph("reads", nodes, {}, {{"r", tensor_type(F)}});
  auto plain = graph("plain", {node("Identity", {"x"}, {"r2"})}, {}, {{"r2", tensor_type(F)}});
  if (!bad_in_then) std::swap(reads, plain);
  reads.set_name(bad_in_then ? "then" : "reads");
  return model(13,
               graph("g",
                     {node("If", {"cond"}, {"y"},
                           {graph_attr("then_branch", reads), graph_attr("else_branch", plain)})},
                     {{"cond", tensor_type(BOOL)}, {"x", tensor_type(F)}, {"p", tensor_type(F)}},
                     {{"y", tensor_type(F)}}));
}

TEST(StaticTypes, TheFiveOperatorsRulesOnTypesHoldInABranchNoDataSetTakes) {
  const auto at = node("SequenceAt", {"s", "p"}, {"r"});
  for (bool in_then : {true, false})
    for (bool cond : {true, false}) {
      const std::string msg = expect_error(ErrorCode::position_type, [&] {
        run(sequence_op_in_a_branch(in_then, at),
            {bool_scalar(cond), f32({1}, {1.f}), f32({}, {0.f})});
      });
      for (const std::string& part :
           {std::string(kStatic), std::string("(SequenceAt-11) of graph"),
            std::string("SequenceAt: position must be int32 or int64, got tensor(float)")})
        EXPECT_NE(msg.find(part), std::string::npos)
            << part << " in: " << msg << " (then: " << in_then << ", cond: " << cond << ")";
      // Before any data set: prepare alone rejects it.
      expect_error(ErrorCode::position_type, [&] {
        interp::InterpretedModel::prepare(sequence_op_in_a_branch(in_then, at));
      });
    }
  // SequenceInsert of an int64 tensor into a sequence of floats; SplitToSequence with a float
  // split.
  const auto insert = node("SequenceInsert", {"s", "i"}, {"s2"});
  const auto one = node("Constant", {}, {"i"}, {tensor_attr("value", i64(1))});
  const auto zero = node("Constant", {}, {"z"}, {tensor_attr("value", i64(0))});
  const auto at_zero = node("SequenceAt", {"s2", "z"}, {"r"});
  expect_error(ErrorCode::element_type_mismatch, [&] {
    interp::InterpretedModel::prepare(sequence_op_in_a_branch(false, at_zero, {one, zero, insert}));
  });
  const auto split = node("SplitToSequence", {"x", "p"}, {"s2"});
  expect_error(ErrorCode::split_type, [&] {
    interp::InterpretedModel::prepare(sequence_op_in_a_branch(true, at_zero, {zero, split}));
  });
  // With an int64 position the same model is valid, and runs either branch.
  auto valid = sequence_op_in_a_branch(true, at);
  valid.mutable_graph()->mutable_input(2)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT64);
  EXPECT_TRUE(run(valid, {bool_scalar(false), f32({1}, {2.f}), i64(0)})[0].tensor().identical(
      f32({1}, {2.f})));
}

TEST(TypeConstraints, TheFiveOperatorsKeepTheirOwnTypeErrors) {
  auto at = one_node(11, "SequenceAt", {{"s", seq_type(F)}, {"p", tensor_type(F)}},
                     {{"y", tensor_type(F)}});
  expect_error(ErrorCode::position_type, [&] {
    run(at, {seq_of({f32({1}, {1.f})}), f32({}, {0.f})});
  });
  auto insert = one_node(11, "SequenceInsert", {{"s", seq_type(F)}, {"t", tensor_type(I64)}},
                         {{"y", seq_type(F)}});
  expect_error(ErrorCode::element_type_mismatch, [&] {
    run(insert, {seq_of({f32({1}, {1.f})}), i64(1)});
  });
}

TEST(TypeConstraints, TheFiveOperatorsNameAValueOfTheWrongKind) {
  const Tensor t = f32({1}, {1.f});
  const Sequence s = seq_of({t});
  struct Case {
    onnx::ModelProto m;
    std::vector<Value> in;
    ErrorCode code;
    std::string what;
  };
  const std::vector<Case> cases = {
      {one_node(11, "SequenceAt", {{"s", tensor_type(F)}, {"p", tensor_type(I64)}},
                {{"y", tensor_type(F)}}),
       {t, i64(0)},
       ErrorCode::not_a_sequence,
       "SequenceAt-11 input 0"},
      {one_node(11, "SequenceErase", {{"s", tensor_type(F)}}, {{"y", seq_type(F)}}),
       {t},
       ErrorCode::not_a_sequence,
       "SequenceErase-11 input 0"},
      {one_node(11, "SequenceInsert", {{"s", seq_type(F)}, {"t", seq_type(F)}},
                {{"y", seq_type(F)}}),
       {s, s},
       ErrorCode::not_a_tensor,
       "SequenceInsert-11 input 1"},
      {one_node(11, "SplitToSequence", {{"x", seq_type(F)}}, {{"y", seq_type(F)}}),
       {s},
       ErrorCode::not_a_tensor,
       "SplitToSequence-11 input 0"},
      {model(17, graph("g",
                       {node("SequenceMap", {"x"}, {"y"},
                             {graph_attr("body", graph("body", {node("Identity", {"a"}, {"b"})},
                                                       {{"a", tensor_type(F)}},
                                                       {{"b", tensor_type(F)}}))})},
                       {{"x", tensor_type(F)}}, {{"y", seq_type(F)}})),
       {t},
       ErrorCode::not_a_sequence,
       "SequenceMap-17 input 0"},
  };
  for (const Case& c : cases) {
    const std::string msg = expect_error(c.code, [&] { run(c.m, c.in); });
    EXPECT_NE(msg.find(c.what), std::string::npos) << msg;
  }
}

// ---------------------------------------------------------------------------------------------
// Arity, checked when the model is prepared.

TEST(TypeConstraints, TooManyInputsOrOutputsAreInvalid) {
  auto three = one_node(11, "SequenceAt",
                        {{"s", seq_type(F)}, {"p", tensor_type(I64)}, {"q", tensor_type(I64)}},
                        {{"y", tensor_type(F)}});
  const std::string msg =
      expect_error(ErrorCode::invalid_model, [&] { interp::InterpretedModel::prepare(three); });
  EXPECT_NE(msg.find("SequenceAt-11 takes at most 2"), std::string::npos) << msg;
  auto two_out = one_node(13, "Identity", {{"x", tensor_type(F)}},
                          {{"y", tensor_type(F)}, {"z", tensor_type(F)}});
  expect_error(ErrorCode::invalid_model, [&] { interp::InterpretedModel::prepare(two_out); });
}

}  // namespace
}  // namespace seqconf::testing
