// Reshape-5, 13, 14, 19, 21, 23, 24: "Reshape the input tensor similar to numpy.reshape. First
// input is the data tensor, second input is a shape tensor which specifies the output shape. It
// outputs the reshaped tensor." allowzero from Reshape-14.
#include <string>

#include "reference/support/body_ops.h"

namespace seqconf::support {

namespace {
std::string ints_text(const std::vector<int64_t>& v) { return shape_to_string(v); }
}  // namespace

Tensor Reshape(const Tensor& data, const Tensor& shape, int64_t allowzero) {
  // shape: tensor(int64), "Specified shape for output." (a 1-D list of dimensions)
  if (shape.dtype() != DataType::int64)
    throw Error(ErrorCode::unsupported_type,
                "Reshape: shape must be int64, got " + shape.describe());
  if (shape.rank() != 1)
    throw Error(ErrorCode::input_rank, "Reshape: shape must be 1-D, got " + shape.describe());
  if (allowzero != 0 && allowzero != 1)
    throw Error(ErrorCode::invalid_argument,
                "Reshape: allowzero must be 0 or 1, got " + std::to_string(allowzero));
  std::vector<int64_t> dims(shape.element_count());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = shape.int_at(i);
  const std::string what = "Reshape: shape " + ints_text(dims) + " for data " + data.describe();
  int64_t infer = -1;  // index of the -1 entry
  bool has_zero = false;
  seqconf::Shape out(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    if (d == -1) {
      // "At most one dimension of the new shape can be -1."
      if (infer >= 0) throw Error(ErrorCode::invalid_argument, what + ": more than one -1");
      infer = static_cast<int64_t>(i);
      out[i] = 1;  // placeholder for the product below
    } else if (d == 0) {
      has_zero = true;
      if (allowzero) {
        // "If 'allowzero' is set, and the new shape includes 0, the dimension will be set
        //  explicitly to zero (i.e. not taken from input tensor)."
        out[i] = 0;
      } else {
        // "A dimension could also be 0, in which case the actual dimension value is unchanged
        //  (i.e. taken from the input tensor)."
        if (i >= data.rank())
          throw Error(ErrorCode::invalid_argument, what + ": entry " + std::to_string(i) +
                                                       " is 0 but the input has no dimension " +
                                                       std::to_string(i) + " to copy");
        out[i] = data.shape()[i];
      }
    } else if (d < 0) {
      throw Error(ErrorCode::invalid_argument,
                  what + ": entry " + std::to_string(i) + " is " + std::to_string(d) +
                      "; only -1 (inferred) or a dimension >= 0 is defined");
    } else {
      out[i] = d;
    }
  }
  // "If the attribute 'allowzero' is set, it is invalid for the specified shape to contain both
  //  a zero value and -1, as the value of the dimension corresponding to -1 cannot be determined
  //  uniquely."
  if (allowzero && has_zero && infer >= 0)
    throw Error(ErrorCode::invalid_argument, what + ": allowzero=1 with both 0 and -1");
  const size_t n = data.element_count();
  // "The input tensor's shape and the output tensor's shape are required to have the same number
  //  of elements."
  size_t known = 1;
  for (size_t i = 0; i < out.size(); ++i)
    if (static_cast<int64_t>(i) != infer &&
        __builtin_mul_overflow(known, static_cast<size_t>(out[i]), &known))
      throw Error(ErrorCode::shape_mismatch,
                  what + ": the shape holds more elements than the data's " + std::to_string(n));
  if (infer >= 0) {
    // "In this case, the value is inferred from the size of the tensor and the remaining
    //  dimensions."
    if (known == 0 || n % known != 0)
      throw Error(ErrorCode::shape_mismatch,
                  what + ": no dimension for -1 gives " + std::to_string(n) + " elements");
    out[static_cast<size_t>(infer)] = static_cast<int64_t>(n / known);
  } else if (known != n) {
    throw Error(ErrorCode::shape_mismatch, what + ": the shape holds " + std::to_string(known) +
                                               " elements, the data " + std::to_string(n));
  }
  return data.reshaped(out);
}

}  // namespace seqconf::support
