#include "difffuzz/input_sets.h"

#include <limits>

#include "generators/generators.h"

namespace seqconf::difffuzz {

namespace {

using gens::uniform;

bool integral(DataType d) { return d == DataType::int32 || d == DataType::int64; }

// The same type and shape, new elements (edge-biased).
Tensor revalue(const Tensor& t) { return *gens::tensor_of(t.dtype(), t.shape()); }

// A position of the same type and shape for a sequence of len tensors: kept most of the time
// (drawing every position anew would make almost every input set invalid), else in range
// (insert: [-len, len]; erase, at: [-len, len - 1]), just out of range, or the type's extremes.
// *valid: whether the position is in range.
// keep_valid: in range only (the kept position when it is, else one drawn in range).
Tensor reposition(const Tensor& t, int64_t len, bool insert, bool keep_valid, bool* valid) {
  *valid = false;
  if (!integral(t.dtype()) || t.element_count() != 1) return revalue(t);
  const bool int32 = t.dtype() == DataType::int32;
  const int64_t lo =
      int32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
  const int64_t hi =
      int32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  const int64_t last = insert ? len : len - 1;  // the last position in range
  const bool in_range = last >= -len;
  if (keep_valid && in_range) {
    const int64_t kept = t.int_at(0);
    const int64_t v =
        kept >= -len && kept <= last && *rc::gen::weightedElement<bool>({{2, true}, {1, false}})
            ? kept
            : *uniform<int64_t>(-len, last + 1);
    *valid = true;
    if (int32) return Tensor::from_values<DataType::int32>(t.shape(), {static_cast<int32_t>(v)});
    return Tensor::from_values<DataType::int64>(t.shape(), {v});
  }
  const int64_t v = *rc::gen::weightedOneOf<int64_t>(
      {{6, rc::gen::just(t.int_at(0))},
       {in_range ? 3u : 0u, uniform<int64_t>(-len, last + 1)},
       {1, rc::gen::elementOf(std::vector<int64_t>{last + 1, -len - 1})},
       {1, rc::gen::elementOf(std::vector{lo, hi})}});
  *valid = v >= -len && v <= last;
  if (int32) return Tensor::from_values<DataType::int32>(t.shape(), {static_cast<int32_t>(v)});
  return Tensor::from_values<DataType::int64>(t.shape(), {v});
}

// A split of the same type and shape for an input whose split axis has d elements: kept half
// the time, else a scalar chunk length (0 and negative ones some of the time), or a list that sums
// to d most of the time and need not otherwise.
// keep_valid: a positive scalar, or a list that sums to d (the split kept when none can).
Tensor resplit(const Tensor& t, int64_t d, bool keep_valid) {
  if (!integral(t.dtype()) || t.rank() > 1) return revalue(t);
  if (*rc::gen::weightedElement<bool>({{1, true}, {1, false}})) return t;
  std::vector<int64_t> v;
  if (t.rank() == 0) {
    v.push_back(
        *rc::gen::weightedOneOf<int64_t>({{6, uniform<int64_t>(1, std::max<int64_t>(d, 1) + 2)},
                                          {keep_valid ? 0u : 1u, uniform<int64_t>(-1, 1)}}));
  } else {
    const size_t k = t.element_count();
    if (keep_valid && (k == 0 || static_cast<int64_t>(k) > d)) return t;
    const bool sums = k > 0 && static_cast<int64_t>(k) <= d &&
                      (keep_valid || *rc::gen::weightedElement<bool>({{3, true}, {1, false}}));
    if (sums) {
      v.assign(k, 1);
      for (int64_t u = static_cast<int64_t>(k); u < d; ++u) ++v[*uniform<size_t>(0, k)];
    } else {
      for (size_t i = 0; i < k; ++i) v.push_back(*uniform<int64_t>(-1, 5));
    }
  }
  if (t.dtype() == DataType::int32)
    return Tensor::from_values<DataType::int32>(t.shape(),
                                                std::vector<int32_t>(v.begin(), v.end()));
  return Tensor::from_values<DataType::int64>(t.shape(), std::move(v));
}

// The elements of a sequence graph input: the same count most of the time (positions and
// SequenceMap's second sequence were drawn for it), else a new one; each of the shape of the
// first element most of the time, else of a new shape.
// keep_valid: the same count and shapes (the lengths SequenceMap's sequences must share, the
// shapes ConcatFromSequence concatenates), new elements.
std::vector<Tensor> resequence(DataType elem, const std::vector<Tensor>& tensors, bool keep_valid) {
  if (keep_valid) {
    std::vector<Tensor> out;
    for (const Tensor& t : tensors) out.push_back(revalue(t));
    return out;
  }
  const size_t n = *rc::gen::weightedElement<bool>({{3, true}, {1, false}})
                       ? tensors.size()
                       : *gens::sequence_length(5);
  const std::optional<Shape> like =
      tensors.empty() ? std::nullopt : std::optional<Shape>(tensors.front().shape());
  const bool same_shape = like && *rc::gen::weightedElement<bool>({{3, true}, {1, false}});
  const Shape shape = same_shape ? *like : *gens::shape(0, 3, 16);
  std::vector<Tensor> out;
  for (size_t i = 0; i < n; ++i) out.push_back(*gens::tensor_of(elem, shape));
  return out;
}

// The length of the axis SplitToSequence splits its input along; 1 when the axis is out of range
// (the program is invalid whatever the split).
int64_t split_axis_length(const Step& s) {
  const auto r = static_cast<int64_t>(s.tensor->rank());
  int64_t axis = s.axis.value_or(0);
  if (axis < 0) axis += r;
  return axis >= 0 && axis < r ? s.tensor->shape()[static_cast<size_t>(axis)] : 1;
}

}  // namespace

bool takes_input_sets(const Program& p) { return p.tensors_as != Placement::initializers; }

rc::Gen<Program> input_set_gen(const Program& p, bool keep_valid) {
  return rc::gen::exec([p, keep_valid] {
    Program q = p;
    if (q.source == SourceKind::input) {
      q.tensors = resequence(q.elem, q.tensors, keep_valid);
    } else {
      for (Tensor& t : q.tensors) t = revalue(t);
    }
    // The sequence's length step by step, as far as the input set can tell (the generator's
    // bookkeeping): a valid insert adds a tensor, a valid erase removes one.
    auto len = static_cast<int64_t>(q.tensors.size());
    for (Step& s : q.steps) {
      if (s.kind == StepKind::split && s.split)
        s.split = resplit(*s.split, split_axis_length(s), keep_valid);
      if (s.tensor) s.tensor = revalue(*s.tensor);
      bool valid = !s.position;
      if (s.position)
        s.position = reposition(*s.position, len, s.kind == StepKind::insert, keep_valid, &valid);
      if (s.kind == StepKind::insert && valid && s.tensor && s.tensor->dtype() == q.elem) ++len;
      if (s.kind == StepKind::erase && valid && len > 0) --len;
      if (s.extra && s.extra->is_tensor()) s.extra = Value(revalue(s.extra->tensor()));
      if (s.extra && s.extra->is_sequence()) {
        const Sequence& seq = s.extra->sequence();
        std::vector<Tensor> items;
        for (size_t i = 0; i < seq.size(); ++i) items.push_back(seq.at(i));
        s.extra = Value(Sequence(seq.elem_type(), resequence(seq.elem_type(), items, keep_valid)));
      }
    }
    return q;
  });
}

}  // namespace seqconf::difffuzz
