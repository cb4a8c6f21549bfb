// Properties of SequenceAt, SequenceErase and SequenceInsert: positions, defaults, lengths.
#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

using gens::PositionInput;

// Clause position.negative: p < 0 stands for p + n.
size_t from_back(int64_t p, size_t n) {
  return static_cast<size_t>(p < 0 ? p + static_cast<int64_t>(n) : p);
}

// A sequence of length 1..max (positions of SequenceAt and SequenceErase need one tensor).
rc::Gen<Sequence> nonempty_sequence() {
  return rc::gen::mapcat(gens::data_type(), [](DataType d) {
    return rc::gen::mapcat(rc::gen::inRange<size_t>(1, 7),
                           [d](size_t n) { return gens::sequence_of_length(d, n); });
  });
}

void insert_then_erase_is_identity(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  const size_t n = s.size();
  const PositionInput p = *gens::valid_position(n, /*accept_n=*/true);
  // SequenceInsert accepts [-n, n]; the tensor lands at index p (or p + n when negative), which
  // SequenceErase reaches in the new sequence of n + 1 tensors as q or q - (n + 1).
  const auto landed = static_cast<int64_t>(from_back(p.value, n));
  const PositionInput q =
      *gens::position_tensor(*rc::gen::element(landed, landed - static_cast<int64_t>(n + 1)));
  classify_length(n);
  classify_position(p.value, n);
  RC_CLASSIFY(q.value < 0, "negative erase position");
  const Sequence inserted = ops.sequence_insert(s, t, p.tensor, ctx);
  const Sequence back = ops.sequence_erase(inserted, q.tensor, ctx);
  RC_LOG() << "inserted " << show(inserted) << "\nerased " << show(back) << std::endl;
  RC_ASSERT(back.identical(s));
}

void insert_default_then_erase_default_is_identity(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  classify_length(s.size());
  // "by default it inserts 'tensor' to the back" / "by default it erases the last tensor"
  const Sequence back =
      ops.sequence_erase(ops.sequence_insert(s, t, std::nullopt, ctx), std::nullopt, ctx);
  RC_LOG() << "got " << show(back) << std::endl;
  RC_ASSERT(back.identical(s));
}

void at_after_insert_returns_inserted(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  const size_t n = s.size();
  const PositionInput p = *gens::valid_position(n, true);
  const auto landed = static_cast<int64_t>(from_back(p.value, n));
  const PositionInput q =
      *gens::position_tensor(*rc::gen::element(landed, landed - static_cast<int64_t>(n + 1)));
  classify_length(n);
  classify_position(p.value, n);
  classify_tensor(t);
  // Clause SequenceInsert.output_sequence.
  const Tensor got = ops.sequence_at(ops.sequence_insert(s, t, p.tensor, ctx), q.tensor, ctx);
  RC_LOG() << "SequenceAt gave " << format_tensor(got) << std::endl;
  RC_ASSERT(got.identical(t));
}

void insert_keeps_the_others_in_order(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  const size_t n = s.size();
  const PositionInput p = *gens::valid_position(n, true);
  classify_length(n);
  classify_position(p.value, n);
  const Sequence got = ops.sequence_insert(s, t, p.tensor, ctx);
  const Sequence expected = with_inserted(s, from_back(p.value, n), t);
  RC_LOG() << "got " << show(got) << "\nexpected " << show(expected) << std::endl;
  RC_ASSERT(got.identical(expected));
}

// p in [0, n - 1] and p - n name the same tensor.
template <class Check>
void negative_equivalence(Check&& check) {
  const Sequence s = *nonempty_sequence();
  const size_t n = s.size();
  const auto p = *gens::uniform<int64_t>(0, static_cast<int64_t>(n));
  const PositionInput pos = *gens::position_tensor(p);
  const PositionInput neg = *gens::position_tensor(p - static_cast<int64_t>(n));
  classify_length(n);
  RC_CLASSIFY(p == 0, "p - n = -n");
  RC_CLASSIFY(p == static_cast<int64_t>(n) - 1, "p - n = -1");
  check(s, static_cast<size_t>(p), pos, neg);
}

void at_negative_position(const OpSet& ops) {
  negative_equivalence(
      [&](const Sequence& s, size_t p, const PositionInput& pos, const PositionInput& neg) {
        Context ctx;
        const Tensor a = ops.sequence_at(s, pos.tensor, ctx);
        const Tensor b = ops.sequence_at(s, neg.tensor, ctx);
        RC_LOG() << "At(p) " << format_tensor(a) << "\nAt(p - n) " << format_tensor(b) << std::endl;
        RC_ASSERT(a.identical(s.at(p)));
        RC_ASSERT(b.identical(s.at(p)));
      });
}

void erase_negative_position(const OpSet& ops) {
  negative_equivalence(
      [&](const Sequence& s, size_t p, const PositionInput& pos, const PositionInput& neg) {
        Context ctx;
        const Sequence a = ops.sequence_erase(s, pos.tensor, ctx);
        const Sequence b = ops.sequence_erase(s, neg.tensor, ctx);
        const Sequence expected = without(s, p);
        RC_LOG() << "Erase(p) " << show(a) << "\nErase(p - n) " << show(b) << std::endl;
        RC_ASSERT(a.identical(expected));
        RC_ASSERT(b.identical(expected));
      });
}

void insert_negative_position(const OpSet& ops) {
  negative_equivalence(
      [&](const Sequence& s, size_t p, const PositionInput& pos, const PositionInput& neg) {
        Context ctx;
        const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
        const Sequence a = ops.sequence_insert(s, t, pos.tensor, ctx);
        const Sequence b = ops.sequence_insert(s, t, neg.tensor, ctx);
        const Sequence expected = with_inserted(s, p, t);
        RC_LOG() << "Insert(p) " << show(a) << "\nInsert(p - n) " << show(b) << std::endl;
        RC_ASSERT(a.identical(expected));
        RC_ASSERT(b.identical(expected));
      });
}

void erase_default_is_last(const OpSet& ops) {
  Context ctx;
  const Sequence s = *nonempty_sequence();
  const size_t n = s.size();
  classify_length(n);
  // "by default it erases the last tensor": the same as position -1 and position n - 1.
  const Sequence by_default = ops.sequence_erase(s, std::nullopt, ctx);
  const Sequence minus_one = ops.sequence_erase(s, (*gens::position_tensor(-1)).tensor, ctx);
  const Sequence last =
      ops.sequence_erase(s, (*gens::position_tensor(static_cast<int64_t>(n) - 1)).tensor, ctx);
  const Sequence expected = without(s, n - 1);
  RC_LOG() << "default " << show(by_default) << "\n-1 " << show(minus_one) << "\nn-1 " << show(last)
           << std::endl;
  RC_ASSERT(by_default.identical(expected));
  RC_ASSERT(minus_one.identical(expected));
  RC_ASSERT(last.identical(expected));
}

void insert_default_is_n(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  const size_t n = s.size();
  classify_length(n);
  // "by default it inserts 'tensor' to the back": the same as position n.
  const Sequence by_default = ops.sequence_insert(s, t, std::nullopt, ctx);
  const Sequence at_n =
      ops.sequence_insert(s, t, (*gens::position_tensor(static_cast<int64_t>(n))).tensor, ctx);
  const Sequence expected = with_inserted(s, n, t);
  RC_LOG() << "default " << show(by_default) << "\nat n " << show(at_n) << std::endl;
  RC_ASSERT(by_default.identical(expected));
  RC_ASSERT(at_n.identical(expected));
}

void length_laws(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 3, 16);
  const size_t n = s.size();
  classify_length(n);
  const bool use_default = *rc::gen::arbitrary<bool>();
  const std::optional<Tensor> p =
      use_default ? std::nullopt : std::optional<Tensor>((*gens::valid_position(n, true)).tensor);
  RC_CLASSIFY(use_default, "default position");
  RC_ASSERT(ops.sequence_insert(s, t, p, ctx).size() == n + 1);
  if (n > 0) {
    const std::optional<Tensor> q =
        use_default ? std::nullopt
                    : std::optional<Tensor>((*gens::valid_position(n, false)).tensor);
    RC_ASSERT(ops.sequence_erase(s, q, ctx).size() == n - 1);
    RC_ASSERT(ops.sequence_at(s, (*gens::valid_position(n, false)).tensor, ctx).dtype() ==
              s.elem_type());
  }
  // SplitToSequence: one tensor per chunk (the generator derives the chunk count from the spec).
  const Tensor x = *gens::tensor_of_type(s.elem_type(), 1, 4);
  const int64_t axis = *gens::valid_axis(x.rank());
  const int64_t d =
      x.shape()[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(x.rank()) : axis)];
  const gens::SplitInput split = *gens::valid_split(d);
  RC_CLASSIFY(split.form == gens::SplitInput::Form::scalar && d % (*split.split).int_at(0) != 0,
              "uneven split");
  const Sequence chunks = ops.split_to_sequence(x, split.split, axis, 1, ctx);
  RC_LOG() << "split into " << chunks.size() << " chunks, expected "
           << split.expected_lengths.size() << std::endl;
  RC_ASSERT(chunks.size() == split.expected_lengths.size());
}

// Clause position.out_of_bounds.
void out_of_range_rejected(const OpSet& ops) {
  Context ctx;
  const Sequence s = *gens::sequence();
  const size_t n = s.size();
  const int op = *gens::uniform<int>(0, 4);
  classify_length(n);
  switch (op) {
    case 0: {
      const PositionInput p = *gens::invalid_position(n, false);
      RC_TAG("SequenceAt");
      RC_CLASSIFY(p.value < 0, "negative position");
      assert_error({ErrorCode::position_out_of_range}, [&] { ops.sequence_at(s, p.tensor, ctx); });
      break;
    }
    case 1: {
      const PositionInput p = *gens::invalid_position(n, false);
      RC_TAG("SequenceErase");
      RC_CLASSIFY(p.value < 0, "negative position");
      assert_error({ErrorCode::position_out_of_range},
                   [&] { ops.sequence_erase(s, p.tensor, ctx); });
      break;
    }
    case 2: {
      const PositionInput p = *gens::invalid_position(n, true);
      const Tensor t = *gens::tensor_of_type(s.elem_type(), 0, 2, 4);
      RC_TAG("SequenceInsert");
      RC_CLASSIFY(p.value < 0, "negative position");
      assert_error({ErrorCode::position_out_of_range},
                   [&] { ops.sequence_insert(s, t, p.tensor, ctx); });
      break;
    }
    default: {
      // Erase with the default position on an empty sequence: there is no last tensor and
      // [-0, -1] holds no position.
      RC_TAG("SequenceErase default on empty");
      assert_error({ErrorCode::position_out_of_range},
                   [&] { ops.sequence_erase(Sequence(s.elem_type()), std::nullopt, ctx); });
      break;
    }
  }
}

}  // namespace

void add_position_properties(std::vector<PropertyDef>& out) {
  const std::string neg = spec_text({"position.negative"});
  out.push_back({"SequenceInsert/InsertThenEraseIsIdentity",
                 "SequenceInsert: Accepted range for 'position' is in `[-n, n]`; SequenceErase "
                 "removes the tensor at 'position'.",
                 insert_then_erase_is_identity});
  out.push_back({"SequenceInsert/InsertDefaultThenEraseDefaultIsIdentity",
                 "'position' is optional, by default it inserts 'tensor' to the back / erases "
                 "the last tensor.",
                 insert_default_then_erase_default_is_identity});
  out.push_back({"SequenceInsert/AtAfterInsertReturnsInserted",
                 spec_text({"SequenceInsert.output_sequence"}), at_after_insert_returns_inserted});
  out.push_back({"SequenceInsert/InsertKeepsTheOthersInOrder",
                 spec_text({"SequenceInsert.summary"}), insert_keeps_the_others_in_order});
  out.push_back({"SequenceAt/NegativePositionCountsFromBack", neg, at_negative_position});
  out.push_back({"SequenceErase/NegativePositionCountsFromBack", neg, erase_negative_position});
  out.push_back({"SequenceInsert/NegativePositionCountsFromBack", neg, insert_negative_position});
  out.push_back({"SequenceErase/DefaultErasesTheLast",
                 spec_text({"SequenceErase.position_default"}), erase_default_is_last});
  out.push_back({"SequenceInsert/DefaultInsertsAtN", spec_text({"SequenceInsert.position_default"}),
                 insert_default_is_n});
  out.push_back({"Sequence/LengthLaws",
                 "Insert adds one tensor, Erase removes one, SplitToSequence gives one tensor "
                 "per chunk.",
                 length_laws});
  out.push_back({"Position/OutOfRangeRejected", spec_text({"position.out_of_bounds"}),
                 out_of_range_rejected});
}

}  // namespace seqconf::properties
