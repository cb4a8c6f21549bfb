// The process runtime: protocol handling with a scripted adapter
// (tests/runtimes/runtime_process_adapter.py), lifting of sequences, and the onnxruntime-web
// adapter on the backend fixtures.
#include <gtest/gtest.h>

#include <cstdlib>

#include "runtimes/process.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

const std::string kSource = SEQCONF_SOURCE_DIR;

std::string adapter(const std::string& behaviour, bool sequences = true) {
  return "/usr/bin/python3 " + kSource + "/tests/runtimes/runtime_process_adapter.py " + behaviour +
         " " + (sequences ? "sequences" : "tensors");
}

onnx::ModelProto identity_of(const onnx::TypeProto& t) {
  return single_node("Identity", {{"x", t}}, {{"y", t}});
}

TEST(ProcessRuntime, HandshakeGivesNameAndVersion) {
  auto rt = make_process_runtime(adapter("echo"));
  EXPECT_EQ(rt->name(), "test-adapter");
  EXPECT_EQ(rt->version(), "1.0");
  EXPECT_EQ(rt->location(), adapter("echo"));
}

TEST(ProcessRuntime, BadHandshakeIsAnIoError) {
  try {
    make_process_runtime(adapter("badhello"), {5000});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io_error);
    EXPECT_NE(std::string(e.what()).find("hello"), std::string::npos) << e.what();
  }
}

// Values cross the boundary as TensorProto / SequenceProto files and come back unchanged
// (the adapter copies input K to output K); stray stdout lines are skipped.
TEST(ProcessRuntime, SequencesRoundTripWhenTheAdapterTakesThem) {
  auto rt = make_process_runtime(adapter("echo"));
  const Sequence s(DataType::string, {Tensor::from_strings({2}, {"a", "\xc3\xa9"}),
                                      make_tensor(DataType::string, {0})});
  RunError error;
  auto m = rt->prepare({}, identity_of(seq_type(DataType::string)), &error);
  ASSERT_TRUE(m);
  const RunResult r = m->run({s});
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_TRUE(r.outputs.at(0).identical(s));
  // An empty sequence keeps the graph's declared element type.
  auto m2 = rt->prepare({}, identity_of(seq_type(DataType::float16)), &error);
  const RunResult r2 = m2->run({Sequence(DataType::float16)});
  ASSERT_TRUE(r2.ok) << r2.error.message;
  EXPECT_TRUE(r2.outputs.at(0).identical(Sequence(DataType::float16)));
}

TEST(ProcessRuntime, ErrorAnswerKeepsKindAndMessage) {
  auto rt = make_process_runtime(adapter("refuse"));
  RunError error;
  auto m = rt->prepare({}, identity_of(tensor_type(DataType::float32)), &error);
  const RunResult r = m->run({iota_f32({2})});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.kind, RunError::Kind::not_supported);
  EXPECT_EQ(r.error.message, "no kernel for it");
}

TEST(ProcessRuntime, CrashIsReportedAndTheAdapterRestarts) {
  auto rt = make_process_runtime(adapter("crash"));
  RunError error;
  auto m = rt->prepare({}, identity_of(tensor_type(DataType::float32)), &error);
  for (int i = 0; i < 2; ++i) {
    const RunResult r = m->run({iota_f32({2})});
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.error.kind, RunError::Kind::crash);
    EXPECT_NE(r.error.message.find("SIGSEGV"), std::string::npos) << r.error.message;
  }
}

TEST(ProcessRuntime, NoAnswerIsATimeout) {
  auto rt = make_process_runtime(adapter("hang"), {1000});
  RunError error;
  auto m = rt->prepare({}, identity_of(tensor_type(DataType::float32)), &error);
  const RunResult r = m->run({iota_f32({2})});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.kind, RunError::Kind::timeout);
}

// Lifting, checked on the graph: a sequence input of length 2 becomes two tensor inputs
// joined by SequenceConstruct; a sequence output becomes SequenceLength, then SequenceAt items.
TEST(Lifting, RewritesSequenceInputsAndOutputs) {
  const auto model = identity_of(seq_type(DataType::int32));
  const auto len = lift_sequences(model, {2}, nullptr);
  ASSERT_EQ(len.graph().input_size(), 2);
  EXPECT_TRUE(len.graph().input(0).type().has_tensor_type());
  EXPECT_EQ(len.graph().node(0).op_type(), "SequenceConstruct");
  ASSERT_EQ(len.graph().output_size(), 1);
  EXPECT_EQ(len.graph().output(0).type().tensor_type().elem_type(), onnx::TensorProto::INT64);
  const std::vector<size_t> three = {3};
  const auto items = lift_sequences(model, {0}, &three);
  EXPECT_EQ(items.graph().input_size(), 0);
  EXPECT_EQ(items.graph().node(0).op_type(), "SequenceEmpty");
  ASSERT_EQ(items.graph().output_size(), 3);
  EXPECT_EQ(items.graph().output(2).type().tensor_type().elem_type(), onnx::TensorProto::INT32);
}

// The shipped adapter: onnxruntime-web (WASM) under Node, tensors only, on the fixtures.
Runtime* web(std::string* why) {
  static std::string reason;
  static std::unique_ptr<Runtime> rt = []() -> std::unique_ptr<Runtime> {
    const std::string command = onnxruntime_web_command(&reason);
    if (command.empty()) return nullptr;
    return make_process_runtime(command);
  }();
  *why = reason;
  return rt.get();
}

class WebFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(WebFixture, MatchesBackendOutputs) {
  std::string why;
  Runtime* rt = web(&why);
  if (!rt) GTEST_SKIP() << why;
  const Case c = backend_case(GetParam());
  const LoadedCase loaded = load_case(c);
  const DataSet& data = loaded.data_sets.at(0);
  RunError error;
  auto model = rt->prepare(c.dir / "model.onnx", loaded.model, &error);
  ASSERT_TRUE(model) << error.message;
  const RunResult r = model->run(data.inputs);
  bool optional = false;
  for (const auto& v : loaded.model.graph().input()) optional |= v.type().has_optional_type();
  for (const auto& v : loaded.model.graph().output()) optional |= v.type().has_optional_type();
  if (optional) {
    // Optionals cannot be lifted to tensors: reported, not hidden.
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.error.kind, RunError::Kind::not_supported) << r.error.message;
    return;
  }
  ASSERT_TRUE(r.ok) << kind_str(r.error.kind) << ": " << r.error.message;
  ASSERT_EQ(r.outputs.size(), data.outputs.size());
  const Comparison cmp = compare_outputs(data.outputs, r.outputs, c.comparison);
  EXPECT_TRUE(cmp.ok) << cmp.message;
}

INSTANTIATE_TEST_SUITE_P(Backend, WebFixture, ::testing::ValuesIn(sequence_fixture_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace seqconf::testing
