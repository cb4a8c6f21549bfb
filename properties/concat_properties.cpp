// Properties of the companion operators: ConcatFromSequence's stacking (new_axis=1) puts element
// i at index i of the new axis, wherever the axis is and however it is written;
// SequenceConstruct keeps its inputs in order, SequenceLength counts them, SequenceEmpty is of
// its dtype, float by default.
#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

// n tensors of one type and one shape of rank 0..3, stacked at an axis drawn from [-r - 1, r].
void stacked_slices_are_the_elements(const OpSet& ops) {
  const DataType dtype = *gens::data_type();
  const Shape shape = *gens::shape(0, 3, 24);
  const auto n = *rc::gen::inRange<size_t>(1, 5);
  std::vector<Tensor> elements;
  for (size_t i = 0; i < n; ++i) elements.push_back(*gens::tensor_of(dtype, shape));
  const Sequence s(dtype, elements);
  const auto r = static_cast<int64_t>(shape.size());
  const int64_t axis = *rc::gen::inRange<int64_t>(-r - 1, r + 1);
  // "When `new_axis` is 1, accepted range is `[-r - 1, r]`": a negative axis counts from the
  // back of the r + 1 axes of the result.
  const auto a = static_cast<size_t>(axis < 0 ? axis + r + 1 : axis);
  RC_CLASSIFY(axis < 0, "negative axis");
  RC_CLASSIFY(a == static_cast<size_t>(r), "new last axis");
  RC_CLASSIFY(r == 0, "scalars");
  const Tensor stacked = ops.concat_from_sequence(s, axis, 1);
  RC_LOG() << "ConcatFromSequence(axis=" << axis << ", new_axis=1) gave " << format_tensor(stacked)
           << std::endl;
  Shape expected_shape = shape;
  expected_shape.insert(expected_shape.begin() + static_cast<std::ptrdiff_t>(a),
                        static_cast<int64_t>(n));
  RC_ASSERT(stacked.shape() == expected_shape);
  for (size_t i = 0; i < n; ++i)
    RC_ASSERT(expected_chunk(stacked, a, static_cast<int64_t>(i), 1, false).identical(elements[i]));
}

// 1 to 5 tensors of one type and any shapes (zero-size ones among them).
void construct_keeps_the_inputs_in_order(const OpSet& ops) {
  const DataType dtype = *gens::data_type();
  const auto n = *rc::gen::inRange<size_t>(1, 6);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < n; ++i) inputs.push_back(*gens::tensor_of_type(dtype, 0, 3, 16));
  size_t empty = 0;
  for (const Tensor& t : inputs) empty += t.element_count() == 0;
  RC_CLASSIFY(empty > 0, "a zero-size input");
  const Sequence s = ops.sequence_construct(inputs);
  RC_LOG() << "SequenceConstruct gave " << show(s) << std::endl;
  RC_ASSERT(s.elem_type() == dtype);
  RC_ASSERT(s.size() == n);
  for (size_t i = 0; i < n; ++i) RC_ASSERT(s.at(i).identical(inputs[i]));
}

void length_is_the_number_of_tensors(const OpSet& ops) {
  const Sequence s = *gens::sequence();
  RC_CLASSIFY(s.empty(), "empty sequence");
  const Tensor length = ops.sequence_length(s);
  RC_LOG() << "SequenceLength gave " << format_tensor(length) << std::endl;
  RC_ASSERT(length.dtype() == DataType::int64);
  RC_ASSERT(length.shape().empty());
  RC_ASSERT(length.int_at(0) == static_cast<int64_t>(s.size()));
}

void empty_is_of_its_dtype(const OpSet& ops) {
  const bool given = *rc::gen::arbitrary<bool>();
  const DataType dtype = given ? *gens::data_type() : DataType::float32;
  RC_CLASSIFY(!given, "dtype absent");
  const Sequence s = ops.sequence_empty(given ? std::optional<DataType>(dtype) : std::nullopt);
  RC_ASSERT(s.empty());
  RC_ASSERT(s.elem_type() == dtype);
}

}  // namespace

void add_concat_properties(std::vector<PropertyDef>& out) {
  out.push_back({"SequenceConstruct/KeepsTheInputsInOrder",
                 spec_text({"SequenceConstruct.summary"}), construct_keeps_the_inputs_in_order});
  out.push_back({"SequenceLength/IsTheNumberOfTensors",
                 spec_text({"SequenceLength.summary", "SequenceLength.int64"}),
                 length_is_the_number_of_tensors});
  out.push_back({"SequenceEmpty/IsOfItsDtype",
                 spec_text({"SequenceEmpty.summary", "SequenceEmpty.dtype_default"}),
                 empty_is_of_its_dtype});
  out.push_back(
      {"ConcatFromSequence/StackedSlicesAreTheElements",
       spec_text({"ConcatFromSequence.new_axis_stack", "ConcatFromSequence.new_axis_range"}),
       stacked_slices_are_the_elements});
}

}  // namespace seqconf::properties
