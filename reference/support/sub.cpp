// Sub-7, 13, 14: "Performs element-wise binary subtraction (with Numpy-style broadcasting
// support)."
#include <functional>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Sub(const Tensor& a, const Tensor& b) {
  return arithmetic("Sub", a, b, [](auto x, auto y) { return wrapping(x, y, std::minus<>()); });
}

}  // namespace seqconf::support
