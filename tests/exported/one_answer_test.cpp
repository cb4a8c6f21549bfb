// One answer on every path: the spec's meaning of an exported model is the oracle's
// (harness/oracle.h), data set by data set, and the reference gives the same answer in this
// process and in an isolated worker, with the host it was given or with none. The framework
// outputs are worked out by hand from Relu's definition: "y = max(0, x)", elementwise.
#include <gtest/gtest.h>

#include <filesystem>

#include "bundle/expected.h"
#include "cases/case.h"
#include "harness/oracle.h"
#include "harness/runner.h"
#include "reference/error.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/report.h"
#include "runtimes/host.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/reference_runtime.h"
#include "tests/support/exported_folder.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_util.h"

namespace seqconf::testing::one_answer {
namespace {

namespace fs = std::filesystem;
const auto F = DataType::float32;

// A host that runs Relu, computed here from its definition, on tensors of three elements only,
// and refuses any other (a gap of the host on that data set); `identity` makes its Relu wrong.
std::shared_ptr<const interp::HostKernel> host_of_three(bool identity = false) {
  auto h = std::make_shared<interp::HostKernel>();
  h->name = identity ? "wrong-host 0" : "three-host 1";
  h->run = [identity](const onnx::NodeProto& n, const std::map<std::string, int64_t>&,
                      const std::vector<std::optional<Value>>& in) -> std::vector<Value> {
    const Tensor& x = in.at(0)->tensor();
    if (n.op_type() != "Relu" || x.element_count() != 3)
      throw Error(ErrorCode::host_rejected, "runs Relu on three elements only");
    std::vector<float> y;
    for (size_t i = 0; i < 3; ++i)
      y.push_back(identity ? x.data<float>()[i] : std::max(0.0f, x.data<float>()[i]));
    return {Value(f32(x.shape(), y))};
  };
  return h;
}

// Data set 0: three elements, which the host runs; data set 1: two, which it refuses.
Case two_data_sets(const fs::path& root) {
  return write_exported(root, "relu_list", relu_then_sequence(),
                        {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}},
                         {{f32({2}, {-4, 8})}, {f32({2}, {0, 8})}}});
}

// The elements of a float tensor value.
std::vector<float> floats(const std::vector<Value>& values) {
  if (values.size() != 1 || !values[0].is_tensor()) return {};
  const Tensor& t = values[0].tensor();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.element_count());
}

Outcome run(const Case& c, Runtime& runtime, std::shared_ptr<const interp::HostKernel> host) {
  RunOptions options;
  options.static_checks = false;
  options.host = std::move(host);
  return run_case(c, runtime, options);
}

// The oracle: data set 0 has the spec's outputs, data set 1 is not judged, with the host's
// reason; the case is neither must-reject nor unjudged.
TEST(OneAnswer, TheOracleJudgesEachDataSetOnItsOwn) {
  TempDir tmp;
  const Case c = two_data_sets(tmp.path());
  const LoadedCase lc = load_case(c);
  const CaseMeaning m = spec_meaning(c, lc, {Policy::lenient, host_of_three()});
  ASSERT_EQ(m.data_sets.size(), 2u);
  EXPECT_EQ(m.data_sets[0].kind, Meaning::Kind::outputs);
  EXPECT_EQ(floats(m.data_sets[0].outputs), (std::vector<float>{0, 0, 2.25f}));
  EXPECT_EQ(m.data_sets[1].kind, Meaning::Kind::not_judged);
  EXPECT_EQ(m.data_sets[1].gap, Reason::host_rejected);
  EXPECT_EQ(m.judged(), 1u);
  EXPECT_FALSE(m.must_reject());
  EXPECT_EQ(m.delegated.at("Relu-14"), 1u);
  EXPECT_EQ(m.host, "three-host 1");
}

// A runtime wrong on the data set that is judged is charged, although the other data set is a
// gap; a runtime right on it passes, and the report says one data set of two was judged.
TEST(OneAnswer, AGapOnOneDataSetLeavesTheOtherJudged) {
  TempDir tmp;
  const Case c = two_data_sets(tmp.path());
  ReferenceRuntime wrong(Policy::lenient, nullptr, host_of_three(true));
  const Outcome bad = run(c, wrong, host_of_three());
  EXPECT_EQ(bad.status, Status::fail) << bad.message;
  EXPECT_EQ(bad.reason, Reason::value_mismatch);
  EXPECT_NE(bad.message.find("test_data_set_0"), std::string::npos) << bad.message;

  ReferenceRuntime right(Policy::lenient, nullptr, host_of_three());
  const Outcome good = run(c, right, host_of_three());
  EXPECT_EQ(good.status, Status::pass) << good.message;
  EXPECT_EQ(good.data_sets, 2u);
  EXPECT_EQ(good.data_sets_judged, 1u);
  ASSERT_TRUE(good.exported);
  EXPECT_EQ(good.exported->exporter.status, Status::pass) << good.exported->exporter.message;
  const reports::Report report = reports::make_report({}, {good}, nullptr);
  const nlohmann::json j = reports::report_to_json(report);
  EXPECT_EQ(j["cases"][0]["data_sets"], nlohmann::json({{"total", 2}, {"judged", 1}}));
  // The console, the HTML and the JUnit report say so, and what the host ran.
  const std::string line =
      "judged on some data sets only: 1 case(s), 1 of their 2 data sets judged, the first " + c.id;
  EXPECT_NE(reports::judging_text(report).find(line), std::string::npos)
      << reports::judging_text(report);
  EXPECT_NE(reports::report_to_html(report).find(line), std::string::npos);
  EXPECT_NE(reports::report_to_junit(report).find("<property name=\"judging\" value=\"" + line),
            std::string::npos);
}

// The exporter is judged on the data set the spec's meaning was found for: a framework output
// that is not Relu's departs there.
TEST(OneAnswer, TheExporterIsJudgedOnTheDataSetsJudged) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {-1.5f, 0, 2.25f})}},
                                 {{f32({2}, {-4, 8})}, {f32({2}, {0, 8})}}});
  ReferenceRuntime right(Policy::lenient, nullptr, host_of_three());
  const Outcome o = run(c, right, host_of_three());
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::fail) << o.exported->exporter.message;
  EXPECT_EQ(o.exported->exporter.reason, Reason::value_mismatch);
}

// When no data set is judged the case is not judged, whatever the runtime does.
TEST(OneAnswer, NoDataSetJudgedIsNotJudged) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({2}, {-4, 8})}, {f32({2}, {0, 8})}}});
  ReferenceRuntime wrong(Policy::lenient, nullptr, host_of_three(true));
  const Outcome o = run(c, wrong, host_of_three());
  EXPECT_EQ(o.status, Status::not_judged) << o.message;
  EXPECT_EQ(o.reason, Reason::host_rejected);
  EXPECT_EQ(o.data_sets_judged, 0u);
}

// The bundle's expectation is the oracle's: the spec's outputs where they were found, nothing
// where they were not (never a must-reject made of a gap).
TEST(OneAnswer, TheBundleExpectsWhatTheOracleGives) {
  TempDir tmp;
  const Case c = two_data_sets(tmp.path());
  const LoadedCase lc = load_case(c);
  const std::vector<bundle::Expected> e =
      bundle::expectations_of(c, lc, {Policy::lenient, host_of_three()});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_FALSE(e[0].rejected);
  EXPECT_FALSE(e[0].not_judged);
  EXPECT_EQ(floats(e[0].outputs), (std::vector<float>{0, 0, 2.25f}));
  EXPECT_FALSE(e[1].rejected);
  EXPECT_TRUE(e[1].not_judged);
  RunResult any;
  any.ok = true;
  EXPECT_FALSE(bundle::departs(e[1], any, c.comparison));  // nothing to hold a runtime to
  // Without a host neither data set is judged, and neither is a must-reject.
  for (const bundle::Expected& x : bundle::expectations_of(c, lc, {Policy::lenient, nullptr})) {
    EXPECT_TRUE(x.not_judged);
    EXPECT_FALSE(x.rejected);
  }
}

// x -> SequenceConstruct -> SequenceAt 0: y = x, declared as `declared`.
onnx::ModelProto at_zero(const onnx::TypeProto& declared) {
  return model(14, graph("at_zero",
                         {node("SequenceConstruct", {"x"}, {"s"}),
                          node("Constant", {}, {"zero"}, {tensor_attr("value", i64(0))}),
                          node("SequenceAt", {"s", "zero"}, {"y"})},
                         {{"x", tensor_type(F)}}, {{"y", declared}}));
}

// A framework output of another element type than the model declares is the exporter's
// departure, not a file that cannot be loaded: the model declares int64 where the program gives
// float. The spec rejects the model's outputs too (a graph output is the type it declares), and
// a runtime that refuses it is right.
TEST(OneAnswer, AnOutputTypeTheModelDoesNotDeclareIsTheExportersDeparture) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "declared_int", at_zero(tensor_type(DataType::int64)),
                                {{{f32({3}, {1, 2, 3})}, {f32({3}, {1, 2, 3})}}});
  ReferenceRuntime reference;
  const Outcome o = run(c, reference, nullptr);
  EXPECT_NE(o.reason, Reason::load_error) << o.message;
  EXPECT_EQ(o.status, Status::pass) << o.message;  // the reference rejects it, as the spec does
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::fail) << o.exported->exporter.message;
  const LoadedCase lc = load_case(c);
  ASSERT_EQ(lc.data_sets[0].undeclared_outputs.size(), 1u);
  EXPECT_TRUE(lc.data_sets[0].undeclared_outputs[0].element_type);
  EXPECT_EQ(lc.data_sets[0].undeclared_outputs[0].text,
            "output 0 (y): the model declares tensor(int64), the framework gives "
            "tensor(float)[3]");
}

// A fixed dimension the framework's output does not have: the spec gives the model's outputs
// (the reference holds a graph output to its element type), and the exporter departs.
TEST(OneAnswer, AShapeTheModelDoesNotDeclareIsTheExportersDeparture) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "declared_two", at_zero(tensor_type(F, {2})),
                                {{{f32({3}, {1, 2, 3})}, {f32({3}, {1, 2, 3})}}});
  ReferenceRuntime reference;
  const Outcome o = run(c, reference, nullptr);
  EXPECT_EQ(o.status, Status::pass) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::fail);
  EXPECT_EQ(o.exported->exporter.reason, Reason::shape_mismatch);
  EXPECT_EQ(o.exported->exporter.message,
            "test_data_set_0: the framework's output departs from the model's declaration: "
            "output 0 (y): the model declares tensor(float)[2], the framework gives "
            "tensor(float)[3]");
  EXPECT_EQ(o.exported->end_to_end.status, Status::pass);
}

// A host runtime that gives Relu's outputs, computed here from its definition, as float or, when
// told, as int64 (a host that answers with another type than ONNX's schema fixes); it keeps the
// node model it was given.
class ReluHost : public Runtime {
 public:
  explicit ReluHost(bool wrong_type) : wrong_type_(wrong_type) {}
  std::string name() const override { return "relu-host"; }
  std::string version() const override { return "1"; }
  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto& m,
                                         RunError*) override {
    *given = m;
    struct P : PreparedModel {
      bool wrong_type;
      RunResult run(const std::vector<Value>& in) override {
        RunResult r;
        r.ok = true;
        const Tensor& x = in.at(0).tensor();
        std::vector<float> y;
        std::vector<int64_t> yi;
        for (size_t i = 0; i < x.element_count(); ++i) {
          y.push_back(std::max(0.0f, x.data<float>()[i]));
          yi.push_back(static_cast<int64_t>(y.back()));
        }
        if (wrong_type)
          r.outputs.push_back(Value(Tensor::from_values<DataType::int64>(x.shape(), yi)));
        else
          r.outputs.push_back(Value(f32(x.shape(), y)));
        return r;
      }
    };
    auto p = std::make_unique<P>();
    p->wrong_type = wrong_type_;
    return p;
  }
  std::shared_ptr<onnx::ModelProto> given = std::make_shared<onnx::ModelProto>();

 private:
  bool wrong_type_;
};

// The node model a host gets types its outputs where ONNX's schema fixes them (Relu-14's Y is
// T, bound to float by X), and a host that answers with another type is the host's fault: the
// data set is not judged, with the reason, never the spec rejecting the model.
TEST(OneAnswer, TheHostIsCheckedLikeAnyRuntime) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}}});
  const LoadedCase lc = load_case(c);
  auto right = std::make_shared<ReluHost>(false);
  const CaseMeaning ok = spec_meaning(c, lc, {Policy::lenient, make_host_kernel(right)});
  ASSERT_EQ(ok.data_sets[0].kind, Meaning::Kind::outputs) << ok.data_sets[0].message;
  ASSERT_EQ(right->given->graph().output_size(), 1);
  EXPECT_EQ(right->given->graph().output(0).type().tensor_type().elem_type(),
            onnx::TensorProto::FLOAT);

  auto wrong = std::make_shared<ReluHost>(true);
  const CaseMeaning bad = spec_meaning(c, lc, {Policy::lenient, make_host_kernel(wrong)});
  ASSERT_EQ(bad.data_sets[0].kind, Meaning::Kind::not_judged);
  EXPECT_EQ(bad.data_sets[0].gap, Reason::host_rejected);
  EXPECT_NE(bad.data_sets[0].message.find(
                "gave output 0 as tensor(int64), where ONNX's schema of Relu fixes tensor(float)"),
            std::string::npos)
      << bad.data_sets[0].message;
}

// The reference in a worker process has the host it was given, or none: --no-host and --host
// reach it, and what it delegated comes back.
TEST(OneAnswer, AnIsolatedReferenceHasItsOwnHostOrNone) {
  TempDir tmp;
  const Case c = write_exported(tmp.path(), "relu_list", relu_then_sequence(),
                                {{{f32({3}, {-1.5f, 0, 2.25f})}, {f32({3}, {0, 0, 2.25f})}}});
  const LoadedCase lc = load_case(c);
  // No host: the worker lacks Relu as the reference in this process does.
  const auto none = isolate_runtime(std::make_unique<ReferenceRuntime>());
  RunError error;
  EXPECT_FALSE(none->prepare(c.dir / "model.onnx", lc.model, &error));
  EXPECT_EQ(error.code, "not_supported") << error.message;
  EXPECT_EQ(run(c, *none, nullptr).status, Status::not_judged);
  // A host made from a spec: the worker makes it again, and says what it ran on it.
  if (!std::filesystem::exists(default_onnxruntime_library()))
    GTEST_SKIP() << "ONNX Runtime is not installed (" << default_onnxruntime_library() << ")";
  std::string why;
  const auto host = make_host("", &why);
  ASSERT_TRUE(host) << why;
  const auto with =
      isolate_runtime(std::make_unique<ReferenceRuntime>(Policy::lenient, nullptr, host));
  auto q = with->prepare(c.dir / "model.onnx", lc.model, &error);
  ASSERT_TRUE(q) << error.message;
  const RunResult s = q->run(lc.data_sets[0].inputs);
  ASSERT_TRUE(s.ok) << s.error.message;
  EXPECT_EQ(s.delegated.at("Relu-14"), 1u);
  EXPECT_EQ(s.host, host->name);
  const Outcome o = run(c, *with, host);
  EXPECT_EQ(o.status, Status::pass) << o.message;
  EXPECT_EQ(o.delegated.at("Relu-14"), 2u);  // once for the spec's meaning, once under test
}

// The host is the runtime under test when it is the same library, by path or by its bytes, not
// when a name and a version say so.
TEST(OneAnswer, TheHostIsTheRuntimeUnderTestByItsLibrary) {
  TempDir tmp;
  write_file(tmp.path() / "a.so", "library bytes");
  write_file(tmp.path() / "copy.so", "library bytes");
  write_file(tmp.path() / "other.so", "library byteS");
  const std::string a = (tmp.path() / "a.so").string();
  EXPECT_TRUE(is_same_runtime(a, a));
  EXPECT_TRUE(is_same_runtime(a, (tmp.path() / "." / "a.so").string()));
  EXPECT_TRUE(is_same_runtime(a, (tmp.path() / "copy.so").string()));
  EXPECT_FALSE(is_same_runtime(a, (tmp.path() / "other.so").string()));
  EXPECT_FALSE(is_same_runtime(a, ""));
  EXPECT_TRUE(is_same_runtime("python3 adapter.py m:B", "python3 adapter.py m:B"));
  EXPECT_FALSE(is_same_runtime("python3 adapter.py m:B", "python3 adapter.py m:C"));
}

// A host made from a runtime object cannot be made again in another process: the reference with
// it has no recipe, rather than a worker that would run with another host.
TEST(OneAnswer, AHostWithoutASpecIsNotSwappedInAWorker) {
  const ReferenceRuntime r(Policy::lenient, nullptr, host_of_three());
  EXPECT_FALSE(r.recipe());
  EXPECT_EQ(ReferenceRuntime().recipe()->argument, "lenient no-host");
  EXPECT_EQ(ReferenceRuntime(Policy::strict, nullptr, make_lazy_host("")).recipe()->argument,
            "strict host=");
}

}  // namespace
}  // namespace seqconf::testing::one_answer
