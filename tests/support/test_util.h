// Builders for test values. Expected values in the tests are written from the spec text;
// these helpers only make inputs.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/ops/ops.h"
#include "reference/value.h"

namespace seqconf::testing {

// The k-th sample value of a type: distinct for distinct k (bool: k % 2).
template <DataType D>
storage_t<D> sample_value(int k) {
  using T = storage_t<D>;
  if constexpr (D == DataType::string) {
    return k % 3 == 2 ? std::string("\xc3\xa9t\xc3\xa9-") + std::to_string(k)
                      : "s" + std::to_string(k);
  } else if constexpr (is_half_v<T>) {
    return half_from_float<T>(static_cast<float>(k) + 0.5f);
  } else if constexpr (D == DataType::bool_) {
    return static_cast<T>(k % 2);
  } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
    return T(k, -k - 1);
  } else if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) {
    return static_cast<T>(k % 2 ? -k : k);
  } else {
    return static_cast<T>(k);
  }
}

// A tensor whose element i is sample_value(seed + i).
inline Tensor make_tensor(DataType dtype, Shape shape, int seed = 0) {
  const size_t n = checked_element_count(shape);
  return visit_dtype(dtype, [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(sample_value<D>(seed + static_cast<int>(i)));
    return Tensor::from_values<D>(std::move(shape), std::move(v));
  });
}

inline Tensor i64(int64_t v) { return Tensor::from_values<DataType::int64>({}, {v}); }
inline Tensor i32(int32_t v) { return Tensor::from_values<DataType::int32>({}, {v}); }
inline Tensor i64_vec(std::vector<int64_t> v) {
  const auto n = static_cast<int64_t>(v.size());
  return Tensor::from_values<DataType::int64>({n}, std::move(v));
}
inline Tensor f32(Shape shape, std::vector<float> v) {
  return Tensor::from_values<DataType::float32>(std::move(shape), std::move(v));
}
// 0, 1, 2, ... as float.
inline Tensor iota_f32(Shape shape) {
  std::vector<float> v(checked_element_count(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return f32(std::move(shape), std::move(v));
}

// A sequence of n tensors of one type; tensor i has shape [i + 1] and seed 10 * i, so any two
// are distinguishable for every type.
inline Sequence make_sequence(DataType dtype, size_t n) {
  std::vector<Tensor> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(make_tensor(dtype, {static_cast<int64_t>(i + 1)}, static_cast<int>(10 * i)));
  return Sequence(dtype, std::move(v));
}

// Expects `f` to throw seqconf::Error with `code`; returns the message.
template <class F>
std::string expect_error(ErrorCode code, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(error_code_name(e.code()), error_code_name(code)) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-seqconf exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no error; expected " << error_code_name(code);
  return {};
}

#define SEQCONF_ALL_TYPE_TAGS                                                                      \
  DataTypeTag<DataType::bool_>, DataTypeTag<DataType::int8>, DataTypeTag<DataType::int16>,         \
      DataTypeTag<DataType::int32>, DataTypeTag<DataType::int64>, DataTypeTag<DataType::uint8>,    \
      DataTypeTag<DataType::uint16>, DataTypeTag<DataType::uint32>, DataTypeTag<DataType::uint64>, \
      DataTypeTag<DataType::float16>, DataTypeTag<DataType::float32>,                              \
      DataTypeTag<DataType::float64>, DataTypeTag<DataType::complex64>,                            \
      DataTypeTag<DataType::complex128>, DataTypeTag<DataType::string>

using AllTypes = ::testing::Types<SEQCONF_ALL_TYPE_TAGS>;

struct TypeTagName {
  template <class T>
  static std::string GetName(int) {
    return std::string(dtype_name(T::value));
  }
};

}  // namespace seqconf::testing
