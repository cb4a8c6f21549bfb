// RapidCheck generators of sequences: one element type, mixed shapes, empty allowed.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "generators/gen_tensor.h"

namespace seqconf::gens {

// Length 0..max_length, 0 about one time in six.
inline rc::Gen<size_t> sequence_length(size_t max_length = 6) {
  return rc::gen::weightedOneOf<size_t>(
      {{1, rc::gen::just<size_t>(0)}, {5, rc::gen::inRange<size_t>(1, max_length + 1)}});
}

// A sequence of `length` tensors of one type, each with its own shape.
inline rc::Gen<Sequence> sequence_of_length(DataType elem_type, size_t length) {
  return rc::gen::map(
      rc::gen::container<std::vector<Tensor>>(length, tensor_of_type(elem_type, 0, 3, 16)),
      [elem_type](std::vector<Tensor> v) { return Sequence(elem_type, std::move(v)); });
}

inline rc::Gen<Sequence> sequence_of(DataType elem_type, size_t max_length = 6) {
  return rc::gen::mapcat(sequence_length(max_length),
                         [elem_type](size_t n) { return sequence_of_length(elem_type, n); });
}

// A sequence of any of the 15 element types.
inline rc::Gen<Sequence> sequence(size_t max_length = 6) {
  return rc::gen::mapcat(data_type(), [=](DataType d) { return sequence_of(d, max_length); });
}

}  // namespace seqconf::gens

namespace rc {
template <>
struct Arbitrary<seqconf::Sequence> {
  static Gen<seqconf::Sequence> arbitrary() { return seqconf::gens::sequence(); }
};
}  // namespace rc
