#include "reference/support/broadcast.h"

#include <algorithm>

namespace seqconf::support {

Broadcast::Broadcast(const std::string& op, const std::vector<const Tensor*>& inputs,
                     DataType out_dtype) {
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

}  // namespace seqconf::support
