// Properties of SplitToSequence: chunk contents and lengths, keepdims, invalid splits, and the
// round trip through ConcatFromSequence.
#include <cstring>

#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

using gens::SplitInput;
using Form = SplitInput::Form;

struct SplitCase {
  Tensor x;
  int64_t axis = 0;
  size_t a = 0;   // axis counted from the front
  int64_t d = 0;  // x.shape()[a]
};

// A tensor of rank 1..4 of any type and an axis in [-rank, rank-1].
SplitCase split_case() {
  SplitCase c;
  c.x = *gens::tensor(1, 4);
  c.axis = *gens::valid_axis(c.x.rank());
  const auto rank = static_cast<int64_t>(c.x.rank());
  // Clause SplitToSequence.axis_negative.
  c.a = static_cast<size_t>(c.axis < 0 ? c.axis + rank : c.axis);
  c.d = c.x.shape()[c.a];
  RC_CLASSIFY(c.axis < 0, "negative axis");
  RC_CLASSIFY(c.x.element_count() == 0, "zero-size tensor");
  RC_CLASSIFY(c.x.dtype() == DataType::string, "string");
  RC_CLASSIFY(c.x.dtype() == DataType::float16, "float16");
  return c;
}

void classify_split(const SplitInput& split, int64_t d) {
  RC_TAG(std::string("split ") + gens::split_form_name(split.form));
  RC_CLASSIFY(split.form == Form::scalar && d % split.split->int_at(0) != 0, "uneven split");
  RC_CLASSIFY(split.expected_lengths.empty(), "no chunk");
  RC_CLASSIFY(std::find(split.expected_lengths.begin(), split.expected_lengths.end(), 0) !=
                  split.expected_lengths.end(),
              "zero-length chunk");
}

void chunks_are_slices_of_input(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  const SplitInput split = *gens::valid_split(c.d);
  const int64_t keepdims = *rc::gen::element<int64_t>(0, 1);
  classify_split(split, c.d);
  RC_CLASSIFY(keepdims == 0, "keepdims=0");
  const Sequence got = ops.split_to_sequence(c.x, split.split, c.axis, keepdims, ctx);
  RC_LOG() << "got " << show(got) << std::endl;
  RC_ASSERT(got.elem_type() == c.x.dtype());
  RC_ASSERT(got.size() == split.expected_lengths.size());
  // Clause SplitToSequence.keepdims_ignored.
  const bool keep_axis = split.form != Form::absent || keepdims == 1;
  int64_t start = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    const int64_t len = split.expected_lengths[k];
    const Tensor expected = expected_chunk(c.x, c.a, start, len, keep_axis);
    RC_LOG() << "chunk " << k << " expected " << format_tensor(expected) << std::endl;
    RC_ASSERT(got.at(k).identical(expected));
    start += len;
  }
}

// Clauses SplitToSequence.split_scalar and SplitToSequence.split_scalar_last.
void scalar_split_chunk_lengths(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  const int64_t s = *rc::gen::weightedOneOf<int64_t>(
      {{1, rc::gen::just<int64_t>(1)},
       {3, gens::uniform<int64_t>(1, std::max<int64_t>(c.d, 1) + 3)}});
  const Tensor split = *gens::split_tensor({}, {s});
  RC_CLASSIFY(c.d % s != 0, "uneven split");
  RC_CLASSIFY(s > c.d, "split longer than the axis");
  const Sequence got = ops.split_to_sequence(c.x, split, c.axis, 1, ctx);
  const int64_t chunks = c.d / s + (c.d % s != 0 ? 1 : 0);  // ceil(d / s)
  RC_LOG() << "d=" << c.d << " s=" << s << " got " << show(got) << std::endl;
  RC_ASSERT(static_cast<int64_t>(got.size()) == chunks);
  for (size_t k = 0; k < got.size(); ++k) {
    RC_ASSERT(got.at(k).rank() == c.x.rank());
    const int64_t len = got.at(k).shape()[c.a];
    if (static_cast<int64_t>(k) + 1 < chunks) {
      RC_ASSERT(len == s);
    } else {
      RC_ASSERT(len == c.d - (chunks - 1) * s);
      RC_ASSERT(len > 0 && len <= s);
    }
  }
}

void keepdims_ignored_when_split_given(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  const SplitInput split = *gens::valid_split(c.d, /*allow_absent=*/false);
  classify_split(split, c.d);
  // Clause SplitToSequence.keepdims_ignored.
  const Sequence keep = ops.split_to_sequence(c.x, split.split, c.axis, 1, ctx);
  const Sequence drop = ops.split_to_sequence(c.x, split.split, c.axis, 0, ctx);
  RC_LOG() << "keepdims=1 " << show(keep) << "\nkeepdims=0 " << show(drop) << std::endl;
  RC_ASSERT(keep.identical(drop));
}

void no_split_gives_unit_chunks(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  // Without 'split' the chunks have length 1; clauses SplitToSequence.keepdims and
  // SplitToSequence.keepdims_default.
  const Sequence keep = ops.split_to_sequence(c.x, std::nullopt, c.axis, 1, ctx);
  const Sequence drop = ops.split_to_sequence(c.x, std::nullopt, c.axis, 0, ctx);
  RC_LOG() << "keepdims=1 " << show(keep) << "\nkeepdims=0 " << show(drop) << std::endl;
  RC_ASSERT(static_cast<int64_t>(keep.size()) == c.d);
  RC_ASSERT(static_cast<int64_t>(drop.size()) == c.d);
  Shape squeezed = c.x.shape();
  squeezed.erase(squeezed.begin() + static_cast<std::ptrdiff_t>(c.a));
  for (size_t k = 0; k < keep.size(); ++k) {
    RC_ASSERT(keep.at(k).shape()[c.a] == 1);
    RC_ASSERT(keep.at(k).rank() == c.x.rank());
    RC_ASSERT(drop.at(k).shape() == squeezed);
    RC_ASSERT(drop.at(k).reshaped(keep.at(k).shape()).identical(keep.at(k)));
  }
}

void invalid_split_rejected(const OpSet& ops) {
  Context ctx;
  const int kind = *gens::uniform<int>(0, 5);
  if (kind == 0) {
    // axis: "Accepted range is [-rank, rank-1]" (empty for a scalar input).
    const Tensor x = *gens::tensor(0, 3);
    const int64_t axis = *gens::invalid_axis(x.rank());
    RC_TAG("axis out of range");
    RC_CLASSIFY(x.rank() == 0, "scalar input");
    assert_error({ErrorCode::axis_out_of_range},
                 [&] { ops.split_to_sequence(x, std::nullopt, axis, 1, ctx); });
    return;
  }
  const SplitCase c = split_case();
  const SplitInput split = *gens::invalid_split(c.d);
  RC_TAG(std::string("invalid split ") + gens::split_form_name(split.form));
  RC_TAG(std::string(error_code_name(split.expected_errors.front())));
  const int64_t keepdims = *rc::gen::element<int64_t>(0, 1);
  assert_error(split.expected_errors,
               [&] { ops.split_to_sequence(c.x, split.split, c.axis, keepdims, ctx); });
}

// ConcatFromSequence(SplitToSequence(x, split, axis), axis) == x for every split form.
void concat_round_trip(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  const SplitInput split = *gens::valid_split(c.d);
  // keepdims matters only without split, where 1 keeps the axis concat joins along.
  const int64_t keepdims = split.form == Form::absent ? 1 : *rc::gen::element<int64_t>(0, 1);
  classify_split(split, c.d);
  const Sequence chunks = ops.split_to_sequence(c.x, split.split, c.axis, keepdims, ctx);
  RC_LOG() << "chunks " << show(chunks) << std::endl;
  if (chunks.empty()) {
    // No chunk to concatenate (ConcatFromSequence needs one tensor): only a zero-length axis
    // splits into nothing.
    RC_ASSERT(c.d == 0);
    return;
  }
  const Tensor back = ops.concat_from_sequence(chunks, c.axis, 0);
  RC_LOG() << "ConcatFromSequence gave " << format_tensor(back) << std::endl;
  RC_ASSERT(back.identical(c.x));
}

// Without split and with keepdims=0 the chunks lose the axis; ConcatFromSequence with
// new_axis=1 ("similar to numpy.stack") puts it back.
void stack_round_trip(const OpSet& ops) {
  Context ctx;
  const SplitCase c = split_case();
  const Sequence chunks = ops.split_to_sequence(c.x, std::nullopt, c.axis, 0, ctx);
  RC_LOG() << "chunks " << show(chunks) << std::endl;
  if (chunks.empty()) {
    RC_ASSERT(c.d == 0);
    return;
  }
  // new_axis=1 accepts axis in [-r - 1, r] for chunks of rank r = rank(x) - 1: the same axis
  // value names the same place.
  const Tensor back = ops.concat_from_sequence(chunks, c.axis, 1);
  RC_LOG() << "ConcatFromSequence(new_axis=1) gave " << format_tensor(back) << std::endl;
  RC_ASSERT(back.identical(c.x));
}

}  // namespace

void add_split_properties(std::vector<PropertyDef>& out) {
  out.push_back({"SplitToSequence/ChunksAreSlicesOfInput",
                 spec_text({"SplitToSequence.summary", "SplitToSequence.split_lengths"}),
                 chunks_are_slices_of_input});
  out.push_back({"SplitToSequence/ScalarSplitChunkLengths",
                 spec_text({"SplitToSequence.split_scalar", "SplitToSequence.split_scalar_last"}),
                 scalar_split_chunk_lengths});
  out.push_back({"SplitToSequence/KeepdimsIgnoredWhenSplitGiven",
                 "keepdims: " + spec_text({"SplitToSequence.keepdims_ignored"}),
                 keepdims_ignored_when_split_given});
  out.push_back(
      {"SplitToSequence/NoSplitGivesUnitChunks",
       "keepdims: " + spec_text({"SplitToSequence.keepdims", "SplitToSequence.keepdims_default"}),
       no_split_gives_unit_chunks});
  out.push_back({"SplitToSequence/InvalidSplitRejected",
                 "'split' must contain only positive numbers ... the sum of entries in 'split' "
                 "must be equal to the dimension size of input tensor on 'axis'.",
                 invalid_split_rejected});
  out.push_back({"SplitToSequence/ConcatRoundTrip",
                 "Split a tensor into a sequence of tensors, along the specified 'axis' "
                 "(ConcatFromSequence: Concatenate a sequence of tensors into a single tensor).",
                 concat_round_trip});
  out.push_back({"SplitToSequence/StackRoundTrip",
                 "keepdims=0 without split removes the axis; ConcatFromSequence: " +
                     spec_text({"ConcatFromSequence.new_axis_stack"}),
                 stack_round_trip});
}

}  // namespace seqconf::properties
