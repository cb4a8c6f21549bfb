// Squeeze-1, 11, 13, 21, 23, 24: "Remove single-dimensional entries from the shape of a tensor."
// axes: an attribute before 13, an optional int64 input from 13.
#include <string>

#include "reference/support/body_ops.h"

namespace seqconf::support {

Tensor Squeeze(const Tensor& data, const std::optional<std::vector<int64_t>>& axes,
               int64_t since_version) {
  const auto r = static_cast<int64_t>(data.rank());
  std::vector<bool> drop(data.rank(), false);
  if (!axes) {
    // "If `axes` is not provided, all the single dimensions will be removed from the shape."
    for (size_t k = 0; k < data.rank(); ++k) drop[k] = data.shape()[k] == 1;
  } else {
    // Squeeze-1: "List of non-negative integers, indicate the dimensions to squeeze." From 11:
    // "Negative value means counting dimensions from the back. Accepted range is [-r, r-1] where
    //  r = rank(data)."
    const int64_t lo = since_version >= 11 ? -r : 0;
    for (int64_t ax : *axes) {
      if (ax < lo || ax > r - 1)
        throw Error(ErrorCode::axis_out_of_range,
                    "Squeeze-" + std::to_string(since_version) + ": axis " + std::to_string(ax) +
                        " is outside [" + std::to_string(lo) + ", " + std::to_string(r - 1) +
                        "] for data " + data.describe());
      const auto k = static_cast<size_t>(ax < 0 ? ax + r : ax);
      if (drop[k])
        throw Error(ErrorCode::invalid_argument, "Squeeze: axes " + shape_to_string(*axes) +
                                                     " name axis " + std::to_string(k) + " twice");
      // "If an axis is selected with shape entry not equal to one, an error is raised."
      if (data.shape()[k] != 1)
        throw Error(ErrorCode::shape_mismatch, "Squeeze: axis " + std::to_string(k) + " of data " +
                                                   data.describe() + " has length " +
                                                   std::to_string(data.shape()[k]) + ", not 1");
      drop[k] = true;
    }
  }
  seqconf::Shape out;
  for (size_t k = 0; k < data.rank(); ++k)
    if (!drop[k]) out.push_back(data.shape()[k]);
  return data.reshaped(out);
}

}  // namespace seqconf::support
