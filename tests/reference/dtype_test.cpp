#include <cmath>
#include <cstring>

#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

// IEEE 754 binary16: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
TEST(Float16, KnownBitPatterns) {
  struct Case {
    float value;
    uint16_t bits;
  };
  const Case cases[] = {{1.0f, 0x3C00},     {-2.0f, 0xC000},    {0.5f, 0x3800},
                        {65504.0f, 0x7BFF}, {0.0f, 0x0000},     {-0.0f, 0x8000},
                        {0x1p-24f, 0x0001}, {0x1p-14f, 0x0400}, {INFINITY, 0x7C00},
                        {-INFINITY, 0xFC00}};
  for (const auto& c : cases) {
    EXPECT_EQ(float_to_float16(c.value).bits, c.bits) << c.value;
    EXPECT_EQ(float16_to_float(Float16{c.bits}), c.value) << c.bits;
  }
  EXPECT_TRUE(std::isnan(float16_to_float(Float16{0x7E00})));
  EXPECT_EQ(float_to_float16(NAN).bits & 0x7C00, 0x7C00);
}

TEST(Float16, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 (0x3C00, even) and 1 + 2^-10 (0x3C01): goes to even.
  EXPECT_EQ(float_to_float16(1.0f + 0x1p-11f).bits, 0x3C00);
  // 1 + 3 * 2^-11 lies halfway between 0x3C01 and 0x3C02 (even).
  EXPECT_EQ(float_to_float16(1.0f + 3 * 0x1p-11f).bits, 0x3C02);
  // 65520 lies halfway between 65504 (0x7BFF, odd) and 65536 (overflow): goes to infinity.
  EXPECT_EQ(float_to_float16(65520.0f).bits, 0x7C00);
}

TEST(DataType, NamesAndSizes) {
  EXPECT_EQ(kAllDataTypes.size(), 15u);
  EXPECT_EQ(kCarriedDataTypes.size(), 16u);
  for (DataType d : kCarriedDataTypes) {
    EXPECT_EQ(dtype_from_name(dtype_name(d)), d);
    EXPECT_TRUE(is_supported(d));
    // The sequence operators' "any tensor type" is the 15, without bfloat16.
    EXPECT_EQ(is_any_tensor_type(d), d != DataType::bfloat16) << dtype_name(d);
  }
  EXPECT_EQ(element_size(DataType::complex128), 16u);
  EXPECT_EQ(element_size(DataType::float16), 2u);
  EXPECT_EQ(element_size(DataType::bool_), 1u);
  EXPECT_EQ(element_size(DataType::string), 0u);
  EXPECT_EQ(element_size(DataType::bfloat16), 2u);
  EXPECT_EQ(static_cast<int32_t>(DataType::bfloat16), 16);  // TensorProto.BFLOAT16
  EXPECT_EQ(dtype_name(DataType::bfloat16), "bfloat16");
  EXPECT_EQ(dtype_name_any(16), "bfloat16");
  EXPECT_FALSE(is_supported(static_cast<DataType>(17)));  // float8e4m3fn
  EXPECT_TRUE(is_floating(DataType::bfloat16));
}

// bfloat16 is the upper half of a binary32: widening is exact, narrowing rounds to nearest with
// ties to even, overflows to infinity, and keeps NaN a NaN (values worked out by hand from the
// binary32 bit patterns).
TEST(DataType, BFloat16Conversions) {
  auto bits = [](float f) { return float_to_bfloat16(f).bits; };
  auto f32_of = [](uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  };
  EXPECT_EQ(bfloat16_to_float(BFloat16{0x3F80}), 1.0f);
  EXPECT_EQ(bfloat16_to_float(BFloat16{0xC0A0}), -5.0f);
  EXPECT_EQ(bfloat16_to_float(BFloat16{0x0001}), f32_of(0x00010000));  // a subnormal
  EXPECT_EQ(bits(1.0f), 0x3F80);
  EXPECT_EQ(bits(-0.0f), 0x8000);
  EXPECT_EQ(bits(f32_of(0x3F808000)), 0x3F80);  // tie, even stays
  EXPECT_EQ(bits(f32_of(0x3F818000)), 0x3F82);  // tie, odd rounds up to even
  EXPECT_EQ(bits(f32_of(0x3F808001)), 0x3F81);  // above the tie
  EXPECT_EQ(bits(f32_of(0x3F807FFF)), 0x3F80);  // below the tie
  EXPECT_EQ(bits(f32_of(0x7F7FFFFF)), 0x7F80);  // FLT_MAX rounds to +inf
  EXPECT_EQ(bits(f32_of(0xFF800000)), 0xFF80);  // -inf
  EXPECT_EQ(bits(f32_of(0x7F800001)), 0x7FC0);  // NaN with a low payload stays NaN
  EXPECT_EQ(bits(f32_of(0xFFC00000)), 0xFFC0);
  for (uint32_t b = 0; b < 0x10000; ++b) {  // every bfloat16 survives the round trip
    const BFloat16 h{static_cast<uint16_t>(b)};
    const BFloat16 back = float_to_bfloat16(bfloat16_to_float(h));
    if ((b & 0x7FFF) > 0x7F80)
      EXPECT_EQ(back.bits, b | 0x0040) << b;  // NaN: quiet bit set
    else
      ASSERT_EQ(back.bits, b) << b;
  }
}

// visit_dtype dispatches the 16 types and throws on any other value, naming it.
TEST(DataType, VisitRejectsValuesOutsideTheTypeSet) {
  for (DataType d : kCarriedDataTypes)
    EXPECT_EQ(visit_dtype(d, [](auto tag) { return decltype(tag)::value; }), d);
  for (int32_t v : {0, 17, 99, -1}) {
    try {
      visit_dtype(static_cast<DataType>(v), [](auto) {});
      ADD_FAILURE() << v;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::unsupported_type);
      EXPECT_NE(std::string(e.what()).find("element type " + std::to_string(v) + " "),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(ErrorCodes, NamesAreStableAndRoundTrip) {
  ErrorCode c;
  ASSERT_TRUE(error_code_from_name("position_out_of_range", c));
  EXPECT_EQ(c, ErrorCode::position_out_of_range);
  EXPECT_EQ(error_code_name(ErrorCode::split_sum_mismatch), "split_sum_mismatch");
  EXPECT_FALSE(error_code_from_name("no_such_code", c));
}

TEST(Tensor, RejectsMismatchedData) {
  expect_error(ErrorCode::invalid_proto,
               [] { Tensor::from_bytes(DataType::int32, {2}, std::vector<std::byte>(7)); });
  expect_error(ErrorCode::invalid_proto, [] { Tensor::from_strings({3}, {"a"}); });
  expect_error(ErrorCode::invalid_proto, [] { Tensor::zeros(DataType::float32, {2, -1}); });
  expect_error(ErrorCode::limit_exceeded, [] {
    Tensor::zeros(DataType::float32, {1 << 20, 1 << 20, 1 << 20});
  });
  expect_error(ErrorCode::limit_exceeded, [] {
    Tensor::zeros(DataType::float32, {int64_t{1} << 40, int64_t{1} << 40});
  });
}

TEST(Tensor, BoolBytesAreNormalised) {
  const Tensor t = Tensor::from_bytes(DataType::bool_, {2}, {std::byte{0}, std::byte{7}});
  EXPECT_EQ(t.data<uint8_t>()[1], 1);
}

TEST(Tensor, IdenticalComparesBitsAndShape) {
  EXPECT_TRUE(f32({1}, {NAN}).identical(f32({1}, {NAN})));
  EXPECT_FALSE(f32({1}, {0.0f}).identical(f32({1}, {-0.0f})));
  EXPECT_FALSE(f32({1, 1}, {1}).identical(f32({1}, {1})));
  EXPECT_FALSE(Tensor::zeros(DataType::int32, {0}).identical(Tensor::zeros(DataType::int64, {0})));
}

// A NaN keeps its payload when widened: the 10 mantissa bits become the top of float's 23.
TEST(Float16, NanPayloadSurvivesWidening) {
  const float f = float16_to_float(Float16{0x7E01});
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  EXPECT_EQ(bits, 0x7FC02000u);
  const float g = float16_to_float(Float16{0xFD55});  // negative, signalling payload 0x155
  std::memcpy(&bits, &g, 4);
  EXPECT_EQ(bits, 0xFFAAA000u);
}

// Finite floats beyond float16's range round to infinity (IEEE 754 round to nearest).
TEST(Float16, OverflowGivesInfinity) {
  EXPECT_EQ(float_to_float16(1e6f).bits, 0x7C00);
  EXPECT_EQ(float_to_float16(-3.4e38f).bits, 0xFC00);
  EXPECT_EQ(float_to_float16(65536.0f).bits, 0x7C00);
}

// TensorProto.DataType numbers: UINT32 = 12, UINT64 = 13, COMPLEX64 = 14.
TEST(DataType, NamesOfTheOnnxEnumNumbers) {
  EXPECT_EQ(dtype_name_any(1), "float");
  EXPECT_EQ(dtype_name_any(12), "uint32");
  EXPECT_EQ(dtype_name_any(13), "uint64");
  EXPECT_EQ(dtype_name_any(14), "complex64");
  EXPECT_EQ(dtype_name_any(99), "type 99");
}

TEST(Tensor, IdenticalComparesEveryStringByte) {
  auto s = [](std::vector<std::string> v) {
    const auto n = static_cast<int64_t>(v.size());
    return Tensor::from_strings({n}, std::move(v));
  };
  EXPECT_TRUE(s({"ab", ""}).identical(s({"ab", ""})));
  EXPECT_FALSE(s({"ab"}).identical(s({"ba"})));
  EXPECT_FALSE(s({std::string("a\0b", 3)}).identical(s({std::string("a\0c", 3)})));
}

// slice_axis(t, axis, start, length): along axis, elements start .. start + length - 1 of every
// row, for outer rows > 1 (a copy) as for a single row (a view).
TEST(Tensor, SliceAxisTakesTheRangeOfEveryRow) {
  const Tensor t = Tensor::from_values<DataType::int32>({2, 3}, {0, 1, 2, 10, 11, 12});
  EXPECT_TRUE(slice_axis(t, 1, 1, 2)
                  .identical(Tensor::from_values<DataType::int32>({2, 2}, {1, 2, 11, 12})));
  EXPECT_TRUE(
      slice_axis(t, 0, 1, 1).identical(Tensor::from_values<DataType::int32>({1, 3}, {10, 11, 12})));
  const Tensor s = Tensor::from_strings({2, 2}, {"a", "b", "c", "d"});
  EXPECT_TRUE(slice_axis(s, 1, 1, 1).identical(Tensor::from_strings({2, 1}, {"b", "d"})));
}

// A sequence holds tensors of its element type only, the first one included.
TEST(Tensor, SequenceRejectsTensorsOfAnotherElementType) {
  expect_error(ErrorCode::element_type_mismatch, [] { Sequence(DataType::float32, {i64(1)}); });
  expect_error(ErrorCode::element_type_mismatch, [] {
    Sequence(DataType::int64, {i64(1), i32(2)});
  });
}

}  // namespace
}  // namespace seqconf::testing
