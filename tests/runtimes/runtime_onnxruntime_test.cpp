// ONNX Runtime through the C API: the backend fixtures that use the sequence operators, and
// how ORT's errors map to RunError kinds. Expected values are the fixtures' output_K.pb.
// SEQCONF_ORT_LIB selects another ORT library (e.g. an older release).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "reference/model_builder.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/registry.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

#define REQUIRE_ORT(rt)     \
  std::string why_;         \
  Runtime* rt = ort(&why_); \
  if (!rt) GTEST_SKIP() << "ONNX Runtime unavailable: " << why_

class OrtFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(OrtFixture, MatchesBackendOutputs) {
  REQUIRE_ORT(rt);
  const Case c = backend_case(GetParam());
  const LoadedCase loaded = load_case(c);
  const DataSet& data = loaded.data_sets.at(0);
  RunError error;
  auto model = rt->prepare(c.dir / "model.onnx", loaded.model, &error);
  ASSERT_TRUE(model) << kind_str(error.kind) << ": " << error.message;
  const RunResult r = model->run(data.inputs);
  ASSERT_TRUE(r.ok) << kind_str(r.error.kind) << ": " << r.error.message;
  ASSERT_EQ(r.outputs.size(), data.outputs.size());
  const Comparison cmp = compare_outputs(data.outputs, r.outputs, c.comparison);
  EXPECT_TRUE(cmp.ok) << cmp.message;
}

INSTANTIATE_TEST_SUITE_P(Backend, OrtFixture, ::testing::ValuesIn(sequence_fixture_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// D = Div(X, Sub(B, B)) with B = [3] an int32 initializer: a divisor that is zero and constant
// only once Sub is folded. ONNX Runtime's Div kernel refuses a constant zero divisor when it is
// created, and a zero divisor met at run time when it runs; ONNX leaves integer division by zero
// undefined, so this is a probe of the optimizer, not a conformance case.
onnx::ModelProto folded_zero_divisor() {
  onnx::GraphProto g;
  g.set_name("folded_zero_divisor");
  *g.add_initializer() = tensor_to_proto(Tensor::from_values<DataType::int32>({1}, {3}),
                                         TensorEncoding::raw_data, "B");
  *g.add_node() = model::node("Sub", {"B", "B"}, {"K"});
  *g.add_node() = model::node("Div", {"X", "K"}, {"D"});
  *g.add_input() = model::value_info("X", model::tensor_type(DataType::int32, {1}));
  *g.add_output() = model::value_info("D", model::tensor_type(DataType::int32, {1}));
  return model::make_model(std::move(g), 13);
}

// Where the probe fails: "prepare: ..." or "run: ...".
std::string where_it_fails(Runtime& rt) {
  RunError error;
  auto pm = rt.prepare({}, folded_zero_divisor(), &error);
  if (!pm) return "prepare: " + error.message;
  const RunResult r = pm->run({Tensor::from_values<DataType::int32>({1}, {7})});
  return r.ok ? "no failure" : "run: " + r.error.message;
}

// --ort-graph-optimization reaches ONNX Runtime's sessions, in this process and in an isolated
// worker (through the recipe): from basic on, constant folding turns Sub(B, B) into a zero
// initializer and the session fails while it is created; disabled, the session is created and
// the run fails. The runtime's name says every level but all, ONNX Runtime's default.
TEST(OrtRuntime, GraphOptimizationLevelReachesTheSession) {
  REQUIRE_ORT(rt);
  for (auto level : {OrtGraphOptimization::disabled, OrtGraphOptimization::basic,
                     OrtGraphOptimization::extended, OrtGraphOptimization::all}) {
    const std::string name = ort_graph_optimization_name(level);
    for (bool isolate : {false, true}) {
      RuntimeOptions o;
      o.isolate = isolate;
      o.ort_graph_optimization = level;
      auto runtime = make_runtime("onnxruntime=" + rt->location(), o);
      EXPECT_EQ(runtime->name(), level == OrtGraphOptimization::all
                                     ? "onnxruntime"
                                     : "onnxruntime (graph optimization: " + name + ")");
      const std::string failure = where_it_fails(*runtime);
      const bool at_run = level == OrtGraphOptimization::disabled;
      EXPECT_EQ(failure.rfind(at_run ? "run: " : "prepare: ", 0), 0u)
          << name << (isolate ? " isolated: " : ": ") << failure;
      EXPECT_NE(failure.find("division by zero"), std::string::npos) << failure;
    }
  }
}

// ONNX Runtime 1.30's telemetry is off in seqconf's processes: it would leave an empty
// /tmp/mat-debug-<pid>.log for each process that created an environment and ran a session (the
// releases before it have no such telemetry, so there the file is never there either).
TEST(OrtRuntime, TelemetryLeavesNoFile) {
  REQUIRE_ORT(rt);
  auto pm = rt->prepare({}, folded_zero_divisor(), nullptr);
  if (pm) pm->run({Tensor::from_values<DataType::int32>({1}, {7})});
  const std::string log = "/tmp/mat-debug-" + std::to_string(::getpid()) + ".log";
  EXPECT_FALSE(std::filesystem::exists(log)) << log;
  const char* value = std::getenv("ORT_DISABLE_TELEMETRY");
  ASSERT_NE(value, nullptr);
}

TEST(OrtRuntime, ReportsVersionAndLocation) {
  REQUIRE_ORT(rt);
  EXPECT_EQ(rt->name(), "onnxruntime");
  EXPECT_FALSE(rt->version().empty());
  EXPECT_FALSE(rt->location().empty());
}

// Sequences of strings go through FillStringTensor / GetStringTensorContent both ways.
TEST(OrtRuntime, StringSequenceRoundTrip) {
  REQUIRE_ORT(rt);
  auto m = single_node("SequenceAt",
                       {{"S", seq_type(DataType::string)}, {"i", tensor_type(DataType::int64)}},
                       {{"T", tensor_type(DataType::string)}});
  RunError error;
  auto pm = rt->prepare({}, m, &error);
  ASSERT_TRUE(pm) << error.message;
  const Tensor a = Tensor::from_strings({2}, {"alpha", ""});
  const Tensor b = Tensor::from_strings({3}, {"x", "\xc3\xa9t\xc3\xa9", "zz"});
  // Clause SequenceAt.summary.
  const RunResult r = pm->run({Sequence(DataType::string, {a, b}), i64(-1)});
  ASSERT_TRUE(r.ok) << r.error.message;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_TRUE(r.outputs[0].identical(b));
}

// Sequence output of every numeric type ORT registers for SequenceInsert.
TEST(OrtRuntime, SequenceOutputKeepsTypeAndShape) {
  REQUIRE_ORT(rt);
  for (DataType d :
       {DataType::float16, DataType::float64, DataType::int8, DataType::uint64, DataType::bool_}) {
    auto m = single_node("SequenceInsert", {{"S", seq_type(d)}, {"T", tensor_type(d)}},
                         {{"O", seq_type(d)}});
    RunError error;
    auto pm = rt->prepare({}, m, &error);
    ASSERT_TRUE(pm) << dtype_name(d) << ": " << error.message;
    const Tensor x = make_tensor(d, {2, 3}, 1), y = make_tensor(d, {0}, 0);
    const RunResult r = pm->run({Sequence(d, {x}), y});
    ASSERT_TRUE(r.ok) << dtype_name(d) << ": " << r.error.message;
    // SequenceInsert without position: "insert 'tensor' at the end of the sequence"... appends.
    EXPECT_TRUE(r.outputs[0].identical(Sequence(d, {x, y}))) << dtype_name(d);
  }
}

// An out-of-range position is rejected ("It is an error if any of the index values are out of
// bounds"); ORT's message is kept.
TEST(OrtRuntime, OutOfRangePositionIsAnError) {
  REQUIRE_ORT(rt);
  auto m = single_node("SequenceAt",
                       {{"S", seq_type(DataType::float32)}, {"i", tensor_type(DataType::int64)}},
                       {{"T", tensor_type(DataType::float32)}});
  RunError error;
  auto pm = rt->prepare({}, m, &error);
  ASSERT_TRUE(pm) << error.message;
  const RunResult r = pm->run({Sequence(DataType::float32, {iota_f32({2})}), i64(1)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.message.find("1"), std::string::npos) << r.error.message;
}

// ORT registers SplitToSequence for bool, float, double, float16, int32, int64 and string only:
// int8 has no kernel, which is reported as not_supported.
TEST(OrtRuntime, MissingKernelIsNotSupported) {
  REQUIRE_ORT(rt);
  auto m = single_node("SplitToSequence", {{"X", tensor_type(DataType::int8)}},
                       {{"S", seq_type(DataType::int8)}});
  RunError error;
  auto pm = rt->prepare({}, m, &error);
  if (pm) {
    const RunResult r = pm->run({make_tensor(DataType::int8, {3})});
    ASSERT_FALSE(r.ok);
    error = r.error;
  }
  EXPECT_EQ(error.kind, RunError::Kind::not_supported) << error.message;
}

// A graph ORT cannot load (an unknown operator) is rejected at session creation.
TEST(OrtRuntime, InvalidModelIsRejectedAtPrepare) {
  REQUIRE_ORT(rt);
  auto m = single_node("NoSuchOperator", {{"X", tensor_type(DataType::float32)}},
                       {{"Y", tensor_type(DataType::float32)}});
  RunError error;
  EXPECT_FALSE(rt->prepare({}, m, &error));
  EXPECT_FALSE(error.message.empty());
  EXPECT_NE(error.kind, RunError::Kind::crash);
}

TEST(OrtRuntime, MissingLibraryIsAnIoError) {
  if (!onnxruntime_compiled_in()) GTEST_SKIP() << "built without the ONNX Runtime header";
  try {
    make_onnxruntime_runtime("/nonexistent/libonnxruntime.so.1");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io_error);
  }
}

}  // namespace
}  // namespace seqconf::testing
