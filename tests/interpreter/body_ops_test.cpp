// Operators of SequenceMap bodies and loops (reference/support/body_ops.h): Concat, Cast, Gather,
// Sub, Mul, Div, Equal, Less, Greater, Where, Expand. Expected values are worked out by hand from
// the operator definitions quoted next to them (ONNX Operators.md / Changelog.md).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/interpreter/interpreter.h"
#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"
#include "reference/support/support_ops.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using namespace seqconf::support;

const auto F = DataType::float32;
const auto BOOL = DataType::bool_;

template <DataType D>
Tensor tv(seqconf::Shape shape, std::vector<storage_t<D>> v) {
  return Tensor::from_values<D>(std::move(shape), std::move(v));
}
Tensor b8(seqconf::Shape shape, std::vector<uint8_t> v) {
  return tv<BOOL>(std::move(shape), std::move(v));
}
Tensor strs(seqconf::Shape shape, std::vector<std::string> v) {
  return Tensor::from_strings(std::move(shape), std::move(v));
}
Tensor h16(seqconf::Shape shape, std::vector<uint16_t> bits) {
  std::vector<Float16> v;
  for (uint16_t b : bits) v.push_back(Float16{b});
  return tv<DataType::float16>(std::move(shape), std::move(v));
}
Tensor bf16(seqconf::Shape shape, std::vector<uint16_t> bits) {
  std::vector<BFloat16> v;
  for (uint16_t b : bits) v.push_back(BFloat16{b});
  return tv<DataType::bfloat16>(std::move(shape), std::move(v));
}

::testing::AssertionResult Same(const Tensor& got, const Tensor& want) {
  if (got.identical(want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got.describe() << " differs from " << want.describe();
}
#define EXPECT_IDENTICAL(got, want) EXPECT_TRUE(Same(got, want))

// ---------------------------------------------------------------------------------------------
// Concat-13: "Concatenate a list of tensors into a single tensor. All input tensors must have the
// same shape, except for the dimension size of the axis to concatenate on."

TEST(Concat, ConcatenatesAlongTheAxis) {
  // [[0, 1], [2, 3]] and [[4], [5]] along axis 1: [[0, 1, 4], [2, 3, 5]].
  EXPECT_IDENTICAL(Concat({iota_f32({2, 2}), f32({2, 1}, {4, 5})}, 1),
                   f32({2, 3}, {0, 1, 4, 2, 3, 5}));
  // Along axis 0: rows of the first, then rows of the second.
  EXPECT_IDENTICAL(Concat({f32({1, 2}, {0, 1}), f32({2, 2}, {2, 3, 4, 5})}, 0), iota_f32({3, 2}));
  // "A negative value means counting dimensions from the back." -1 is axis 1 here.
  EXPECT_IDENTICAL(Concat({iota_f32({2, 2}), f32({2, 1}, {4, 5})}, -1),
                   f32({2, 3}, {0, 1, 4, 2, 3, 5}));
  // One input is itself; an input of length 0 on the axis adds nothing.
  EXPECT_IDENTICAL(Concat({iota_f32({2})}, 0), iota_f32({2}));
  EXPECT_IDENTICAL(Concat({f32({0, 2}, {}), iota_f32({1, 2})}, 0), iota_f32({1, 2}));
}

template <class Tag>
class ConcatTypes : public ::testing::Test {};
TYPED_TEST_SUITE(ConcatTypes, AllTypes, TypeTagName);

// Concat-4/11/13 T: "Constrain output types to any tensor type."
TYPED_TEST(ConcatTypes, EveryTypeConcatenates) {
  constexpr DataType D = TypeParam::value;
  const Tensor a = make_tensor(D, {1}, 0), b = make_tensor(D, {2}, 10);
  EXPECT_IDENTICAL(Concat({a, b}, 0),
                   tv<D>({3}, {sample_value<D>(0), sample_value<D>(10), sample_value<D>(11)}));
}

TEST(Concat, Errors) {
  // "Accepted range is [-r, r-1] where r = rank(inputs)."
  std::string msg = expect_error(ErrorCode::axis_out_of_range, [] {
    Concat({iota_f32({2, 2}), iota_f32({2, 2})}, 2);
  });
  EXPECT_NE(msg.find("[-2, 1]"), std::string::npos) << msg;
  expect_error(ErrorCode::axis_out_of_range, [] { Concat({iota_f32({2, 2})}, -3); });
  // Concat-1 and Concat-4 ("Which axis to concat on") define no negative axis.
  msg = expect_error(ErrorCode::axis_out_of_range, [] { Concat({iota_f32({2, 2})}, -1, 4); });
  EXPECT_NE(msg.find("[0, 1]"), std::string::npos) << msg;
  // Shapes differ outside the axis; ranks differ.
  expect_error(ErrorCode::shape_mismatch, [] { Concat({iota_f32({2, 2}), iota_f32({3, 3})}, 0); });
  expect_error(ErrorCode::shape_mismatch, [] { Concat({iota_f32({2, 2}), iota_f32({2})}, 0); });
  expect_error(ErrorCode::element_type_mismatch, [] { Concat({iota_f32({1}), i64_vec({1})}, 0); });
  expect_error(ErrorCode::input_rank, [] { Concat({f32({}, {1})}, 0); });
  expect_error(ErrorCode::missing_input, [] { Concat({}, 0); });
}

// ---------------------------------------------------------------------------------------------
// Gather-13: "Given `data` tensor of rank r >= 1, and `indices` tensor of rank q, gather entries
// of the axis dimension of `data` (by default outer-most one as axis=0) indexed by `indices`, and
// concatenates them in an output tensor of rank q + (r - 1)."

TEST(Gather, TheSpecsExamples) {
  const Tensor data = f32({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f});
  const Tensor indices = tv<DataType::int64>({2, 2}, {0, 1, 1, 2});
  EXPECT_IDENTICAL(Gather(data, indices, 0),
                   f32({2, 2, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f}));
  const Tensor data3 = f32({3, 3}, {1.0f, 1.2f, 1.9f, 2.3f, 3.4f, 3.9f, 4.5f, 5.7f, 5.9f});
  EXPECT_IDENTICAL(Gather(data3, tv<DataType::int32>({1, 2}, {0, 2}), 1),
                   f32({3, 1, 2}, {1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f}));
  // Axis -1 is axis 1 of data3.
  EXPECT_IDENTICAL(Gather(data3, tv<DataType::int32>({1, 2}, {0, 2}), -1),
                   f32({3, 1, 2}, {1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f}));
  // A scalar index drops the axis: (P, Q) with ( ) on axis 0 gives (Q).
  EXPECT_IDENTICAL(Gather(data, i64(2), 0), f32({2}, {4.5f, 5.7f}));
  // Empty indices of shape [0] give an empty axis.
  EXPECT_IDENTICAL(Gather(data, tv<DataType::int64>({0}, {}), 0), f32({0, 2}, {}));
}

TEST(Gather, NegativeIndicesWrapFromVersion11) {
  // Gather-11/13: "All index values are expected to be within bounds [-s, s-1] along axis of size
  // s." -1 is the last row, -3 the first.
  const Tensor data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_IDENTICAL(Gather(data, i64_vec({-1, -3}), 0, 11), f32({2, 2}, {5, 6, 1, 2}));
  EXPECT_IDENTICAL(Gather(data, i64_vec({-1}), 1, 13), f32({3, 1}, {2, 4, 6}));
  // Gather-1: "All index values are expected to be within bounds." (no negative bound).
  expect_error(ErrorCode::index_out_of_range, [&] { Gather(data, i64_vec({-1}), 0, 1); });
  EXPECT_IDENTICAL(Gather(data, i64_vec({2}), 0, 1), f32({1, 2}, {5, 6}));
}

TEST(Gather, Errors) {
  const Tensor data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  // "It is an error if any of the index values are out of bounds."
  std::string msg = expect_error(ErrorCode::index_out_of_range, [&] {
    Gather(data, i64_vec({0, 3}), 0);
  });
  EXPECT_NE(msg.find("index 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[-3, 2]"), std::string::npos) << msg;
  expect_error(ErrorCode::index_out_of_range, [&] { Gather(data, i64_vec({-4}), 0); });
  expect_error(ErrorCode::index_out_of_range, [&] { Gather(data, i64_vec({2}), 1); });
  // axis: "Accepted range is [-r, r-1] where r = rank(data)."
  expect_error(ErrorCode::axis_out_of_range, [&] { Gather(data, i64(0), 2); });
  expect_error(ErrorCode::axis_out_of_range, [&] { Gather(data, i64(0), -3); });
  // data: "Tensor of rank r >= 1."
  expect_error(ErrorCode::input_rank, [] { Gather(f32({}, {1}), i64(0), 0); });
  expect_error(ErrorCode::unsupported_type, [&] { Gather(data, f32({}, {0}), 0); });
}

template <class Tag>
class GatherTypes : public ::testing::Test {};
TYPED_TEST_SUITE(GatherTypes, AllTypes, TypeTagName);

// Gather T: "Constrain input and output types to any tensor type."
TYPED_TEST(GatherTypes, EveryTypeGathers) {
  constexpr DataType D = TypeParam::value;
  EXPECT_IDENTICAL(Gather(make_tensor(D, {3}, 0), i64_vec({2, 0, -2}), 0),
                   tv<D>({3}, {sample_value<D>(2), sample_value<D>(0), sample_value<D>(1)}));
}

// ---------------------------------------------------------------------------------------------
// Cast among the 13 non-complex types.

// The values 0 and 1 in type d: false/true, 0/1, "0"/"1".
Tensor zero_one(DataType d) {
  return visit_dtype(d, [](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    using S = storage_t<D>;
    if constexpr (D == DataType::string) {
      return strs({2}, {"0", "1"});
    } else if constexpr (D == DataType::float16) {
      return h16({2}, {0x0000, 0x3C00});
    } else if constexpr (D == DataType::bfloat16) {
      return bf16({2}, {0x0000, 0x3F80});
    } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      return tv<D>({2}, {S(0, 0), S(1, 0)});
    } else {
      return tv<D>({2}, {S(0), S(1)});
    }
  });
}

TEST(Cast, EveryPairOfTheFourteenTypesMapsZeroAndOne) {
  // "Casting from bool to: floating point: `{1.0, 0.0}`. fixed point: `{1, 0}`."; "fixed point
  // [to] bool: zero to False; nonzero to True."; between numeric types 0 and 1 are in range; to
  // string "plain floating-point representation" ("0", "1"); from string the plain numeric
  // representations "0" and "1".
  int pairs = 0;
  for (DataType from : kCarriedDataTypes)
    for (DataType to : kCarriedDataTypes) {
      if (from == DataType::complex64 || from == DataType::complex128 ||
          to == DataType::complex64 || to == DataType::complex128)
        continue;
      EXPECT_IDENTICAL(Cast(zero_one(from), to), zero_one(to))
          << dtype_name(from) << " -> " << dtype_name(to);
      ++pairs;
    }
  EXPECT_EQ(pairs, 14 * 14);
}

TEST(Cast, FloatingPointRules) {
  // "floating point [to] fixed point": the fractional part is dropped ("converting string
  // "100.5" to an integer may yield result 100").
  EXPECT_IDENTICAL(Cast(f32({4}, {2.7f, -2.7f, 0.5f, -0.0f}), DataType::int32),
                   tv<DataType::int32>({4}, {2, -2, 0, 0}));
  // "fixed point: undefined if OOR.": no value to expect.
  expect_error(ErrorCode::undefined_result, [] { Cast(f32({1}, {3e9f}), DataType::int32); });
  expect_error(ErrorCode::undefined_result, [] { Cast(f32({1}, {-1.0f}), DataType::uint8); });
  expect_error(ErrorCode::undefined_result, [] { Cast(f32({1}, {256.0f}), DataType::uint8); });
  expect_error(ErrorCode::undefined_result,
               [] { Cast(f32({1}, {std::nanf("")}), DataType::int64); });
  // 255.9 truncates to 255, in range.
  EXPECT_IDENTICAL(Cast(f32({1}, {255.9f}), DataType::uint8), tv<DataType::uint8>({1}, {255}));
  // "bool: +/- 0.0 to False; all else to True." (NaN is not 0.0)
  EXPECT_IDENTICAL(Cast(f32({4}, {0.0f, -0.0f, 0.25f, std::nanf("")}), BOOL),
                   b8({4}, {0, 0, 1, 1}));
  // "floating point: +/- infinity if OOR (out of range)."
  EXPECT_IDENTICAL(
      Cast(tv<DataType::float64>({2}, {1e300, -1e300}), F),
      f32({2}, {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}));
  // float16's largest finite value is 65504; 70000 is beyond it: +infinity (0x7C00).
  EXPECT_IDENTICAL(Cast(f32({3}, {70000.0f, 1.0f, -2.0f}), DataType::float16),
                   h16({3}, {0x7C00, 0x3C00, 0xC000}));
  // 1 + 2^-11 + 2^-40 lies just above the midpoint of float16's 1 and 1 + 2^-10: rounded once it
  // is 1 + 2^-10 (0x3C01). (Through float first it would be the midpoint 1 + 2^-11, then 1.0.)
  EXPECT_IDENTICAL(
      Cast(tv<DataType::float64>({1}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)}),
           DataType::float16),
      h16({1}, {0x3C01}));
  // float16 0x3E00 is 1.5; to int8 truncates to 1.
  EXPECT_IDENTICAL(Cast(h16({1}, {0x3E00}), DataType::int8), tv<DataType::int8>({1}, {1}));
}

TEST(Cast, FixedPointRules) {
  // "fixed point: when OOR, discard higher bits and reinterpret ... For example, 200 (int16) ->
  // -56 (int8)."
  EXPECT_IDENTICAL(Cast(tv<DataType::int16>({1}, {200}), DataType::int8),
                   tv<DataType::int8>({1}, {-56}));
  // -1 as uint8 is 0xFF; 2^64 - 1 as int64 is -1; 65537 as uint16 is 1.
  EXPECT_IDENTICAL(Cast(tv<DataType::int32>({1}, {-1}), DataType::uint8),
                   tv<DataType::uint8>({1}, {255}));
  EXPECT_IDENTICAL(Cast(tv<DataType::uint64>({1}, {UINT64_MAX}), DataType::int64),
                   tv<DataType::int64>({1}, {-1}));
  EXPECT_IDENTICAL(Cast(tv<DataType::int64>({1}, {65537}), DataType::uint16),
                   tv<DataType::uint16>({1}, {1}));
  // "bool: zero to False; nonzero to True."
  EXPECT_IDENTICAL(Cast(tv<DataType::int64>({3}, {0, -3, 256}), BOOL), b8({3}, {0, 1, 1}));
  // "floating point: +/- infinity if OOR. (+ infinity in the case of uint)": 70000 is beyond
  // float16.
  EXPECT_IDENTICAL(Cast(tv<DataType::int32>({2}, {70000, -70000}), DataType::float16),
                   h16({2}, {0x7C00, 0xFC00}));
  EXPECT_IDENTICAL(Cast(tv<DataType::uint16>({1}, {65535}), DataType::float16), h16({1}, {0x7C00}));
  // 2^24 + 1 is not a float: it rounds to nearest even, 2^24.
  EXPECT_IDENTICAL(Cast(tv<DataType::int32>({1}, {16777217}), F), f32({1}, {16777216.0f}));
}

TEST(Cast, StringsToNumbers) {
  // "Casting from string tensor in plain (e.g., "3.14" and "1000") and scientific numeric
  //  representations (e.g., "1e-5" and "1E8") to float types is supported."
  EXPECT_IDENTICAL(Cast(strs({5}, {"3.14", "1000", "1e-5", "1E8", "-.5"}), F),
                   f32({5}, {3.14f, 1000.0f, 1e-5f, 1e8f, -0.5f}));
  // ""+INF" (and "INF"), "-INF", and "NaN" ... in a case-insensitive way"
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_IDENTICAL(Cast(strs({4}, {"+INF", "inf", "-Inf", "+inF"}), F),
                   f32({4}, {inf, inf, -inf, inf}));
  const Tensor nans = Cast(strs({2}, {"NaN", "nan"}), DataType::float64);
  EXPECT_TRUE(std::isnan(nans.data<double>()[0]) && std::isnan(nans.data<double>()[1]));
  // 0.1 in float16: 1.6 x 2^-4, mantissa 0.6 x 1024 = 614.4 -> 614: 0x2C00 | 0x266.
  EXPECT_IDENTICAL(Cast(strs({1}, {"0.1"}), DataType::float16), h16({1}, {0x2E66}));
  // Integers: the string's integer.
  EXPECT_IDENTICAL(Cast(strs({3}, {"1000", "-7", "+12"}), DataType::int32),
                   tv<DataType::int32>({3}, {1000, -7, 12}));
  // "Converting non-numerical-literal string such as "Hello World!" is an undefined behavior."
  for (const char* s : {"Hello World!", "", " 1", "1 ", "0x10", "infinity", "1e", "."})
    expect_error(ErrorCode::undefined_result, [&] { Cast(strs({1}, {s}), F); });
  // "Cases of converting string representing floating-point arithmetic value, such as "2.718",
  //  to INT is an undefined behavior."; so is an integer beyond the type.
  expect_error(ErrorCode::undefined_result, [] { Cast(strs({1}, {"2.718"}), DataType::int32); });
  expect_error(ErrorCode::undefined_result,
               [] { Cast(strs({1}, {"99999999999"}), DataType::int32); });
  expect_error(ErrorCode::undefined_result, [] { Cast(strs({1}, {"-1"}), DataType::uint8); });
}

TEST(Cast, NumbersToStrings) {
  // "When casting from numeric tensors to string tensors, plain floating-point representation
  //  (such as "314.15926") would be used."
  EXPECT_IDENTICAL(Cast(f32({3}, {1.5f, -0.25f, 100.0f}), DataType::string),
                   strs({3}, {"1.5", "-0.25", "100"}));
  EXPECT_IDENTICAL(Cast(tv<DataType::float64>({1}, {1e20}), DataType::string),
                   strs({1}, {"100000000000000000000"}));
  // Infinities and NaN as the literals the spec reserves.
  EXPECT_IDENTICAL(Cast(f32({3}, {std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(), std::nanf("")}),
                        DataType::string),
                   strs({3}, {"INF", "-INF", "NaN"}));
  EXPECT_IDENTICAL(Cast(tv<DataType::int64>({2}, {-42, INT64_MAX}), DataType::string),
                   strs({2}, {"-42", "9223372036854775807"}));
  // float16 0x3800 is 0.5.
  EXPECT_IDENTICAL(Cast(h16({1}, {0x3800}), DataType::string), strs({1}, {"0.5"}));
  EXPECT_IDENTICAL(Cast(strs({2}, {"a", ""}), DataType::string), strs({2}, {"a", ""}));
}

TEST(Cast, TypesTheVersionDoesNotCast) {
  // Cast-6: "Casting from strings and complex are not supported."
  expect_error(ErrorCode::unsupported_type, [] { Cast(strs({1}, {"1"}), F, 6); });
  expect_error(ErrorCode::unsupported_type, [] { Cast(f32({1}, {1}), DataType::string, 6); });
  // Cast-9+: "Casting from complex is not supported."
  expect_error(ErrorCode::unsupported_type,
               [] { Cast(make_tensor(DataType::complex64, {1}), F, 13); });
  expect_error(ErrorCode::unsupported_type, [] { Cast(f32({1}, {1}), DataType::complex128); });
}

// ---------------------------------------------------------------------------------------------
// Sub, Mul, Div with multidirectional broadcasting.

TEST(Arithmetic, BroadcastsMultidirectionally) {
  // Sub-14: "Performs element-wise binary subtraction (with Numpy-style broadcasting support)."
  // [[0, 1, 2], [3, 4, 5]] - [1, 1, 1] (B aligned to the last axis).
  EXPECT_IDENTICAL(Sub(iota_f32({2, 3}), f32({3}, {1, 1, 1})), f32({2, 3}, {-1, 0, 1, 2, 3, 4}));
  // [[10], [20]] x [[1, 2, 3]]: both broadcast, to [2, 3].
  EXPECT_IDENTICAL(Mul(f32({2, 1}, {10, 20}), f32({1, 3}, {1, 2, 3})),
                   f32({2, 3}, {10, 20, 30, 20, 40, 60}));
  // A scalar against any shape; shape(A) = (1, 4, 5)-style with a rank-3 and a rank-1 input.
  EXPECT_IDENTICAL(Div(f32({}, {12}), f32({3}, {1, 2, 4})), f32({3}, {12, 6, 3}));
  EXPECT_IDENTICAL(Sub(f32({2, 1, 1}, {10, 20}), f32({2}, {1, 2})), f32({2, 1, 2}, {9, 8, 19, 18}));
  // A dimension of 0 broadcasts against 1: no elements.
  EXPECT_IDENTICAL(Mul(f32({0, 3}, {}), f32({1, 3}, {1, 2, 3})), f32({0, 3}, {}));
  // "the length of each dimensions is either a common length or 1": 3 against 2 is not.
  std::string msg = expect_error(ErrorCode::shape_mismatch, [] {
    Sub(iota_f32({2, 3}), iota_f32({2}));
  });
  EXPECT_NE(msg.find("[2,3] and [2]"), std::string::npos) << msg;
  expect_error(ErrorCode::shape_mismatch, [] { Add(iota_f32({0}), iota_f32({2})); });
}

TEST(Arithmetic, IntegersWrapAround) {
  // 100 x 2 = 200 is -56 as int8; 0 - 1 is 255 as uint8; int64 max + 1 is min.
  EXPECT_IDENTICAL(Mul(tv<DataType::int8>({1}, {100}), tv<DataType::int8>({1}, {2})),
                   tv<DataType::int8>({1}, {-56}));
  EXPECT_IDENTICAL(Sub(tv<DataType::uint8>({1}, {0}), tv<DataType::uint8>({1}, {1})),
                   tv<DataType::uint8>({1}, {255}));
  EXPECT_IDENTICAL(Add(tv<DataType::int64>({1}, {INT64_MAX}), tv<DataType::int64>({1}, {1})),
                   tv<DataType::int64>({1}, {INT64_MIN}));
  // 65535 x 65535 = 4294836225 = 0xFFFE0001: as uint16 that is 1.
  EXPECT_IDENTICAL(Mul(tv<DataType::uint16>({1}, {65535}), tv<DataType::uint16>({1}, {65535})),
                   tv<DataType::uint16>({1}, {1}));
}

TEST(Arithmetic, Float16RoundsOnce) {
  // 1 + 2^-11 is the midpoint of 1 (0x3C00) and 1 + 2^-10: to even, 1.
  EXPECT_IDENTICAL(Add(h16({1}, {0x3C00}), h16({1}, {0x1000})), h16({1}, {0x3C00}));
  // 3 (0x4200) x 0.5 (0x3800) = 1.5 (0x3E00); 1 - 2 = -1 (0xBC00); 1 / 4 = 0.25 (0x3400).
  EXPECT_IDENTICAL(Mul(h16({1}, {0x4200}), h16({1}, {0x3800})), h16({1}, {0x3E00}));
  EXPECT_IDENTICAL(Sub(h16({1}, {0x3C00}), h16({1}, {0x4000})), h16({1}, {0xBC00}));
  EXPECT_IDENTICAL(Div(h16({1}, {0x3C00}), h16({1}, {0x4400})), h16({1}, {0x3400}));
}

TEST(Div, IntegersTruncateAndZeroDivisorsAreErrors) {
  // Div: "For integer inputs, the result is computed using truncating division (rounding toward
  //  zero)."
  using I32 = std::vector<int32_t>;
  EXPECT_IDENTICAL(
      Div(tv<DataType::int32>({4}, I32{7, -7, 7, -7}), tv<DataType::int32>({4}, I32{2, 2, -2, -2})),
      tv<DataType::int32>({4}, I32{3, -3, -3, 3}));
  EXPECT_IDENTICAL(Div(tv<DataType::uint64>({1}, {UINT64_MAX}), tv<DataType::uint64>({1}, {2})),
                   tv<DataType::uint64>({1}, {UINT64_MAX / 2}));
  // min / -1 is beyond the type: it wraps to min, like Add's overflow.
  EXPECT_IDENTICAL(Div(tv<DataType::int32>({1}, {INT32_MIN}), tv<DataType::int32>({1}, {-1})),
                   tv<DataType::int32>({1}, {INT32_MIN}));
  // A zero divisor has no truncated quotient.
  const std::string msg = expect_error(ErrorCode::undefined_result, [] {
    Div(tv<DataType::int64>({2}, {4, 5}), tv<DataType::int64>({}, {0}));
  });
  EXPECT_NE(msg.find("by zero"), std::string::npos) << msg;
  expect_error(ErrorCode::undefined_result,
               [] { Div(tv<DataType::uint8>({1}, {1}), tv<DataType::uint8>({1}, {0})); });
}

TEST(Div, FloatsFollowIeee754) {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor q = Div(f32({4}, {1, -1, 0, 3}), f32({4}, {0, 0, 0, 2}));
  const float* v = q.data<float>();
  EXPECT_EQ(v[0], inf);
  EXPECT_EQ(v[1], -inf);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 1.5f);
  // float16 1 / 0 is +infinity (0x7C00).
  EXPECT_IDENTICAL(Div(h16({1}, {0x3C00}), h16({1}, {0x0000})), h16({1}, {0x7C00}));
}

TEST(Arithmetic, TypeErrors) {
  expect_error(ErrorCode::element_type_mismatch, [] { Sub(iota_f32({1}), i64_vec({1})); });
  expect_error(ErrorCode::unsupported_type, [] { Mul(strs({1}, {"a"}), strs({1}, {"b"})); });
  expect_error(ErrorCode::unsupported_type, [] { Div(b8({1}, {1}), b8({1}, {1})); });
  expect_error(ErrorCode::unsupported_type, [] {
    Sub(make_tensor(DataType::complex64, {1}), make_tensor(DataType::complex64, {1}));
  });
}

// ---------------------------------------------------------------------------------------------
// Equal, Less, Greater: "Returns the tensor resulted from performing the `equal` [`less`,
// `greater`] logical operation elementwise on the input tensors `A` and `B` (with Numpy-style
// broadcasting support)."

TEST(Comparison, ElementwiseWithBroadcasting) {
  EXPECT_IDENTICAL(Equal(i64_vec({1, 2, 3}), i64(2)), b8({3}, {0, 1, 0}));
  EXPECT_IDENTICAL(Less(i64_vec({1, 2, 3}), i64(2)), b8({3}, {1, 0, 0}));
  EXPECT_IDENTICAL(Greater(i64_vec({1, 2, 3}), i64(2)), b8({3}, {0, 0, 1}));
  // [[1], [2]] against [1, 2]: [[1==1, 1==2], [2==1, 2==2]].
  EXPECT_IDENTICAL(Equal(f32({2, 1}, {1, 2}), f32({2}, {1, 2})), b8({2, 2}, {1, 0, 0, 1}));
  // Equal-19 T: "Constrain input types to all (non-complex) tensors." (bool and string too)
  EXPECT_IDENTICAL(Equal(strs({2}, {"a", "b"}), strs({2}, {"a", "c"})), b8({2}, {1, 0}));
  EXPECT_IDENTICAL(Equal(b8({2}, {1, 0}), b8({}, {0})), b8({2}, {0, 1}));
  // Unsigned values above the signed range compare as unsigned.
  EXPECT_IDENTICAL(Greater(tv<DataType::uint64>({1}, {UINT64_MAX}), tv<DataType::uint64>({1}, {1})),
                   b8({1}, {1}));
  EXPECT_IDENTICAL(Less(tv<DataType::int8>({2}, {-1, 5}), tv<DataType::int8>({2}, {0, 5})),
                   b8({2}, {1, 0}));
}

TEST(Comparison, FloatsCompareByIeee754) {
  const float nan = std::nanf("");
  // NaN equals nothing and orders with nothing; -0 equals +0.
  EXPECT_IDENTICAL(Equal(f32({3}, {nan, -0.0f, 1}), f32({3}, {nan, 0.0f, 2})), b8({3}, {0, 1, 0}));
  EXPECT_IDENTICAL(Less(f32({3}, {1, nan, 3}), f32({3}, {2, 2, 2})), b8({3}, {1, 0, 0}));
  EXPECT_IDENTICAL(Greater(f32({3}, {1, nan, 3}), f32({3}, {2, 2, 2})), b8({3}, {0, 0, 1}));
  // float16: 1 (0x3C00) < 2 (0x4000); -2 (0xC000) < -1 (0xBC00) although its bits are larger.
  EXPECT_IDENTICAL(Less(h16({2}, {0x3C00, 0xC000}), h16({2}, {0x4000, 0xBC00})), b8({2}, {1, 1}));
}

TEST(Comparison, TypeErrors) {
  // Less/Greater T: "Constrain input types to all numeric tensors." (no bool, no string)
  expect_error(ErrorCode::unsupported_type, [] { Less(strs({1}, {"a"}), strs({1}, {"b"})); });
  expect_error(ErrorCode::unsupported_type, [] { Greater(b8({1}, {1}), b8({1}, {0})); });
  expect_error(ErrorCode::unsupported_type, [] {
    Equal(make_tensor(DataType::complex64, {1}), make_tensor(DataType::complex64, {1}));
  });
  expect_error(ErrorCode::element_type_mismatch, [] { Equal(i64(1), i32(1)); });
  expect_error(ErrorCode::shape_mismatch, [] { Less(iota_f32({2}), iota_f32({3})); });
}

// ---------------------------------------------------------------------------------------------
// Where-16: "Return elements, either from X or Y, depending on condition. Where behaves like
// numpy.where with three parameters."

TEST(Where, PicksXWhereTrueAndBroadcastsAllThree) {
  // numpy.where([[True, False], [True, True]], [[1, 2], [3, 4]], [[9, 8], [7, 6]]) is
  // [[1, 8], [3, 4]].
  EXPECT_IDENTICAL(
      Where(b8({2, 2}, {1, 0, 1, 1}), f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {9, 8, 7, 6})),
      f32({2, 2}, {1, 8, 3, 4}));
  // condition [[1], [0]], X scalar 5, Y [1, 2, 3]: [[5, 5, 5], [1, 2, 3]].
  EXPECT_IDENTICAL(Where(b8({2, 1}, {1, 0}), f32({}, {5}), f32({3}, {1, 2, 3})),
                   f32({2, 3}, {5, 5, 5, 1, 2, 3}));
  EXPECT_IDENTICAL(Where(b8({2}, {0, 1}), strs({2}, {"x0", "x1"}), strs({}, {"y"})),
                   strs({2}, {"y", "x1"}));
  expect_error(ErrorCode::unsupported_type, [] { Where(i64(1), i64(1), i64(2)); });
  expect_error(ErrorCode::element_type_mismatch, [] { Where(b8({}, {1}), i64(1), i32(2)); });
  expect_error(ErrorCode::shape_mismatch, [] {
    Where(b8({2}, {1, 0}), iota_f32({3}), iota_f32({3}));
  });
}

template <class Tag>
class WhereTypes : public ::testing::Test {};
TYPED_TEST_SUITE(WhereTypes, AllTypes, TypeTagName);

// Where-9 T: "Constrain input and output types to all tensor types."
TYPED_TEST(WhereTypes, EveryTypeIsPicked) {
  constexpr DataType D = TypeParam::value;
  EXPECT_IDENTICAL(Where(b8({2}, {1, 0}), make_tensor(D, {2}, 0), make_tensor(D, {2}, 10)),
                   tv<D>({2}, {sample_value<D>(0), sample_value<D>(11)}));
}

// ---------------------------------------------------------------------------------------------
// Expand-8, 13: "The broadcast rule is similar to numpy.array(input) * numpy.ones(shape):
// Dimensions are right alignment; Two corresponding dimensions must have the same value, or one of
// them is equal to 1."

TEST(Expand, RepeatsAlongTheAxesOfLengthOne) {
  // [[1], [2], [3]] * ones([2, 1, 4]): shape [2, 3, 4], each row repeated 4 times, twice over.
  const Tensor x = f32({3, 1}, {1, 2, 3});
  std::vector<float> want;
  for (int copy = 0; copy < 2; ++copy)
    for (float v : {1.f, 2.f, 3.f})
      for (int k = 0; k < 4; ++k) want.push_back(v);
  EXPECT_IDENTICAL(Expand(x, i64_vec({2, 1, 4})), f32({2, 3, 4}, want));
  // A row [1, 2] against [3, 1]: numpy.array([1, 2]) * numpy.ones([3, 1]) is [3, 2].
  EXPECT_IDENTICAL(Expand(f32({2}, {1, 2}), i64_vec({3, 1})), f32({3, 2}, {1, 2, 1, 2, 1, 2}));
}

TEST(Expand, AShapeSmallerThanTheInputKeepsTheInput) {
  // "It is possible that the output.shape is not equal to shape, when some dimensions in shape is
  // equal to 1, or the shape.ndim < input.shape.ndim."
  const Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_IDENTICAL(Expand(x, i64_vec({1})), x);
  EXPECT_IDENTICAL(Expand(x, i64_vec({1, 1})), x);
  EXPECT_IDENTICAL(Expand(x, i64_vec({3})), x);
  // An empty shape: the input as it is.
  EXPECT_IDENTICAL(Expand(x, Tensor::from_values<DataType::int64>({0}, {})), x);
  // A scalar to [2, 2].
  EXPECT_IDENTICAL(Expand(f32({}, {7}), i64_vec({2, 2})), f32({2, 2}, {7, 7, 7, 7}));
  // A zero-length axis: numpy.array([[5]]) * numpy.ones([0, 3]) has shape [0, 3].
  EXPECT_IDENTICAL(Expand(f32({1, 1}, {5}), i64_vec({0, 3})), f32({0, 3}, {}));
}

TEST(Expand, MovesStringsAndIntegersUnchanged) {
  EXPECT_IDENTICAL(Expand(strs({2, 1}, {"a", "b"}), i64_vec({2, 2})),
                   strs({2, 2}, {"a", "a", "b", "b"}));
  EXPECT_IDENTICAL(Expand(i64_vec({-9}), i64_vec({3})), i64_vec({-9, -9, -9}));
}

TEST(Expand, RejectsShapesThatDoNotBroadcast) {
  // "Two corresponding dimensions must have the same value, or one of them is equal to 1."
  expect_error(ErrorCode::shape_mismatch, [] { Expand(iota_f32({3}), i64_vec({2})); });
  expect_error(ErrorCode::shape_mismatch, [] { Expand(iota_f32({2, 3}), i64_vec({2, 2})); });
  expect_error(ErrorCode::invalid_argument, [] { Expand(iota_f32({3}), i64_vec({-1, 3})); });
  // shape: "A 1-D tensor", tensor(int64).
  expect_error(ErrorCode::input_rank, [] { Expand(iota_f32({3}), i64(3)); });
  expect_error(ErrorCode::unsupported_type,
               [] { Expand(iota_f32({3}), tv<DataType::int32>({1}, {3})); });
}

// Through the interpreter, at both versions: Expand-8 and Expand-13 (bfloat16 from 13 only).
TEST(Expand, RunsInTheInterpreterAtVersions8And13) {
  for (int64_t opset : {8, 13}) {
    const auto m =
        one_node(opset, "Expand",
                 {{"x", tensor_type(DataType::float32)}, {"shape", tensor_type(DataType::int64)}},
                 {{"y", tensor_type(DataType::float32)}}, {});
    EXPECT_IDENTICAL(run(m, {f32({1}, {4}), i64_vec({2})})[0].tensor(), f32({2}, {4, 4})) << opset;
  }
  const auto bf = [](int64_t opset) {
    return one_node(
        opset, "Expand",
        {{"x", tensor_type(DataType::bfloat16)}, {"shape", tensor_type(DataType::int64)}},
        {{"y", tensor_type(DataType::bfloat16)}}, {});
  };
  EXPECT_IDENTICAL(run(bf(13), {bf16({1}, {0x3FC0}), i64_vec({2})})[0].tensor(),
                   bf16({2}, {0x3FC0, 0x3FC0}));
  expect_error(ErrorCode::invalid_model, [&] { run(bf(8), {bf16({1}, {0x3FC0}), i64_vec({2})}); });
}

// ---------------------------------------------------------------------------------------------
// Through the interpreter: attributes, versions and the type table's rows.

onnx::ModelProto cast_model(int64_t opset, DataType from, int64_t to) {
  return one_node(opset, "Cast", {{"x", tensor_type(from)}}, {{"y", tensor_type(F)}},
                  {int_attr("to", to)});
}

TEST(BodyOpsInInterpreter, CastChecksItsToAttributeAgainstT2) {
  // Cast-13 from int32 to float.
  EXPECT_IDENTICAL(
      run(cast_model(13, DataType::int32, 1), {tv<DataType::int32>({2}, {-3, 4})})[0].tensor(),
      f32({2}, {-3, 4}));
  // T2, Cast-13: "Constrain output types. Casting to complex is not supported."
  std::string msg = expect_error(ErrorCode::invalid_model, [] {
    run(cast_model(13, F, static_cast<int64_t>(DataType::complex64)), {f32({1}, {1})});
  });
  EXPECT_NE(msg.find("Casting to complex is not supported."), std::string::npos) << msg;
  // Cast-6 T2: "Constrain output types. Casting to strings and complex are not supported."
  msg = expect_error(ErrorCode::invalid_model, [] {
    run(cast_model(6, F, static_cast<int64_t>(DataType::string)), {f32({1}, {1})});
  });
  EXPECT_NE(msg.find("Casting to strings and complex are not supported."), std::string::npos)
      << msg;
  // Cast-6 T1: a string input is not allowed; Cast-9 casts it.
  msg = expect_error(ErrorCode::invalid_model,
                     [] { run(cast_model(6, DataType::string, 1), {strs({1}, {"1"})}); });
  EXPECT_NE(msg.find("Casting from strings and complex are not supported."), std::string::npos)
      << msg;
  EXPECT_IDENTICAL(run(cast_model(9, DataType::string, 1), {strs({1}, {"2.5"})})[0].tensor(),
                   f32({1}, {2.5f}));
  // 0 is no element type; 17 (float8e4m3fn) is one Cast-19's T2 allows but the suite does not
  // carry.
  expect_error(ErrorCode::invalid_model, [] { run(cast_model(13, F, 0), {f32({1}, {1})}); });
  expect_error(ErrorCode::not_supported, [] { run(cast_model(19, F, 17), {f32({1}, {1})}); });
  // ... which Cast-13 does not allow.
  expect_error(ErrorCode::invalid_model, [] { run(cast_model(13, F, 17), {f32({1}, {1})}); });
  // 16 (bfloat16): T2 holds it from Cast-13 on (1.5 is exact in bfloat16: 0x3FC0), not in 9.
  EXPECT_IDENTICAL(run(cast_model(13, F, 16), {f32({1}, {1.5f})})[0].tensor(), bf16({1}, {0x3FC0}));
  msg = expect_error(ErrorCode::invalid_model, [] { run(cast_model(9, F, 16), {f32({1}, {1})}); });
  EXPECT_NE(msg.find("tensor(bfloat16)"), std::string::npos) << msg;
}

// Cast-1: `to` "Strictly must be one of the types from DataType enum in TensorProto", a string
// attribute naming it; T2 excludes strings ("Casting to strings and complex are not supported.").
TEST(BodyOpsInInterpreter, Cast1NamesItsTargetType) {
  auto m = [](const std::string& to, DataType out) {
    return one_node(1, "Cast", {{"x", tensor_type(F)}}, {{"y", tensor_type(out)}},
                    {model::string_attribute("to", to)});
  };
  EXPECT_IDENTICAL(run(m("INT32", DataType::int32), {f32({2}, {-3.5f, 4.25f})})[0].tensor(),
                   tv<DataType::int32>({2}, {-3, 4}));
  expect_error(ErrorCode::invalid_model,
               [&] { run(m("STRING", DataType::string), {f32({1}, {1})}); });
  expect_error(ErrorCode::invalid_model, [&] { run(m("float", F), {f32({1}, {1})}); });
  // An integer `to`, as later versions have it, is no name.
  expect_error(ErrorCode::invalid_model, [] { run(cast_model(1, F, 1), {f32({1}, {1})}); });
}

// Reshape-1: "It takes a tensor as input and an argument `shape`"; "A dimension could also be 0,
// in which case the actual dimension value is unchanged"; at most one -1. T: float tensors.
TEST(BodyOpsInInterpreter, Reshape1TakesItsShapeAsAnAttribute) {
  auto m = [](std::vector<int64_t> shape) {
    return one_node(1, "Reshape", {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}},
                    {ints_attr("shape", shape)});
  };
  EXPECT_EQ(run(m({0, -1}), {iota_f32({2, 3, 2})})[0].tensor().shape(), (seqconf::Shape{2, 6}));
  EXPECT_IDENTICAL(run(m({3, 2}), {iota_f32({2, 3})})[0].tensor(), iota_f32({3, 2}));
  expect_error(ErrorCode::invalid_model, [] {
    run(one_node(1, "Reshape", {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}}), {iota_f32({2})});
  });
  expect_error(ErrorCode::invalid_model, [] {
    run(one_node(1, "Reshape", {{"x", tensor_type(DataType::int64)}},
                 {{"y", tensor_type(DataType::int64)}}, {ints_attr("shape", {1})}),
        {i64_vec({1})});
  });
}

TEST(BodyOpsInInterpreter, ConcatAxisDefaultsToOneOnlyInVersion1) {
  auto m = [](int64_t opset) {
    return one_node(opset, "Concat", {{"a", tensor_type(F)}, {"b", tensor_type(F)}},
                    {{"c", tensor_type(F)}});
  };
  // Concat-1: "Which axis to concat on.  Default value is 1."
  EXPECT_IDENTICAL(run(m(1), {f32({1, 1}, {1}), f32({1, 2}, {2, 3})})[0].tensor(),
                   f32({1, 3}, {1, 2, 3}));
  // Concat-4: axis is required.
  expect_error(ErrorCode::invalid_model, [&] {
    run(m(4), {f32({1, 1}, {1}), f32({1, 2}, {2, 3})});
  });
  // Concat-1 T: "Constrain output types to float tensors."; Concat-4: any tensor type.
  auto ints = [](int64_t opset) {
    return one_node(opset, "Concat", {{"a", tensor_type(DataType::int64)}},
                    {{"c", tensor_type(DataType::int64)}}, {int_attr("axis", 0)});
  };
  expect_error(ErrorCode::invalid_model, [&] { run(ints(1), {i64_vec({1})}); });
  EXPECT_IDENTICAL(run(ints(4), {i64_vec({1})})[0].tensor(), i64_vec({1}));
}

// Add-6 (and Sub, Mul, Div 1 and 6; Equal, Less, Greater 1): "the right-hand-side argument will
// be broadcasted to match the shape of left-hand-side argument", with broadcast=1, B "of element
// size 1 ... or having its shape as a contiguous subset of the first tensor's shape", starting
// at "axis", else suffix matching; the shapes of the spec's examples.
TEST(BodyOpsInInterpreter, LimitedBroadcastBeforeVersion7) {
  const Tensor a = iota_f32({2, 3, 4, 5});
  Context ctx;
  auto shape_of_b = [&](const Tensor& b, std::optional<int64_t> axis) {
    return legacy_broadcast_operand("Add", a, b, 1, axis, ctx).shape();
  };
  EXPECT_EQ(shape_of_b(f32({}, {1}), std::nullopt), (seqconf::Shape{1, 1, 1, 1}));
  EXPECT_EQ(shape_of_b(f32({1, 1}, {1}), std::nullopt), (seqconf::Shape{1, 1, 1, 1}));
  EXPECT_EQ(shape_of_b(iota_f32({5}), std::nullopt), (seqconf::Shape{1, 1, 1, 5}));
  EXPECT_EQ(shape_of_b(iota_f32({4, 5}), std::nullopt), (seqconf::Shape{1, 1, 4, 5}));
  EXPECT_EQ(shape_of_b(iota_f32({3, 4}), 1), (seqconf::Shape{1, 3, 4, 1}));
  EXPECT_EQ(shape_of_b(iota_f32({2}), 0), (seqconf::Shape{2, 1, 1, 1}));
  EXPECT_TRUE(ctx.ambiguities.empty());
  // Not a contiguous part at that axis, a higher rank, broadcast 0 with other shapes.
  expect_error(ErrorCode::shape_mismatch, [&] { shape_of_b(iota_f32({3, 4}), std::nullopt); });
  expect_error(ErrorCode::shape_mismatch, [&] { shape_of_b(iota_f32({1, 2, 3, 4, 5}), 0); });
  expect_error(ErrorCode::shape_mismatch,
               [&] { legacy_broadcast_operand("Add", a, iota_f32({5}), 0, std::nullopt, ctx); });
  // Through the interpreter: Add-6 with broadcast=1 and axis=0 adds B = [10, 20] per row.
  const auto m = one_node(6, "Add", {{"a", tensor_type(F)}, {"b", tensor_type(F)}},
                          {{"c", tensor_type(F)}}, {int_attr("broadcast", 1), int_attr("axis", 0)});
  EXPECT_IDENTICAL(run(m, {iota_f32({2, 3}), f32({2}, {10, 20})})[0].tensor(),
                   f32({2, 3}, {10, 11, 12, 23, 24, 25}));
  // "1-dim expansion doesn't work yet", yet ONNX's test_operator_add_size1_broadcast expands a
  // dimension of 1: lenient expands and notes legacy_broadcast_size1, strict rejects.
  EXPECT_EQ(shape_of_b(f32({2, 1}, {1, 2}), 0), (seqconf::Shape{2, 1, 1, 1}));
  EXPECT_EQ(shape_of_b(f32({4, 1}, {1, 2, 3, 4}), std::nullopt), (seqconf::Shape{1, 1, 4, 1}));
  ASSERT_FALSE(ctx.ambiguities.empty());
  EXPECT_EQ(ctx.ambiguities[0].id, "legacy_broadcast_size1");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::shape_mismatch, [&] {
    legacy_broadcast_operand("Add", a, f32({4, 1}, {1, 2, 3, 4}), 1, std::nullopt, strict);
  });
}

TEST(BodyOpsInInterpreter, GatherWrapsNegativeIndicesFromVersion11) {
  auto m = [](int64_t opset) {
    return one_node(opset, "Gather", {{"d", tensor_type(F)}, {"i", tensor_type(DataType::int64)}},
                    {{"o", tensor_type(F)}});
  };
  EXPECT_IDENTICAL(run(m(11), {f32({3}, {1, 2, 3}), i64_vec({-1})})[0].tensor(), f32({1}, {3}));
  expect_error(ErrorCode::index_out_of_range, [&] {
    run(m(1), {f32({3}, {1, 2, 3}), i64_vec({-1})});
  });
  // Tind: "Constrain indices to integer types" (int32, int64).
  auto m16 = one_node(13, "Gather", {{"d", tensor_type(F)}, {"i", tensor_type(DataType::int16)}},
                      {{"o", tensor_type(F)}});
  expect_error(ErrorCode::invalid_model, [&] {
    run(m16, {f32({3}, {1, 2, 3}), tv<DataType::int16>({1}, {0})});
  });
}

TEST(BodyOpsInInterpreter, VersionedTypeConstraints) {
  auto binary = [](int64_t opset, const std::string& op, DataType d, DataType out) {
    return one_node(opset, op, {{"a", tensor_type(d)}, {"b", tensor_type(d)}},
                    {{"c", tensor_type(out)}});
  };
  const Tensor s = strs({1}, {"a"});
  // Equal-13 T: "Constrain input types to all numeric tensors."; Equal-19: "... all
  // (non-complex) tensors." (strings)
  expect_error(ErrorCode::invalid_model, [&] {
    run(binary(13, "Equal", DataType::string, BOOL), {s, s});
  });
  EXPECT_IDENTICAL(run(binary(19, "Equal", DataType::string, BOOL), {s, s})[0].tensor(),
                   b8({1}, {1}));
  // Equal-7 T: "Constrain input to integral tensors." (bool, int32, int64): no float.
  expect_error(ErrorCode::invalid_model, [&] {
    run(binary(7, "Equal", F, BOOL), {f32({1}, {1}), f32({1}, {1})});
  });
  // Less-7 T: "Constrain input to float tensors."; Less-9: all numeric tensors.
  const Tensor one = i64_vec({1}), two = i64_vec({2});
  expect_error(ErrorCode::invalid_model, [&] {
    run(binary(7, "Less", DataType::int64, BOOL), {one, two});
  });
  EXPECT_IDENTICAL(run(binary(9, "Less", DataType::int64, BOOL), {one, two})[0].tensor(),
                   b8({1}, {1}));
  EXPECT_IDENTICAL(run(binary(9, "Greater", DataType::int64, BOOL), {one, two})[0].tensor(),
                   b8({1}, {0}));
  // Sub/Mul/Div-13: "high-precision numeric tensors" (no int8); 14: "all numeric tensors".
  const Tensor a = tv<DataType::int8>({1}, {7}), b = tv<DataType::int8>({1}, {2});
  for (const char* op : {"Sub", "Mul", "Div"})
    expect_error(ErrorCode::invalid_model, [&] {
      run(binary(13, op, DataType::int8, DataType::int8), {a, b});
    });
  EXPECT_IDENTICAL(run(binary(14, "Sub", DataType::int8, DataType::int8), {a, b})[0].tensor(),
                   tv<DataType::int8>({1}, {5}));
  EXPECT_IDENTICAL(run(binary(14, "Mul", DataType::int8, DataType::int8), {a, b})[0].tensor(),
                   tv<DataType::int8>({1}, {14}));
  EXPECT_IDENTICAL(run(binary(14, "Div", DataType::int8, DataType::int8), {a, b})[0].tensor(),
                   tv<DataType::int8>({1}, {3}));
  // Sub-6 T: high-precision numeric (no int8); Sub-1: float tensors (no int64). Equal shapes
  // need no broadcast attribute.
  EXPECT_IDENTICAL(run(binary(6, "Sub", F, F), {f32({1}, {3}), f32({1}, {1})})[0].tensor(),
                   f32({1}, {2}));
  expect_error(ErrorCode::invalid_model, [&] {
    run(binary(6, "Sub", DataType::int8, DataType::int8), {a, b});
  });
  expect_error(ErrorCode::invalid_model, [&] {
    run(binary(1, "Sub", DataType::int64, DataType::int64), {i64_vec({3}), i64_vec({1})});
  });
  // Without broadcast=1 the shapes must be equal.
  expect_error(ErrorCode::shape_mismatch, [&] {
    run(binary(6, "Sub", F, F), {f32({2}, {3, 4}), f32({1}, {1})});
  });
  // Where B: "Constrain to boolean tensors."
  auto where =
      one_node(16, "Where",
               {{"c", tensor_type(DataType::int32)}, {"x", tensor_type(F)}, {"y", tensor_type(F)}},
               {{"o", tensor_type(F)}});
  expect_error(ErrorCode::invalid_model, [&] {
    run(where, {i32(1), f32({1}, {1}), f32({1}, {2})});
  });
}

}  // namespace
}  // namespace seqconf::testing
