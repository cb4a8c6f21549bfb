// Mul-7, 13, 14: "Performs element-wise binary multiplication (with Numpy-style broadcasting
// support)."
#include <functional>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Mul(const Tensor& a, const Tensor& b) {
  return arithmetic("Mul", a, b,
                    [](auto x, auto y) { return wrapping(x, y, std::multiplies<>()); });
}

}  // namespace seqconf::support
