// Where-9, 16: "Return elements, either from X or Y, depending on condition. Where behaves like
// [numpy.where](https://docs.scipy.org/doc/numpy/reference/generated/numpy.where.html) with three
// parameters." condition, X and Y broadcast together (multidirectional).
#include <string>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Where(const Tensor& condition, const Tensor& x, const Tensor& y) {
  // B: "Constrain to boolean tensors."
  if (condition.dtype() != DataType::bool_)
    throw Error(ErrorCode::unsupported_type,
                "Where: condition must be bool, got " + condition.describe());
  // T binds X, Y and the output to one type.
  if (x.dtype() != y.dtype())
    throw Error(ErrorCode::element_type_mismatch,
                "Where: X is " + x.describe() + " but Y is " + y.describe());
  const Broadcast bc("Where", {&condition, &x, &y}, x.dtype());
  return visit_dtype(x.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> out(bc.count());
    const uint8_t* c = condition.data<uint8_t>();
    // "elements, either from X or Y": X where condition is true.
    bc.for_each([&](size_t i, const size_t* off) {
      out[i] = c[off[0]] ? element_at<D>(x, off[1]) : element_at<D>(y, off[2]);
    });
    return Tensor::from_values<D>(bc.shape(), std::move(out));
  });
}

}  // namespace seqconf::support
