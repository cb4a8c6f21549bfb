#include "tests/properties/mutants.h"

#include <algorithm>

#include "properties/properties.h"
#include "reference/ops/ops.h"

namespace seqconf::properties {

namespace {

[[noreturn]] void out_of_range(const char* op, int64_t p, size_t n) {
  throw Error(ErrorCode::position_out_of_range, std::string(op) + ": position " +
                                                    std::to_string(p) + " out of range for " +
                                                    std::to_string(n));
}

// Negative positions counted from the back one too far: -1 names n - 2.
size_t off_by_one_index(const char* op, int64_t p, size_t n, bool accept_n) {
  const auto len = static_cast<int64_t>(n);
  const int64_t i = p < 0 ? p + len - 1 : p;
  if (i < 0 || i > (accept_n ? len : len - 1)) out_of_range(op, p, n);
  return static_cast<size_t>(i);
}

// Out-of-range positions wrap around instead of failing (ONNX's Python reference evaluator).
size_t wrapping_index(int64_t p, size_t n, bool accept_n) {
  const auto m = static_cast<int64_t>(accept_n ? n + 1 : n);
  if (m == 0) throw Error(ErrorCode::invalid_argument, "pop from empty list");
  return static_cast<size_t>(((p % m) + m) % m);
}

Mutant negative_position_off_by_one() {
  Mutant m{
      "negative_position_off_by_one",
      "negative positions map to p + n - 1 instead of p + n in SequenceAt, SequenceErase "
      "and SequenceInsert",
      reference_ops(),
      {"SequenceAt/NegativePositionCountsFromBack", "SequenceErase/NegativePositionCountsFromBack",
       "SequenceInsert/NegativePositionCountsFromBack",
       "SequenceInsert/InsertKeepsTheOthersInOrder", "SequenceErase/DefaultErasesTheLast"}};
  m.ops.sequence_at = [](const Sequence& s, const Tensor& p, Context&) {
    return s.at(off_by_one_index("SequenceAt", p.int_at(0), s.size(), false));
  };
  m.ops.sequence_erase = [](const Sequence& s, const std::optional<Tensor>& p, Context& ctx) {
    if (!p) return ops::SequenceErase(s, p, ctx);
    return s.erased(off_by_one_index("SequenceErase", p->int_at(0), s.size(), false));
  };
  m.ops.sequence_insert = [](const Sequence& s, const Tensor& t, const std::optional<Tensor>& p,
                             Context& ctx) {
    if (!p) return ops::SequenceInsert(s, t, p, ctx);
    return s.inserted(off_by_one_index("SequenceInsert", p->int_at(0), s.size(), true), t);
  };
  return m;
}

Mutant insert_at_n_goes_to_front() {
  Mutant m{
      "insert_at_n_goes_to_front",
      "SequenceInsert with explicit position n puts the tensor at the front (ONNX's Python "
      "reference evaluator)",
      reference_ops(),
      {"SequenceInsert/DefaultInsertsAtN", "SequenceInsert/AtAfterInsertReturnsInserted",
       "SequenceInsert/InsertKeepsTheOthersInOrder", "SequenceInsert/InsertThenEraseIsIdentity"}};
  m.ops.sequence_insert = [](const Sequence& s, const Tensor& t, const std::optional<Tensor>& p,
                             Context& ctx) {
    if (p && p->int_at(0) == static_cast<int64_t>(s.size())) return s.inserted(0, t);
    return ops::SequenceInsert(s, t, p, ctx);
  };
  return m;
}

Mutant insert_replaces() {
  Mutant m{"insert_replaces",
           "SequenceInsert overwrites the tensor at the position instead of inserting before it",
           reference_ops(),
           {"Sequence/LengthLaws", "SequenceInsert/InsertKeepsTheOthersInOrder",
            "SequenceInsert/InsertThenEraseIsIdentity"}};
  m.ops.sequence_insert = [](const Sequence& s, const Tensor& t, const std::optional<Tensor>& p,
                             Context& ctx) {
    const Sequence r = ops::SequenceInsert(s, t, p, ctx);
    if (!p) return r;
    const size_t i = ops::normalize_position("SequenceInsert", *p, s.size(), true, ctx);
    return i < s.size() ? r.erased(i + 1) : r;
  };
  return m;
}

Mutant erase_default_erases_first() {
  Mutant m{"erase_default_erases_first",
           "SequenceErase without position erases the first tensor",
           reference_ops(),
           {"SequenceErase/DefaultErasesTheLast",
            "SequenceInsert/InsertDefaultThenEraseDefaultIsIdentity"}};
  m.ops.sequence_erase = [](const Sequence& s, const std::optional<Tensor>& p, Context& ctx) {
    if (!p && !s.empty()) return s.erased(0);
    return ops::SequenceErase(s, p, ctx);
  };
  return m;
}

Mutant out_of_range_wraps() {
  Mutant m{"out_of_range_wraps",
           "out-of-range positions wrap around instead of failing; an empty sequence fails with "
           "another error (ONNX's Python reference evaluator)",
           reference_ops(),
           {"Position/OutOfRangeRejected"}};
  m.ops.sequence_at = [](const Sequence& s, const Tensor& p, Context&) {
    return s.at(wrapping_index(p.int_at(0), s.size(), false));
  };
  m.ops.sequence_erase = [](const Sequence& s, const std::optional<Tensor>& p, Context&) {
    return s.erased(p ? wrapping_index(p->int_at(0), s.size(), false)
                      : wrapping_index(-1, s.size(), false));
  };
  m.ops.sequence_insert = [](const Sequence& s, const Tensor& t, const std::optional<Tensor>& p,
                             Context&) {
    return s.inserted(p ? wrapping_index(p->int_at(0), s.size(), true) : s.size(), t);
  };
  return m;
}

Mutant erase_to_empty_loses_elem_type() {
  Mutant m{"erase_to_empty_loses_elem_type",
           "SequenceErase returns an empty sequence of float when it removes the last tensor",
           reference_ops(),
           {"Types/ElementTypePreserved"}};
  m.ops.sequence_erase = [](const Sequence& s, const std::optional<Tensor>& p, Context& ctx) {
    const Sequence r = ops::SequenceErase(s, p, ctx);
    return r.empty() ? Sequence(DataType::float32) : r;
  };
  return m;
}

size_t axis_index(const Tensor& x, int64_t axis) {
  return static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(x.rank()) : axis);
}

Mutant scalar_split_keepdims_applied() {
  Mutant m{
      "scalar_split_keepdims_applied",
      "SplitToSequence with a scalar split and keepdims=0 removes the axis from chunks of "
      "length 1 (keepdims must be ignored when split is given)",
      reference_ops(),
      {"SplitToSequence/KeepdimsIgnoredWhenSplitGiven", "SplitToSequence/ChunksAreSlicesOfInput"}};
  m.ops.split_to_sequence = [](const Tensor& x, const std::optional<Tensor>& split, int64_t axis,
                               int64_t keepdims, Context& ctx) {
    const Sequence r = ops::SplitToSequence(x, split, axis, keepdims, ctx);
    if (!split || split->rank() != 0 || keepdims != 0) return r;
    const size_t a = axis_index(x, axis);
    std::vector<Tensor> out;
    for (const Tensor& t : r.tensors()) {
      Shape s = t.shape();
      if (s[a] == 1) s.erase(s.begin() + static_cast<std::ptrdiff_t>(a));
      out.push_back(t.reshaped(s));
    }
    return Sequence(r.elem_type(), std::move(out));
  };
  return m;
}

Mutant split_drops_last_uneven_chunk() {
  Mutant m{"split_drops_last_uneven_chunk",
           "SplitToSequence with a scalar split that does not divide the axis drops the shorter "
           "last chunk",
           reference_ops(),
           {"SplitToSequence/ScalarSplitChunkLengths", "SplitToSequence/ChunksAreSlicesOfInput",
            "Sequence/LengthLaws", "SplitToSequence/ConcatRoundTrip"}};
  m.ops.split_to_sequence = [](const Tensor& x, const std::optional<Tensor>& split, int64_t axis,
                               int64_t keepdims, Context& ctx) {
    const Sequence r = ops::SplitToSequence(x, split, axis, keepdims, ctx);
    if (!split || split->rank() != 0) return r;
    const int64_t d = x.shape()[axis_index(x, axis)];
    return d % split->int_at(0) != 0 ? r.erased(r.size() - 1) : r;
  };
  return m;
}

Mutant no_split_keepdims_ignored() {
  Mutant m{"no_split_keepdims_ignored",
           "SplitToSequence without split keeps the axis even when keepdims=0",
           reference_ops(),
           {"SplitToSequence/NoSplitGivesUnitChunks", "SplitToSequence/ChunksAreSlicesOfInput",
            "SplitToSequence/StackRoundTrip"}};
  m.ops.split_to_sequence = [](const Tensor& x, const std::optional<Tensor>& split, int64_t axis,
                               int64_t, Context& ctx) {
    return ops::SplitToSequence(x, split, axis, 1, ctx);
  };
  return m;
}

Mutant split_sum_unchecked() {
  Mutant m{"split_sum_unchecked",
           "SplitToSequence accepts a 1-D split whose sum differs from the axis length and cuts "
           "what is there",
           reference_ops(),
           {"SplitToSequence/InvalidSplitRejected"}};
  m.ops.split_to_sequence = [](const Tensor& x, const std::optional<Tensor>& split, int64_t axis,
                               int64_t keepdims, Context& ctx) {
    if (!split || split->rank() != 1 || x.rank() == 0 ||
        (split->dtype() != DataType::int32 && split->dtype() != DataType::int64))
      return ops::SplitToSequence(x, split, axis, keepdims, ctx);
    const auto r = static_cast<int64_t>(x.rank());
    if (axis < -r || axis >= r) return ops::SplitToSequence(x, split, axis, keepdims, ctx);
    const size_t a = axis_index(x, axis);
    const int64_t d = x.shape()[a];
    std::vector<Tensor> out;
    int64_t start = 0;
    for (size_t k = 0; k < split->element_count(); ++k) {
      const int64_t len = std::min(split->int_at(k), d - start);
      if (len < 0) return ops::SplitToSequence(x, split, axis, keepdims, ctx);
      out.push_back(slice_axis(x, a, start, len));
      start += len;
    }
    return Sequence(x.dtype(), std::move(out));
  };
  return m;
}

Mutant map_pairs_with_sample_0() {
  Mutant m{"map_pairs_with_sample_0",
           "SequenceMap passes sample 0 of the second sequence input to every iteration",
           reference_ops(),
           {"SequenceMap/EqualsBodyAppliedPerSample", "SequenceMap/EqualsLoopExpansion"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    std::vector<Value> changed = extra;
    for (Value& v : changed)
      if (v.is_sequence() && !v.sequence().empty())
        v = Sequence(v.sequence().elem_type(),
                     std::vector<Tensor>(v.sequence().size(), v.sequence().at(0)));
    return ops::SequenceMap(s, changed, body, ctx);
  };
  return m;
}

Mutant map_reverses_samples() {
  Mutant m{"map_reverses_samples",
           "SequenceMap outputs the samples in reverse order",
           reference_ops(),
           {"SequenceMap/IdentityIsIdentity", "SequenceMap/EqualsBodyAppliedPerSample",
            "SequenceMap/EqualsLoopExpansion"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    auto out = ops::SequenceMap(s, extra, body, ctx);
    for (Sequence& o : out) {
      std::vector<Tensor> v = o.empty() ? std::vector<Tensor>{} : o.tensors();
      std::reverse(v.begin(), v.end());
      o = Sequence(o.elem_type(), std::move(v));
    }
    return out;
  };
  return m;
}

Mutant map_empty_output_is_float() {
  Mutant m{"map_empty_output_is_float",
           "SequenceMap over an empty sequence returns empty sequences of float, not of the "
           "body's output types",
           reference_ops(),
           {"Types/ElementTypePreserved", "SequenceMap/IdentityIsIdentity"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    auto out = ops::SequenceMap(s, extra, body, ctx);
    if (s.empty())
      for (Sequence& o : out) o = Sequence(DataType::float32);
    return out;
  };
  return m;
}

Mutant map_length_unchecked() {
  Mutant m{
      "map_length_unchecked",
      "SequenceMap runs over the shorter length when sequence inputs differ in length",
      reference_ops(),
      {"SequenceMap/StrictRejectsAnyOtherLength", "SequenceMap/LenientReadsFirstSamplesOfLonger"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    size_t n = s.size();
    for (const Value& v : extra)
      if (v.is_sequence()) n = std::min(n, v.sequence().size());
    auto first_n = [n](const Sequence& q) {
      std::vector<Tensor> v;
      for (size_t i = 0; i < n; ++i) v.push_back(q.at(i));
      return Sequence(q.elem_type(), std::move(v));
    };
    std::vector<Value> cut = extra;
    for (Value& v : cut)
      if (v.is_sequence()) v = first_n(v.sequence());
    return ops::SequenceMap(first_n(s), cut, body, ctx);
  };
  return m;
}

Mutant map_longer_rejected() {
  Mutant m{"map_longer_rejected",
           "SequenceMap rejects a longer second sequence whatever the policy",
           reference_ops(),
           {"SequenceMap/LenientReadsFirstSamplesOfLonger"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    Context strict = ctx;
    strict.policy = Policy::strict;
    return ops::SequenceMap(s, extra, body, strict);
  };
  return m;
}

Mutant map_longer_not_noted() {
  Mutant m{"map_longer_not_noted",
           "SequenceMap reads the first samples of a longer second sequence without recording "
           "the ambiguity",
           reference_ops(),
           {"SequenceMap/LenientReadsFirstSamplesOfLonger"}};
  m.ops.sequence_map = [](const Sequence& s, const std::vector<Value>& extra,
                          const ops::SequenceMapBody& body, Context& ctx) {
    auto out = ops::SequenceMap(s, extra, body, ctx);
    ctx.ambiguities.clear();
    return out;
  };
  return m;
}

Mutant empty_sequence_decoded_as_float() {
  Mutant m{"empty_sequence_decoded_as_float",
           "decoding ignores the declared type of an empty SequenceProto and gives a sequence of "
           "float",
           reference_ops(),
           {"Proto/RoundTripBothEncodings"}};
  m.ops.decode = [](const std::string& bytes, const onnx::TypeProto& declared) {
    Value v = value_from_bytes(bytes, declared, "value");
    if (v.is_sequence() && v.sequence().empty()) return Value(Sequence(DataType::float32));
    return v;
  };
  return m;
}

// ConcatFromSequence with new_axis=1 stacks on a new last axis whatever the axis says.
Mutant concat_stacks_on_last_axis() {
  Mutant m{"concat_stacks_on_last_axis",
           "ConcatFromSequence with new_axis=1 stacks on a new last axis, whatever axis says",
           reference_ops(),
           {"ConcatFromSequence/StackedSlicesAreTheElements"}};
  m.ops.concat_from_sequence = [](const Sequence& s, int64_t axis, int64_t new_axis) {
    if (new_axis == 1 && !s.empty()) axis = static_cast<int64_t>(s.at(0).rank());
    return ops::ConcatFromSequence(s, axis, new_axis);
  };
  return m;
}

// ConcatFromSequence with new_axis=1 counts a negative axis from the back of the r input axes
// instead of the r + 1 output axes.
Mutant concat_new_axis_negative_against_r() {
  Mutant m{"concat_new_axis_negative_against_r",
           "ConcatFromSequence with new_axis=1 normalizes a negative axis against r instead "
           "of r + 1",
           reference_ops(),
           {"ConcatFromSequence/StackedSlicesAreTheElements"}};
  m.ops.concat_from_sequence = [](const Sequence& s, int64_t axis, int64_t new_axis) {
    const auto r = s.empty() ? 0 : static_cast<int64_t>(s.at(0).rank());
    if (new_axis == 1 && axis < 0 && axis + r >= 0) axis += r;
    return ops::ConcatFromSequence(s, axis, new_axis);
  };
  return m;
}

// SequenceConstruct leaves inputs without elements out.
Mutant construct_drops_empty_tensors() {
  Mutant m{"construct_drops_empty_tensors",
           "SequenceConstruct leaves inputs without elements out of the sequence",
           reference_ops(),
           {"SequenceConstruct/KeepsTheInputsInOrder"}};
  m.ops.sequence_construct = [](const std::vector<Tensor>& inputs) {
    std::vector<Tensor> kept;
    for (const Tensor& t : inputs)
      if (t.element_count() != 0) kept.push_back(t);
    return kept.empty() ? ops::SequenceConstruct(inputs) : ops::SequenceConstruct(kept);
  };
  return m;
}

// SequenceLength returns a tensor of shape [1].
Mutant length_shape_one() {
  Mutant m{"length_shape_one",
           "SequenceLength returns the length as a tensor of shape [1]",
           reference_ops(),
           {"SequenceLength/IsTheNumberOfTensors"}};
  m.ops.sequence_length = [](const Sequence& s) {
    return Tensor::from_values<DataType::int64>({1}, {static_cast<int64_t>(s.size())});
  };
  return m;
}

// SequenceEmpty without dtype gives a sequence of int64.
Mutant empty_default_int64() {
  Mutant m{"empty_default_int64",
           "SequenceEmpty without a dtype gives a sequence of int64",
           reference_ops(),
           {"SequenceEmpty/IsOfItsDtype"}};
  m.ops.sequence_empty = [](std::optional<DataType> dtype) {
    return ops::SequenceEmpty(dtype.value_or(DataType::int64));
  };
  return m;
}

}  // namespace

std::vector<Mutant> all_mutants() {
  return {negative_position_off_by_one(),
          insert_at_n_goes_to_front(),
          insert_replaces(),
          erase_default_erases_first(),
          out_of_range_wraps(),
          erase_to_empty_loses_elem_type(),
          scalar_split_keepdims_applied(),
          split_drops_last_uneven_chunk(),
          no_split_keepdims_ignored(),
          split_sum_unchecked(),
          map_pairs_with_sample_0(),
          map_reverses_samples(),
          map_empty_output_is_float(),
          map_length_unchecked(),
          map_longer_rejected(),
          map_longer_not_noted(),
          empty_sequence_decoded_as_float(),
          concat_stacks_on_last_axis(),
          concat_new_axis_negative_against_r(),
          construct_drops_empty_tensors(),
          length_shape_one(),
          empty_default_int64()};
}

}  // namespace seqconf::properties
