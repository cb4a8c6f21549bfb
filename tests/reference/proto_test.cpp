#include "reference/proto.h"

#include <cmath>

#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

template <class Tag>
class ProtoTyped : public ::testing::Test {};
TYPED_TEST_SUITE(ProtoTyped, AllTypes, TypeTagName);

TYPED_TEST(ProtoTyped, TensorRoundTripBothEncodings) {
  constexpr DataType D = TypeParam::value;
  for (const Shape& shape : {Shape{}, Shape{0}, Shape{2, 3}, Shape{1, 0, 2}, Shape{2, 1, 2, 1}}) {
    const Tensor t = make_tensor(D, shape, 3);
    for (auto enc : {TensorEncoding::typed_fields, TensorEncoding::raw_data}) {
      const onnx::TensorProto p = tensor_to_proto(t, enc, "x");
      EXPECT_EQ(p.data_type(), static_cast<int32_t>(D));
      EXPECT_EQ(p.has_raw_data(), enc == TensorEncoding::raw_data && D != DataType::string);
      EXPECT_TRUE(tensor_from_proto(p).identical(t)) << shape_to_string(shape);
    }
  }
}

TYPED_TEST(ProtoTyped, SequenceRoundTripKeepsTypeWhenEmpty) {
  constexpr DataType D = TypeParam::value;
  onnx::TypeProto declared;
  declared.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int32_t>(D));
  for (size_t n : {0, 1, 3}) {
    const Sequence s = make_sequence(D, n);
    const Value back =
        value_from_bytes(value_to_bytes(s, TensorEncoding::raw_data), declared, "seq");
    EXPECT_TRUE(back.sequence().identical(s)) << n;
  }
}

// Typed fields written by hand, as the ONNX spec lays them out.
TEST(Proto, TypedFieldLayouts) {
  onnx::TensorProto h;  // float16 bits live in int32_data
  h.set_data_type(onnx::TensorProto::FLOAT16);
  h.add_dims(2);
  h.add_int32_data(0x3C00);
  h.add_int32_data(0xC000);
  const Tensor th = tensor_from_proto(h);
  EXPECT_EQ(th.data<Float16>()[0].bits, 0x3C00);
  EXPECT_EQ(float16_to_float(th.data<Float16>()[1]), -2.0f);

  onnx::TensorProto b;  // bfloat16 bits in int32_data too (onnx.proto lists BFLOAT16 there)
  b.set_data_type(onnx::TensorProto::BFLOAT16);
  b.add_dims(2);
  b.add_int32_data(0x3F80);
  b.add_int32_data(0xC040);
  const Tensor tb = tensor_from_proto(b);
  ASSERT_EQ(tb.dtype(), DataType::bfloat16);
  EXPECT_EQ(tb.data<BFloat16>()[0].bits, 0x3F80);
  EXPECT_EQ(bfloat16_to_float(tb.data<BFloat16>()[1]), -3.0f);

  onnx::TensorProto br;  // and as raw_data: two little-endian bytes per element
  br.set_data_type(onnx::TensorProto::BFLOAT16);
  br.add_dims(1);
  br.set_raw_data(std::string("\xC0\x7F", 2));
  EXPECT_EQ(tensor_from_proto(br).data<BFloat16>()[0].bits, 0x7FC0);  // a NaN, bit for bit

  onnx::TensorProto c;  // complex64 as (real, imaginary) pairs in float_data
  c.set_data_type(onnx::TensorProto::COMPLEX64);
  c.add_dims(1);
  c.add_float_data(1.5f);
  c.add_float_data(-2.5f);
  EXPECT_EQ(tensor_from_proto(c).data<std::complex<float>>()[0], std::complex<float>(1.5f, -2.5f));

  onnx::TensorProto u;  // uint32 in uint64_data
  u.set_data_type(onnx::TensorProto::UINT32);
  u.add_uint64_data(4000000000u);
  EXPECT_EQ(tensor_from_proto(u).data<uint32_t>()[0], 4000000000u);

  onnx::TensorProto u64;  // uint64 in uint64_data, the full range (not int64_data)
  u64.set_data_type(onnx::TensorProto::UINT64);
  u64.add_dims(3);
  u64.add_uint64_data((uint64_t{1} << 63) + 5);
  u64.add_uint64_data(0);
  u64.add_uint64_data(~uint64_t{0});
  const Tensor tu64 = tensor_from_proto(u64);
  ASSERT_EQ(tu64.shape(), Shape{3});
  EXPECT_EQ(tu64.data<uint64_t>()[0], 9223372036854775813u);
  EXPECT_EQ(tu64.data<uint64_t>()[1], 0u);
  EXPECT_EQ(tu64.data<uint64_t>()[2], 18446744073709551615u);

  onnx::TensorProto s;  // strings are arbitrary bytes
  s.set_data_type(onnx::TensorProto::STRING);
  s.add_dims(2);
  s.add_string_data(std::string("a\0b", 3));
  s.add_string_data("");
  const Tensor ts = tensor_from_proto(s);
  EXPECT_EQ(ts.string_at(0), std::string("a\0b", 3));
  EXPECT_EQ(ts.string_at(1), "");
}

// The writer's typed fields follow the same layout: uint32 and uint64 in uint64_data, int64 in
// int64_data, the narrow integer types, bool and float16 bits in int32_data.
TEST(Proto, WriterUsesTheSpecTypedFields) {
  const Tensor u64 =
      Tensor::from_values<DataType::uint64>({2}, {(uint64_t{1} << 63) + 5, uint64_t{7}});
  const onnx::TensorProto pu64 = tensor_to_proto(u64, TensorEncoding::typed_fields);
  EXPECT_FALSE(pu64.has_raw_data());
  EXPECT_EQ(pu64.int64_data_size(), 0);
  ASSERT_EQ(pu64.uint64_data_size(), 2);
  EXPECT_EQ(pu64.uint64_data(0), 9223372036854775813u);
  EXPECT_EQ(pu64.uint64_data(1), 7u);

  const onnx::TensorProto pu32 = tensor_to_proto(
      Tensor::from_values<DataType::uint32>({1}, {4000000000u}), TensorEncoding::typed_fields);
  ASSERT_EQ(pu32.uint64_data_size(), 1);
  EXPECT_EQ(pu32.uint64_data(0), 4000000000u);

  const onnx::TensorProto pi64 = tensor_to_proto(
      Tensor::from_values<DataType::int64>({1}, {int64_t{-3}}), TensorEncoding::typed_fields);
  EXPECT_EQ(pi64.uint64_data_size(), 0);
  ASSERT_EQ(pi64.int64_data_size(), 1);
  EXPECT_EQ(pi64.int64_data(0), -3);

  const onnx::TensorProto ph = tensor_to_proto(
      Tensor::from_values<DataType::float16>({1}, {Float16{0xC000}}), TensorEncoding::typed_fields);
  ASSERT_EQ(ph.int32_data_size(), 1);
  EXPECT_EQ(ph.int32_data(0), 0xC000);

  const onnx::TensorProto pb =
      tensor_to_proto(Tensor::from_values<DataType::bfloat16>({1}, {BFloat16{0xFF81}}),
                      TensorEncoding::typed_fields);
  EXPECT_EQ(pb.data_type(), onnx::TensorProto::BFLOAT16);
  ASSERT_EQ(pb.int32_data_size(), 1);
  EXPECT_EQ(pb.int32_data(0), 0xFF81);  // a signalling NaN, bit for bit
}

TEST(Proto, RawDataIsLittleEndian) {
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::INT32);
  p.set_raw_data(std::string("\x01\x02\x00\x00", 4));
  EXPECT_EQ(tensor_from_proto(p).data<int32_t>()[0], 0x0201);
}

TEST(Proto, RejectsMalformedTensors) {
  onnx::TensorProto count;
  count.set_data_type(onnx::TensorProto::FLOAT);
  count.add_dims(3);
  count.add_float_data(1);
  auto msg = expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(count); });
  EXPECT_NE(msg.find("float_data holds 1"), std::string::npos) << msg;

  onnx::TensorProto extra;  // one value per element: more is as malformed as fewer
  extra.set_data_type(onnx::TensorProto::FLOAT);
  extra.add_dims(2);
  for (float v : {1.f, 2.f, 3.f}) extra.add_float_data(v);
  msg = expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(extra); });
  EXPECT_NE(msg.find("float_data holds 3"), std::string::npos) << msg;

  onnx::TensorProto raw;
  raw.set_data_type(onnx::TensorProto::INT64);
  raw.add_dims(2);
  raw.set_raw_data(std::string(15, '\0'));
  msg = expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(raw); });
  EXPECT_NE(msg.find("15 bytes"), std::string::npos) << msg;
  raw.set_raw_data(std::string(17, '\0'));  // more bytes than the shape needs: as malformed
  msg = expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(raw); });
  EXPECT_NE(msg.find("raw_data has 17 bytes"), std::string::npos) << msg;

  onnx::TensorProto neg;
  neg.set_data_type(onnx::TensorProto::FLOAT);
  neg.add_dims(-1);
  expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(neg); });

  onnx::TensorProto overflow;
  overflow.set_data_type(onnx::TensorProto::FLOAT);
  for (int i = 0; i < 4; ++i) overflow.add_dims(int64_t{1} << 20);
  expect_error(ErrorCode::limit_exceeded, [&] { tensor_from_proto(overflow); });

  onnx::TensorProto huge;  // 10^12 elements declared, no data: rejected before allocating
  huge.set_data_type(onnx::TensorProto::UINT8);
  huge.add_dims(1000000);
  huge.add_dims(1000000);
  expect_error(ErrorCode::limit_exceeded, [&] { tensor_from_proto(huge); });

  onnx::TensorProto f8;
  f8.set_data_type(17);  // FLOAT8E4M3FN (ONNX 1.14 on)
  msg = expect_error(ErrorCode::unsupported_type, [&] { tensor_from_proto(f8); });
  EXPECT_NE(msg.find("float8e4m3fn"), std::string::npos) << msg;

  onnx::TensorProto unknown;
  unknown.set_data_type(99);
  expect_error(ErrorCode::unsupported_type, [&] { tensor_from_proto(unknown); });

  onnx::TensorProto ext;
  ext.set_data_type(onnx::TensorProto::FLOAT);
  ext.set_data_location(onnx::TensorProto::EXTERNAL);
  expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(ext); });
  ext.add_float_data(1.f);  // inline data does not make an EXTERNAL tensor readable
  expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(ext); });

  onnx::TensorProto str_raw;
  str_raw.set_data_type(onnx::TensorProto::STRING);
  str_raw.set_raw_data("abc");
  expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(str_raw); });
  str_raw.add_dims(0);  // "raw_data ... MUST NOT be STRING", even with no element
  expect_error(ErrorCode::invalid_proto, [&] { tensor_from_proto(str_raw); });
}

TEST(Proto, SequenceErrors) {
  onnx::SequenceProto mixed;
  mixed.set_elem_type(onnx::SequenceProto::TENSOR);
  *mixed.add_tensor_values() =
      tensor_to_proto(make_tensor(DataType::float32, {1}), TensorEncoding::raw_data);
  *mixed.add_tensor_values() =
      tensor_to_proto(make_tensor(DataType::int32, {1}), TensorEncoding::raw_data);
  expect_error(ErrorCode::element_type_mismatch, [&] { sequence_from_proto(mixed); });

  onnx::SequenceProto empty;
  empty.set_elem_type(onnx::SequenceProto::TENSOR);
  expect_error(ErrorCode::invalid_proto, [&] { sequence_from_proto(empty); });
  EXPECT_EQ(sequence_from_proto(empty, DataType::uint16).elem_type(), DataType::uint16);

  onnx::TypeProto declared;
  declared.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  expect_error(ErrorCode::invalid_proto, [&] { value_from_bytes("\xff\xff\xff", declared, "in"); });
  // A sequence file of int32 tensors where the graph declares seq(tensor(float)).
  const std::string ints =
      value_to_bytes(make_sequence(DataType::int32, 2), TensorEncoding::raw_data);
  expect_error(ErrorCode::element_type_mismatch, [&] { value_from_bytes(ints, declared, "in"); });
}

// A file holding a TensorProto where the graph declares a sequence: its fields do not fit
// SequenceProto (field 1 is a string there, an int64 dims entry here), although field 2
// (data_type FLOAT = 1) reads as a valid elem_type (TENSOR = 1) and nothing else is left.
TEST(Proto, AnotherMessageTypeIsRejected) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(0);
  onnx::TypeProto declared;
  declared.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  expect_error(ErrorCode::invalid_proto,
               [&] { value_from_bytes(t.SerializeAsString(), declared, "in"); });
}

// A tensor file of another element type than the graph declares is malformed input.
TEST(Proto, TensorOfAnotherTypeThanDeclaredIsRejected) {
  onnx::TypeProto declared;
  declared.mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  const std::string ints = value_to_bytes(Value(i32(7)), TensorEncoding::raw_data);
  const auto msg =
      expect_error(ErrorCode::invalid_proto, [&] { value_from_bytes(ints, declared, "in"); });
  EXPECT_NE(msg.find("tensor(float)"), std::string::npos) << msg;
}

TEST(Proto, OptionalRoundTrip) {
  const Value some = make_optional(Value(make_sequence(DataType::int8, 2)));
  onnx::TypeProto declared = type_of(some);
  EXPECT_TRUE(value_from_bytes(value_to_bytes(some, TensorEncoding::typed_fields), declared, "o")
                  .identical(some));
  Optional none;
  none.holds_sequence = true;
  none.elem_type = DataType::int8;
  EXPECT_TRUE(value_from_bytes(value_to_bytes(Value(none), TensorEncoding::raw_data), declared, "o")
                  .identical(Value(none)));
}

// An OptionalProto with elem_type UNDEFINED holds nothing; what it would hold comes from the
// declared type: here optional(seq(tensor(int8))).
TEST(Proto, EmptyOptionalTakesItsKindFromTheDeclaredType) {
  onnx::TypeProto declared;
  declared.mutable_optional_type()
      ->mutable_elem_type()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(onnx::TensorProto::INT8);
  const Value v = value_from_bytes(onnx::OptionalProto().SerializeAsString(), declared, "o");
  ASSERT_TRUE(v.is_optional());
  EXPECT_FALSE(v.optional().element);
  EXPECT_TRUE(v.optional().holds_sequence);
  EXPECT_EQ(v.optional().elem_type, DataType::int8);
}

}  // namespace
}  // namespace seqconf::testing
