// Graph contexts: where in a model the operator under test sits and where its operands come
// from. A case of a catalog is written once, in the context `inputs` (the node reads graph
// inputs); in_context re-expresses it in another context. The expected outputs and error codes
// stay those derived from the parameters: every context computes the same values, and the few
// that change the graph outputs' form (a Loop's scan output, a SequenceMap's output sequence)
// say how, by index arithmetic on the expected values.
//
// ID components appended after the operator's own: "/context=<name>" and, in loop_body,
// "/trips=<iterations>".
//
//   inputs             every operand is a graph input (fed from test_data_set_0).
//   initializers       every tensor operand (position, split, the inserted tensor,
//                      SplitToSequence's input, SequenceMap's tensor and outer-scope values) is an
//                      initializer; sequences stay graph inputs.
//   constant_nodes     the same tensors come from Constant nodes.
//   all_constant       no graph inputs: tensors are initializers, sequences are built by
//                      SequenceConstruct from initializers (SequenceEmpty when empty), so the
//                      whole graph may be folded.
//   if_branch          the node sits in an If's then_branch (a copy in else_branch), reading its
//                      operands from the outer scope; the condition is a graph input fed true.
//   loop_body          the node sits in a Loop body; trip count a graph input. trips=1: the
//                      operator's sequence input is loop-carried when its output has the same
//                      type (SequenceErase, SequenceInsert), otherwise as with trips=3.
//                      trips=3: each sequence output is loop-carried (initial value from
//                      SequenceEmpty) and overwritten by every iteration, tensor outputs are scan
//                      outputs (the expected tensor stacked once per iteration).
//   sequence_map_body  the node sits in a SequenceMap body run over a one-element sequence,
//                      its tensor operands passed as SequenceMap inputs and its sequences read from
//                      the outer scope (operators with one tensor output: SequenceAt,
//                      ConcatFromSequence, SequenceLength); the output
//                      is the one-element sequence of the expected tensor.
//   chained            every sequence operand comes from SequenceInsert then SequenceErase at -1
//                      (which give the sequence back), and every sequence output goes through the
//                      same pair before it leaves the graph.
//
// Opsets: the lowest at which the context is valid: If and Loop carry sequences from opset 13
// (V of If-13 and Loop-13 adds seq(tensor)); SequenceMap exists from opset 17.
#pragma once

#include <string>
#include <vector>

#include "generators/catalog/catalog.h"

namespace seqconf::catalog {

// The context names in the order the corpus lists them.
const std::vector<std::string>& context_names();

struct ContextVariant {
  std::string context;
  int trips = 0;  // loop_body only: 1 or 3
  std::string label() const;
};

// The contexts (other than inputs) a case can be written in.
std::vector<ContextVariant> applicable_contexts(const CatalogCase& c);

// The case re-expressed in a context: ID components, opset, expected outputs, the graph inputs
// the context adds (condition, trip count).
CatalogCase in_context(const CatalogCase& c, const ContextVariant& v);

// The same case with its omitted trailing optional input given as an empty name ("" means
// absent: ONNX IR, "an empty string ... indicates an optional input that is not provided"),
// when the operator's node omits one (SequenceErase and SequenceInsert position,
// SplitToSequence split), for one element type per class (float, int64, string);
// std::nullopt otherwise.
std::optional<CatalogCase> with_empty_name(const CatalogCase& c);

// The corpus: every base case in the context inputs, and in other contexts sampled over the
// element types. Cases that differ only in their element type form a group. A must-reject case
// is also written in initializers and all_constant where they apply, filled to two more
// contexts. A group's valid cases are written in every context that applies, each context with
// up to three of the group's element types, taken in turn (the group's rotation, advanced per
// group, starts the turn), so each context receives every type over the groups. Groups of
// SplitToSequence-24 and bfloat16 cases turn a rotation of their own. bfloat16 cases are not
// written in all_constant, loop_body or chained, whose SequenceConstruct, SequenceEmpty,
// SequenceInsert and SequenceErase do not take it.
std::vector<CatalogCase> in_sampled_contexts(const std::vector<CatalogCase>& base);

// The model of a case in its context.
onnx::ModelProto build_context_model(const CatalogCase& c);

// The values fed to the model's graph inputs, in order.
std::vector<GraphInput> fed_inputs(const CatalogCase& c);

}  // namespace seqconf::catalog
