// SequenceLength-11
// "Produces a scalar(tensor of empty shape) containing the number of tensors in
//  'input_sequence'."
// Type constraint I: "Constrain output to integral tensor. It must be a scalar(tensor of empty
//  shape)." (tensor(int64))
#include "reference/ops/ops.h"

namespace seqconf::ops {

// SequenceLength-11 (clause SequenceLength.summary).
Tensor SequenceLength(const Sequence& s) {
  // SequenceLength.int64: "Constrain output to integral tensor. It must be a scalar(tensor of
  // empty shape)." (int64, shape [])
  return Tensor::from_values<DataType::int64>({}, {static_cast<int64_t>(s.size())});
}

}  // namespace seqconf::ops
