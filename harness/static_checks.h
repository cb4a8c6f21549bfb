// Static checks of a case's model with ONNX's own tools: onnx::checker::check_model and
// onnx::shape_inference::InferShapes. Where inference contradicts the expected outputs (or
// fails), that is a StaticFinding: evidence about the spec's type/shape functions or the fixture.
#pragma once

#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "harness/outcome.h"
#include "reference/value.h"

namespace seqconf {

// What ONNX's own tools say of a model: whether onnx::checker::check_model and (strict)
// InferShapes accept it, the output types inferred from scratch (the declared output types are
// removed first), and where they contradict the expected outputs.
struct StaticCheck {
  bool checker_ok = true;
  std::string checker_message;
  bool inference_ok = true;
  std::string inference_message;
  std::vector<std::string> inferred;        // "<output>: <inferred type>", per graph output
  std::vector<std::string> contradictions;  // "output K '<name>': inferred T, but ..."
};
StaticCheck check_statically(const onnx::ModelProto& model,
                             const std::vector<Value>& expected_outputs);

// expected_outputs: one data set's outputs (may be empty: then only the checker and the
// inference itself are checked). must_reject: the case expects a rejection, so the checker or
// inference rejecting the model agrees with it and is no finding.
std::vector<StaticFinding> static_findings(const onnx::ModelProto& model,
                                           const std::vector<Value>& expected_outputs,
                                           bool must_reject = false);

}  // namespace seqconf
