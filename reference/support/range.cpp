// Range-11: "Generate a tensor containing a sequence of numbers that begin at `start` and extends
// by increments of `delta` up to `limit` (exclusive)."
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "reference/support/body_ops.h"

namespace seqconf::support {

Tensor Range(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  // T: "Constrain input types to common numeric type tensors." (float, double, int16, int32,
  // int64), one type for all three.
  const DataType d = start.dtype();
  if (limit.dtype() != d || delta.dtype() != d)
    throw Error(ErrorCode::element_type_mismatch, "Range: start is " + start.describe() +
                                                      ", limit " + limit.describe() + ", delta " +
                                                      delta.describe());
  if (d != DataType::float32 && d != DataType::float64 && d != DataType::int16 &&
      d != DataType::int32 && d != DataType::int64)
    throw Error(ErrorCode::unsupported_type,
                "Range: type " + std::string(dtype_name(d)) + " is not a type of Range");
  // start, limit, delta: "Scalar."
  for (const Tensor* t : {&start, &limit, &delta})
    if (t->rank() != 0)
      throw Error(ErrorCode::input_rank, "Range: inputs must be scalars, got " + t->describe());
  return visit_dtype(d, [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (!std::is_arithmetic_v<T>) {
      throw Error(ErrorCode::unsupported_type, "Range: unsupported type");  // excluded above
    } else {
      const T s = start.data<T>()[0], l = limit.data<T>()[0], dl = delta.data<T>()[0];
      // "number_of_elements = max( ceil( (limit - start) / delta ) , 0 )": a delta of 0 has no
      // quotient, so no number of elements.
      if (dl == 0)
        throw Error(ErrorCode::undefined_result,
                    "Range: delta is 0; number_of_elements = max( ceil( (limit - start) / delta ) "
                    ", 0 ) is undefined");
      int64_t count = 0;
      if constexpr (std::is_integral_v<T>) {
        // Exact: limit - start in 128 bits (no overflow), ceiling of the integer quotient.
        const __int128 diff = static_cast<__int128>(l) - static_cast<__int128>(s);
        __int128 q = diff / dl;
        if ((diff % dl != 0) && ((diff > 0) == (dl > 0))) ++q;  // ceil
        if (q > INT64_MAX)
          throw Error(ErrorCode::limit_exceeded, "Range: the output would have more than " +
                                                     std::to_string(INT64_MAX) + " elements");
        count = q > 0 ? static_cast<int64_t>(q) : 0;
      } else {
        const double q =
            std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(dl));
        if (std::isnan(q))
          throw Error(ErrorCode::undefined_result,
                      "Range: (limit - start) / delta is NaN; no number of elements");
        if (q > 9.0e18)
          throw Error(ErrorCode::limit_exceeded,
                      "Range: the output would have " + std::to_string(q) + " elements");
        count = q > 0 ? static_cast<int64_t>(q) : 0;
      }
      const size_t n = checked_tensor_elements(D, {count});  // before allocating
      // "output[i] =  start + (i * delta);"
      std::vector<T> out(n);
      for (size_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<T>) {
          // Modulo 2^64: i * delta alone can pass the type's range though the sum is inside it.
          out[i] = static_cast<T>(static_cast<uint64_t>(s) +
                                  static_cast<uint64_t>(i) * static_cast<uint64_t>(dl));
        } else {
          out[i] = static_cast<T>(s + static_cast<T>(i) * dl);
        }
      }
      return Tensor::from_values<D>({count}, std::move(out));
    }
  });
}

}  // namespace seqconf::support
