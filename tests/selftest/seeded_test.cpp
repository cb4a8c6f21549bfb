// Seeded defects (runtimes/seeded/): each is the reference with one defect, reachable by name
// from the registry, and differs from the reference exactly where its description says.
#include <gtest/gtest.h>

#include <set>

#include "reference/error.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/registry.h"
#include "runtimes/seeded/seeded.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

const DataType F = DataType::float32;

// SequenceInsert(S, T, position) -> S'.
onnx::ModelProto insert_model() {
  return one_node(
      11, "SequenceInsert",
      {{"S", seq_type(F)}, {"T", tensor_type(F)}, {"position", tensor_type(DataType::int64)}},
      {{"out", seq_type(F)}});
}

RunResult run_on(Runtime& rt, const onnx::ModelProto& m, const std::vector<Value>& inputs) {
  RunError error;
  auto prepared = rt.prepare({}, m, &error);
  if (!prepared) return {false, {}, error, {}, {}, {}};
  return prepared->run(inputs);
}

Sequence two() { return Sequence(F, {f32({1}, {1.f}), f32({1}, {2.f})}); }
Tensor pos(int64_t p) { return Tensor::from_values<DataType::int64>({}, {p}); }

TEST(SeededDefects, AtLeastTwentyEachNamedAndDescribed) {
  const auto& all = seeded::defects();
  EXPECT_GE(all.size(), 20u);
  std::set<std::string> ids;
  for (const auto& d : all) {
    EXPECT_TRUE(ids.insert(d.id).second) << "twice: " << d.id;
    EXPECT_FALSE(d.op.empty()) << d.id;
    EXPECT_FALSE(d.description.empty()) << d.id;
    EXPECT_FALSE(d.copies.empty()) << d.id;
    EXPECT_TRUE(static_cast<bool>(d.kernel.run)) << d.id;
  }
}

TEST(SeededDefects, InsertAtTheLengthGoesToTheFrontOnlyThere) {
  ReferenceRuntime reference;
  auto seeded = seeded::make_seeded_runtime(seeded::defect("insert.at_length_goes_front"));
  const Tensor t = f32({1}, {9.f});
  // Position 2 = n: the reference appends, the defect inserts at the front.
  const RunResult r = run_on(reference, insert_model(), {two(), t, pos(2)});
  const RunResult s = run_on(*seeded, insert_model(), {two(), t, pos(2)});
  ASSERT_TRUE(r.ok && s.ok) << r.error.message << s.error.message;
  EXPECT_EQ(r.outputs[0].sequence().at(2).data<float>()[0], 9.f);
  EXPECT_EQ(s.outputs[0].sequence().at(0).data<float>()[0], 9.f);
  // Position 1: the two agree.
  const RunResult r1 = run_on(reference, insert_model(), {two(), t, pos(1)});
  const RunResult s1 = run_on(*seeded, insert_model(), {two(), t, pos(1)});
  ASSERT_TRUE(r1.ok && s1.ok);
  EXPECT_TRUE(r1.outputs[0].identical(s1.outputs[0]));
}

TEST(SeededDefects, OutOfRangeInsertWrapsWhereTheReferenceRejects) {
  ReferenceRuntime reference;
  auto seeded = seeded::make_seeded_runtime(seeded::defect("insert.out_of_range_wraps"));
  const RunResult r = run_on(reference, insert_model(), {two(), f32({1}, {9.f}), pos(4)});
  const RunResult s = run_on(*seeded, insert_model(), {two(), f32({1}, {9.f}), pos(4)});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.code, "position_out_of_range");
  ASSERT_TRUE(s.ok) << s.error.message;
  // 4 mod 3 = 1.
  EXPECT_EQ(s.outputs[0].sequence().at(1).data<float>()[0], 9.f);
}

// Fuzzing prepares each program on the reference and then on the runtime under test, on one
// thread, from one shared model: the second takes the first's preparation
// (ReferenceRuntime::prepare_shared), but each runs with its own kernels.
TEST(SeededDefects, ASharedPreparationRunsWithEachRuntimesOwnKernels) {
  ReferenceRuntime reference;
  auto seeded = seeded::make_seeded_runtime(seeded::defect("insert.at_length_goes_front"));
  const auto model = std::make_shared<const onnx::ModelProto>(insert_model());
  const std::vector<Value> inputs = {two(), f32({1}, {9.f}), pos(2)};
  RunError error;
  // Both orders: the defect's preparation shared with the reference, and the reverse.
  for (int order = 0; order < 2; ++order) {
    auto first =
        (order == 0 ? static_cast<Runtime&>(reference) : *seeded).prepare_shared({}, model, &error);
    auto second =
        (order == 0 ? *seeded : static_cast<Runtime&>(reference)).prepare_shared({}, model, &error);
    ASSERT_TRUE(first && second) << error.message;
    const RunResult r = (order == 0 ? first : second)->run(inputs);
    const RunResult s = (order == 0 ? second : first)->run(inputs);
    ASSERT_TRUE(r.ok && s.ok) << r.error.message << s.error.message;
    // SequenceInsert at position n = 2: the reference appends, the defect inserts at the front.
    EXPECT_EQ(r.outputs[0].sequence().at(2).data<float>()[0], 9.f) << "order " << order;
    EXPECT_EQ(s.outputs[0].sequence().at(0).data<float>()[0], 9.f) << "order " << order;
  }
  // A rejected model is rejected alike by the second runtime; another model, even at the
  // address of a freed one, is prepared anew.
  onnx::ModelProto bad = insert_model();
  bad.mutable_graph()->mutable_node(0)->set_op_type("SequenceInsertt");
  const auto rejected = std::make_shared<const onnx::ModelProto>(bad);
  RunError e1, e2;
  EXPECT_FALSE(reference.prepare_shared({}, rejected, &e1));
  EXPECT_FALSE(seeded->prepare_shared({}, rejected, &e2));
  EXPECT_EQ(e1.code, "not_supported");
  EXPECT_EQ(e2.code, e1.code);
  EXPECT_EQ(e2.message, e1.message);
  for (int k = 0; k < 3; ++k) {
    auto fresh = std::make_shared<const onnx::ModelProto>(k % 2 ? bad : insert_model());
    RunError e;
    EXPECT_EQ(static_cast<bool>(seeded->prepare_shared({}, fresh, &e)), k % 2 == 0) << k;
  }
}

TEST(SeededDefects, ByNameFromTheRegistryIsolatedByDefault) {
  RuntimeOptions isolated;
  isolated.isolate = true;
  auto rt = make_runtime("seeded=erase.default_erases_first", isolated);
  EXPECT_EQ(rt->name(), "seeded=erase.default_erases_first");
  EXPECT_TRUE(rt->out_of_process());
  EXPECT_TRUE(seeded::make_seeded_runtime(seeded::defects().front())->isolated_by_default());
  try {
    make_runtime("seeded=no.such_defect");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("insert.at_length_goes_front"), std::string::npos);
  }
  EXPECT_THROW(make_runtime("seeded"), Error);
}

TEST(SeededDefects, ACrashingDefectIsACrashWhenIsolated) {
  RuntimeOptions isolated;
  isolated.isolate = true;
  auto rt = make_runtime("seeded=insert.crash_on_empty_sequence", isolated);
  const RunResult r = run_on(*rt, insert_model(), {Sequence(F), f32({1}, {9.f}), pos(0)});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("SIGSEGV"), std::string::npos) << r.error.message;
}

}  // namespace
}  // namespace seqconf::testing
