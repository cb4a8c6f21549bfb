// Seeded defects of ConcatFromSequence. The spec: "When 'new_axis' is 1, the behavior is similar
// to numpy.stack." and, of axis, "When `new_axis` is 1, accepted range is `[-r - 1, r]`."
#include "reference/ops/ops.h"
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

// A ConcatFromSequence node stacking a non-empty sequence whose axis is in [-r - 1, r] (else
// the reference's errors stand); its r.
std::optional<int64_t> stacking_rank(const interp::NodeCall& c) {
  if (!is_on_sequence(c, "ConcatFromSequence") || sequence_length(c) == 0 ||
      int_attribute(c, "new_axis", 0) != 1)
    return std::nullopt;
  const auto r = static_cast<int64_t>(c.inputs[0]->sequence().at(0).rank());
  const int64_t axis = int_attribute(c, "axis", 0);
  if (axis < -r - 1 || axis > r) return std::nullopt;
  return r;
}

std::vector<Value> stacked_on(const interp::NodeCall& c, int64_t axis) {
  return {Value(ops::ConcatFromSequence(c.inputs[0]->sequence(), axis, 1))};
}

}  // namespace

std::vector<Defect> concat_from_sequence_defects() {
  std::vector<Defect> d;
  d.push_back({"concat.stack_on_last_axis",
               "ConcatFromSequence",
               "with new_axis=1 the tensors are stacked on a new last axis, whatever axis says",
               "kernels that implement stacking as an unsqueeze on the last axis and a concat",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto r = stacking_rank(c);
                 if (!r) return std::nullopt;
                 return stacked_on(c, *r);
               }}});
  d.push_back({"concat.new_axis_negative_against_r",
               "ConcatFromSequence",
               "with new_axis=1 a negative axis is counted from the back of the r input axes "
               "instead of the r + 1 output axes (axis -1 stacks before the last input axis)",
               "runtimes that normalize the axis against the input rank before inserting the "
               "new one",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto r = stacking_rank(c);
                 const int64_t axis = int_attribute(c, "axis", 0);
                 if (!r || axis >= 0 || axis + *r < 0) return std::nullopt;
                 return stacked_on(c, axis + *r);
               }}});
  return d;
}

}  // namespace seqconf::seeded
