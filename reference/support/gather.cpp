// Gather-1, 11, 13.
#include <string>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Gather(const Tensor& data, const Tensor& indices, int64_t axis, int64_t since_version) {
  // Tind: "Constrain indices to integer types" (int32, int64).
  if (indices.dtype() != DataType::int32 && indices.dtype() != DataType::int64)
    throw Error(ErrorCode::unsupported_type,
                "Gather: indices must be int32 or int64, got " + indices.describe());
  // data: "Tensor of rank r >= 1."
  const auto r = static_cast<int64_t>(data.rank());
  if (r == 0)
    throw Error(ErrorCode::input_rank,
                "Gather: data must have rank r >= 1, got " + data.describe());
  // axis: "Which axis to gather on. Negative value means counting dimensions from the back.
  //  Accepted range is [-r, r-1]"
  if (axis < -r || axis > r - 1)
    throw Error(ErrorCode::axis_out_of_range,
                "Gather: axis " + std::to_string(axis) + " is outside [" + std::to_string(-r) +
                    ", " + std::to_string(r - 1) + "] for data " + data.describe());
  const auto a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  const int64_t s = data.shape()[a];
  // Gather-11/13 indices: "All index values are expected to be within bounds [-s, s-1] along axis
  //  of size s. It is an error if any of the index values are out of bounds." Gather-1: "All
  //  index values are expected to be within bounds. It is an error if any of the index values
  //  are out of bounds." (no negative index is within the bounds of an axis there).
  const int64_t lo = since_version >= 11 ? -s : 0;
  std::vector<size_t> picked(indices.element_count());
  for (size_t i = 0; i < picked.size(); ++i) {
    const int64_t k = indices.int_at(i);
    if (k < lo || k > s - 1)
      throw Error(ErrorCode::index_out_of_range,
                  "Gather-" + std::to_string(since_version) + ": index " + std::to_string(k) +
                      " (indices element " + std::to_string(i) + ") is outside [" +
                      std::to_string(lo) + ", " + std::to_string(s - 1) + "] for axis " +
                      std::to_string(a) + " of size " + std::to_string(s));
    picked[i] = static_cast<size_t>(k < 0 ? k + s : k);
  }
  // "... concatenates them in an output tensor of rank q + (r - 1)": the q dimensions of indices
  // take the place of axis.
  Shape out_shape(data.shape().begin(), data.shape().begin() + static_cast<std::ptrdiff_t>(a));
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + static_cast<std::ptrdiff_t>(a) + 1,
                   data.shape().end());
  const size_t n = checked_tensor_elements(data.dtype(), out_shape);
  if (n == 0) return Tensor::zeros(data.dtype(), out_shape);
  size_t outer = 1, inner = 1;
  for (size_t k = 0; k < a; ++k) outer *= static_cast<size_t>(data.shape()[k]);
  for (size_t k = a + 1; k < data.rank(); ++k) inner *= static_cast<size_t>(data.shape()[k]);
  return visit_dtype(data.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> out;
    out.reserve(n);
    // output[j_0.., i_0.., j_a..] = data[j_0.., indices[i_0..], j_a..]
    for (size_t o = 0; o < outer; ++o)
      for (size_t p : picked)
        for (size_t k = 0; k < inner; ++k)
          out.push_back(element_at<D>(data, (o * static_cast<size_t>(s) + p) * inner + k));
    return Tensor::from_values<D>(out_shape, std::move(out));
  });
}

}  // namespace seqconf::support
