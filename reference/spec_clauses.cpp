#include "reference/spec_clauses.h"

#include <stdexcept>

namespace seqconf {

namespace {

std::vector<SpecClause> make_table() {
  const std::vector<std::string_view> kPositionOps = {"SequenceAt", "SequenceErase",
                                                      "SequenceInsert"};
  return {
      // Position input of SequenceAt, SequenceErase and SequenceInsert.
      {"position.negative", kPositionOps, 11,
       "Negative value means counting positions from the back."},
      {"position.out_of_bounds", kPositionOps, 11,
       "It is an error if any of the index values are out of bounds."},
      {"position.scalar", kPositionOps, 11, "It must be a scalar(tensor of empty shape)."},
      {"position.integral", kPositionOps, 11, "Constrain position to integral tensor."},
      {"position.any_tensor_type", kPositionOps, 11, "Constrain to any tensor type."},
      {"position.range",
       {"SequenceAt", "SequenceErase"},
       11,
       "Accepted range for 'position' is in `[-n, n - 1]`, where `n` is the number of tensors "
       "in 'input_sequence'."},

      // SequenceAt-11
      {"SequenceAt.summary",
       {"SequenceAt"},
       11,
       "Outputs a tensor copy from the tensor at 'position' in 'input_sequence'."},

      // SequenceErase-11
      {"SequenceErase.summary",
       {"SequenceErase"},
       11,
       "Outputs a tensor sequence that removes the tensor at 'position' from 'input_sequence'."},
      {"SequenceErase.position_default",
       {"SequenceErase"},
       11,
       "'position' is optional, by default it erases the last tensor from 'input_sequence'."},

      // SequenceInsert-11
      {"SequenceInsert.summary",
       {"SequenceInsert"},
       11,
       "Outputs a tensor sequence that inserts 'tensor' into 'input_sequence' at 'position'."},
      {"SequenceInsert.same_type",
       {"SequenceInsert"},
       11,
       "'tensor' must have the same data type as 'input_sequence'."},
      {"SequenceInsert.position_range",
       {"SequenceInsert"},
       11,
       "Accepted range for 'position' is in `[-n, n]`, where `n` is the number of tensors in "
       "'input_sequence'."},
      {"SequenceInsert.position_default",
       {"SequenceInsert"},
       11,
       "'position' is optional, by default it inserts 'tensor' to the back of "
       "'input_sequence'."},
      {"SequenceInsert.output_sequence",
       {"SequenceInsert"},
       11,
       "Output sequence that contains the inserted tensor at given position."},

      // SequenceMap-17
      {"SequenceMap.summary",
       {"SequenceMap"},
       17,
       "Applies a sub-graph to each sample in the input sequence(s)."},
      {"SequenceMap.inputs",
       {"SequenceMap"},
       17,
       "Inputs can be either tensors or sequences, with the exception of the first input which "
       "must be a sequence."},
      {"SequenceMap.sample_count",
       {"SequenceMap"},
       17,
       "The length of the first input sequence will determine the number of samples in the "
       "outputs."},
      {"SequenceMap.same_samples",
       {"SequenceMap"},
       17,
       "Any other sequence inputs should have the same number of samples."},
      {"SequenceMap.arity",
       {"SequenceMap"},
       17,
       "The number of inputs and outputs, should match the one of the subgraph."},
      {"SequenceMap.per_sample",
       {"SequenceMap"},
       17,
       "For each i-th element in the output, a sample will be extracted from the input "
       "sequence(s) at the i-th position and the sub-graph will be applied to it."},
      {"SequenceMap.order",
       {"SequenceMap"},
       17,
       "The outputs will contain the outputs of the sub-graph for each sample, in the same "
       "order as in the input."},
      {"SequenceMap.body",
       {"SequenceMap"},
       17,
       "The graph to be run for each sample in the sequence(s)."},
      {"SequenceMap.sequence_types",
       {"SequenceMap"},
       17,
       "Constrain input types to any sequence type."},
      {"SequenceMap.additional_types",
       {"SequenceMap"},
       17,
       "Constrain to any tensor or sequence type."},

      // SplitToSequence-11
      {"SplitToSequence.summary",
       {"SplitToSequence"},
       11,
       "Split a tensor into a sequence of tensors, along the specified 'axis'."},
      {"SplitToSequence.split_lengths",
       {"SplitToSequence"},
       11,
       "Lengths of the parts can be specified using argument 'split'."},
      {"SplitToSequence.split_positive",
       {"SplitToSequence"},
       11,
       "'split' must contain only positive numbers."},
      {"SplitToSequence.split_shape",
       {"SplitToSequence"},
       11,
       "'split' is either a scalar (tensor of empty shape), or a 1-D tensor."},
      {"SplitToSequence.split_scalar",
       {"SplitToSequence"},
       11,
       "If 'split' is a scalar, then 'input' will be split into equally sized chunks(if "
       "possible)."},
      {"SplitToSequence.split_scalar_last",
       {"SplitToSequence"},
       11,
       "Last chunk will be smaller if the 'input' size along the given axis 'axis' is not "
       "divisible by 'split'."},
      {"SplitToSequence.split_list",
       {"SplitToSequence"},
       11,
       "Otherwise, the tensor is split into 'size(split)' chunks, with lengths of the parts on "
       "'axis' specified in 'split'."},
      {"SplitToSequence.split_sum",
       {"SplitToSequence"},
       11,
       "In this scenario, the sum of entries in 'split' must be equal to the dimension size of "
       "input tensor on 'axis'."},
      {"SplitToSequence.split_nonnegative", {"SplitToSequence"}, 11, "All values must be >= 0."},
      {"SplitToSequence.axis_negative",
       {"SplitToSequence"},
       11,
       "A negative value means counting dimensions from the back."},
      {"SplitToSequence.axis_range", {"SplitToSequence"}, 11, "Accepted range is [-rank, rank-1]."},
      {"SplitToSequence.keepdims", {"SplitToSequence"}, 11, "Keep the split dimension or not."},
      {"SplitToSequence.keepdims_default",
       {"SplitToSequence"},
       11,
       "Default 1, which means we keep split dimension."},
      {"SplitToSequence.keepdims_ignored",
       {"SplitToSequence"},
       11,
       "If input 'split' is specified, this attribute is ignored."},
      {"SplitToSequence.split_integral",
       {"SplitToSequence"},
       11,
       "Constrain split size to integral tensor."},
      {"SplitToSequence.input_types",
       {"SplitToSequence"},
       11,
       "Constrain input types to all tensor types."},

      // The four companion operators: graph sources and sinks of the five, and operators
      // under test themselves.
      {"SequenceEmpty.summary",
       {"SequenceEmpty"},
       11,
       "Construct an empty tensor sequence, with given data type."},
      {"SequenceEmpty.dtype_default", {"SequenceEmpty"}, 11, "The default type is 'float'."},
      {"SequenceEmpty.types", {"SequenceEmpty"}, 11, "Constrain output types to any tensor type."},
      {"SequenceConstruct.summary",
       {"SequenceConstruct"},
       11,
       "Construct a tensor sequence containing 'inputs' tensors."},
      {"SequenceConstruct.same_type",
       {"SequenceConstruct"},
       11,
       "All tensors in 'inputs' must have the same data type."},
      {"SequenceConstruct.types",
       {"SequenceConstruct"},
       11,
       "Constrain input types to any tensor type."},
      {"SequenceLength.summary",
       {"SequenceLength"},
       11,
       "Produces a scalar(tensor of empty shape) containing the number of tensors in "
       "'input_sequence'."},
      {"SequenceLength.int64",
       {"SequenceLength"},
       11,
       "Constrain output to integral tensor. It must be a scalar(tensor of empty shape)."},
      {"ConcatFromSequence.summary",
       {"ConcatFromSequence"},
       11,
       "Concatenate a sequence of tensors into a single tensor."},
      {"ConcatFromSequence.same_shape",
       {"ConcatFromSequence"},
       11,
       "All input tensors must have the same shape, except for the dimension size of the axis "
       "to concatenate on."},
      {"ConcatFromSequence.axis_range",
       {"ConcatFromSequence"},
       11,
       "Accepted range in `[-r, r - 1]`, where `r` is the rank of input tensors."},
      {"ConcatFromSequence.new_axis_stack",
       {"ConcatFromSequence"},
       11,
       "When 'new_axis' is 1, the behavior is similar to numpy.stack."},
      {"ConcatFromSequence.concatenate",
       {"ConcatFromSequence"},
       11,
       "By default 'new_axis' is 0, the behavior is similar to numpy.concatenate."},
      {"ConcatFromSequence.new_axis_range",
       {"ConcatFromSequence"},
       11,
       "When `new_axis` is 1, accepted range is `[-r - 1, r]`."},
      {"ConcatFromSequence.axis_required", {"ConcatFromSequence"}, 11, "Which axis to concat on."},

      // Operators around the sequences that exported models depend on (exporter departures,
      // expectations/torch-onnx.json). Loop-11's loop-carried values V are tensors only; Loop-13
      // widens V to "All Tensor and Sequence types".
      {"Loop.v_types", {"Loop"}, 11, "All Tensor types"},
      // Loop-11's body: scan outputs are stacked, so every iteration's must have one shape.
      {"Loop.scan_output_shapes",
       {"Loop"},
       11,
       "It is an error if the dimensions or data type of these scan_outputs change across loop "
       "iterations."},

      // The graph machinery the contexts stand on (the machinery probes,
      // generators/catalog/machinery.cpp). Loop-13's description, inputs and body attribute.
      {"Loop.trip_count", {"Loop"}, 13, "Iteration count specified at runtime."},
      {"Loop.skip", {"Loop"}, 13, "Pass empty string to skip."},
      {"Loop.cond_input",
       {"Loop"},
       13,
       "This is an input to the op that determines whether to run the first iteration and also a "
       "loop-carried dependency for the body graph."},
      {"Loop.cond_output",
       {"Loop"},
       13,
       "The body graph must yield a value for the condition variable, whether this input is "
       "provided or not."},
      {"Loop.carried",
       {"Loop"},
       13,
       "The loop operation node supplies the input value of the input variable for the first "
       "iteration, and returns the output value of the output variable produced by the final "
       "iteration."},
      {"Loop.scan_outputs",
       {"Loop"},
       13,
       "Each scan_output is created by concatenating the value of the specified output value at "
       "the end of each iteration of the loop."},
      {"Loop.enclosing_scope",
       {"Loop"},
       13,
       "Values from the enclosing scope (i.e. variable \"a\" here) are in scope and can be "
       "referenced in the inputs of the loop."},
      {"Loop.body", {"Loop"}, 13, "The graph run each iteration."},
      {"Loop.v_types_13", {"Loop"}, 13, "All Tensor and Sequence types"},
      // If-13.
      {"If.then_branch", {"If"}, 13, "Graph to run if condition is true."},
      {"If.else_branch", {"If"}, 13, "Graph to run if condition is false."},
      // Scan-16.
      {"Scan.body",
       {"Scan"},
       16,
       "It takes as input the current values of the state_variables and the current iterated "
       "element of the scan_inputs."},
      {"Scan.scan_output",
       {"Scan"},
       16,
       "The scan_output of the operation is produced by concatenating the scan_output_element "
       "values produced by the body in each iteration."},
      {"Scan.input_directions",
       {"Scan"},
       16,
       "The i-th element of the list specifies the direction to be scanned for the i-th "
       "scan_input tensor: 0 indicates forward direction and 1 indicates reverse direction."},
      {"Scan.output_axes",
       {"Scan"},
       16,
       "The scan outputs are accumulated along the specified axis."},
      {"Scan.output_directions",
       {"Scan"},
       16,
       "The i-th element of the list specifies whether the i-th scan_output should be "
       "constructed by appending or prepending a new value in each iteration: 0 indicates "
       "appending and 1 indicates prepending."},
  };
}

}  // namespace

const std::vector<SpecClause>& spec_clauses() {
  static const std::vector<SpecClause> table = make_table();
  return table;
}

const SpecClause* find_spec_clause(std::string_view id) {
  for (const SpecClause& c : spec_clauses())
    if (c.id == id) return &c;
  return nullptr;
}

const SpecClause& spec_clause(std::string_view id) {
  if (const SpecClause* c = find_spec_clause(id)) return *c;
  throw std::out_of_range("unknown spec clause: " + std::string(id));
}

std::string spec_text(std::initializer_list<std::string_view> ids) {
  std::string out;
  for (std::string_view id : ids) {
    if (!out.empty()) out += ' ';
    out += spec_clause(id).sentence;
  }
  return out;
}

SpecPassage spec_passage(std::initializer_list<std::string_view> ids) {
  SpecPassage p;
  for (std::string_view id : ids) p.clauses.emplace_back(spec_clause(id).id);
  p.text = spec_text(ids);
  return p;
}

bool spec_clause_covers(const SpecClause& clause, std::string_view op) {
  for (std::string_view o : clause.operators)
    if (o == op) return true;
  return false;
}

}  // namespace seqconf
