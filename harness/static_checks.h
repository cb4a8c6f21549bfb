// Static checks of a case's model with ONNX's own tools: onnx::checker::check_model and
// onnx::shape_inference::InferShapes. Where inference contradicts the expected outputs (or
// fails), that is a StaticFinding: evidence about the spec's type/shape functions or the fixture.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "cases/case.h"
#include "harness/outcome.h"
#include "reference/value.h"
#include "runtimes/isolated.h"

namespace seqconf {

// What ONNX's own tools say of a model: whether onnx::checker::check_model and (strict)
// InferShapes accept it (InferShapes first with the model's declared types, which with the
// checker is onnx.checker.check_model(full_check=True), then from scratch), the output types
// inferred from scratch (the declared output types are removed first), and where they contradict
// the expected outputs.
struct StaticCheck {
  bool checker_ok = true;
  std::string checker_message;
  bool inference_ok = true;
  std::string inference_message;
  std::vector<std::string> inferred;        // "<output>: <inferred type>", per graph output
  std::vector<std::string> contradictions;  // "output K '<name>': inferred T, but ..."
  // Stages that crashed or hung in the sandbox: check "checker_crash", "checker_timeout",
  // "shape_inference_crash" or "shape_inference_timeout", naming the signal and ONNX's version.
  std::vector<StaticFinding> crashes;
};
// In this process: a model that crashes ONNX's library crashes the caller.
StaticCheck check_statically(const onnx::ModelProto& model,
                             const std::vector<Value>& expected_outputs);

// The same in a worker process (runtimes/isolated.h: worker kind "static-checks"), reused
// across models and started again after a crash or a hang, so that a model on which ONNX's checker
// or shape inference crashes (a constant scalar split of 0 divides by zero in ONNX 1.12's
// SplitToSequence inference) becomes a finding and the run goes on. One sandbox serves one thread
// at a time.
class StaticCheckSandbox {
 public:
  explicit StaticCheckSandbox(int timeout_ms = 60000);
  ~StaticCheckSandbox();
  StaticCheck check(const onnx::ModelProto& model, const std::vector<Value>& expected_outputs);
  // check() in two halves: send() hands the model to the worker and returns, so that the caller
  // can work while the worker checks; receive() waits for the result. One check at a time.
  void send(const onnx::ModelProto& model);
  StaticCheck receive(const std::vector<Value>& expected_outputs);

 private:
  std::unique_ptr<WorkerProcess> worker_;
  std::string model_bytes_;  // of the check under way, for the stage-by-stage retry
  bool pending_ = false;
};

// The version of the ONNX library the suite was built with ("1.12.0").
std::string onnx_version();
// Why the static checks do not apply to this model (its IR version or default-domain opset is
// newer than the ONNX library reads), or empty when they do.
std::string static_checks_not_applicable(const onnx::ModelProto& model);

// The findings of a check: crashes and hangs of ONNX's library always; the checker's or
// inference's rejection unless the case must be rejected (then it agrees with the case); inferred
// types that contradict the expected outputs.
std::vector<StaticFinding> static_findings(const StaticCheck& check, bool must_reject = false);

// The static checks of one loaded case, as a run makes them (run_case, and the benchmark of the
// checks alone): its model checked against its first data set's expected outputs, in the sandbox
// when one is given, else in this process. In the sandbox they start at construction and run in
// the worker's process while the caller goes on (run_case prepares and runs the case meanwhile);
// findings() waits for them. When they do not apply to the model, not_applicable() says why and
// nothing is checked. The case must outlive this object.
class CaseStaticChecks {
 public:
  CaseStaticChecks(const LoadedCase& lc, bool must_reject, StaticCheckSandbox* sandbox);
  ~CaseStaticChecks();
  CaseStaticChecks(const CaseStaticChecks&) = delete;
  CaseStaticChecks& operator=(const CaseStaticChecks&) = delete;
  const std::string& not_applicable() const { return not_applicable_; }
  // Once.
  std::vector<StaticFinding> findings();

 private:
  const LoadedCase& lc_;
  bool must_reject_;
  StaticCheckSandbox* sandbox_;
  std::string not_applicable_;
  bool pending_ = false;
};

// CaseStaticChecks, waited for at once.
std::vector<StaticFinding> check_case_statically(const LoadedCase& lc, bool must_reject,
                                                 StaticCheckSandbox* sandbox,
                                                 std::string* not_applicable);

}  // namespace seqconf
