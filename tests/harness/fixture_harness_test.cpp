// The harness around fixtures: discovery of new folders, corrupted expectations, must-reject
// cases, load errors, comparison rules. Expected values are written by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "cases/case.h"
#include "cases/data_dir.h"
#include "harness/compare.h"
#include "harness/runner.h"
#include "reference/bits.h"
#include "reference/proto.h"
#include "reference/spec_clauses.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/registry.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;
const auto F = DataType::float32;

void write_case(const fs::path& dir, const onnx::ModelProto& m, const std::vector<Value>& inputs,
                const std::vector<Value>& outputs) {
  write_file(dir / "model.onnx", m.SerializeAsString());
  for (size_t k = 0; k < inputs.size(); ++k)
    write_file(dir / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"),
               value_to_bytes(inputs[k], TensorEncoding::raw_data));
  for (size_t k = 0; k < outputs.size(); ++k)
    write_file(dir / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb"),
               value_to_bytes(outputs[k], TensorEncoding::raw_data));
}

// ---- discovery of a newer ONNX-style data folder, no code change ----

onnx::ModelProto split_model(bool with_split, int64_t axis, int64_t keepdims) {
  std::vector<NamedType> inputs = {{"input", tensor_type(F)}};
  std::vector<std::string> node_inputs = {"input"};
  if (with_split) {
    inputs.push_back({"split", tensor_type(DataType::int64)});
    node_inputs.push_back("split");
  }
  return model(11, graph("split_to_sequence",
                         {node("SplitToSequence", node_inputs, {"output_sequence"},
                               {int_attr("axis", axis), int_attr("keepdims", keepdims)})},
                         inputs, {{"output_sequence", seq_type(F)}}));
}

TEST(Discovery, NewSplitToSequenceNodeFixturesAreFoundAndPass) {
  TempDir tmp;
  const fs::path node_dir = tmp.path() / "node";
  // Scalar split 2 of [1..6]: "equally sized chunks" [1,2], [3,4], [5,6].
  write_case(node_dir / "test_split_to_sequence_1", split_model(true, 0, 1),
             {f32({6}, {1, 2, 3, 4, 5, 6}), i64(2)},
             {Sequence(F, {f32({2}, {1, 2}), f32({2}, {3, 4}), f32({2}, {5, 6})})});
  // 1-D split [1, 2] on axis 1 of [[1,2,3],[4,5,6]]: [[1],[4]] and [[2,3],[5,6]].
  write_case(node_dir / "test_split_to_sequence_2", split_model(true, 1, 1),
             {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64_vec({1, 2})},
             {Sequence(F, {f32({2, 1}, {1, 4}), f32({2, 2}, {2, 3, 5, 6})})});
  // No split, keepdims 0, axis 0 of [[1,2],[3,4],[5,6]]: three tensors of shape [2].
  write_case(node_dir / "test_split_to_sequence_nokeepdims", split_model(false, 0, 0),
             {f32({3, 2}, {1, 2, 3, 4, 5, 6})},
             {Sequence(F, {f32({2}, {1, 2}), f32({2}, {3, 4}), f32({2}, {5, 6})})});
  // A model without sequence operators next to them is not a case.
  write_case(node_dir / "test_identity",
             model(13, graph("g", {node("Identity", {"x"}, {"y"})}, {{"x", tensor_type(F)}},
                             {{"y", tensor_type(F)}})),
             {f32({1}, {1})}, {f32({1}, {1})});

  const auto cases = discover_onnx_backend(tmp.path());
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].id, "onnx-backend/node/test_split_to_sequence_1");
  EXPECT_EQ(cases[2].id, "onnx-backend/node/test_split_to_sequence_nokeepdims");
  ReferenceRuntime reference;
  for (const auto& c : cases) {
    EXPECT_EQ(c.op, "SplitToSequence");
    EXPECT_EQ(c.opset, 11);
    EXPECT_EQ(c.context, "inputs");
    const Outcome o = run_case(c, reference);
    EXPECT_EQ(status_name(o.status), "pass")
        << c.id << ": " << reason_name(o.reason) << " " << o.message;
    EXPECT_EQ(o.context, "inputs");
  }
}

TEST(Discovery, EnvironmentVariableOverridesTheRoot) {
  ::setenv("SEQCONF_ONNX_TESTDATA", "/some/where", 1);
  EXPECT_EQ(default_onnx_testdata_root(), fs::path("/some/where"));
  ::unsetenv("SEQCONF_ONNX_TESTDATA");
  EXPECT_EQ(default_onnx_testdata_root(), fs::path("/usr/share/libonnx-testdata/data"));
}

TEST(Discovery, MissingRootIsAnIoError) {
  expect_error(ErrorCode::io_error, [] { discover_onnx_backend("/nonexistent/seqconf/data"); });
}

// ---- a corrupted expected output makes its fixture fail ----

TEST(CorruptedFixture, ChangedExpectedValueFails) {
  const fs::path src = default_onnx_testdata_root() / "node" / "test_sequence_insert_at_back";
  ASSERT_TRUE(fs::exists(src / "model.onnx")) << src;
  TempDir tmp;
  const fs::path dst = tmp.path() / "node" / "test_sequence_insert_at_back";
  fs::create_directories(dst.parent_path());
  fs::copy(src, dst, fs::copy_options::recursive);
  ReferenceRuntime reference;

  // Control: the untouched copy passes.
  auto cases = discover_onnx_backend(tmp.path());
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(run_case(cases[0], reference).status, Status::pass);

  // Add 1000 to the first element of the last tensor of the expected sequence (int64).
  const fs::path out = dst / "test_data_set_0" / "output_0.pb";
  onnx::SequenceProto seq;
  {
    std::ifstream in(out, std::ios::binary);
    ASSERT_TRUE(seq.ParseFromIstream(&in));
  }
  ASSERT_GT(seq.tensor_values_size(), 0);
  const int last = seq.tensor_values_size() - 1;
  const Tensor t = tensor_from_proto(seq.tensor_values(last));
  ASSERT_EQ(t.dtype(), DataType::int64);
  std::vector<int64_t> v(t.data<int64_t>(), t.data<int64_t>() + t.element_count());
  v[0] += 1000;
  *seq.mutable_tensor_values(last) =
      tensor_to_proto(Tensor::from_values<DataType::int64>(t.shape(), v), TensorEncoding::raw_data);
  write_file(out, seq.SerializeAsString());

  const Outcome o = run_case(cases[0], reference);
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::value_mismatch);
  EXPECT_NE(o.message.find("output 0"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("sequence item " + std::to_string(last)), std::string::npos)
      << o.message;
  EXPECT_NE(o.message.find(std::to_string(v[0])), std::string::npos) << o.message;
}

// ---- must-reject cases and the runtime's answer ----

class FakeRuntime : public Runtime {
 public:
  RunResult result;
  std::string name() const override { return "fake"; }
  std::string version() const override { return "0"; }
  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto&,
                                         RunError*) override {
    struct P : PreparedModel {
      RunResult r;
      RunResult run(const std::vector<Value>&) override { return r; }
    };
    auto p = std::make_unique<P>();
    p->r = result;
    return p;
  }
};

// A SequenceAt case with position 3 on a sequence of length 1 (clause position.out_of_bounds).
fs::path write_must_reject(const fs::path& root, const std::string& code,
                           const std::string& params = R"({"position": "3"})") {
  const fs::path dir = root / "SequenceAt" / "position_3";
  write_case(dir,
             model(11, graph("g", {node("SequenceAt", {"s", "p"}, {"y"})},
                             {{"s", seq_type(F)}, {"p", tensor_type(DataType::int64)}},
                             {{"y", tensor_type(F)}})),
             {Sequence(F, {f32({1}, {1})}), i64(3)}, {});
  write_file(dir / "case.json", R"({"id": "SequenceAt/position=3", "op": "SequenceAt", "opset": 11,
    "dtype": "float", "expectation": {"kind": "error", "code": ")" +
                                    code + R"("},
    "tolerance": {"rtol": 0.01, "atol": 0.5}, "spec": ")" +
                                    std::string(spec_clause("position.out_of_bounds").sentence) +
                                    R"(",
    "clarity": "normative", "params": )" +
                                    params + "}");
  return dir;
}

TEST(MustReject, CorpusCaseJsonIsRead) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range");
  const auto cases = load_corpus(tmp.path());
  ASSERT_EQ(cases.size(), 1u);
  const Case& c = cases[0];
  EXPECT_EQ(c.id, "corpus/SequenceAt/position=3");
  EXPECT_EQ(c.source, "corpus");
  EXPECT_EQ(c.op, "SequenceAt");
  EXPECT_EQ(c.dtype, "float");
  EXPECT_EQ(c.opset, 11);
  ASSERT_TRUE(c.expected_error.has_value());
  EXPECT_EQ(*c.expected_error, "position_out_of_range");
  // A case.json without "comparison" (written before it) keeps its tolerance.
  EXPECT_FALSE(c.comparison.exact);
  EXPECT_DOUBLE_EQ(c.comparison.tolerance.rtol, 0.01);
  EXPECT_DOUBLE_EQ(c.comparison.tolerance.atol, 0.5);
  EXPECT_EQ(c.spec, spec_clause("position.out_of_bounds").sentence);
  EXPECT_EQ(c.clarity, "normative");
  EXPECT_EQ(c.params.at("position"), "3");
  EXPECT_EQ(c.context, "inputs");  // no context param
  EXPECT_TRUE(c.load_error.empty()) << c.load_error;
}

// The graph context travels from case.json's params to the outcome, as the dtype does.
TEST(MustReject, GraphContextReachesTheOutcome) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range",
                    R"({"position": "3", "context": "loop_body", "trips": "3"})");
  const Case c = load_corpus(tmp.path()).at(0);
  EXPECT_EQ(c.context, "loop_body");
  ReferenceRuntime reference;
  const Outcome o = run_case(c, reference);
  EXPECT_EQ(o.context, "loop_body");
  EXPECT_EQ(o.dtype, "float");
  EXPECT_EQ(context_of(nlohmann::ordered_json::parse(R"({"context": "chained"})")), "chained");
  EXPECT_EQ(context_of(nlohmann::ordered_json::object()), kDefaultContext);
  EXPECT_EQ(context_of(nlohmann::ordered_json::parse(R"({"context": 3})")), "inputs");
}

TEST(MustReject, ReferenceRejectingWithTheCodePasses) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range");
  ReferenceRuntime reference;
  const Outcome o = run_case(load_corpus(tmp.path()).at(0), reference);
  EXPECT_EQ(o.status, Status::pass) << o.message;
  // The model declares tensor types without shapes, which onnx::checker rejects; for a case
  // that must be rejected anyway that agrees and is no finding.
  EXPECT_TRUE(o.findings.empty()) << o.findings.front().message;
}

TEST(MustReject, ReferenceRejectingWithAnotherCodeFails) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_not_scalar");
  ReferenceRuntime reference;
  const Outcome o = run_case(load_corpus(tmp.path()).at(0), reference);
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::wrong_error_code);
  EXPECT_NE(o.message.find("position_out_of_range"), std::string::npos) << o.message;
}

TEST(MustReject, AcceptingIsAFailure) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range");
  FakeRuntime fake;
  fake.result.ok = true;
  fake.result.outputs = {f32({1}, {1})};
  const Outcome o = run_case(load_corpus(tmp.path()).at(0), fake);
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::accepted_invalid);
}

TEST(MustReject, OtherRuntimesRejectingInTheirOwnWordsPass) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range");
  FakeRuntime fake;
  fake.result.ok = false;
  fake.result.error.kind = RunError::Kind::invalid_input;
  fake.result.error.message = "Invalid sequence index (3) specified for sequence of size (1)";
  EXPECT_EQ(run_case(load_corpus(tmp.path()).at(0), fake).status, Status::pass);
  // A crash is never a correct rejection.
  fake.result.error.kind = RunError::Kind::crash;
  EXPECT_EQ(run_case(load_corpus(tmp.path()).at(0), fake).status, Status::crash);
}

// A runtime that refuses a must-reject case through a fault of its own code (an uncaught
// exception, an assertion: kind internal) did not check what the spec requires.
TEST(MustReject, RejectingThroughAnInternalErrorIsItsOwnFailure) {
  TempDir tmp;
  write_must_reject(tmp.path(), "position_out_of_range");
  FakeRuntime fake;
  fake.result.ok = false;
  fake.result.error.kind = RunError::Kind::internal;
  fake.result.error.message = "ZeroDivisionError: integer division or modulo by zero";
  const Outcome o = run_case(load_corpus(tmp.path()).at(0), fake);
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::rejected_internally);
  EXPECT_NE(o.message.find("ZeroDivisionError"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("internal error"), std::string::npos) << o.message;
  // The same runtime checking the position passes.
  fake.result.error.kind = RunError::Kind::invalid_input;
  EXPECT_EQ(run_case(load_corpus(tmp.path()).at(0), fake).status, Status::pass);
}

TEST(ValidCase, RejectionIsAnErrorAndWrongOutputAFailure) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "node" / "test_split_to_sequence_1";
  write_case(dir, split_model(true, 0, 1), {f32({4}, {1, 2, 3, 4}), i64(2)},
             {Sequence(F, {f32({2}, {1, 2}), f32({2}, {3, 4})})});
  const Case c = discover_onnx_backend(tmp.path()).at(0);
  FakeRuntime fake;
  fake.result.ok = false;
  fake.result.error.kind = RunError::Kind::not_supported;
  fake.result.error.message = "no kernel";
  EXPECT_EQ(run_case(c, fake).status, Status::not_supported);
  fake.result.error.kind = RunError::Kind::invalid_input;
  Outcome o = run_case(c, fake);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_EQ(o.reason, Reason::invalid_input);
  fake.result.ok = true;
  fake.result.outputs = {Sequence(F, {f32({2}, {1, 2})})};
  o = run_case(c, fake);
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::length_mismatch);
  fake.result.outputs = {Sequence(F, {f32({2}, {1, 2}), f32({2}, {3, 4})}), f32({1}, {0})};
  EXPECT_EQ(run_case(c, fake).reason, Reason::output_count_mismatch);
}

// ---- load errors become outcomes naming the file ----

TEST(LoadErrors, MalformedCaseJson) {
  TempDir tmp;
  const fs::path dir = write_must_reject(tmp.path(), "position_out_of_range");
  write_file(dir / "case.json", "{ not json");
  const auto cases = load_corpus(tmp.path());
  ASSERT_EQ(cases.size(), 1u);
  ReferenceRuntime reference;
  const Outcome o = run_case(cases[0], reference);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_EQ(o.reason, Reason::load_error);
  EXPECT_NE(o.message.find("case.json"), std::string::npos) << o.message;
}

TEST(LoadErrors, UnknownErrorCodeInCaseJson) {
  TempDir tmp;
  write_must_reject(tmp.path(), "no_such_code");
  const auto cases = load_corpus(tmp.path());
  EXPECT_NE(cases.at(0).load_error.find("no_such_code"), std::string::npos);
}

TEST(LoadErrors, GarbageInputFile) {
  TempDir tmp;
  const fs::path dir = write_must_reject(tmp.path(), "position_out_of_range");
  write_file(dir / "test_data_set_0" / "input_1.pb", std::string("\xff\xff\xff\xff", 4));
  ReferenceRuntime reference;
  const Outcome o = run_case(load_corpus(tmp.path()).at(0), reference);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_EQ(o.reason, Reason::load_error);
  EXPECT_NE(o.message.find("input_1.pb"), std::string::npos) << o.message;
}

TEST(LoadErrors, MissingInputFileAndMissingModel) {
  TempDir tmp;
  const fs::path dir = write_must_reject(tmp.path(), "position_out_of_range");
  fs::remove(dir / "test_data_set_0" / "input_1.pb");
  ReferenceRuntime reference;
  Outcome o = run_case(load_corpus(tmp.path()).at(0), reference);
  EXPECT_EQ(o.reason, Reason::load_error);
  EXPECT_NE(o.message.find("test_data_set_0"), std::string::npos) << o.message;
  fs::remove(dir / "model.onnx");
  o = run_case(load_corpus(tmp.path()).at(0), reference);
  EXPECT_EQ(o.reason, Reason::load_error);
  EXPECT_NE(o.message.find("model.onnx"), std::string::npos) << o.message;
}

TEST(LoadErrors, ValidCaseWithoutExpectedOutputs) {
  TempDir tmp;
  write_case(tmp.path() / "node" / "test_split_to_sequence_x", split_model(true, 0, 1),
             {f32({4}, {1, 2, 3, 4}), i64(2)}, {});
  ReferenceRuntime reference;
  const Outcome o = run_case(discover_onnx_backend(tmp.path()).at(0), reference);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_EQ(o.reason, Reason::load_error);
}

// ---- comparison rules ----

TEST(Compare, FloatsWithinToleranceIntegersExactly) {
  const ComparisonRule tol = ComparisonRule::tolerant();  // rtol 1e-3, atol 1e-7
  // |a-b| <= atol + rtol*|b|: 1000.9 vs 1000 is within 1.0000001, 1001.1 is not.
  EXPECT_TRUE(compare_value(f32({1}, {1000}), f32({1}, {1000.9f}), tol, "output 0").ok);
  const Comparison c = compare_value(f32({2}, {0, 1000}), f32({2}, {0, 1001.1f}), tol, "output 0");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.reason, Reason::value_mismatch);
  EXPECT_NE(c.message.find("element 1"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("expected 1000"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("got 1001.09998"), std::string::npos) << c.message;
  EXPECT_FALSE(compare_value(i64(1000), i64(1001), tol, "output 0").ok);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(compare_value(f32({1}, {nan}), f32({1}, {nan}), tol, "o").ok);
  EXPECT_FALSE(compare_value(f32({1}, {nan}), f32({1}, {0}), tol, "o").ok);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compare_value(f32({1}, {inf}), f32({1}, {inf}), tol, "o").ok);
  EXPECT_FALSE(compare_value(f32({1}, {inf}), f32({1}, {-inf}), tol, "o").ok);
  // Complex per component.
  using C = std::complex<float>;
  auto cx = [](C v) { return Tensor::from_values<DataType::complex64>({1}, {v}); };
  EXPECT_TRUE(compare_value(cx(C(1, 1000)), cx(C(1, 1000.5f)), tol, "o").ok);
  EXPECT_FALSE(compare_value(cx(C(1, 1)), cx(C(1.1f, 1)), tol, "o").ok);
  EXPECT_FALSE(compare_value(cx(C(1, 1)), cx(C(1, 1.1f)), tol, "o").ok);
  // Strings exactly.
  EXPECT_FALSE(
      compare_value(Tensor::from_strings({1}, {"a"}), Tensor::from_strings({1}, {"b"}), tol, "o")
          .ok);
}

// Strings are bytes: a string cut short (at a NUL byte or its end) differs.
TEST(Compare, StringsByteForByte) {
  for (const ComparisonRule& tol : {ComparisonRule{}, ComparisonRule::tolerant()}) {
    auto str = [](std::string s) { return Tensor::from_strings({1}, {std::move(s)}); };
    EXPECT_FALSE(compare_value(str(std::string("a\0b", 3)), str("a"), tol, "o").ok);
    EXPECT_FALSE(compare_value(str("ab"), str("a"), tol, "o").ok);
    EXPECT_TRUE(
        compare_value(str(std::string("a\0b", 3)), str(std::string("a\0b", 3)), tol, "o").ok);
    EXPECT_FALSE(compare_value(str(std::string("\xff\xfe", 2)), str("\xef\xbf\xbd"), tol, "o").ok);
  }
}

TEST(Compare, ReasonsForStructuralDifferences) {
  const ComparisonRule tol;
  EXPECT_EQ(compare_value(f32({2}, {1, 2}), f32({1, 2}, {1, 2}), tol, "o").reason,
            Reason::shape_mismatch);
  EXPECT_EQ(compare_value(f32({1}, {1}), Tensor::from_values<DataType::float64>({1}, {1}), tol, "o")
                .reason,
            Reason::dtype_mismatch);
  EXPECT_EQ(compare_value(Sequence(F, {f32({1}, {1})}), Sequence(F), tol, "o").reason,
            Reason::length_mismatch);
  EXPECT_EQ(compare_value(Sequence(F), f32({1}, {1}), tol, "o").reason, Reason::kind_mismatch);
  EXPECT_EQ(compare_value(Sequence(F), Sequence(DataType::int64), tol, "o").reason,
            Reason::dtype_mismatch);
  EXPECT_EQ(compare_outputs({f32({1}, {1})}, {}, tol).reason, Reason::output_count_mismatch);
  EXPECT_EQ(compare_outputs({}, {f32({1}, {1})}, tol).reason, Reason::output_count_mismatch);
  Optional empty;
  EXPECT_EQ(
      compare_value(Value(empty), Value(make_optional(Value(f32({1}, {1})))), tol, "o").reason,
      Reason::kind_mismatch);
  Optional none_f, none_i;  // two empty optionals of tensors: float, int64
  none_f.elem_type = F;
  none_i.elem_type = DataType::int64;
  EXPECT_EQ(compare_value(Value(none_f), Value(none_i), tol, "o").reason, Reason::dtype_mismatch);
  EXPECT_TRUE(compare_value(Value(none_f), Value(none_f), tol, "o").ok);
}

TEST(Selection, FiltersAndIds) {
  EXPECT_TRUE(id_matches("onnx-backend/node/*", "onnx-backend/node/test_x"));
  EXPECT_TRUE(id_matches("*sequence_map*", "onnx-backend/node/test_sequence_map_a"));
  EXPECT_TRUE(id_matches("onnx-backend/simple", "onnx-backend/simple/test_sequence_model1"));
  EXPECT_FALSE(id_matches("onnx-backend/sim", "onnx-backend/simple/test_sequence_model1"));
  EXPECT_FALSE(id_matches("corpus/*", "onnx-backend/node/test_x"));
  EXPECT_TRUE(id_matches("corpus/SequenceAt/position=?", "corpus/SequenceAt/position=3"));
  expect_error(ErrorCode::invalid_argument, [] {
    CaseSelection s;
    s.source = "elsewhere";
    select_cases(s, nullptr);
  });
  expect_error(ErrorCode::invalid_argument, [] { make_runtime("nonesuch"); });
  EXPECT_EQ(make_runtime("reference")->name(), "reference");
}

TEST(StaticChecks, InferenceContradictionIsAFinding) {
  // A valid case whose model onnx::checker rejects is a finding.
  {
    TempDir tmp;
    write_case(tmp.path() / "node" / "test_split_to_sequence_noshape", split_model(true, 0, 1),
               {f32({4}, {1, 2, 3, 4}), i64(2)},
               {Sequence(F, {f32({2}, {1, 2}), f32({2}, {3, 4})})});
    ReferenceRuntime reference;
    const Outcome o = run_case(discover_onnx_backend(tmp.path()).at(0), reference);
    EXPECT_EQ(o.status, Status::pass);
    ASSERT_FALSE(o.findings.empty());
    EXPECT_EQ(o.findings[0].check, "checker");
    EXPECT_NE(o.findings[0].message.find("shape"), std::string::npos) << o.findings[0].message;
  }
  // SequenceLength-11: "Produces a scalar(tensor of empty shape)"; inference says int64
  // scalar. An expected output of shape [1] contradicts it: a finding.
  TempDir tmp;
  const fs::path dir = tmp.path() / "node" / "test_sequence_length_bad";
  auto m = model(11, graph("g", {node("SequenceLength", {"s"}, {"n"})}, {{"s", seq_type(F)}},
                           {{"n", tensor_type(DataType::int64)}}));
  // onnx::checker wants shapes on declared tensor types: [1] in, scalar out.
  m.mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->add_dim()
      ->set_dim_value(1);
  m.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  write_case(dir, m, {Sequence(F, {f32({1}, {1})})}, {i64_vec({1})});
  ReferenceRuntime reference;
  const Outcome o = run_case(discover_onnx_backend(tmp.path()).at(0), reference);
  EXPECT_EQ(o.reason, Reason::shape_mismatch);  // the reference gives a scalar
  ASSERT_EQ(o.findings.size(), 1u) << o.findings.front().message;
  EXPECT_EQ(o.findings[0].check, "shape_inference");
  EXPECT_NE(o.findings[0].message.find("rank 1"), std::string::npos) << o.findings[0].message;
}

// ---- exact comparison: copies are compared bit for bit ----

// A float from its IEEE 754 binary32 bits.
float f32_bits(uint32_t b) { return bit_cast<float>(b); }
double f64_bits(uint64_t b) { return bit_cast<double>(b); }
Tensor f16_bits(std::vector<uint16_t> bits) {
  std::vector<Float16> v;
  for (uint16_t b : bits) v.push_back(Float16{b});
  const Shape shape{static_cast<int64_t>(v.size())};
  return Tensor::from_values<DataType::float16>(shape, std::move(v));
}

TEST(CompareExact, EachLossHasItsReasonAndShowsTheBits) {
  const ComparisonRule exact;
  const ComparisonRule tolerant = ComparisonRule::tolerant();
  struct Row {
    const char* what;
    uint32_t expected, actual;
    Reason reason;
    const char* says;
  };
  // binary32: sign 0x80000000, quiet bit 0x00400000, exponent 0x7f800000.
  const Row rows[] = {
      {"-0.0 as +0.0", 0x80000000u, 0x00000000u, Reason::zero_sign_changed, "-0.0 became +0.0"},
      {"+0.0 as -0.0", 0x00000000u, 0x80000000u, Reason::zero_sign_changed, "+0.0 became -0.0"},
      {"NaN payload", 0x7fc00001u, 0x7fc00000u, Reason::nan_changed, "sign or payload"},
      {"NaN sign", 0xffc00000u, 0x7fc00000u, Reason::nan_changed, "sign or payload"},
      {"sNaN quieted", 0x7f800001u, 0x7fc00001u, Reason::nan_quieted, "signalling NaN"},
      {"sNaN canonicalized", 0x7f800001u, 0x7fc00000u, Reason::nan_changed, "sign or payload"},
      {"smallest subnormal flushed", 0x00000001u, 0x00000000u, Reason::subnormal_flushed,
       "flushed"},
      {"largest subnormal flushed", 0x807fffffu, 0x80000000u, Reason::subnormal_flushed, "flushed"},
      {"1 ulp above 1.0", 0x3f800000u, 0x3f800001u, Reason::bits_changed, "tolerance"},
      {"1.0 as 1.5", 0x3f800000u, 0x3fc00000u, Reason::value_mismatch, ""},
      {"NaN as 1.0", 0x7fc00000u, 0x3f800000u, Reason::value_mismatch, ""},
  };
  for (const Row& r : rows) {
    const Tensor e = f32({2}, {1, f32_bits(r.expected)});
    const Tensor a = f32({2}, {1, f32_bits(r.actual)});
    const Comparison c = compare_value(e, a, exact, "output 0");
    EXPECT_FALSE(c.ok) << r.what;
    EXPECT_EQ(c.reason, r.reason) << r.what << ": " << c.message;
    EXPECT_NE(c.message.find("element 1"), std::string::npos) << c.message;
    EXPECT_NE(c.message.find(r.says), std::string::npos) << r.what << ": " << c.message;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", r.actual);
    EXPECT_NE(c.message.find(hex), std::string::npos) << r.what << ": " << c.message;
    EXPECT_TRUE(compare_value(e, e, exact, "o").ok) << r.what;
  }
  // Where the tolerance applies (computed values), each of these but the last two passes: the
  // reason the corpus compares copies exactly.
  for (size_t k = 0; k < std::size(rows); ++k)
    EXPECT_EQ(compare_value(f32({1}, {f32_bits(rows[k].expected)}),
                            f32({1}, {f32_bits(rows[k].actual)}), tolerant, "o")
                  .ok,
              k + 2 < std::size(rows))
        << rows[k].what;
}

TEST(CompareExact, HalvesDoublesAndComplexByTheirBits) {
  const ComparisonRule exact;
  // float16: sign 0x8000, quiet bit 0x0200, 0x0001 the smallest subnormal, 0x3c00 = 1.0.
  EXPECT_EQ(compare_value(f16_bits({0x8000}), f16_bits({0x0000}), exact, "o").reason,
            Reason::zero_sign_changed);
  EXPECT_EQ(compare_value(f16_bits({0x7c01}), f16_bits({0x7e01}), exact, "o").reason,
            Reason::nan_quieted);
  EXPECT_EQ(compare_value(f16_bits({0x0001}), f16_bits({0x0000}), exact, "o").reason,
            Reason::subnormal_flushed);
  // 1.0 + 2^-10 (0x3c01) as 1.0: off by one ulp, within rtol 1e-3.
  const Comparison low = compare_value(f16_bits({0x3c01}), f16_bits({0x3c00}), exact, "o");
  EXPECT_EQ(low.reason, Reason::bits_changed);
  EXPECT_NE(low.message.find("0x3c01"), std::string::npos) << low.message;
  EXPECT_TRUE(
      compare_value(f16_bits({0x3c01}), f16_bits({0x3c00}), ComparisonRule::tolerant(), "o").ok);
  // double: 0.1 narrowed through float (0x3fb99999a0000000) is within the tolerance.
  auto f64 = [](double v) { return Tensor::from_values<DataType::float64>({1}, {v}); };
  EXPECT_EQ(compare_value(f64(0.1), f64(static_cast<float>(0.1)), exact, "o").reason,
            Reason::bits_changed);
  EXPECT_EQ(compare_value(f64(f64_bits(0x7ff0000000000001ull)),
                          f64(f64_bits(0x7ff8000000000001ull)), exact, "o")
                .reason,
            Reason::nan_quieted);
  // complex64: the imaginary part's -0.0 lost.
  using C = std::complex<float>;
  auto cx = [](C v) { return Tensor::from_values<DataType::complex64>({1}, {v}); };
  const Comparison z = compare_value(cx(C(1, -0.0f)), cx(C(1, 0.0f)), exact, "o");
  EXPECT_EQ(z.reason, Reason::zero_sign_changed);
  EXPECT_NE(z.message.find("-0.0 became +0.0"), std::string::npos) << z.message;
  EXPECT_NE(z.message.find("(0x3f800000,0x80000000)"), std::string::npos) << z.message;
  // Integers and bools exactly, as before.
  EXPECT_EQ(compare_value(i64(1), i64(2), exact, "o").reason, Reason::value_mismatch);
}

// A tensor with both a loss of bits and a wrong value fails as wrong values, named by the first
// wrong value; with losses only, by the first loss.
TEST(CompareExact, AWrongValueOutranksALossOfBits) {
  const ComparisonRule exact;
  const Comparison c =
      compare_value(f32({3}, {-0.0f, 1, 2}), f32({3}, {0.0f, 1, 3}), exact, "output 0");
  EXPECT_EQ(c.reason, Reason::value_mismatch);
  EXPECT_NE(c.message.find("element 2"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("2 of 3 elements differ"), std::string::npos) << c.message;
  const Comparison d = compare_value(f32({3}, {1, -0.0f, f32_bits(0x00000001u)}),
                                     f32({3}, {1, 0.0f, 0.0f}), exact, "output 0");
  EXPECT_EQ(d.reason, Reason::zero_sign_changed);
  EXPECT_NE(d.message.find("element 1"), std::string::npos) << d.message;
}

// The one table: ONNX's fixtures and computing models within the tolerance, copies exactly.
TEST(CompareExact, TheRuleOfACase) {
  EXPECT_FALSE(comparison_rule("onnx-backend", {"SequenceAt"}).exact);
  EXPECT_TRUE(comparison_rule("corpus", {"SequenceAt", "SequenceConstruct", "Loop"}).exact);
  EXPECT_TRUE(comparison_rule("corpus", {"SequenceMap", "Identity", "Shape", "Concat"}).exact);
  EXPECT_FALSE(comparison_rule("corpus", {"SequenceMap", "Add"}).exact);
  EXPECT_FALSE(comparison_rule("fuzz", {"SequenceMap", "Cast"}).exact);
  EXPECT_EQ(ComparisonRule{}.name(), "exact");
  EXPECT_EQ(ComparisonRule::tolerant().name(), "tolerance rtol=0.001 atol=1e-07");
  // case.json round trip.
  CaseJson j;
  j.comparison = ComparisonRule::tolerant({0.01, 0.5});
  const CaseJson back = parse_case_json(case_json_text(j));
  ASSERT_TRUE(back.comparison.has_value());
  EXPECT_EQ(*back.comparison, *j.comparison);
  j.comparison = ComparisonRule{};
  EXPECT_TRUE(parse_case_json(case_json_text(j)).comparison->exact);
  EXPECT_THROW(parse_case_json(R"({"comparison": {"kind": "close"}})"), Error);
  // Per output: the second output compares within the tolerance, the first bit for bit.
  const CaseJson per = parse_case_json(
      R"({"comparison": {"kind": "per_output", "outputs": [{"kind": "exact"},
          {"kind": "tolerance", "rtol": 0.01, "atol": 0.5}]}})");
  ASSERT_TRUE(per.comparison.has_value());
  EXPECT_FALSE(per.comparison->exact);  // the loosest of the two
  EXPECT_TRUE(per.comparison->output(0).exact);
  EXPECT_EQ(per.comparison->output(1), ComparisonRule::tolerant({0.01, 0.5}));
  EXPECT_EQ(per.comparison->name(), "per output: exact, tolerance rtol=0.01 atol=0.5");
  EXPECT_EQ(*parse_case_json(case_json_text(per)).comparison, *per.comparison);
  const Value copy(f32({1}, {-0.0f}));
  const Value narrowed(f32({1}, {0.0f}));
  EXPECT_FALSE(compare_outputs({copy, copy}, {narrowed, copy}, *per.comparison).ok);
  EXPECT_TRUE(compare_outputs({copy, copy}, {copy, narrowed}, *per.comparison).ok);
  EXPECT_THROW(
      parse_case_json(
          R"({"comparison": {"kind": "per_output", "outputs": [{"kind": "per_output"}]}})"),
      Error);
}

}  // namespace
}  // namespace seqconf::testing
