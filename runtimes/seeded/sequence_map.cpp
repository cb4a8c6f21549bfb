// Seeded defects of SequenceMap. The spec: "The length of the first input sequence will
// determine the number of samples in the outputs. Any other sequence inputs should have the
// same number of samples." "For each i-th element in the output, a sample will be extracted
// from the input sequence(s) at the i-th position and the sub-graph will be applied to it." "The
// outputs will contain the outputs of the sub-graph for each sample"; out_sequence's element
// types are those of the body's outputs, with or without samples.
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

std::vector<Defect> sequence_map_defects() {
  std::vector<Defect> d;
  d.push_back({"map.shorter_read_cyclically",
               "SequenceMap",
               "an additional sequence shorter than the first is read cyclically (sample i at "
               "position i modulo its length) instead of being rejected",
               "kernels that wrap the sample index into each sequence's range instead of "
               "checking it",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is_on_sequence(c, "SequenceMap")) return std::nullopt;
                 const size_t n = c.inputs[0]->sequence().size();
                 std::vector<std::optional<Value>> in = c.inputs;
                 bool wrapped = false;
                 for (size_t k = 1; k < in.size(); ++k) {
                   // An empty sequence has no position to wrap to: left to the reference.
                   if (!in[k] || !in[k]->is_sequence()) continue;
                   const std::vector<Tensor>& ts = in[k]->sequence().tensors();
                   if (ts.empty() || ts.size() >= n) continue;
                   std::vector<Tensor> cycled;
                   for (size_t i = 0; i < n; ++i) cycled.push_back(ts[i % ts.size()]);
                   in[k] = Sequence(in[k]->sequence().elem_type(), std::move(cycled));
                   wrapped = true;
                 }
                 if (!wrapped) return std::nullopt;
                 return c.reference(in);
               }}});
  d.push_back({"map.empty_output_loses_type",
               "SequenceMap",
               "an empty input sequence gives empty output sequences of float, whatever the "
               "body's output types",
               "kernels that create the outputs from the first sample's results",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is_on_sequence(c, "SequenceMap") || sequence_length(c) != 0)
                   return std::nullopt;
                 std::vector<Value> out = c.reference(c.inputs);
                 for (Value& v : out) v = Sequence(DataType::float32);
                 return out;
               }}});
  return d;
}

}  // namespace seqconf::seeded
