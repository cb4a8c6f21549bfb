// SequenceMap-17
// "Applies a sub-graph to each sample in the input sequence(s).
//  Inputs can be either tensors or sequences, with the exception of the first input which must
//  be a sequence. The length of the first input sequence will determine the number of samples
//  in the outputs. Any other sequence inputs should have the same number of samples. The number
//  of inputs and outputs, should match the one of the subgraph.
//  For each i-th element in the output, a sample will be extracted from the input sequence(s)
//  at the i-th position and the sub-graph will be applied to it.
//  The outputs will contain the outputs of the sub-graph for each sample, in the same order as
//  in the input."
#include <string>

#include "reference/ops/ops.h"
#include "reference/spec_clauses.h"

namespace seqconf::ops {

std::vector<Sequence> SequenceMap(const Sequence& input_sequence,
                                  const std::vector<Value>& additional_inputs,
                                  const SequenceMapBody& body, Context& ctx) {
  // Clause SequenceMap.sequence_types (S: input_sequence and out_sequence) and
  // SequenceMap.additional_types (V: the other inputs).
  check_any_tensor_type(
      "SequenceMap", [&] { return "input_sequence is " + input_sequence.describe(); },
      input_sequence.elem_type(), "SequenceMap.sequence_types");
  for (size_t k = 0; k < additional_inputs.size(); ++k) {
    const Value& in = additional_inputs[k];
    if (in.is_tensor() || in.is_sequence())
      check_any_tensor_type(
          "SequenceMap", [&] { return "input " + std::to_string(k + 1) + " is " + in.describe(); },
          in.is_tensor() ? in.tensor().dtype() : in.sequence().elem_type(),
          "SequenceMap.additional_types");
  }
  for (size_t j = 0; j < body.output_elem_types.size(); ++j)
    check_any_tensor_type(
        "SequenceMap",
        [&] {
          return "out_sequence " + std::to_string(j) + " is seq(tensor(" +
                 std::string(dtype_name(body.output_elem_types[j])) + "))";
        },
        body.output_elem_types[j], "SequenceMap.sequence_types");
  // Clause SequenceMap.arity.
  if (body.num_inputs != 1 + additional_inputs.size())
    throw Error(ErrorCode::body_arity_mismatch,
                "SequenceMap: the node has " + std::to_string(1 + additional_inputs.size()) +
                    " inputs but the body has " + std::to_string(body.num_inputs));
  if (body.output_elem_types.empty())
    throw Error(ErrorCode::body_arity_mismatch, "SequenceMap: the body has no outputs");
  // Clauses SequenceMap.sample_count and SequenceMap.same_samples.
  const size_t samples = input_sequence.size();
  for (size_t k = 0; k < additional_inputs.size(); ++k) {
    const Value& in = additional_inputs[k];
    if (in.is_optional())
      throw Error(ErrorCode::not_a_tensor, "SequenceMap: input " + std::to_string(k + 1) +
                                               " must be a tensor or a sequence, got " +
                                               in.describe());
    if (!in.is_sequence() || in.sequence().size() == samples) continue;
    const size_t length = in.sequence().size();
    const std::string lengths = "input 0 has " + std::to_string(samples) + " samples but input " +
                                std::to_string(k + 1) + " has " + std::to_string(length);
    // Shorter: "a sample will be extracted from the input sequence(s) at the i-th position"
    // has no tensor to extract from it at the positions past its end, under both policies.
    // Longer: "should have the same number of samples" is a recommendation; ONNX's own function
    // body for SequenceMap-17 (a Loop over the first sequence's length, SequenceAt on the
    // others) reads the first samples of a longer one. Lenient policy accepts it and records
    // the ambiguity; strict policy rejects it.
    if (length < samples || ctx.policy == Policy::strict)
      throw Error(ErrorCode::sequence_length_mismatch, "SequenceMap: " + lengths);
    ctx.note({"sequence_map_lengths", "SequenceMap",
              std::string(spec_clause("SequenceMap.same_samples").sentence),
              lengths + ": its first " + std::to_string(samples) +
                  " samples are read, the others are not used (lenient policy)"});
  }
  // One pass over the samples; each output grows by one tensor handle per sample (linear in
  // the sample count: no copy of the sequences built so far).
  std::vector<std::vector<Tensor>> outputs(body.output_elem_types.size());
  for (auto& o : outputs) o.reserve(samples);
  std::vector<Value> sample(body.num_inputs);
  for (size_t i = 0; i < samples; ++i) {
    // "a sample will be extracted from the input sequence(s) at the i-th position";
    // tensor inputs are the same for every sample.
    sample[0] = input_sequence.at(i);
    for (size_t k = 0; k < additional_inputs.size(); ++k) {
      const Value& in = additional_inputs[k];
      sample[k + 1] = in.is_sequence() ? Value(in.sequence().at(i)) : in;
    }
    std::vector<Value> result = body.run(sample);
    if (result.size() != outputs.size())
      throw Error(ErrorCode::body_arity_mismatch,
                  "SequenceMap: the body returned " + std::to_string(result.size()) +
                      " outputs, the node has " + std::to_string(outputs.size()));
    for (size_t j = 0; j < result.size(); ++j) {
      // out_sequence is "seq(tensor)": each body output must be a tensor of the declared type.
      if (!result[j].is_tensor() || result[j].tensor().dtype() != body.output_elem_types[j])
        throw Error(ErrorCode::body_output_type,
                    "SequenceMap: body output " + std::to_string(j) + " of sample " +
                        std::to_string(i) + " is " + result[j].describe() + ", expected tensor(" +
                        std::string(dtype_name(body.output_elem_types[j])) + ")");
      outputs[j].push_back(std::move(std::get<Tensor>(result[j].v)));
    }
  }
  // "The outputs will contain the outputs of the sub-graph for each sample, in the same order
  //  as in the input." No sample gives empty sequences of the body's output types.
  std::vector<Sequence> out;
  out.reserve(outputs.size());
  for (size_t j = 0; j < outputs.size(); ++j)
    out.emplace_back(body.output_elem_types[j], std::move(outputs[j]));
  return out;
}

}  // namespace seqconf::ops
