// SequenceMap run through its Loop expansion: ONNX's own context-dependent function body for
// SequenceMap-17 (OpSchema::BuildContextDependentFunction), wrapped in a model and run by the
// reference interpreter.
#pragma once

#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/value.h"

namespace seqconf::properties {

// The ModelProto whose graph is the expansion of one SequenceMap node with these inputs and
// this body; graph inputs and outputs in node order.
onnx::ModelProto sequence_map_expansion_model(const Sequence& input_sequence,
                                              const std::vector<Value>& additional_inputs,
                                              const onnx::GraphProto& body);

std::vector<Sequence> run_sequence_map_expanded(const Sequence& input_sequence,
                                                const std::vector<Value>& additional_inputs,
                                                const onnx::GraphProto& body);

}  // namespace seqconf::properties
