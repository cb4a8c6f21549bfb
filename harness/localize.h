// Which node of a model a runtime's departure comes from, on the runtime's own values: the
// runtime runs a copy of the model whose intermediate values (those of the main graph's nodes,
// sequences included) are graph outputs; then each node, in order, runs alone on the reference
// (the host for the operators outside it) on the inputs the runtime itself gave that node. The
// first node whose outputs depart from what the spec gives for those inputs is the node at
// fault. A node with a body (Loop, If, Scan, SequenceMap) whose inputs are the runtime's own and
// whose outputs depart is its machinery's: the body is not lifted into models of its own, the
// machinery probes of the corpus carry that evidence.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "harness/outcome.h"
#include "reference/context.h"
#include "reference/interpreter/interpreter.h"
#include "runtimes/runtime.h"

namespace seqconf {

// The node at fault alone: a model of that one node (the original model's opsets and IR
// version, its inputs typed from the runtime's values, its body's outer names as inputs), the
// runtime's own values as its inputs, and what the spec gives for them.
struct NodeRepro {
  onnx::ModelProto model;
  std::vector<Value> inputs;
  std::vector<Value> spec_outputs;  // empty when the spec rejects the node's inputs
};

struct LocalizeOptions {
  Policy policy = Policy::lenient;
  std::shared_ptr<const interp::HostKernel> host;  // the operators outside the reference
  // How outputs are compared: the case's rule (an exported model's may allow a tolerance where
  // a node computes); empty: each node's outputs by comparison_rule of its operator.
  std::string source = "exported";
};

// Runs `model` on `runtime` with its intermediate values exposed, then each node alone on the
// reference. Never throws for what the runtime or the model does: an intermediate value the
// runtime cannot return, or a model the reference cannot run, is said in the result.
Localization localize(const onnx::ModelProto& model, const std::vector<Value>& inputs,
                      Runtime& runtime, const LocalizeOptions& options);

}  // namespace seqconf
