#include "reference/support/broadcast.h"

#include <algorithm>

namespace seqconf::support {

Broadcast::Broadcast(const std::string& op, const std::vector<const Tensor*>& inputs,
                     DataType out_dtype) {
  // "The tensors all have exactly the same shape": that shape, with no padding or strides to
  // work out (for_each reads none).
  bool equal = !inputs.empty();
  for (const Tensor* t : inputs) equal = equal && t->shape() == inputs.front()->shape();
  if (equal) {
    shape_ = inputs.front()->shape();
    count_ = checked_tensor_elements(out_dtype, shape_);
    strides_.resize(inputs.size());
    return;
  }
  size_t r = 0;
  for (const Tensor* t : inputs) r = std::max(r, t->rank());
  shape_.assign(r, 1);
  // "The tensors that have too few dimensions can have their shapes prepended with a dimension
  //  of length 1": every shape aligned to the last axis.
  std::vector<seqconf::Shape> padded;
  for (const Tensor* t : inputs) {
    seqconf::Shape s(r - t->rank(), 1);
    s.insert(s.end(), t->shape().begin(), t->shape().end());
    padded.push_back(std::move(s));
    if (t->shape() != inputs.front()->shape()) same_shape_ = false;
  }
  // "... the length of each dimensions is either a common length or 1."
  for (size_t a = 0; a < r; ++a) {
    for (const seqconf::Shape& s : padded) {
      if (s[a] == 1) continue;
      if (shape_[a] != 1 && shape_[a] != s[a]) {
        std::string shapes;
        for (const Tensor* t : inputs)
          shapes += (shapes.empty() ? "" : " and ") + shape_to_string(t->shape());
        throw Error(ErrorCode::shape_mismatch,
                    op + ": shapes " + shapes + " are not multidirectional broadcastable (axis " +
                        std::to_string(a) + " of the aligned shapes has lengths " +
                        std::to_string(shape_[a]) + " and " + std::to_string(s[a]) +
                        ", neither 1)");
      }
      shape_[a] = s[a];
    }
  }
  count_ = checked_tensor_elements(out_dtype, shape_);
  for (const seqconf::Shape& s : padded) {
    std::vector<size_t> st(r, 0);
    size_t stride = 1;
    for (size_t a = r; a-- > 0;) {
      st[a] = s[a] == 1 ? 0 : stride;
      stride *= static_cast<size_t>(s[a]);
    }
    strides_.push_back(std::move(st));
  }
}

Tensor legacy_broadcast_operand(const std::string& op, const Tensor& a, const Tensor& b,
                                int64_t broadcast, std::optional<int64_t> axis, Context& ctx) {
  const auto fail = [&](const std::string& why) -> Tensor {
    throw Error(ErrorCode::shape_mismatch, op + ": A " + shape_to_string(a.shape()) + " and B " +
                                               shape_to_string(b.shape()) + ": " + why);
  };
  // broadcast: "Pass 1 to enable broadcasting"; without it the shapes must be equal ("Attribute
  // `broadcast=1` needs to be passed to enable broadcasting.").
  if (broadcast != 1) {
    if (broadcast != 0)
      throw Error(ErrorCode::invalid_argument,
                  op + ": broadcast must be 0 or 1, got " + std::to_string(broadcast));
    if (a.shape() != b.shape()) return fail("shapes differ and broadcast is not 1");
    return b;
  }
  // "the right-hand-side argument will be broadcasted to match the shape of left-hand-side
  //  argument. When broadcasting is specified, the second tensor can either be of element size 1
  //  (including a scalar tensor and any tensor with rank equal to or smaller than the first
  //  tensor), or having its shape as a contiguous subset of the first tensor's shape. The
  //  starting of the mutually equal shape is specified by the argument "axis", and if it is not
  //  set, suffix matching is assumed."
  const size_t ra = a.rank(), rb = b.rank();
  if (rb > ra) return fail("B has a higher rank than A");
  if (b.element_count() == 1) return b.reshaped(Shape(ra, 1));
  // A negative axis counts from the back, as the axes of later versions do (the text of these
  // versions does not say).
  const int64_t start =
      axis ? (*axis < 0 ? *axis + static_cast<int64_t>(ra) : *axis) : static_cast<int64_t>(ra - rb);
  if (start < 0 || start + static_cast<int64_t>(rb) > static_cast<int64_t>(ra))
    return fail("axis " + std::to_string(axis.value_or(start)) +
                " does not place B's shape inside A's");
  Shape shape(ra, 1);
  for (size_t k = 0; k < rb; ++k) {
    const auto at = static_cast<size_t>(start) + k;
    shape[at] = b.shape()[k];
    if (b.shape()[k] == a.shape()[at]) continue;
    // "1-dim expansion doesn't work yet": B's dimensions equal A's where they sit. ONNX's own
    // test_operator_add_size1_broadcast and test_operator_add_size1_singleton_broadcast (opset
    // 6, exported by PyTorch) expect a dimension of 1 to expand.
    if (b.shape()[k] != 1 || ctx.policy == Policy::strict)
      return fail("B's shape is not the contiguous part of A's shape starting at axis " +
                  std::to_string(start) + " (\"1-dim expansion doesn't work yet.\")");
    ctx.note({"legacy_broadcast_size1", op, "1-dim expansion doesn't work yet.",
              "B " + shape_to_string(b.shape()) + " expanded to A " + shape_to_string(a.shape()) +
                  " along its dimensions of 1 (lenient policy)"});
  }
  return b.reshaped(shape);
}

}  // namespace seqconf::support
