// Seeded defects of SequenceAt. The spec: "position: Position of the tensor in the sequence.
// Negative value means counting positions from the back. Accepted range in [-n, n - 1], where n
// is the number of tensors in 'input_sequence'. It is an error if any of the index values are
// out of bounds. It must be a scalar(tensor of empty shape)."
#include "reference/error.h"
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

bool at(const interp::NodeCall& c) { return is_on_sequence(c, "SequenceAt"); }

}  // namespace

std::vector<Defect> sequence_at_defects() {
  std::vector<Defect> d;
  d.push_back({"at.position_of_any_shape",
               "SequenceAt",
               "a position of any shape is read as its first element instead of requiring a "
               "scalar",
               "kernels that read the position's data without checking its shape",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!at(c) || c.inputs.size() < 2 || !c.inputs[1] || !c.inputs[1]->is_tensor() ||
                     c.inputs[1]->tensor().rank() == 0)
                   return std::nullopt;
                 const auto p = first_int(c, 1);
                 if (!p) return std::nullopt;
                 return c.reference(with_input(c, 1, scalar(*p)));
               }}});
  d.push_back({"at.negative_rejected",
               "SequenceAt",
               "a negative position is rejected instead of counting from the back",
               "runtimes that implement only the non-negative positions",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 1);
                 if (!at(c) || !p || *p >= 0) return std::nullopt;
                 throw Error(ErrorCode::position_out_of_range,
                             "SequenceAt: negative position " + std::to_string(*p));
               }}});
  d.push_back({"at.negative_off_by_one",
               "SequenceAt",
               "a negative position -k reads the tensor at n - k - 1, one before the right one",
               "an off-by-one in translating negative positions, as hand-written kernels make it",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 1);
                 // Positions below -n stay the reference's to reject (and n + p cannot overflow).
                 if (!at(c) || !p || *p >= 0 || *p < -sequence_length(c) ||
                     sequence_length(c) + *p - 1 < 0)
                   return std::nullopt;
                 return c.reference(with_input(c, 1, scalar(sequence_length(c) + *p - 1)));
               }}});
  d.push_back({"at.int32_position_rejected",
               "SequenceAt",
               "an int32 position is rejected as a type error (only int64 is accepted)",
               "runtimes whose schema for SequenceAt constrains I to tensor(int64) only",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!at(c) || c.inputs.size() < 2 || !c.inputs[1] || !c.inputs[1]->is_tensor() ||
                     c.inputs[1]->tensor().dtype() != DataType::int32)
                   return std::nullopt;
                 throw Error(ErrorCode::position_type,
                             "SequenceAt: position of type int32, expected int64");
               }}});
  return d;
}

}  // namespace seqconf::seeded
