// SequenceInsert-11
// "Outputs a tensor sequence that inserts 'tensor' into 'input_sequence' at 'position'.
//  'tensor' must have the same data type as 'input_sequence'.
//  Accepted range for 'position' is in `[-n, n]`, where `n` is the number of tensors in
//  'input_sequence'. Negative value means counting positions from the back.
//  'position' is optional, by default it inserts 'tensor' to the back of 'input_sequence'."
#include <string>

#include "reference/ops/ops.h"

namespace seqconf::ops {

void check_insert_same_type(DataType sequence_elem, DataType tensor,
                            const std::function<std::string()>& got) {
  // Clause SequenceInsert.same_type.
  if (tensor != sequence_elem)
    throw Error(ErrorCode::element_type_mismatch, "SequenceInsert: " + got());
}

Sequence SequenceInsert(const Sequence& input_sequence, const Tensor& tensor,
                        const std::optional<Tensor>& position, Context& ctx) {
  // Clause position.any_tensor_type (type constraints S and T).
  check_any_tensor_type(
      "SequenceInsert", [&] { return "input_sequence is " + input_sequence.describe(); },
      input_sequence.elem_type(), "position.any_tensor_type");
  check_any_tensor_type(
      "SequenceInsert", [&] { return "tensor is " + tensor.describe(); }, tensor.dtype(),
      "position.any_tensor_type");
  check_insert_same_type(input_sequence.elem_type(), tensor.dtype(), [&] {
    return "tensor is " + tensor.describe() + " but input_sequence is " + input_sequence.describe();
  });
  const size_t n = input_sequence.size();
  // Clause SequenceInsert.position_default: position n.
  const size_t i =
      position ? normalize_position("SequenceInsert", *position, n, /*accept_n=*/true, ctx) : n;
  return input_sequence.inserted(i, tensor);
}

}  // namespace seqconf::ops
