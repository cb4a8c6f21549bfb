// Less-7, 9, 13: "Returns the tensor resulted from performing the `less` logical operation
// elementwise on the input tensors `A` and `B` (with Numpy-style broadcasting support)."
#include "reference/support/body_ops.h"
#include "reference/support/comparison.h"

namespace seqconf::support {

Tensor Less(const Tensor& a, const Tensor& b) {
  // T, Less-9/13: "Constrain input types to all numeric tensors." Floats compare by IEEE 754 (a
  // NaN is less than nothing).
  return compare("Less", a, b, is_real_numeric, [](const auto& x, const auto& y) { return x < y; });
}

}  // namespace seqconf::support
