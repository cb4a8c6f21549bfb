// Greater-7, 9, 13: "Returns the tensor resulted from performing the `greater` logical operation
// elementwise on the input tensors `A` and `B` (with Numpy-style broadcasting support)."
#include "reference/support/body_ops.h"
#include "reference/support/comparison.h"

namespace seqconf::support {

Tensor Greater(const Tensor& a, const Tensor& b) {
  // T, Greater-9/13: "Constrain input types to all numeric tensors." Floats compare by IEEE 754
  // (a NaN is greater than nothing).
  return compare("Greater", a, b, is_real_numeric,
                 [](const auto& x, const auto& y) { return x > y; });
}

}  // namespace seqconf::support
