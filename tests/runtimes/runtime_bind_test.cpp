// PreparedModel::bind: inputs bound once, BoundRun::run repeated. For ONNX Runtime (inputs as
// OrtValues built once) and for the reference (the base class's default), repeated bound runs
// give the same outputs as the fixtures' output_K.pb, errors come back as errors, and no run
// changes the bound inputs.
#include <gtest/gtest.h>

#include "runtimes/onnxruntime.h"
#include "runtimes/reference_runtime.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

// The runtimes under test: the reference always, ORT when it loads.
std::vector<Runtime*> runtimes() {
  static ReferenceRuntime reference;
  std::vector<Runtime*> v{&reference};
  std::string why;
  if (Runtime* o = ort(&why)) v.push_back(o);
  return v;
}

// A deep copy (own storage) of a value, to compare the bound inputs with after the runs.
Value deep_copy(const Value& v) {
  return value_from_bytes(value_to_bytes(v, TensorEncoding::raw_data), type_of(v), "copy");
}

class BoundFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(BoundFixture, RepeatedBoundRunsMatchBackendOutputs) {
  const Case c = backend_case(GetParam());
  const LoadedCase loaded = load_case(c);
  const DataSet& data = loaded.data_sets.at(0);
  for (Runtime* rt : runtimes()) {
    SCOPED_TRACE(rt->name());
    RunError error;
    auto model = rt->prepare(c.dir / "model.onnx", loaded.model, &error);
    ASSERT_TRUE(model) << kind_str(error.kind) << ": " << error.message;
    std::vector<Value> before;
    for (const Value& v : data.inputs) before.push_back(deep_copy(v));
    auto bound = model->bind(data.inputs);
    EXPECT_TRUE(bound->outputs().empty()) << "outputs before any run";
    for (int run = 0; run < 3; ++run) {
      const RunResult r = bound->run();
      ASSERT_TRUE(r.ok) << "run " << run << ": " << kind_str(r.error.kind) << ": "
                        << r.error.message;
      EXPECT_TRUE(r.outputs.empty()) << "a bound run keeps its outputs in the runtime's form";
      const std::vector<Value> out = bound->outputs();
      ASSERT_EQ(out.size(), data.outputs.size()) << "run " << run;
      const Comparison cmp = compare_outputs(data.outputs, out, c.comparison);
      EXPECT_TRUE(cmp.ok) << "run " << run << ": " << cmp.message;
    }
    // Binding shares the input values' storage: nothing may have written through it.
    ASSERT_EQ(data.inputs.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i)
      EXPECT_TRUE(data.inputs[i].identical(before[i])) << "input " << i << " changed";
  }
}

INSTANTIATE_TEST_SUITE_P(Backend, BoundFixture, ::testing::ValuesIn(sequence_fixture_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

onnx::ModelProto at_model() {
  return single_node("SequenceAt",
                     {{"S", seq_type(DataType::float32)}, {"i", tensor_type(DataType::int64)}},
                     {{"T", tensor_type(DataType::float32)}});
}

// "It is an error if any of the index values are out of bounds": every bound run reports it,
// and there are no outputs to read.
TEST(BoundRun, OutOfRangePositionIsAnErrorOnEveryRun) {
  for (Runtime* rt : runtimes()) {
    SCOPED_TRACE(rt->name());
    RunError error;
    auto pm = rt->prepare({}, at_model(), &error);
    ASSERT_TRUE(pm) << error.message;
    auto bound = pm->bind({Sequence(DataType::float32, {iota_f32({2})}), i64(1)});
    for (int run = 0; run < 2; ++run) {
      const RunResult r = bound->run();
      EXPECT_FALSE(r.ok) << "run " << run;
      EXPECT_FALSE(r.error.message.empty());
      EXPECT_TRUE(bound->outputs().empty());
    }
  }
}

// Binding the wrong number of inputs is reported by run(), not by a crash.
TEST(BoundRun, WrongInputCountIsAnError) {
  for (Runtime* rt : runtimes()) {
    SCOPED_TRACE(rt->name());
    RunError error;
    auto pm = rt->prepare({}, at_model(), &error);
    ASSERT_TRUE(pm) << error.message;
    auto bound = pm->bind({Sequence(DataType::float32, {iota_f32({2})})});
    const RunResult r = bound->run();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.message.find("inputs"), std::string::npos) << r.error.message;
    EXPECT_TRUE(bound->outputs().empty());
  }
}

// SequenceInsert into an empty sequence (ORT feeds it through a SequenceEmpty session) and
// SequenceAt with a negative position ("Negative value means counting positions from the
// back"), each bound once and run twice.
TEST(BoundRun, EmptySequenceAndNegativePosition) {
  const Tensor x = f32({2}, {1.5f, -2.0f});
  for (Runtime* rt : runtimes()) {
    SCOPED_TRACE(rt->name());
    RunError error;
    auto insert = rt->prepare(
        {},
        single_node("SequenceInsert",
                    {{"S", seq_type(DataType::float32)}, {"T", tensor_type(DataType::float32)}},
                    {{"O", seq_type(DataType::float32)}}),
        &error);
    ASSERT_TRUE(insert) << error.message;
    auto b1 = insert->bind({Sequence(DataType::float32), x});
    auto at = rt->prepare({}, at_model(), &error);
    ASSERT_TRUE(at) << error.message;
    const Tensor y = f32({1}, {7.0f});
    auto b2 = at->bind({Sequence(DataType::float32, {x, y}), i64(-2)});
    for (int run = 0; run < 2; ++run) {
      ASSERT_TRUE(b1->run().ok);
      const std::vector<Value> o1 = b1->outputs();
      ASSERT_EQ(o1.size(), 1u);
      EXPECT_TRUE(o1[0].identical(Sequence(DataType::float32, {x})));
      ASSERT_TRUE(b2->run().ok);
      const std::vector<Value> o2 = b2->outputs();
      ASSERT_EQ(o2.size(), 1u);
      EXPECT_TRUE(o2[0].identical(x));
    }
  }
}

}  // namespace
}  // namespace seqconf::testing
