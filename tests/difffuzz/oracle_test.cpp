// Campaigns against another runtime than the reference (FuzzOptions::make_oracle, seqconf fuzz
// --oracle):
//  - a runtime against a copy of itself finds nothing, though against the reference it does;
//  - the oracle is the expected side: its findings' IDs carry oracle=<id>, their fixtures pass
//    on the oracle and fail on the runtime under test, and their case.json names the oracle;
//  - outputs that change from one run to the next are a finding of kind nondeterministic, kept
//    as found (an oracle that returns other values each run);
//  - ONNX Runtime 1.30 at graph optimization all against itself at disabled: every finding is
//    listed in expectations/onnxruntime-vs-onnxruntime_disabled.json.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "difffuzz/campaign.h"
#include "harness/runner.h"
#include "reports/expectations.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "tests/difffuzz/fuzz_dirs.h"
#include "tests/support/runtime_test_util.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;
using difffuzz::FuzzOptions;
using difffuzz::run_campaign;

constexpr const char* kDefect = "seeded=insert.negative_inserts_after";

FuzzOptions against(const std::string& oracle, const std::string& id, const fs::path& out) {
  FuzzOptions o;
  o.seed = 11;
  o.iterations = 300;
  o.out = out;
  o.make_oracle = [oracle] { return make_runtime(oracle); };
  o.oracle_id = id;
  o.oracle_name = oracle;
  return o;
}

TEST(Oracle, ARuntimeAgainstItselfFindsNothing) {
  auto defect = make_runtime(kDefect);
  FuzzOptions o = against(kDefect, "seeded", fresh_fuzz_dir("oracle-itself"));
  const auto r = run_campaign(*defect, o);
  EXPECT_EQ(r.disagreements, 0u);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_GT(r.agree_outputs, 50u);
  // The same campaign against the reference finds the defect.
  FuzzOptions reference = o;
  reference.make_oracle = nullptr;
  reference.out = fresh_fuzz_dir("oracle-itself-reference");
  EXPECT_FALSE(run_campaign(*defect, reference).findings.empty());
}

TEST(Oracle, TheOracleIsTheExpectedSide) {
  // The reference under test, the defect as the oracle: the oracle's results are expected.
  auto reference = make_runtime("reference");
  FuzzOptions o = against(kDefect, "seeded", fresh_fuzz_dir("oracle-expected"));
  const auto r = run_campaign(*reference, o);
  ASSERT_FALSE(r.findings.empty());
  const auto cases = fixture_cases(o.out);
  ASSERT_EQ(cases.size(), r.findings.size());
  auto defect = make_runtime(kDefect);
  for (const auto& f : r.findings) {
    EXPECT_NE(f.id.find("/oracle=seeded/"), std::string::npos) << f.id;
    EXPECT_EQ(f.case_json.extra.value("oracle", std::string()), kDefect) << f.id;
  }
  for (const auto& c : cases) {
    EXPECT_EQ(run_case(c, *defect).status, Status::pass) << c.id;
    EXPECT_NE(run_case(c, *reference).status, Status::pass) << c.id;
  }
}

// The reference, with every float output's first element changed on each run: its outputs are
// never the same twice.
class Unsteady : public Runtime {
 public:
  std::string name() const override { return "unsteady"; }
  std::string version() const override { return "1"; }
  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& path,
                                         const onnx::ModelProto& model, RunError* error) override {
    struct Model : PreparedModel {
      std::unique_ptr<PreparedModel> inner;
      std::atomic<int>* runs = nullptr;
      RunResult run(const std::vector<Value>& inputs) override {
        RunResult r = inner->run(inputs);
        const float shift = static_cast<float>(++*runs);
        for (Value& v : r.outputs)
          if (v.is_tensor() && v.tensor().dtype() == DataType::float32 &&
              v.tensor().element_count() > 0) {
            const Tensor& t = v.tensor();
            std::vector<std::byte> bytes(t.bytes(), t.bytes() + t.byte_size());
            float first;
            std::memcpy(&first, bytes.data(), sizeof first);
            first += shift;
            std::memcpy(bytes.data(), &first, sizeof first);
            v = Value(Tensor::from_bytes(DataType::float32, t.shape(), std::move(bytes)));
          }
        return r;
      }
    };
    auto pm = inner_->prepare(path, model, error);
    if (!pm) return nullptr;
    auto m = std::make_unique<Model>();
    m->inner = std::move(pm);
    m->runs = &runs_;
    return m;
  }

 private:
  std::unique_ptr<Runtime> inner_ = make_runtime("reference");
  std::atomic<int> runs_{0};
};

// The reference's gap is the oracle's (harness/oracle.h, reference_gap), in the fuzzer as in the
// runner: a program the reference cannot judge (an operator it lacks, a limit) is neither an
// agreement nor a finding, whatever the runtime does; the reference's rejection with a code of
// the spec is still one, and so is an error that carries no code (another oracle's words).
TEST(Oracle, AGapOfTheReferenceIsNotJudged) {
  difffuzz::Program p;
  p.source = difffuzz::SourceKind::empty;
  difffuzz::Step length;
  length.kind = difffuzz::StepKind::length;
  p.steps = {length};
  const difffuzz::BuiltProgram b = difffuzz::build(p);
  RunResult ran;
  ran.ok = true;
  ran.outputs = {Tensor::from_values<DataType::int64>({}, {0})};
  for (const char* code : {"limit_exceeded", "not_supported", "host_rejected"}) {
    RunResult gap;
    gap.error = {RunError::Kind::not_supported, "the reference stops here", code, "", ""};
    const difffuzz::Evaluation e = difffuzz::judge(b, gap, ran);
    EXPECT_EQ(e.verdict, difffuzz::Verdict::not_judged) << code;
  }
  RunResult rejected;
  rejected.error = {RunError::Kind::invalid_input, "position out of range", "position_out_of_range",
                    "", ""};
  const difffuzz::Evaluation e = difffuzz::judge(b, rejected, ran);
  EXPECT_EQ(e.verdict, difffuzz::Verdict::disagree);
  EXPECT_EQ(e.kind, "accepted_invalid");
  RunResult words;
  words.error = {RunError::Kind::invalid_input, "Invalid sequence index", "", "", ""};
  EXPECT_EQ(difffuzz::judge(b, words, ran, "onnxruntime").kind, "accepted_invalid");
}

TEST(Oracle, OutputsThatChangeRunToRunAreNondeterministic) {
  auto reference = make_runtime("reference");
  FuzzOptions o = against("reference", "unsteady", fresh_fuzz_dir("oracle-unsteady"));
  o.make_oracle = [] { return std::make_unique<Unsteady>(); };
  o.oracle_name = "unsteady";
  const auto r = run_campaign(*reference, o);
  ASSERT_FALSE(r.findings.empty());
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.kind, "nondeterministic") << f.id << ": " << f.description;
    EXPECT_NE(f.description.find("unsteady gives other outputs"), std::string::npos)
        << f.description;
    EXPECT_EQ(f.dtype, "float") << f.id;
  }
}

TEST(Oracle, OnnxRuntimeAgainstItselfAtDisabledIsExpected) {
  std::string why;
  std::unique_ptr<Runtime> probe = ort_1_30(&why);
  if (!probe) GTEST_SKIP() << why;
  const std::string spec = "onnxruntime=" + probe->location();
  FuzzOptions o;
  o.seed = 11;
  o.iterations = std::getenv("SEQCONF_SANITIZED") ? 200 : 1000;
  o.input_sets = difffuzz::kDefaultInputSets;
  o.out = fresh_fuzz_dir("oracle-onnxruntime");
  RuntimeOptions disabled;
  disabled.ort_graph_optimization = OrtGraphOptimization::disabled;
  o.make_oracle = [spec, disabled] { return isolate_runtime(make_runtime(spec, disabled)); };
  o.oracle_id = "onnxruntime_disabled";
  o.oracle_name = "onnxruntime (graph optimization: disabled)";
  auto all = isolate_runtime(make_runtime(spec));
  const auto r = run_campaign(*all, o);
  std::cout << r.programs << " programs, " << r.findings.size() << " findings\n";
  EXPECT_GT(r.agree_outputs, 100u);
  const auto expectations = reports::Expectations::load(kFuzzSource / "expectations" /
                                                        "onnxruntime-vs-onnxruntime_disabled.json");
  for (const auto& f : r.findings)
    EXPECT_NE(expectations.match("corpus/" + f.id), nullptr)
        << f.id << ": " << f.description << " | " << f.program;
}

}  // namespace
}  // namespace seqconf::testing
