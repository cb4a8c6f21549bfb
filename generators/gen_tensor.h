// RapidCheck generators of tensors: any of the 15 element types, rank 0..4, zero-size
// dimensions included, element values biased toward edges (NaN, -0.0, +-inf, subnormals,
// min/max integers, empty and non-ASCII strings, float16 edge bit patterns).
#pragma once

#include <rapidcheck.h>

#include "generators/gen_uniform.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "generators/gen_dtype.h"
#include "reference/value.h"

namespace seqconf::gens {

// Tensors stay small so a property runs many cases quickly.
inline constexpr size_t kMaxElements = 64;

namespace detail {

template <class F>
std::vector<F> float_edges() {
  using L = std::numeric_limits<F>;
  return {F(0),
          -F(0),
          F(1),
          F(-1),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          -L::quiet_NaN(),
          L::denorm_min(),
          -L::denorm_min(),
          L::min(),
          L::max(),
          L::lowest(),
          L::epsilon()};
}

template <class I>
std::vector<I> integer_edges() {
  using L = std::numeric_limits<I>;
  std::vector<I> v = {I(0), I(1), L::min(), L::max(), I(L::max() - 1)};
  if constexpr (std::is_signed_v<I>) {
    v.push_back(I(-1));
    v.push_back(I(L::min() + 1));
  }
  return v;
}

// IEEE 754 binary16 bit patterns at the edges.
inline std::vector<uint16_t> float16_edge_bits() {
  return {0x0000,   // +0
          0x8000,   // -0
          0x3C00,   // 1
          0x7C00,   // +inf
          0xFC00,   // -inf
          0x7E00,   // quiet NaN
          0x7C01,   // signalling NaN
          0xFE00,   // negative NaN
          0x0001,   // smallest subnormal
          0x03FF,   // largest subnormal
          0x0400,   // smallest normal
          0x7BFF,   // 65504, largest finite
          0xFBFF};  // -65504
}

// bfloat16 bit patterns at the edges (the upper half of a binary32).
inline std::vector<uint16_t> bfloat16_edge_bits() {
  return {0x0000,   // +0
          0x8000,   // -0
          0x3F80,   // 1
          0x7F80,   // +inf
          0xFF80,   // -inf
          0x7FC0,   // quiet NaN
          0x7F81,   // signalling NaN
          0xFFC0,   // negative NaN
          0x0001,   // smallest subnormal
          0x007F,   // largest subnormal
          0x0080,   // smallest normal
          0x7F7F,   // about 3.39e38, largest finite
          0xFF7F};  // its negative
}

inline std::vector<std::string> string_edges() {
  return {"",
          "a",
          " ",
          "\xc3\xa9t\xc3\xa9",                     // "été"
          "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",  // "日本語"
          "\xf0\x9f\x99\x82",                      // an emoji (4-byte UTF-8)
          std::string("nul\0inside", 10),
          "line\nbreak"};
}

template <class T>
rc::Gen<T> edge_biased(std::vector<T> edges, rc::Gen<T> any) {
  return rc::gen::weightedOneOf<T>({{1, rc::gen::elementOf(std::move(edges))}, {2, any}});
}

}  // namespace detail

// One element of type D.
template <DataType D>
rc::Gen<storage_t<D>> element() {
  using T = storage_t<D>;
  if constexpr (D == DataType::bool_) {
    return rc::gen::element<T>(0, 1);
  } else if constexpr (D == DataType::float16) {
    return rc::gen::map(
        detail::edge_biased<uint16_t>(detail::float16_edge_bits(), rc::gen::arbitrary<uint16_t>()),
        [](uint16_t bits) { return Float16{bits}; });
  } else if constexpr (D == DataType::bfloat16) {
    return rc::gen::map(
        detail::edge_biased<uint16_t>(detail::bfloat16_edge_bits(), rc::gen::arbitrary<uint16_t>()),
        [](uint16_t bits) { return BFloat16{bits}; });
  } else if constexpr (D == DataType::string) {
    return detail::edge_biased<std::string>(detail::string_edges(),
                                            rc::gen::resize(8, rc::gen::string<std::string>()));
  } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
    using R = typename T::value_type;
    const auto part = detail::edge_biased<R>(detail::float_edges<R>(), rc::gen::arbitrary<R>());
    return rc::gen::apply([](R re, R im) { return T(re, im); }, part, part);
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::edge_biased<T>(detail::float_edges<T>(), rc::gen::arbitrary<T>());
  } else {
    return detail::edge_biased<T>(detail::integer_edges<T>(), rc::gen::arbitrary<T>());
  }
}

// A shape of rank min_rank..max_rank with dimensions 0..4 (zero about one time in eight), at
// most max_elements elements.
inline rc::Gen<Shape> shape(int min_rank = 0, int max_rank = 4,
                            size_t max_elements = kMaxElements) {
  return rc::gen::exec([=] {
    const int rank = *uniform<int>(min_rank, max_rank + 1);
    Shape s;
    size_t product = 1;
    for (int i = 0; i < rank; ++i) {
      const auto cap =
          static_cast<int64_t>(product == 0 ? 4 : std::min<size_t>(4, max_elements / product));
      const int64_t d = *rc::gen::weightedOneOf<int64_t>(
          {{1, rc::gen::just<int64_t>(0)}, {7, rc::gen::inRange<int64_t>(1, cap + 1)}});
      s.push_back(d);
      product *= static_cast<size_t>(d);
    }
    return s;
  });
}

// A tensor of the given type and shape with edge-biased elements.
inline rc::Gen<Tensor> tensor_of(DataType dtype, const Shape& shape) {
  const size_t n = checked_element_count(shape);
  return visit_dtype(dtype, [&](auto tag) -> rc::Gen<Tensor> {
    constexpr DataType D = decltype(tag)::value;
    return rc::gen::map(rc::gen::container<std::vector<storage_t<D>>>(n, element<D>()),
                        [shape](std::vector<storage_t<D>> v) {
                          return Tensor::from_values<D>(shape, std::move(v));
                        });
  });
}

// A tensor of the given type, any shape of rank min_rank..max_rank.
inline rc::Gen<Tensor> tensor_of_type(DataType dtype, int min_rank = 0, int max_rank = 4,
                                      size_t max_elements = kMaxElements) {
  return rc::gen::mapcat(shape(min_rank, max_rank, max_elements),
                         [dtype](const Shape& s) { return tensor_of(dtype, s); });
}

// A tensor of any of the 15 types the sequence operators accept.
inline rc::Gen<Tensor> tensor(int min_rank = 0, int max_rank = 4) {
  return rc::gen::mapcat(data_type(),
                         [=](DataType d) { return tensor_of_type(d, min_rank, max_rank); });
}

}  // namespace seqconf::gens

namespace rc {
template <>
struct Arbitrary<seqconf::Tensor> {
  static Gen<seqconf::Tensor> arbitrary() { return seqconf::gens::tensor(); }
};
}  // namespace rc
