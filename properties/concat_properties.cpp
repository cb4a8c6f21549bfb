// Properties of ConcatFromSequence: stacking (new_axis=1) puts element i at index i of the new
// axis, wherever the axis is and however it is written.
#include "properties/prop_util.h"
#include "properties/properties.h"
#include "reference/spec_clauses.h"

namespace seqconf::properties {

namespace {

// Index i of axis a of x, that axis removed, by plain index arithmetic on the row-major layout:
// element (outer o, axis k, inner j) of x is at (o * d + k) * inner + j.
Tensor slice_of(const Tensor& x, size_t a, size_t i) {
  size_t outer = 1, inner = 1;
  for (size_t k = 0; k < a; ++k) outer *= static_cast<size_t>(x.shape()[k]);
  for (size_t k = a + 1; k < x.rank(); ++k) inner *= static_cast<size_t>(x.shape()[k]);
  const auto d = static_cast<size_t>(x.shape()[a]);
  Shape shape = x.shape();
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(a));
  std::vector<size_t> source;
  for (size_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < inner; ++j) source.push_back((o * d + i) * inner + j);
  if (x.dtype() == DataType::string) {
    std::vector<std::string> v;
    for (size_t f : source) v.push_back(x.string_at(f));
    return Tensor::from_strings(shape, std::move(v));
  }
  const size_t es = element_size(x.dtype());
  std::vector<std::byte> bytes(source.size() * es);
  for (size_t j = 0; j < source.size(); ++j)
    std::memcpy(bytes.data() + j * es, x.bytes() + source[j] * es, es);
  return Tensor::from_bytes(x.dtype(), shape, std::move(bytes));
}

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
  for (size_t i = 0; i < n; ++i) RC_ASSERT(slice_of(stacked, a, i).identical(elements[i]));
}

}  // namespace

void add_concat_properties(std::vector<PropertyDef>& out) {
  out.push_back(
      {"ConcatFromSequence/StackedSlicesAreTheElements",
       spec_text({"ConcatFromSequence.new_axis_stack", "ConcatFromSequence.new_axis_range"}),
       stacked_slices_are_the_elements});
}

}  // namespace seqconf::properties
