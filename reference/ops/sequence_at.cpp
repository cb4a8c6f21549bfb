// SequenceAt-11
// "Outputs a tensor copy from the tensor at 'position' in 'input_sequence'.
//  Accepted range for 'position' is in `[-n, n - 1]`, where `n` is the number of tensors in
//  'input_sequence'. Negative value means counting positions from the back."
#include "reference/ops/ops.h"

namespace seqconf::ops {

Tensor SequenceAt(const Sequence& input_sequence, const Tensor& position, Context& ctx) {
  // Clause position.any_tensor_type (type constraints S and T).
  check_any_tensor_type(
      "SequenceAt", [&] { return "input_sequence is " + input_sequence.describe(); },
      input_sequence.elem_type(), "position.any_tensor_type");
  const size_t i =
      normalize_position("SequenceAt", position, input_sequence.size(), /*accept_n=*/false, ctx);
  // "a tensor copy": values are immutable, so sharing the storage is indistinguishable.
  return input_sequence.at(i);
}

}  // namespace seqconf::ops
