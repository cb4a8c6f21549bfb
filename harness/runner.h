// Runs cases on a runtime and turns what happened into Outcomes.
// Cases -> runtime -> Outcome; nothing here knows about reports.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cases/case.h"
#include "harness/outcome.h"
#include "reference/interpreter/interpreter.h"
#include "runtimes/runtime.h"

namespace seqconf {

class StaticCheckSandbox;

struct RunOptions {
  // Use the strict expectations of ambiguous corpus cases (the reference under --strict).
  bool strict = false;
  // Run onnx::checker and shape inference on every model (Outcome::findings).
  bool static_checks = true;
  // The largest tensor, in bytes, read or computed while the case runs (--max-tensor-bytes):
  // run_case installs it on its thread (reference/limits.h); 0: the default, 1 GiB.
  size_t max_tensor_bytes = 0;
  // Runs the nodes the reference does not implement when the reference gives an exported
  // model's meaning under the spec (runtimes/host.h); none: such a model is not judged.
  std::shared_ptr<const interp::HostKernel> host;
  // An exported model (or a user's model) on which the runtime gives other values than the
  // spec: find the node the departure comes from on the runtime's own values
  // (harness/localize.h, Outcome::localization). It runs the model once more on the runtime.
  bool localize = true;
};

// The status and the reason a runtime's error gives a case that the runtime should have run
// (a must-reject case is judged by run_case itself).
Status status_of(RunError::Kind kind);
Reason reason_of(RunError::Kind kind);

// Prepares the case's model, runs every data set and compares, or, for a must-reject case,
// expects a rejection: accepted -> fail/accepted_invalid; the reference rejecting with another
// code -> fail/wrong_error_code; any rejection by a runtime without the reference's codes ->
// pass. A case that cannot be loaded -> status error, reason load_error, naming the file.
// The static checks run in `sandbox` when one is given (a crash of ONNX's library there is a
// finding), else in this process.
Outcome run_case(const Case& c, Runtime& runtime, const RunOptions& options = {},
                 StaticCheckSandbox* sandbox = nullptr);

}  // namespace seqconf
