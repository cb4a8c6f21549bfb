// Exported models that mix the sequence operators with operators the reference does not
// implement, in folders without case.json as a user brings them: a gap of the reference is never
// the spec's verdict (not_judged), a host runs the operators it lacks, and typing is static. The
// framework outputs are worked out by hand from each operator's definition.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cases/case.h"
#include "harness/runner.h"
#include "reference/error.h"
#include "reports/json_report.h"
#include "reports/report.h"
#include "runtimes/reference_runtime.h"
#include "tests/support/exported_folder.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;
const auto F = DataType::float32;

// A host that knows Relu only, computed here from its definition.
std::shared_ptr<const interp::HostKernel> relu_host(int* calls) {
  auto h = std::make_shared<interp::HostKernel>();
  h->name = "test-host 1";
  h->run = [calls](const onnx::NodeProto& n, const std::map<std::string, int64_t>&,
                   const std::vector<std::optional<Value>>& in) -> std::vector<Value> {
    if (n.op_type() != "Relu") throw Error(ErrorCode::host_rejected, "no " + n.op_type());
    ++*calls;
    const Tensor& x = in.at(0)->tensor();
    std::vector<float> y;
    for (size_t i = 0; i < x.element_count(); ++i) y.push_back(std::max(0.0f, x.data<float>()[i]));
    return {Value(f32(x.shape(), y))};
  };
  return h;
}

Outcome run(const Case& c, Runtime& runtime, std::shared_ptr<const interp::HostKernel> host) {
  RunOptions options;
  options.static_checks = false;
  options.host = std::move(host);
  return run_case(c, runtime, options);
}

// With no host the reference cannot give the model's meaning: the case is not judged, neither a
// must-reject for the runtime nor an exporter departure, whatever the runtime does.
TEST(MixedOps, AGapOfTheReferenceIsNotJudged) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}}});
  int calls = 0;
  // The runtime under test runs the model (the reference with a host): it must not be told it
  // "accepted an input that must be rejected".
  ReferenceRuntime runs_it(Policy::lenient, nullptr, relu_host(&calls));
  const Outcome o = run(c, runs_it, nullptr);
  EXPECT_EQ(o.status, Status::not_judged) << o.message;
  EXPECT_EQ(o.reason, Reason::reference_not_supported);
  EXPECT_NE(o.message.find("Relu"), std::string::npos) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::not_judged);
  EXPECT_EQ(o.exported->end_to_end.status, Status::pass);  // the runtime matches the framework
  EXPECT_FALSE(o.depends_on_departure());
  const reports::Report r = reports::make_report({}, {o}, nullptr);
  EXPECT_EQ(r.summary.not_judged, 1);
  EXPECT_TRUE(r.departures.empty());
  EXPECT_TRUE(r.exporter_departures.empty());
  EXPECT_EQ(reports::exit_code(r), 0);
  // A runtime that rejects it is not charged either.
  ReferenceRuntime lacks_it;
  EXPECT_EQ(run(c, lacks_it, nullptr).status, Status::not_judged);
}

// With a host the reference keeps running the graph and the host runs the Relu: the case is
// judged, and the report says what was delegated, how often, and to whom.
TEST(MixedOps, AHostRunsTheOperatorTheReferenceLacks) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}}});
  EXPECT_EQ(c.comparison.name(), "tolerance rtol=0.001 atol=1e-07");  // Relu computes
  int calls = 0;
  ReferenceRuntime reference(Policy::lenient, nullptr, relu_host(&calls));
  const Outcome o = run(c, reference, relu_host(&calls));
  EXPECT_EQ(o.status, Status::pass) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::pass) << o.exported->exporter.message;
  EXPECT_EQ(o.delegated.at("Relu-14"), 2u);  // once for the spec's meaning, once under test
  EXPECT_EQ(o.host, "test-host 1");
  EXPECT_EQ(calls, 2);
}

// A host whose Relu is wrong makes the exporter verdict fail: the host's values are used, not
// ignored (the host is trusted for what it runs, and the report names it).
TEST(MixedOps, TheHostsValuesFlowOn) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}}});
  auto wrong = std::make_shared<interp::HostKernel>();
  wrong->name = "wrong-host 0";
  wrong->run = [](const onnx::NodeProto&, const std::map<std::string, int64_t>&,
                  const std::vector<std::optional<Value>>& in) -> std::vector<Value> {
    return {*in.at(0)};  // identity, not Relu
  };
  ReferenceRuntime reference;
  const Outcome o = run(c, reference, wrong);
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::fail);
  EXPECT_EQ(o.exported->exporter.reason, Reason::value_mismatch);
}

// RandomNormal: "Generate a tensor with random values drawn from a normal distribution": the spec
// determines no outputs, so the model is not judged even with a host.
TEST(MixedOps, RandomDrawsAreNotJudged) {
  TempDir tmp;
  const onnx::ModelProto m = model(
      14,
      graph("rand",
            {node("RandomNormal", {}, {"r"}, {ints_attr("shape", {2})}),
             node("SequenceConstruct", {"r", "x"}, {"s"}), node("SequenceLength", {"s"}, {"y"})},
            {{"x", tensor_type(F)}}, {{"y", tensor_type(DataType::int64)}}));
  const Case c = write_exported(tmp.path(), "rand_list", m, {{{f32({2}, {1, 2})}, {i64(2)}}});
  int calls = 0;
  ReferenceRuntime reference;
  const Outcome o = run(c, reference, relu_host(&calls));
  EXPECT_EQ(o.status, Status::not_judged) << o.message;
  EXPECT_EQ(o.reason, Reason::nondeterministic);
  EXPECT_EQ(calls, 0);
}

// A runtime that rejects every model when it loads it.
class RefusesToLoad : public Runtime {
 public:
  std::string name() const override { return "refuses"; }
  std::string version() const override { return "1"; }
  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto&,
                                         RunError* error) override {
    error->kind = RunError::Kind::invalid_input;
    error->message = "Type Error: Type (seq(tensor(float))) of input parameter of Identity";
    return nullptr;
  }
};

// Identity-13's type constraint V is "All Tensor types"; Identity-14 adds sequences. A model whose
// If takes, on data set 0, a branch that passes a sequence through Identity-13, and on data set 1
// the other branch, is invalid under the spec on both: a runtime that refuses to load it is right
// on both, and a runtime that runs it ran an invalid model.
// If(c): the then branch passes SequenceConstruct(x) through an Identity (node 1 of graph
// 'then'), the else branch inserts x once more; the model gives SequenceLength of the result.
onnx::ModelProto if_identity_model() {
  const auto seq_of_x = [](const std::string& g, const std::string& op) {
    std::vector<onnx::NodeProto> nodes = {node("SequenceConstruct", {"x"}, {g + "_s"})};
    if (op == "Identity")
      nodes.push_back(node("Identity", {g + "_s"}, {g + "_out"}));
    else
      nodes.push_back(node("SequenceInsert", {g + "_s", "x"}, {g + "_out"}));
    return graph(g, nodes, {}, {{g + "_out", seq_type(F)}});
  };
  return model(13, graph("if_identity",
                         {node("If", {"c"}, {"s"},
                               {graph_attr("then_branch", seq_of_x("then", "Identity")),
                                graph_attr("else_branch", seq_of_x("else", "SequenceInsert"))}),
                          node("SequenceLength", {"s"}, {"y"})},
                         {{"c", tensor_type(DataType::bool_)}, {"x", tensor_type(F)}},
                         {{"y", tensor_type(DataType::int64)}}));
}

TEST(MixedOps, ValidityIsStatic) {
  TempDir tmp;
  const onnx::ModelProto m = if_identity_model();
  const auto b = [](bool v) { return Tensor::from_values<DataType::bool_>({}, {v}); };
  const Value x = f32({1}, {4});
  // The framework: a list of x (then), or of x twice (else).
  const Case c = write_exported(tmp.path(), "if_identity", m,
                                {{{b(true), x}, {i64(1)}}, {{b(false), x}, {i64(2)}}});
  // A runtime that refuses to load the model is right on both data sets.
  RefusesToLoad refuses;
  const Outcome o = run(c, refuses, nullptr);
  EXPECT_EQ(o.status, Status::pass) << o.message;
  EXPECT_EQ(o.expected, "error invalid_model");
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::error);
  EXPECT_NE(o.exported->exporter.message.find("the model is invalid under the spec"),
            std::string::npos)
      << o.exported->exporter.message;
  EXPECT_NE(o.exported->exporter.message.find("Identity"), std::string::npos);
}

// A runtime that loads every model and answers 2 (the framework's SequenceLength when the else
// branch runs).
class AnswersTwo : public Runtime {
 public:
  std::string name() const override { return "answers-two"; }
  std::string version() const override { return "1"; }
  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto&,
                                         RunError*) override {
    class Two : public PreparedModel {
     public:
      RunResult run(const std::vector<Value>&) override {
        RunResult r;
        r.ok = true;
        r.outputs = {Value(i64(2))};
        return r;
      }
    };
    return std::make_unique<Two>();
  }
};

// The same model with only the data set that takes the else branch: no data set runs the
// Identity, and the model is still invalid (the reference types every node before it runs). The
// runtime that runs it is charged with accepting an invalid model, and the departure tables name
// the node at fault, the Identity, not the model.
TEST(MixedOps, ABranchNoDataSetTakesIsTypeCheckedAndTheTablesNameTheNodeAtFault) {
  TempDir tmp;
  const Case c = write_exported(
      tmp.path(), "if_identity", if_identity_model(),
      {{{Tensor::from_values<DataType::bool_>({}, {false}), f32({1}, {4})}, {i64(2)}}});
  RefusesToLoad refuses;
  const Outcome right = run(c, refuses, nullptr);
  EXPECT_EQ(right.status, Status::pass) << right.message;
  AnswersTwo runs;
  const Outcome o = run(c, runs, nullptr);
  EXPECT_EQ(o.status, Status::fail) << o.message;
  EXPECT_EQ(o.reason, Reason::accepted_invalid);
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->fault_op, "Identity");
  EXPECT_EQ(o.exported->fault_node, "node 1 (Identity-13) of graph 'then'");
  EXPECT_EQ(o.exported->end_to_end.status, Status::pass);  // it matches the framework
  EXPECT_TRUE(o.depends_on_departure());
  // The exporter verdict says once that the model is invalid, and names the node and its type.
  const std::string& says = o.exported->exporter.message;
  const std::string invalid =
      "the model is invalid under the spec, whatever its inputs: node 1 "
      "(Identity-13) of graph 'then': Identity-13: input 0 (input) is "
      "seq(tensor(float))";
  EXPECT_NE(says.find(invalid), std::string::npos) << says;
  size_t times = 0;
  for (size_t at = says.find("invalid under the spec"); at != std::string::npos;
       at = says.find("invalid under the spec", at + 1))
    ++times;
  EXPECT_EQ(times, 1u) << says;
  const reports::Report r = reports::make_report({}, {o}, nullptr);
  ASSERT_EQ(r.departures.size(), 1u);
  EXPECT_EQ(r.departures[0].op, "Identity");
  // The exporter departure table names it too, and keeps it apart from other invalid models.
  ASSERT_EQ(r.exporter_departures.size(), 1u);
  EXPECT_EQ(r.exporter_departures[0].fault_op, "Identity");
  EXPECT_NE(r.exporter_departures[0].title.find(
                ": model is invalid under the spec (the node at fault: Identity)"),
            std::string::npos)
      << r.exporter_departures[0].title;
  EXPECT_NE(reports::exported_text(r, 20).find("model is invalid under the spec at Identity"),
            std::string::npos)
      << reports::exported_text(r, 20);
  // The JSON report keeps the node at fault.
  const Outcome back = reports::report_from_json(reports::report_to_json(r)).cases.at(0).outcome;
  ASSERT_TRUE(back.exported);
  EXPECT_EQ(back.exported->fault_node, o.exported->fault_node);
}

// The one comparison table decides a folder without case.json: a model that only moves values
// compares bit for bit (a -0.0 turned into +0.0 departs), one with a computing operator within
// the tolerance.
TEST(MixedOps, FoldersWithoutCaseJsonUseTheOneTable) {
  TempDir tmp;
  const onnx::ModelProto moves =
      model(14, graph("moves",
                      {node("SequenceConstruct", {"x"}, {"s"}),
                       node("Constant", {}, {"zero"}, {tensor_attr("value", i64(0))}),
                       node("SequenceAt", {"s", "zero"}, {"y"})},
                      {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}));
  const Case c =
      write_exported(tmp.path(), "moves", moves, {{{f32({2}, {-0.0f, 1})}, {f32({2}, {0, 1})}}});
  EXPECT_EQ(c.comparison.name(), "exact");
  ReferenceRuntime reference;
  const Outcome o = run(c, reference, nullptr);
  ASSERT_TRUE(o.exported);
  // The model's meaning keeps -0.0; the framework's +0.0 differs in its bits.
  EXPECT_EQ(o.exported->exporter.reason, Reason::zero_sign_changed) << o.exported->exporter.message;
}

// The table decides output by output. y = SequenceAt(SequenceConstruct(x), 0) only moves x and
// compares bit for bit; z = Add(x, x) computes and compares within the tolerance, in one model.
// Add: "Performs element-wise binary addition", so x = [-0.0, 1] gives z = [-0.0, 2].
TEST(MixedOps, AnOutputThatOnlyMovesValuesStaysExactBesideOneThatComputes) {
  TempDir tmp;
  const onnx::ModelProto m =
      model(14, graph("two",
                      {node("SequenceConstruct", {"x"}, {"s"}),
                       node("Constant", {}, {"zero"}, {tensor_attr("value", i64(0))}),
                       node("SequenceAt", {"s", "zero"}, {"y"}), node("Add", {"x", "x"}, {"z"})},
                      {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}, {"z", tensor_type(F)}}));
  const Tensor x = f32({2}, {-0.0f, 1});
  // The framework's z differs from 2 by 1e-3, inside rtol 1e-3 of it.
  const Case near = write_exported(tmp.path(), "near", m, {{{x}, {x, f32({2}, {-0.0f, 2.001f})}}});
  EXPECT_EQ(near.comparison.name(), "per output: exact, tolerance rtol=0.001 atol=1e-07");
  ReferenceRuntime reference;
  Outcome o = run(near, reference, nullptr);
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::pass) << o.exported->exporter.message;
  // The framework's y turns -0.0 into +0.0: a copy that is not bit for bit the input departs.
  const Case sign =
      write_exported(tmp.path(), "sign", m, {{{x}, {f32({2}, {0, 1}), f32({2}, {-0.0f, 2})}}});
  o = run(sign, reference, nullptr);
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.reason, Reason::zero_sign_changed) << o.exported->exporter.message;
}

// What a body reads from the enclosing graph is part of the output's path: the If's output
// passes through the Add its branch reads, w = Identity(x) does not.
TEST(MixedOps, AnOutputThroughABodyCountsWhatTheBodyReads) {
  const auto branch = [](const std::string& name, const std::string& from) {
    return graph(name, {node("Identity", {from}, {name + "_out"})}, {},
                 {{name + "_out", tensor_type(F)}});
  };
  const onnx::GraphProto g = graph("g",
                                   {node("Add", {"x", "x"}, {"a"}),
                                    node("If", {"c"}, {"y"},
                                         {graph_attr("then_branch", branch("then", "a")),
                                          graph_attr("else_branch", branch("else", "x"))}),
                                    node("Identity", {"x"}, {"w"})},
                                   {{"c", tensor_type(DataType::bool_)}, {"x", tensor_type(F)}},
                                   {{"y", tensor_type(F)}, {"w", tensor_type(F)}});
  EXPECT_EQ(comparison_rule("exported", g).name(),
            "per output: tolerance rtol=0.001 atol=1e-07, exact");
}

}  // namespace
}  // namespace seqconf::testing

namespace seqconf::testing {
namespace {

// Two models of one runtime departure: on program a the runtime matches the framework only
// through the departure (end to end passes), on program b it departs and is wrong end to end
// anyway. Only a depends on the departure.
TEST(MixedOps, DependsOnCountsOnlyProgramsTheDepartureMakesRight) {
  auto departing = [](const std::string& program, Status end_to_end) {
    Outcome o;
    o.case_id = "exported/" + program + "/opset=13";
    o.source = "exported";
    o.op = "SplitToSequence";
    o.status = Status::fail;
    o.reason = Reason::shape_mismatch;
    o.message = "test_data_set_0: output 0: expected shape [1,4], got [4]";
    o.exported = ExportedVerdicts{};
    o.exported->program = program;
    o.exported->exporter = {Status::fail, Reason::shape_mismatch, "the model means [1,4]"};
    o.exported->end_to_end = {end_to_end, Reason::none, ""};
    return o;
  };
  const reports::Report r = reports::make_report(
      {}, {departing("a", Status::pass), departing("b", Status::fail)}, nullptr);
  ASSERT_EQ(r.departures.size(), 1u);
  EXPECT_EQ(r.departures.front().case_ids.size(), 2u);
  EXPECT_EQ(r.departures.front().depending_programs, std::vector<std::string>{"a"});
  EXPECT_EQ(r.exported.depending, 1);
}

}  // namespace
}  // namespace seqconf::testing
