// RapidCheck generators of 'position' inputs (SequenceAt, SequenceErase, SequenceInsert):
// valid and invalid ones for a given sequence length, as int32 or int64 scalars.
#pragma once

#include <rapidcheck.h>

#include "generators/gen_uniform.h"

#include <cstdint>
#include <limits>

#include "reference/value.h"

namespace seqconf::gens {

struct PositionInput {
  int64_t value = 0;
  Tensor tensor;  // scalar int32 or int64 holding value
};

// value as a scalar position tensor; int32 when it fits, chosen at random.
inline rc::Gen<PositionInput> position_tensor(int64_t value) {
  const bool fits32 =
      value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max();
  const auto as64 =
      rc::gen::just(PositionInput{value, Tensor::from_values<DataType::int64>({}, {value})});
  if (!fits32) return as64;
  const auto as32 = rc::gen::just(PositionInput{
      value, Tensor::from_values<DataType::int32>({}, {static_cast<int32_t>(value)})});
  return rc::gen::oneOf(as32, as64);
}

// SPEC: accepted range `[-n, n - 1]` (SequenceAt, SequenceErase) or `[-n, n]` when accept_n
// (SequenceInsert). The range must not be empty (n > 0 unless accept_n).
inline rc::Gen<PositionInput> valid_position(size_t n, bool accept_n) {
  const auto len = static_cast<int64_t>(n);
  const int64_t hi = accept_n ? len : len - 1;
  return rc::gen::mapcat(uniform<int64_t>(-len, hi + 1), position_tensor);
}

// A position just outside the accepted range, a little further out, or at the int32 and int64
// extremes (clause position.out_of_bounds).
inline rc::Gen<PositionInput> invalid_position(size_t n, bool accept_n) {
  const auto len = static_cast<int64_t>(n);
  const int64_t hi = accept_n ? len : len - 1;
  const auto value = rc::gen::weightedOneOf<int64_t>({
      {3, rc::gen::map(uniform<int64_t>(1, 4), [=](int64_t k) { return -len - k; })},
      {3, rc::gen::map(uniform<int64_t>(1, 4), [=](int64_t k) { return hi + k; })},
      {1, rc::gen::element<int64_t>(
              std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
              std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max())},
  });
  return rc::gen::mapcat(value, position_tensor);
}

// A valid value in a position that is not a scalar: shape [2] (the value twice) or [1, 1]
// (clause position.scalar: "It must be a scalar(tensor of empty shape)."). Shape [1] is left out:
// the suite reads it leniently (ambiguity position_shape_1).
inline rc::Gen<PositionInput> non_scalar_position(size_t n, bool accept_n) {
  return rc::gen::mapcat(valid_position(n, accept_n), [](const PositionInput& p) {
    const int64_t v = p.value;
    return rc::gen::element(PositionInput{v, Tensor::from_values<DataType::int64>({2}, {v, v})},
                            PositionInput{v, Tensor::from_values<DataType::int64>({1, 1}, {v})});
  });
}

}  // namespace seqconf::gens
