// Div-7, 13, 14: "Performs element-wise binary division (with Numpy-style broadcasting
// support)."
#include <limits>
#include <string>
#include <type_traits>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Div(const Tensor& a, const Tensor& b) {
  return arithmetic("Div", a, b, [](auto x, auto y) {
    using T = decltype(x);
    if constexpr (std::is_integral_v<T>) {
      // "For integer inputs, the result is computed using truncating division (rounding toward
      //  zero)." A zero divisor has no quotient: the spec gives no result for it.
      if (y == 0)
        throw Error(ErrorCode::undefined_result,
                    "Div: integer division of " + std::to_string(x) +
                        " by zero has no result (\"For integer inputs, the result is computed "
                        "using truncating division (rounding toward zero).\")");
      // The one quotient beyond the type, min / -1, wraps like Add's overflow (two's
      // complement), without C++'s undefined behaviour.
      if constexpr (std::is_signed_v<T>) {
        if (x == std::numeric_limits<T>::min() && y == -1) return x;
      }
      return static_cast<T>(x / y);
    } else {
      // Floating types: IEEE 754 division (x / 0 is +/-inf, 0 / 0 is NaN).
      return static_cast<T>(x / y);
    }
  });
}

}  // namespace seqconf::support
