// Static checks: the sandbox gives what the in-process checks give, turns a crash of ONNX's own
// library into a finding, and the checks do not apply to models newer than the library.
#include <gtest/gtest.h>

#include "cases/case.h"
#include "harness/static_checks.h"
#include "tests/support/interpreter_model_util.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kOnnxCrashes = SEQCONF_SOURCE_DIR "/fixtures/onnx_crashes";

// SplitToSequence(x float[3]) with keepdims 0: three scalar chunks.
onnx::ModelProto split_model() {
  return model(11,
               graph("split", {node("SplitToSequence", {"x"}, {"s"}, {int_attr("keepdims", 0)})},
                     {{"x", model::tensor_type(DataType::float32, {3})}},
                     {{"s", seq_type(DataType::float32)}}));
}

TEST(StaticChecks, SandboxAgreesWithInProcessChecks) {
  const onnx::ModelProto m = split_model();
  const std::vector<Value> expected = {
      Sequence(DataType::float32, {Tensor::from_values<DataType::float32>({}, {1.f}),
                                   Tensor::from_values<DataType::float32>({}, {2.f}),
                                   Tensor::from_values<DataType::float32>({}, {3.f})})};
  const StaticCheck here = check_statically(m, expected);
  StaticCheckSandbox sandbox;
  const StaticCheck there = sandbox.check(m, expected);
  EXPECT_EQ(there.checker_ok, here.checker_ok);
  EXPECT_EQ(there.inference_ok, here.inference_ok);
  EXPECT_EQ(there.inferred, here.inferred);
  EXPECT_EQ(there.contradictions, here.contradictions);
  EXPECT_TRUE(there.crashes.empty());
  EXPECT_FALSE(here.inferred.empty());
}

TEST(StaticChecks, ACrashOfOnnxShapeInferenceIsAFindingAndTheSandboxGoesOn) {
  const onnx::ModelProto m = read_model(kOnnxCrashes / "split_zero_initializer" / "model.onnx");
  StaticCheckSandbox sandbox;
  const StaticCheck r = sandbox.check(m, {});
  ASSERT_EQ(r.crashes.size(), 1u);
  EXPECT_EQ(r.crashes[0].check, "shape_inference_crash");
  EXPECT_NE(r.crashes[0].message.find("SIGFPE"), std::string::npos) << r.crashes[0].message;
  EXPECT_NE(r.crashes[0].message.find("ONNX " + onnx_version()), std::string::npos);
  // A crash is a finding even for a case that must be rejected.
  const auto findings = static_findings(r, /*must_reject=*/true);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "shape_inference_crash");
  // The next model is checked by a new worker.
  const StaticCheck next = sandbox.check(split_model(), {});
  EXPECT_TRUE(next.crashes.empty());
  EXPECT_TRUE(next.checker_ok);
  EXPECT_TRUE(next.inference_ok);
}

TEST(StaticChecks, DoNotApplyToModelsNewerThanTheOnnxLibrary) {
  onnx::ModelProto m = split_model();
  EXPECT_EQ(static_checks_not_applicable(m), "");
  m.set_ir_version(12);
  m.mutable_opset_import(0)->set_version(24);
  const std::string why = static_checks_not_applicable(m);
  EXPECT_NE(why.find("IR version 12, opset 24"), std::string::npos) << why;
  EXPECT_NE(why.find("ONNX " + onnx_version()), std::string::npos) << why;
}

}  // namespace
}  // namespace seqconf::testing
