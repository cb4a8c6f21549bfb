// RapidCheck generators of SplitToSequence inputs: axis, and 'split' in each form (absent,
// scalar, 1-D), valid for a given axis length or invalid with the error the spec implies.
#pragma once

#include <rapidcheck.h>

#include "generators/gen_uniform.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "generators/gen_tensor.h"
#include "reference/error.h"

namespace seqconf::gens {

struct SplitInput {
  enum class Form { absent, scalar, vector, other };
  Form form = Form::absent;
  std::optional<Tensor> split;
  // Valid splits: the chunk lengths the spec prescribes, derived here from the drawn values.
  std::vector<int64_t> expected_lengths;
  // Invalid splits: the error codes that describe the violation (any one is right).
  std::vector<ErrorCode> expected_errors;
};

const char* split_form_name(SplitInput::Form form);

// An axis in [-rank, rank-1] ("Accepted range is [-rank, rank-1]"); rank must be >= 1.
inline rc::Gen<int64_t> valid_axis(size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  return uniform<int64_t>(-r, r);
}

inline rc::Gen<int64_t> invalid_axis(size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  return rc::gen::oneOf(rc::gen::map(uniform<int64_t>(0, 3), [=](int64_t k) { return r + k; }),
                        rc::gen::map(uniform<int64_t>(1, 4), [=](int64_t k) { return -r - k; }));
}

// An int32 or int64 split tensor holding `values` with the given shape.
inline rc::Gen<Tensor> split_tensor(Shape shape, std::vector<int64_t> values) {
  std::vector<int32_t> v32(values.begin(), values.end());
  return rc::gen::element(Tensor::from_values<DataType::int64>(shape, values),
                          Tensor::from_values<DataType::int32>(shape, v32));
}

// A valid split for an axis of length d, in one of the three forms (scalar or 1-D only when
// !allow_absent).
inline rc::Gen<SplitInput> valid_split(int64_t d, bool allow_absent = true) {
  using Form = SplitInput::Form;
  return rc::gen::exec([d, allow_absent] {
    SplitInput in;
    in.form = allow_absent ? *rc::gen::element(Form::absent, Form::scalar, Form::vector)
                           : *rc::gen::element(Form::scalar, Form::vector);
    if (in.form == Form::absent) {
      // Without split every chunk has length 1.
      in.expected_lengths.assign(static_cast<size_t>(d), 1);
    } else if (in.form == Form::scalar) {
      // Clauses SplitToSequence.split_scalar and SplitToSequence.split_scalar_last.
      const int64_t s = *rc::gen::weightedOneOf<int64_t>(
          {{1, rc::gen::just<int64_t>(1)}, {3, uniform<int64_t>(1, std::max<int64_t>(d, 1) + 3)}});
      const int64_t chunks = (d + s - 1) / s;
      for (int64_t k = 0; k < chunks; ++k)
        in.expected_lengths.push_back(k + 1 < chunks ? s : d - k * s);
      in.split = *split_tensor({}, {s});
    } else {
      // "the tensor is split into 'size(split)' chunks, with lengths of the parts on 'axis'
      //  specified in 'split' ... the sum of entries in 'split' must be equal to the dimension
      //  size": k - 1 cut points in [0, d] give k lengths summing to d (zeros possible).
      const int k = *uniform<int>(1, 5);
      auto cuts = *rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(k - 1),
                                                            uniform<int64_t>(0, d + 1));
      std::sort(cuts.begin(), cuts.end());
      int64_t prev = 0;
      for (int64_t c : cuts) {
        in.expected_lengths.push_back(c - prev);
        prev = c;
      }
      in.expected_lengths.push_back(d - prev);
      in.split =
          *split_tensor({static_cast<int64_t>(in.expected_lengths.size())}, in.expected_lengths);
    }
    return in;
  });
}

// A split that must be rejected for an axis of length d.
inline rc::Gen<SplitInput> invalid_split(int64_t d) {
  using Form = SplitInput::Form;
  return rc::gen::exec([d] {
    SplitInput in;
    switch (*uniform<int>(0, 7)) {
      case 0:  // "'split' must contain only positive numbers": a scalar 0 makes no chunk.
        in.form = Form::scalar;
        in.split = *split_tensor({}, {0});
        in.expected_errors = {ErrorCode::split_zero};
        break;
      case 1:  // "All values must be >= 0"
        in.form = Form::scalar;
        in.split = *split_tensor({}, {-*uniform<int64_t>(1, 4)});
        in.expected_errors = {ErrorCode::split_negative};
        break;
      case 2:  // a negative entry, sum still equal to d
        in.form = Form::vector;
        in.split = *split_tensor({2}, {-1, d + 1});
        in.expected_errors = {ErrorCode::split_negative};
        break;
      case 3: {  // "the sum of entries in 'split' must be equal to the dimension size": too much
        in.form = Form::vector;
        const int64_t extra = *uniform<int64_t>(1, 3);
        in.split = *split_tensor({2}, {d, extra});
        in.expected_errors = {ErrorCode::split_sum_mismatch};
        break;
      }
      case 4:  // too little (or, for d = 0, a sum of 1 where 0 is needed)
        in.form = Form::vector;
        if (d > 0 && *rc::gen::arbitrary<bool>()) {
          // An empty 1-D split has no entry to sum to d > 0. (For d = 0 the empty split sums
          // to 0 and the spec does not say it is invalid, so it is not drawn.)
          in.split = *split_tensor({0}, {});
          in.expected_errors = {ErrorCode::split_empty, ErrorCode::split_sum_mismatch};
        } else {
          in.split = d > 0 ? *split_tensor({1}, {d - 1}) : *split_tensor({1}, {1});
          in.expected_errors = {ErrorCode::split_sum_mismatch};
        }
        break;
      case 5:  // "either a scalar (tensor of empty shape), or a 1-D tensor"
        in.form = Form::other;
        in.split = *split_tensor({1, 1}, {d});
        in.expected_errors = {ErrorCode::split_rank};
        break;
      default:  // type constraint I: "tensor(int32), tensor(int64)"
        in.form = Form::other;
        in.split = Tensor::from_values<DataType::float32>({}, {1.0f});
        in.expected_errors = {ErrorCode::split_type};
        break;
    }
    return in;
  });
}

}  // namespace seqconf::gens
