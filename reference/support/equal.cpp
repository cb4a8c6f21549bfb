// Equal-7, 11, 13, 19: "Returns the tensor resulted from performing the `equal` logical
// operation elementwise on the input tensors `A` and `B` (with Numpy-style broadcasting
// support)."
#include "reference/support/body_ops.h"
#include "reference/support/comparison.h"

namespace seqconf::support {

Tensor Equal(const Tensor& a, const Tensor& b) {
  // T, Equal-19: "Constrain input types to all (non-complex) tensors." (bool, string and the
  // numeric types; earlier versions allow subsets of these). Floats compare by IEEE 754: NaN
  // equals nothing, -0 equals +0.
  return compare(
      "Equal", a, b,
      [](DataType d) { return d != DataType::complex64 && d != DataType::complex128; },
      [](const auto& x, const auto& y) { return x == y; });
}

}  // namespace seqconf::support
