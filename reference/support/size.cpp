// Size-1, 13, 19, 21, 23, 24: "Takes a tensor as input and outputs a int64 scalar that equals to
// the total number of elements of the input tensor."
#include "reference/support/body_ops.h"

namespace seqconf::support {

Tensor Size(const Tensor& data) {
  return Tensor::from_values<DataType::int64>({}, {static_cast<int64_t>(data.element_count())});
}

}  // namespace seqconf::support
