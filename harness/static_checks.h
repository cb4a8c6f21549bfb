// Static checks of a case's model with ONNX's own tools: onnx::checker::check_model and
// onnx::shape_inference::InferShapes. Where inference contradicts the expected outputs (or
// fails), that is a StaticFinding: evidence about the spec's type/shape functions or the fixture.
#pragma once

#include <vector>

#include <onnx/onnx_pb.h>

#include "harness/outcome.h"
#include "reference/value.h"

namespace seqconf {

// expected_outputs: one data set's outputs (may be empty: then only the checker and the
// inference itself are checked). must_reject: the case expects a rejection, so the checker or
// inference rejecting the model agrees with it and is no finding.
std::vector<StaticFinding> static_findings(const onnx::ModelProto& model,
                                           const std::vector<Value>& expected_outputs,
                                           bool must_reject = false);

}  // namespace seqconf
