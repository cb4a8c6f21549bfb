// The table by which seqconf reads ONNX Runtime's errors (runtimes/onnxruntime_errors.json), met
// with real errors of ONNX Runtime through the C API: for each rule that applies to the native
// library, a model that makes ONNX Runtime fail so, and the rule that must decide it, named
// here from what the failure is (a missing kernel, a SafeInt trap, ...), not from the table.
// tests/runtimes/onnxruntime_errors_test.py meets the same rules through onnxruntime-node and
// onnxruntime-web.
#include <gtest/gtest.h>

#include "reference/model_builder.h"
#include "reference/proto.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/onnxruntime_errors.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing::ort_errors {
namespace {

#define REQUIRE_ORT_LIBRARY(rt) \
  std::string why_;             \
  Runtime* rt = ort(&why_);     \
  if (!rt) GTEST_SKIP() << "ONNX Runtime unavailable: " << why_

// ONNX Runtime's error on the model: while the session is created, or else while it runs on
// the inputs. Fails the test when ONNX Runtime runs it.
RunError error_of(Runtime& rt, const onnx::ModelProto& m, const std::vector<Value>& inputs) {
  RunError error;
  auto pm = rt.prepare({}, m, &error);
  if (!pm) return error;
  const RunResult r = pm->run(inputs);
  EXPECT_FALSE(r.ok) << "ONNX Runtime ran the model";
  return r.error;
}

// The error is decided by the rule `id` and carries its kind.
void decided_by(const RunError& error, const std::string& id) {
  const auto rule = onnxruntime_error_rule(error.message, std::nullopt, OrtBuild::native);
  ASSERT_TRUE(rule) << "no rule matches ONNX Runtime's message: " << error.message;
  EXPECT_EQ(rule->id, id) << error.message;
  EXPECT_EQ(error.kind, rule->kind) << error.message;
}

onnx::ModelProto identity_model(int64_t opset, int64_t ir_version) {
  onnx::GraphProto g;
  g.set_name("identity");
  *g.add_node() = model::node("Identity", {"X"}, {"Y"});
  *g.add_input() = model::value_info("X", tensor_type(DataType::float32));
  *g.add_output() = model::value_info("Y", tensor_type(DataType::float32));
  return model::make_model(std::move(g), opset, "", ir_version);
}

Tensor floats(std::vector<int64_t> dims) { return make_tensor(DataType::float32, dims); }

// ORT registers SplitToSequence for bool, float, double, float16, int32, int64 and string only.
TEST(OrtErrors, AMissingKernelIsNotSupported) {
  REQUIRE_ORT_LIBRARY(rt);
  auto m = single_node("SplitToSequence", {{"X", tensor_type(DataType::int8)}},
                       {{"S", seq_type(DataType::int8)}});
  decided_by(error_of(*rt, m, {make_tensor(DataType::int8, {3})}), "no_kernel");
}

// The CPU build has no complex128 type at all.
TEST(OrtErrors, AnUnregisteredTypeIsNotSupported) {
  REQUIRE_ORT_LIBRARY(rt);
  auto m = single_node("SequenceConstruct", {{"X", tensor_type(DataType::complex128)}},
                       {{"S", seq_type(DataType::complex128)}});
  decided_by(error_of(*rt, m, {make_tensor(DataType::complex128, {2})}), "unregistered_type");
}

// Opset 99 and IR version 99 are newer than any release.
TEST(OrtErrors, AnOpsetOrIrVersionNewerThanTheReleaseIsNotSupported) {
  REQUIRE_ORT_LIBRARY(rt);
  decided_by(error_of(*rt, identity_model(99, 8), {floats({3})}), "opset_newer");
  decided_by(error_of(*rt, identity_model(17, 99), {floats({3})}), "ir_version_newer");
}

// Bytes that are no ModelProto (through the optimizer, which hands ONNX Runtime bytes as given).
TEST(OrtErrors, BytesThatAreNoModelAreNotSupported) {
  REQUIRE_ORT_LIBRARY(rt);
  std::string version, optimized;
  OrtOptimize optimize = make_onnxruntime_optimizer(default_onnxruntime_library(),
                                                    OrtGraphOptimization::all, &version);
  RunError error;
  ASSERT_FALSE(optimize(std::string("\x08\xff\xff\xff garbage", 12), &optimized, &error));
  decided_by(error, "unreadable");
}

// SequenceErase with no position on an empty sequence: ORT computes the last index, -1, in
// SafeInt<size_t> arithmetic, which traps ("Integer overflow").
TEST(OrtErrors, ASafeIntTrapIsInternal) {
  REQUIRE_ORT_LIBRARY(rt);
  onnx::GraphProto g;
  g.set_name("erase_empty");
  auto empty = model::node("SequenceEmpty", {}, {"E"});
  *empty.add_attribute() = model::int_attribute("dtype", 1);
  *g.add_node() = empty;
  *g.add_node() = model::node("SequenceErase", {"E"}, {"S"});
  *g.add_input() = model::value_info("X", tensor_type(DataType::float32));
  *g.add_output() = model::value_info("S", seq_type(DataType::float32));
  decided_by(error_of(*rt, model::make_model(std::move(g), 17, "", 8), {floats({3})}), "safeint");
}

// An invariant of ORT's framework (include/onnxruntime/core/framework): the size check of
// Tensor::Reshape, which SplitToSequence-24 breaks on a scalar split with keepdims=0 when the
// split is not 1. (An allocation its arena cannot make, the other invariant the rule names, is
// met through onnxruntime-node in onnxruntime_errors_test.py: under AddressSanitizer the
// allocation would stop the test program itself.)
TEST(OrtErrors, AFrameworkInvariantIsInternal) {
  REQUIRE_ORT_LIBRARY(rt);
  onnx::GraphProto g;
  g.set_name("split_scalar");
  auto split = model::node("SplitToSequence", {"X", "split"}, {"S"});
  *split.add_attribute() = model::int_attribute("keepdims", 0);
  *g.add_node() = split;
  *g.add_input() = model::value_info("X", tensor_type(DataType::bool_));
  *g.add_input() = model::value_info("split", tensor_type(DataType::int64));
  *g.add_output() = model::value_info("S", seq_type(DataType::bool_));
  decided_by(
      error_of(*rt, model::make_model(std::move(g), 24),
               {make_tensor(DataType::bool_, {5}), Tensor::from_values<DataType::int64>({}, {2})}),
      "framework_invariant");
}

// An operator no domain registers fails graph resolution, a check of the model: no rule on
// messages matches it, and its code makes it invalid_input (rule check).
TEST(OrtErrors, AFailedCheckIsInvalidInputByItsCode) {
  REQUIRE_ORT_LIBRARY(rt);
  auto m = single_node("NoSuchOperator", {{"X", tensor_type(DataType::float32)}},
                       {{"Y", tensor_type(DataType::float32)}});
  const RunError error = error_of(*rt, m, {floats({3})});
  EXPECT_FALSE(onnxruntime_error_rule(error.message, std::nullopt, OrtBuild::native))
      << error.message;
  EXPECT_EQ(error.kind, RunError::Kind::invalid_input) << error.message;
  // An out-of-range position: ORT's check in SequenceAt, a code and no marker again.
  auto at = single_node("SequenceAt",
                        {{"S", seq_type(DataType::float32)}, {"i", tensor_type(DataType::int64)}},
                        {{"T", tensor_type(DataType::float32)}});
  const RunError range = error_of(*rt, at, {Sequence(DataType::float32, {floats({2})}), i64(1)});
  EXPECT_FALSE(onnxruntime_error_rule(range.message, std::nullopt, OrtBuild::native))
      << range.message;
  EXPECT_EQ(range.kind, RunError::Kind::invalid_input) << range.message;
}

// How the table decides: a rule on the message before a rule on the code, a rule of one build
// not applied to the other, internal when no rule matches.
TEST(OrtErrors, TheMessageDecidesBeforeTheCodeAndEachBuildHasItsRules) {
  // A marker of a fault in a message whose code is a check's: the fault.
  EXPECT_EQ(onnxruntime_error_kind("safeint.h:17 Integer overflow", 1, OrtBuild::native),
            RunError::Kind::internal);
  // The code of a missing kernel (NOT_IMPLEMENTED, 9) with the words of a missing type: the type.
  EXPECT_EQ(onnxruntime_error_rule("tensor(complex128) is not currently registered or supported", 9,
                                   OrtBuild::web)
                ->id,
            "unregistered_type");
  // RUNTIME_EXCEPTION (6): ORT's own exception natively, a failed check in the WebAssembly build.
  EXPECT_EQ(onnxruntime_error_kind("No Op registered for X", 6, OrtBuild::native),
            RunError::Kind::internal);
  EXPECT_EQ(onnxruntime_error_kind("No Op registered for X", 6, OrtBuild::web),
            RunError::Kind::invalid_input);
  // A WebAssembly trap's words are a fault only in the WebAssembly build.
  EXPECT_EQ(onnxruntime_error_rule("RuntimeError: unreachable", std::nullopt, OrtBuild::native),
            std::nullopt);
  EXPECT_EQ(onnxruntime_error_kind("RuntimeError: unreachable", std::nullopt, OrtBuild::web),
            RunError::Kind::internal);
  EXPECT_EQ(onnxruntime_error_kind("anything", std::nullopt, OrtBuild::native),
            RunError::Kind::internal);
}

}  // namespace
}  // namespace seqconf::testing::ort_errors
