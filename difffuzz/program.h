// Random programs for differential fuzzing: a chain of sequence operators over one "current"
// sequence, with side outputs, as one ONNX model plus its input values.
//
//   source:  a graph input sequence | SequenceEmpty (float by its default dtype) |
//            SequenceConstruct(tensors)
//   steps:   SequenceInsert / SequenceErase replace the current sequence;
//            SequenceAt, SequenceLength, ConcatFromSequence, SplitToSequence (of its own input
//            tensor) and SequenceMap (over the current sequence) add a graph output.
//   output:  every sequence SequenceInsert / SequenceErase make and every side output, in node
//            order (the first output that differs names the first node that went wrong).
//   tensors: every tensor argument (SequenceConstruct's tensors, inserted tensors, positions,
//            splits, SplitToSequence's input, SequenceMap's extra tensor) is a graph input, or
//            an initializer, and the whole chain may run in an If's branch or a Loop's body
//            (Placement).
//
// Arguments are drawn valid most of the time and invalid on purpose otherwise (positions out of
// range, a tensor of another element type, bad splits, axes out of range, SequenceMap inputs of
// different lengths). Whether a program is valid is decided by the reference, not here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>
#include <rapidcheck.h>

#include "generators/gen_body.h"
#include "reference/value.h"

namespace seqconf::difffuzz {

enum class SourceKind { input, empty, construct };

enum class StepKind { insert, erase, at, length, concat, split, map };

struct Step {
  StepKind kind = StepKind::length;
  std::optional<Tensor> tensor;                    // insert: the tensor; split: the input
  std::optional<Tensor> position;                  // insert, erase, at (absent: the default)
  std::optional<Tensor> split;                     // split
  std::optional<int64_t> axis;                     // split, concat (concat always has one)
  std::optional<int64_t> keepdims;                 // split
  int64_t new_axis = 0;                            // concat
  gens::BodyKind body = gens::BodyKind::identity;  // map
  std::optional<Value> extra;  // map: the second body input (tensor or sequence)
};

// Where a program's tensor arguments live (the graph contexts of the corpus): graph inputs, or
// initializers, which a runtime may read and fold while it creates its session (ONNX's shape
// inference and constant folding see them). Sequences are graph inputs either way. if_branch:
// graph inputs, and every node in the then_branch of an If (a copy in else_branch) whose
// condition is a graph input fed true, reading them from the outer scope. loop_body: graph
// inputs, and every node in the body of a Loop that runs once (trip count and condition graph
// inputs fed 1 and true), reading them from the outer scope; each output of the chain is a
// loop-carried value whose initial value (an empty sequence or tensor of its type) is a graph
// input.
enum class Placement { inputs, initializers, if_branch, loop_body };
// "inputs" | "initializers" | "if_branch" | "loop_body": the context in finding ids and counts.
const char* placement_name(Placement p);

struct Program {
  DataType elem = DataType::float32;
  Placement tensors_as = Placement::inputs;
  SourceKind source = SourceKind::input;
  std::vector<Tensor> tensors;  // the input sequence, or SequenceConstruct's inputs
  std::vector<Step> steps;
};

// The ONNX op type a step runs.
const char* step_op(StepKind kind);

// One model (IR 8, opset 17) and its inputs in the order of the graph inputs.
struct BuiltProgram {
  std::shared_ptr<const onnx::ModelProto> model;  // shared with the runtimes that keep it
  std::vector<std::string> input_names;
  std::vector<Value> inputs;
  std::vector<std::string> output_names;
  std::vector<std::string> output_ops;  // the op type producing each graph output
  size_t node_count = 0;                // top-level nodes
  std::vector<std::string> node_ops;    // op type of each top-level node, in order
};
BuiltProgram build(const Program& p);

// Its model serialized, then each input's tensor bytes: what names a finding (its hash) and
// tells two shrink candidates apart.
std::string model_and_input_bytes(const BuiltProgram& b);

// "seq_in = input seq(tensor(float))[3]; n0 SequenceInsert(position=int64 -1) ..." one line.
std::string describe(const Program& p);

// The nodes the runtime under test supports (difffuzz/support.h probes them); the generator
// draws no other. Empty: every node with every type.
struct Support {
  // (node, element type) -> the runtime's message; node is an op type ("SplitToSequence") or
  // "SequenceMap.<body>" for a SequenceMap with that body.
  std::map<std::pair<std::string, DataType>, std::string> not_supported;
  bool allows(const std::string& node, DataType elem) const {
    return not_supported.count({node, elem}) == 0;
  }
  bool allows(StepKind kind, DataType elem) const;  // for SequenceMap: with some body
};

// A body's short name in finding ids and support keys: "identity", "add_tensor", ...
const char* body_id(gens::BodyKind k);

// The SequenceMap bodies drawn for sequences of this element type (Add's only for the types
// its body is defined for here).
std::vector<gens::BodyKind> map_bodies(DataType elem);

// The node name a step is probed under ("SequenceMap.<body>" for SequenceMap).
std::string support_node(StepKind kind, gens::BodyKind body = gens::BodyKind::identity);

// Generator of whole programs, up to max_steps steps, of the nodes `support` allows.
rc::Gen<Program> program_gen(int max_steps = 8, Support support = {});

// Generator of one step of program_gen for a sequence of `len` tensors of type elem and (mostly)
// shape elem_shape, its arguments valid unless may_be_invalid; none when the draw gives no step
// (difffuzz/mutate.h inserts such steps).
rc::Gen<std::optional<Step>> step_gen(const Support& support, DataType elem,
                                      const Shape& elem_shape, bool may_be_invalid, size_t len);

}  // namespace seqconf::difffuzz
