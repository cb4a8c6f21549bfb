// Seeded defects of SequenceErase. The spec: "position: Position of the tensor in the sequence.
// Negative value means counting positions from the back. Accepted range in [-n, n - 1], where n
// is the number of tensors in 'input_sequence'. It is an error if any of the index values are
// out of bounds. It must be a scalar(tensor of empty shape)." and "It is optional and default is
// to erase the last tensor from 'input_sequence'."
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

bool erase(const interp::NodeCall& c) { return is_on_sequence(c, "SequenceErase"); }

}  // namespace

std::vector<Defect> sequence_erase_defects() {
  std::vector<Defect> d;
  d.push_back({"erase.default_erases_first",
               "SequenceErase",
               "without a position, the first tensor is erased instead of the last",
               "a default position of 0, as a kernel reading an absent input as zero gives",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!erase(c) || (c.inputs.size() > 1 && c.inputs[1]) || sequence_length(c) == 0)
                   return std::nullopt;
                 return c.reference(with_input(c, 1, scalar(0)));
               }}});
  d.push_back({"erase.out_of_range_erases_last",
               "SequenceErase",
               "an out-of-range position erases the last tensor instead of being rejected",
               "kernels that clamp the position into range",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 1);
                 if (!erase(c) || !p || sequence_length(c) == 0 ||
                     (*p >= -sequence_length(c) && *p < sequence_length(c)))
                   return std::nullopt;
                 return c.reference(with_input(c, 1, scalar(sequence_length(c) - 1)));
               }}});
  return d;
}

}  // namespace seqconf::seeded
