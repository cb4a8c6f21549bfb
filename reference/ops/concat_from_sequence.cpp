// ConcatFromSequence-11
// "Concatenate a sequence of tensors into a single tensor.
//  All input tensors must have the same shape, except for the dimension size of the axis to
//  concatenate on.
//  By default 'new_axis' is 0, the behavior is similar to numpy.concatenate.
//  When 'new_axis' is 1, the behavior is similar to numpy.stack."
// axis: "Which axis to concat on. Accepted range in `[-r, r - 1]`, where `r` is the rank of
//  input tensors. When `new_axis` is 1, accepted range is `[-r - 1, r]`."
// new_axis: "Insert and concatenate on a new axis or not, default 0 means do not insert new
//  axis."
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "reference/ops/ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::ops {

// ConcatFromSequence-11: clauses ConcatFromSequence.same_shape and
// ConcatFromSequence.axis_range; "When `new_axis` is 1, accepted range is `[-r - 1, r]`."
Tensor ConcatFromSequence(const Sequence& s, int64_t axis, int64_t new_axis) {
  // new_axis: "Insert and concatenate on a new axis or not": 0 or 1.
  if (new_axis != 0 && new_axis != 1)
    throw Error(ErrorCode::invalid_argument,
                "ConcatFromSequence: new_axis must be 0 or 1, got " + std::to_string(new_axis));
  if (s.empty())
    throw Error(
        ErrorCode::invalid_argument,
        "ConcatFromSequence: the input sequence is empty; there is no tensor to concatenate");
  const Tensor& first = s.at(0);
  const auto r = static_cast<int64_t>(first.rank());
  // ConcatFromSequence.axis_range: "Accepted range in `[-r, r - 1]`, where `r` is the rank of
  // input tensors."; .new_axis_range: "When `new_axis` is 1, accepted range is `[-r - 1, r]`."
  const int64_t lo = new_axis ? -r - 1 : -r, hi = new_axis ? r : r - 1;
  if (r == 0 && !new_axis)
    throw Error(ErrorCode::input_rank,
                "ConcatFromSequence: cannot concatenate scalars without new_axis=1");
  if (axis < lo || axis > hi)
    throw Error(ErrorCode::axis_out_of_range,
                "ConcatFromSequence: axis " + std::to_string(axis) + " is outside [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "] for rank " +
                    std::to_string(r) + (new_axis ? " with new_axis=1" : ""));
  const auto a = static_cast<size_t>(axis < 0 ? axis + hi + 1 : axis);
  // Each tensor viewed with the axis inserted when stacking.
  std::vector<seqconf::Shape> shapes;
  for (size_t i = 0; i < s.size(); ++i) {
    seqconf::Shape sh = s.at(i).shape();
    // The axis range comes from tensor 0: a tensor of another rank has no such axis.
    if (sh.size() != first.shape().size())
      throw Error(ErrorCode::shape_mismatch,
                  "ConcatFromSequence: tensor " + std::to_string(i) + " has shape " +
                      shape_to_string(sh) + " but tensor 0 has " + shape_to_string(first.shape()) +
                      " (ranks differ)");
    if (new_axis) sh.insert(sh.begin() + static_cast<std::ptrdiff_t>(a), 1);
    shapes.push_back(std::move(sh));
  }
  seqconf::Shape out_shape = shapes[0];
  out_shape[a] = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    // ConcatFromSequence.same_shape: "All input tensors must have the same shape, except for the
    // dimension size of the axis to concatenate on." (with new_axis=1: no axis may differ)
    bool fits = shapes[i].size() == shapes[0].size();
    for (size_t k = 0; fits && k < shapes[i].size(); ++k)
      if (k != a && shapes[i][k] != shapes[0][k]) fits = false;
    if (!fits)
      throw Error(ErrorCode::shape_mismatch,
                  "ConcatFromSequence: tensor " + std::to_string(i) + " has shape " +
                      shape_to_string(s.at(i).shape()) + " but tensor 0 has " +
                      shape_to_string(s.at(0).shape()) + " (only axis " + std::to_string(axis) +
                      " may differ" + (new_axis ? ", and with new_axis=1 none may" : "") + ")");
    // Tensors without elements can have any dimension: the sum can overflow.
    if (__builtin_add_overflow(out_shape[a], shapes[i][a], &out_shape[a]))
      throw Error(ErrorCode::limit_exceeded,
                  "ConcatFromSequence: the concatenated axis length overflows at tensor " +
                      std::to_string(i));
  }
  std::vector<const Tensor*> parts;
  for (size_t i = 0; i < s.size(); ++i) parts.push_back(&s.at(i));
  return support::concatenate(parts, shapes, a, out_shape);
}

}  // namespace seqconf::ops
