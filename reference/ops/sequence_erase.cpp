// SequenceErase-11
// "Outputs a tensor sequence that removes the tensor at 'position' from 'input_sequence'.
//  Accepted range for 'position' is in `[-n, n - 1]`, where `n` is the number of tensors in
//  'input_sequence'. Negative value means counting positions from the back.
//  'position' is optional, by default it erases the last tensor from 'input_sequence'."
#include "reference/ops/ops.h"

namespace seqconf::ops {

Sequence SequenceErase(const Sequence& input_sequence, const std::optional<Tensor>& position,
                       Context& ctx) {
  // Clause position.any_tensor_type (type constraint S).
  check_any_tensor_type(
      "SequenceErase", [&] { return "input_sequence is " + input_sequence.describe(); },
      input_sequence.elem_type(), "position.any_tensor_type");
  const size_t n = input_sequence.size();
  size_t i;
  if (position) {
    i = normalize_position("SequenceErase", *position, n, /*accept_n=*/false, ctx);
  } else {
    // Clause SequenceErase.position_default: the last of none does not exist, and [-0, -1]
    // holds no position.
    if (n == 0)
      throw Error(ErrorCode::position_out_of_range,
                  "SequenceErase: the sequence is empty, so the default position (the last "
                  "tensor) does not exist; accepted range [-0, -1] is empty");
    i = n - 1;
  }
  return input_sequence.erased(i);
}

}  // namespace seqconf::ops
