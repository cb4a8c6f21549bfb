// Equal, Less, Greater: A and B of one element type, broadcast, compared element by element into
// a bool tensor (T1: "Constrain output to boolean tensor.").
#pragma once

#include <string>

#include "reference/support/broadcast.h"

namespace seqconf::support {

// allowed(d) says whether the union of the operator's type constraints over its versions holds
// d; cmp(x, y) compares two values of one storage type (float16 compared as float).
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
    } else if constexpr (D == DataType::float16) {
      return broadcast_binary<D, DataType::bool_>(op, a, b, [&](Float16 x, Float16 y) {
        return static_cast<uint8_t>(cmp(float16_to_float(x), float16_to_float(y)));
      });
    } else {
      return broadcast_binary<D, DataType::bool_>(
          op, a, b, [&](const T& x, const T& y) { return static_cast<uint8_t>(cmp(x, y)); });
    }
  });
}

}  // namespace seqconf::support
