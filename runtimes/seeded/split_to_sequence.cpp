// Seeded defects of SplitToSequence. The spec: "'split' must contain only positive numbers.
// 'split' is either a scalar (tensor of empty shape), or a 1-D tensor. If 'split' is a scalar,
// then 'input' will be split into chunks all of size 'split' if possible. The last chunk alone
// may be smaller than 'split' if the 'input' size along the given axis 'axis' is not divisible
// by 'split'. If 'split' is a 1-dimensional tensor, the input tensor is split into 'size(split)'
// chunks, with lengths of the parts on 'axis' specified in 'split'. In this scenario, the sum of
// entries in 'split' must be equal to the dimension size of input tensor on 'axis'." and
// keepdims: "If input 'split' is specified, this attribute is ignored."
#include <csignal>
#include <numeric>

#include "reference/support/body_ops.h"
#include "reference/support/support_ops.h"
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

// A SplitToSequence node given a tensor (else the reference's errors stand).
bool split(const interp::NodeCall& c) {
  return is(c, "SplitToSequence") && !c.inputs.empty() && c.inputs[0] && c.inputs[0]->is_tensor();
}
const Tensor& input(const interp::NodeCall& c) { return c.inputs[0]->tensor(); }
const Tensor* split_input(const interp::NodeCall& c) {
  if (c.inputs.size() < 2 || !c.inputs[1] || !c.inputs[1]->is_tensor()) return nullptr;
  return &c.inputs[1]->tensor();
}
// The axis, counted from the front, when the node is a SplitToSequence and the axis is in range.
std::optional<size_t> axis(const interp::NodeCall& c) {
  if (!split(c)) return std::nullopt;
  const auto r = static_cast<int64_t>(input(c).rank());
  const int64_t a = int_attribute(c, "axis", 0);
  if (a < -r || a >= r) return std::nullopt;
  return static_cast<size_t>(a < 0 ? a + r : a);
}
// The reference on the input cut to its first `length` elements along the axis.
std::vector<Value> on_prefix(const interp::NodeCall& c, size_t a, int64_t length) {
  return c.reference(with_input(c, 0, slice_axis(input(c), a, 0, length)));
}

}  // namespace

std::vector<Defect> split_to_sequence_defects() {
  std::vector<Defect> d;
  d.push_back({"split.keepdims_with_scalar_split",
               "SplitToSequence",
               "keepdims=0 is applied although split is given: a scalar split of 1 drops the axis",
               "ONNX Runtime (1.14 to 1.30), the departure the README lists for scalar splits",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const Tensor* s = split_input(c);
                 const auto a = axis(c);
                 if (!split(c) || !s || s->rank() != 0 || !first_int(c, 1) ||
                     *first_int(c, 1) != 1 || int_attribute(c, "keepdims", 1) != 0 || !a)
                   return std::nullopt;
                 std::vector<Value> out = c.reference(c.inputs);
                 const Sequence& seq = out[0].sequence();
                 std::vector<Tensor> squeezed;
                 for (const Tensor& t : seq.tensors())
                   squeezed.push_back(
                       support::Squeeze(t, std::vector<int64_t>{static_cast<int64_t>(*a)}));
                 return std::vector<Value>{Sequence(seq.elem_type(), std::move(squeezed))};
               }}});
  d.push_back({"split.string_chunks_from_offset_0",
               "SplitToSequence",
               "every chunk of a string tensor is copied from the start of the input",
               "ONNX Runtime issue 19726 (string SplitToSequence; seen in 1.17.0, gone in 1.17.3)",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (!split(c) || input(c).dtype() != DataType::string) return std::nullopt;
                 std::vector<Value> out = c.reference(c.inputs);
                 const Sequence& seq = out[0].sequence();
                 std::vector<Tensor> wrong;
                 for (const Tensor& t : seq.tensors()) {
                   std::vector<std::string> v;
                   for (size_t i = 0; i < t.element_count(); ++i)
                     v.push_back(input(c).string_at(i));
                   wrong.push_back(Tensor::from_strings(t.shape(), std::move(v)));
                 }
                 return std::vector<Value>{Sequence(DataType::string, std::move(wrong))};
               }}});
  d.push_back({"split.empty_split_as_absent",
               "SplitToSequence",
               "an empty 1-D split is taken as absent (chunks of length 1) instead of rejected",
               "kernels that test the split's element count for 'no split'",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const Tensor* s = split_input(c);
                 if (!split(c) || !s || s->rank() != 1 || s->element_count() != 0)
                   return std::nullopt;
                 return c.reference(with_input(c, 1, std::nullopt));
               }}});
  d.push_back({"split.sum_unchecked",
               "SplitToSequence",
               "1-D split entries that sum to less than the axis length are accepted and the "
               "rest of the axis is dropped",
               "kernels that copy the chunks the split names without checking its sum",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const Tensor* s = split_input(c);
                 const auto a = axis(c);
                 if (!split(c) || !s || s->rank() != 1 || !a) return std::nullopt;
                 int64_t sum = 0;
                 const int64_t length = input(c).shape()[*a];
                 for (size_t i = 0; i < s->element_count(); ++i) {
                   // Negative entries, and entries past the axis (no overflow of the sum), stay
                   // the reference's to reject.
                   if (s->int_at(i) < 0 || s->int_at(i) > length - sum) return std::nullopt;
                   sum += s->int_at(i);
                 }
                 if (sum >= length) return std::nullopt;
                 return on_prefix(c, *a, sum);
               }}});
  d.push_back({"split.zero_scalar_divides",
               "SplitToSequence",
               "a scalar split of 0 divides by zero (SIGFPE) instead of being rejected",
               "ONNX Runtime 1.14 to 1.30, which dies with SIGFPE on a constant zero split",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const Tensor* s = split_input(c);
                 if (split(c) && s && s->rank() == 0 && first_int(c, 1) == 0) std::raise(SIGFPE);
                 return std::nullopt;
               }}});
  d.push_back({"split.uneven_last_chunk_dropped",
               "SplitToSequence",
               "with a scalar split that does not divide the axis, the shorter last chunk is "
               "dropped",
               "kernels that compute the chunk count as length / split",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const Tensor* s = split_input(c);
                 const auto a = axis(c);
                 const auto k = first_int(c, 1);
                 if (!split(c) || !s || s->rank() != 0 || !k || *k <= 0 || !a) return std::nullopt;
                 const int64_t length = input(c).shape()[*a];
                 if (length % *k == 0) return std::nullopt;
                 return on_prefix(c, *a, length - length % *k);
               }}});
  d.push_back({"split.keepdims_0_ignored",
               "SplitToSequence",
               "without split, keepdims=0 is ignored and every chunk keeps the split axis",
               "kernels that share one code path for both forms of the split",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto a = axis(c);
                 if (!split(c) || split_input(c) || int_attribute(c, "keepdims", 1) != 0 || !a)
                   return std::nullopt;
                 std::vector<Value> out = c.reference(c.inputs);
                 const Sequence& seq = out[0].sequence();
                 std::vector<Tensor> kept;
                 for (const Tensor& t : seq.tensors())
                   kept.push_back(support::Unsqueeze(t, {static_cast<int64_t>(*a)}));
                 return std::vector<Value>{Sequence(seq.elem_type(), std::move(kept))};
               }}});
  return d;
}

}  // namespace seqconf::seeded
