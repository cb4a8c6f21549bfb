// Equal, Less, Greater: A and B of one element type, broadcast, compared element by element into
// a bool tensor (T1: "Constrain output to boolean tensor.").
#pragma once

#include <string>

#include "reference/support/broadcast.h"

namespace seqconf::support {

// allowed(d) says whether the union of the operator's type constraints over its versions holds
// d; cmp(x, y) compares two values of one storage type (float16 and bfloat16 compared as float).
template <class Allowed, class Cmp>
Tensor compare(const std::string& op, const Tensor& a, const Tensor& b, Allowed&& allowed,
               Cmp&& cmp) {
  if (a.dtype() != b.dtype())
    throw Error(ErrorCode::element_type_mismatch,
                op + ": A is " + a.describe() + " but B is " + b.describe());
  if (!allowed(a.dtype()))
    throw Error(ErrorCode::unsupported_type,
                op + ": type " + std::string(dtype_name(a.dtype())) + " is not a type of " + op);
  return visit_dtype(a.dtype(), [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      throw Error(ErrorCode::unsupported_type, op + ": complex");  // excluded by allowed()
    } else if constexpr (is_half_v<T>) {
      return broadcast_binary<D, DataType::bool_>(op, a, b, [&](T x, T y) {
        return static_cast<uint8_t>(cmp(half_to_float(x), half_to_float(y)));
      });
    } else {
      return broadcast_binary<D, DataType::bool_>(
          op, a, b, [&](const T& x, const T& y) { return static_cast<uint8_t>(cmp(x, y)); });
    }
  });
}

}  // namespace seqconf::support
