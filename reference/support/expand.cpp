// Expand-8, 13: "Broadcast the input tensor following the given shape and the broadcast rule.
// The broadcast rule is similar to numpy.array(input) * numpy.ones(shape): Dimensions are right
// alignment; Two corresponding dimensions must have the same value, or one of them is equal to 1.
// Also, this operator is similar to numpy.broadcast_to(input, shape), but the major difference is
// numpy.broadcast_to() does not allow shape to be smaller than input.size(). It is possible that
// the output.shape is not equal to shape, when some dimensions in shape is equal to 1, or the
// shape.ndim < input.shape.ndim."
#include <algorithm>
#include <string>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Expand(const Tensor& input, const Tensor& shape) {
  // shape: "A 1-D tensor indicates the shape you want to expand to, following the broadcast
  //  rule", tensor(int64).
  if (shape.dtype() != DataType::int64)
    throw Error(ErrorCode::unsupported_type, "Expand: shape must be int64, got " + shape.describe());
  if (shape.rank() != 1)
    throw Error(ErrorCode::input_rank, "Expand: shape must be 1-D, got " + shape.describe());
  const seqconf::Shape& in = input.shape();
  const size_t rank = std::max(in.size(), shape.element_count());
  // "Dimensions are right alignment": both shapes padded with leading 1s to the longer rank.
  seqconf::Shape out(rank, 1), in_padded(rank, 1);
  std::copy(in.begin(), in.end(), in_padded.begin() + static_cast<long>(rank - in.size()));
  for (size_t i = 0; i < shape.element_count(); ++i) {
    const int64_t d = shape.int_at(i);
    if (d < 0)
      throw Error(ErrorCode::invalid_argument,
                  "Expand: shape holds the negative dimension " + std::to_string(d));
    out[rank - shape.element_count() + i] = d;
  }
  for (size_t a = 0; a < rank; ++a) {
    // "Two corresponding dimensions must have the same value, or one of them is equal to 1."
    if (in_padded[a] != out[a] && in_padded[a] != 1 && out[a] != 1)
      throw Error(ErrorCode::shape_mismatch, "Expand: input " + input.describe() +
                                                 " cannot be broadcast to shape " +
                                                 shape_to_string(out) + " (axis " +
                                                 std::to_string(a) + ")");
    // numpy.array(input) * numpy.ones(shape): the larger of the two, where one of them is 1.
    if (out[a] == 1) out[a] = in_padded[a];
  }
  const size_t n = checked_tensor_elements(input.dtype(), out);  // before allocating
  // Per output axis: the input's element stride, 0 where the input's dimension is broadcast.
  std::vector<size_t> stride(rank, 0);
  for (size_t a = rank, s = 1; a-- > 0;) {
    stride[a] = in_padded[a] == 1 ? 0 : s;
    s *= static_cast<size_t>(in_padded[a]);
  }
  return visit_dtype(input.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> values;
    values.reserve(n);
    std::vector<int64_t> coord(rank, 0);
    size_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      values.push_back(element_at<D>(input, offset));
      for (size_t a = rank; a-- > 0;) {  // odometer over the output's coordinates
        if (++coord[a] < out[a]) {
          offset += stride[a];
          break;
        }
        coord[a] = 0;
        offset -= stride[a] * static_cast<size_t>(out[a] - 1);
      }
    }
    return Tensor::from_values<D>(out, std::move(values));
  });
}

}  // namespace seqconf::support
