// Concat-1, 4, 11, 13.
#include <string>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

Tensor Concat(const std::vector<Tensor>& inputs, int64_t axis, int64_t since_version) {
  // Inputs (1 - ∞): "List of tensors for concatenation"
  if (inputs.empty())
    throw Error(ErrorCode::missing_input, "Concat: needs at least one input tensor");
  const Tensor& first = inputs.front();
  for (size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i].dtype() != first.dtype())
      throw Error(ErrorCode::element_type_mismatch, "Concat: input " + std::to_string(i) + " is " +
                                                        inputs[i].describe() + " but input 0 is " +
                                                        first.describe());
  const auto r = static_cast<int64_t>(first.rank());
  if (r == 0)
    throw Error(ErrorCode::input_rank,
                "Concat: input 0 is a scalar, which has no axis to concat on");
  // Concat-11/13 axis: "A negative value means counting dimensions from the back. Accepted range
  //  is [-r, r-1] where r = rank(inputs).." Concat-1/4 say only "Which axis to concat on": they
  //  define no negative axis.
  const int64_t lo = since_version >= 11 ? -r : 0;
  if (axis < lo || axis > r - 1)
    throw Error(ErrorCode::axis_out_of_range,
                "Concat-" + std::to_string(since_version) + ": axis " + std::to_string(axis) +
                    " is outside [" + std::to_string(lo) + ", " + std::to_string(r - 1) +
                    "] for rank " + std::to_string(r));
  const auto a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  // Concat-11/13: "All input tensors must have the same shape, except for the dimension size of
  //  the axis to concatenate on."
  Shape out_shape = first.shape();
  out_shape[a] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape& s = inputs[i].shape();
    bool fits = s.size() == first.shape().size();
    for (size_t k = 0; fits && k < s.size(); ++k)
      if (k != a && s[k] != first.shape()[k]) fits = false;
    if (!fits)
      throw Error(ErrorCode::shape_mismatch, "Concat: input " + std::to_string(i) + " has shape " +
                                                 shape_to_string(s) + " but input 0 has " +
                                                 shape_to_string(first.shape()) + " (only axis " +
                                                 std::to_string(axis) + " may differ)");
    // Inputs without elements can have any dimension: the sum can overflow.
    if (__builtin_add_overflow(out_shape[a], s[a], &out_shape[a]))
      throw Error(ErrorCode::limit_exceeded,
                  "Concat: the concatenated axis length overflows at input " + std::to_string(i));
  }
  std::vector<const Tensor*> parts;
  std::vector<seqconf::Shape> shapes;
  for (const Tensor& t : inputs) {
    parts.push_back(&t);
    shapes.push_back(t.shape());
  }
  return concatenate(parts, shapes, a, out_shape);
}

Tensor concatenate(const std::vector<const Tensor*>& parts,
                   const std::vector<seqconf::Shape>& shapes, size_t axis,
                   const seqconf::Shape& out_shape) {
  const DataType dtype = parts.front()->dtype();
  // Before any allocation; an output without elements needs no loop over the axes (whose
  // product can be huge when one of the others is 0).
  if (checked_tensor_elements(dtype, out_shape) == 0) return Tensor::zeros(dtype, out_shape);
  size_t outer = 1, inner = 1;
  for (size_t k = 0; k < axis; ++k) outer *= static_cast<size_t>(out_shape[k]);
  for (size_t k = axis + 1; k < out_shape.size(); ++k) inner *= static_cast<size_t>(out_shape[k]);
  return visit_dtype(dtype, [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> out;
    out.reserve(outer * inner * static_cast<size_t>(out_shape[axis]));
    // Output row o along the axis: part 0's block of row o, then part 1's, ...
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < parts.size(); ++i) {
        const size_t block = static_cast<size_t>(shapes[i][axis]) * inner;
        for (size_t k = 0; k < block; ++k) out.push_back(element_at<D>(*parts[i], o * block + k));
      }
    return Tensor::from_values<D>(out_shape, std::move(out));
  });
}

}  // namespace seqconf::support
