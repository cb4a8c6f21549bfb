// Seeded defects of SequenceLength. The spec: "Produces a scalar(tensor of empty shape)
// containing the number of tensors in 'input_sequence'."
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

std::vector<Defect> sequence_length_defects() {
  std::vector<Defect> d;
  d.push_back({"length.shape_one",
               "SequenceLength",
               "the length is a tensor of shape [1] instead of a scalar",
               "runtimes that hold every integer result as a 1-D tensor",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!is_on_sequence(c, "SequenceLength")) return std::nullopt;
                 return std::vector<Value>{
                     Value(Tensor::from_values<DataType::int64>({1}, {sequence_length(c)}))};
               }}});
  return d;
}

}  // namespace seqconf::seeded
