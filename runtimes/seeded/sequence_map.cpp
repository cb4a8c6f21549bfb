// Seeded defects of SequenceMap. The spec: "All input sequences must have the same length."
// and the body's outputs give the element types of the output sequences ("Note that the body
// graph's output types must match the output sequences' element types").
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

std::vector<Defect> sequence_map_defects() {
  std::vector<Defect> d;
  d.push_back({"map.lengths_unchecked",
               "SequenceMap",
               "additional sequences longer than the first are cut to its length instead of "
               "being rejected",
               "kernels that iterate over the first sequence only",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is_on_sequence(c, "SequenceMap")) return std::nullopt;
                 const size_t n = c.inputs[0]->sequence().size();
                 std::vector<std::optional<Value>> in = c.inputs;
                 bool cut = false;
                 for (size_t i = 1; i < in.size(); ++i) {
                   if (!in[i] || !in[i]->is_sequence() || in[i]->sequence().size() <= n) continue;
                   std::vector<Tensor> ts = in[i]->sequence().tensors();
                   ts.resize(n);
                   in[i] = Sequence(in[i]->sequence().elem_type(), std::move(ts));
                   cut = true;
                 }
                 if (!cut) return std::nullopt;
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
