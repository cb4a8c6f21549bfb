// What happened when one case ran on one runtime. Cases -> runtime -> Outcome -> report.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reference/context.h"

namespace seqconf {

enum class Status {
  pass,
  fail,           // wrong result, or accepted an input that must be rejected
  error,          // rejected a valid case
  not_supported,  // the runtime lacks the op, version or type
  crash,          // the runtime died (signal) while running the case
  timeout,        // the runtime did not answer in time
  skipped,        // not run (filtered, or the runtime is unavailable)
};
std::string_view status_name(Status s);

// A static check's disagreement with a case: onnx::checker rejecting the model, or ONNX shape
// inference inferring an output type/shape that the expected output contradicts.
struct StaticFinding {
  std::string check;    // "checker" | "shape_inference"
  std::string message;  // names the output and both types/shapes
};

struct Outcome {
  std::string case_id;
  std::string source;  // onnx-backend | corpus | fuzz
  std::string op;      // the operator the case is about ("model" for multi-op fixtures)
  std::string dtype;   // element type the case is about, or empty
  Status status = Status::skipped;
  // For fail: value_mismatch | shape_mismatch | dtype_mismatch | length_mismatch |
  // kind_mismatch | output_count_mismatch | accepted_invalid | wrong_error_code.
  // For error / not_supported: the runtime's error kind. Empty for pass.
  std::string reason;
  std::string message;   // one line, names the output, element, expected and actual
  std::string expected;  // short summary of the expectation
  std::string actual;    // short summary of what the runtime gave
  double duration_ms = 0;
  std::vector<Ambiguity> ambiguities;   // spec ambiguities the case passed through
  std::vector<StaticFinding> findings;  // static checks (independent of the runtime)
};

}  // namespace seqconf
