#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

ops::SequenceMapBody identity_body(size_t inputs, std::vector<DataType> out_types) {
  ops::SequenceMapBody b;
  b.num_inputs = inputs;
  b.output_elem_types = std::move(out_types);
  b.run = [](const std::vector<Value>& s) { return s; };
  return b;
}

template <class Tag>
class SequenceMapTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SequenceMapTyped, AllTypes, TypeTagName);

// Clause SequenceMap.per_sample.
TYPED_TEST(SequenceMapTyped, IdentityKeepsEverySampleInOrder) {
  constexpr DataType D = TypeParam::value;
  const Sequence seq = make_sequence(D, 3);
  Context ctx;
  const auto out = ops::SequenceMap(seq, {}, identity_body(1, {D}), ctx);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].identical(seq));
}

// An empty first input gives empty outputs, typed from the body.
TYPED_TEST(SequenceMapTyped, EmptyInputGivesEmptyTypedOutputs) {
  constexpr DataType D = TypeParam::value;
  Context ctx;
  const auto out = ops::SequenceMap(Sequence(D), {}, identity_body(1, {D}), ctx);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].empty());
  EXPECT_EQ(out[0].elem_type(), D);
}

// Tensor inputs go whole to every sample; other sequence inputs are split per sample.
TEST(SequenceMap, SequenceAndTensorInputs) {
  const Sequence a = make_sequence(DataType::int64, 3);
  const Sequence b = make_sequence(DataType::string, 3);
  const Tensor t = make_tensor(DataType::float32, {2}, 9);
  Context ctx;
  const auto out = ops::SequenceMap(
      a, {Value(b), Value(t)},
      identity_body(3, {DataType::int64, DataType::string, DataType::float32}), ctx);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].identical(a));
  EXPECT_TRUE(out[1].identical(b));
  ASSERT_EQ(out[2].size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(out[2].at(i).identical(t));
}

// A body that changes the type (Shape): output i is the shape of sample i as int64.
TEST(SequenceMap, BodyChangingTheType) {
  const Sequence seq(DataType::float32, {iota_f32({2, 3}), iota_f32({0}), iota_f32({})});
  ops::SequenceMapBody shape;
  shape.num_inputs = 1;
  shape.output_elem_types = {DataType::int64};
  shape.run = [](const std::vector<Value>& s) {
    const Shape& dims = s[0].tensor().shape();
    return std::vector<Value>{Tensor::from_values<DataType::int64>(
        {static_cast<int64_t>(dims.size())}, std::vector<int64_t>(dims.begin(), dims.end()))};
  };
  Context ctx;
  const auto out = ops::SequenceMap(seq, {}, shape, ctx);
  ASSERT_EQ(out[0].size(), 3u);
  EXPECT_TRUE(out[0].at(0).identical(i64_vec({2, 3})));
  EXPECT_TRUE(out[0].at(1).identical(i64_vec({0})));
  EXPECT_TRUE(out[0].at(2).identical(i64_vec({})));
}

// Clause SequenceMap.same_samples.
TEST(SequenceMap, SequenceLengthMismatch) {
  Context ctx;
  const auto msg = expect_error(ErrorCode::sequence_length_mismatch, [&] {
    ops::SequenceMap(make_sequence(DataType::float32, 3),
                     {Value(make_sequence(DataType::float32, 2))},
                     identity_body(2, {DataType::float32, DataType::float32}), ctx);
  });
  EXPECT_NE(msg.find("3"), std::string::npos);
  EXPECT_NE(msg.find("2"), std::string::npos);
}

// Clause SequenceMap.arity.
TEST(SequenceMap, BodyArity) {
  Context ctx;
  const Sequence seq = make_sequence(DataType::float32, 2);
  expect_error(ErrorCode::body_arity_mismatch,
               [&] { ops::SequenceMap(seq, {}, identity_body(2, {DataType::float32}), ctx); });
  expect_error(ErrorCode::body_arity_mismatch,
               [&] { ops::SequenceMap(seq, {}, identity_body(1, {}), ctx); });
  // The body returns one value where two outputs are declared.
  expect_error(ErrorCode::body_arity_mismatch, [&] {
    ops::SequenceMap(seq, {}, identity_body(1, {DataType::float32, DataType::float32}), ctx);
  });
}

TEST(SequenceMap, BodyOutputMustMatchItsDeclaredType) {
  Context ctx;
  expect_error(ErrorCode::body_output_type, [&] {
    ops::SequenceMap(make_sequence(DataType::float32, 2), {}, identity_body(1, {DataType::int32}),
                     ctx);
  });
}

TEST(SequenceMap, BodyErrorsPropagate) {
  ops::SequenceMapBody failing = identity_body(1, {DataType::float32});
  failing.run = [](const std::vector<Value>&) -> std::vector<Value> {
    throw Error(ErrorCode::position_out_of_range, "inner");
  };
  Context ctx;
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceMap(make_sequence(DataType::float32, 1), {}, failing, ctx); });
}

// "Inputs can be either tensors or sequences": an optional is neither.
TEST(SequenceMap, OptionalInputIsNotATensor) {
  Context ctx;
  const Value opt(make_optional(Value(i64(1))));
  expect_error(ErrorCode::not_a_tensor, [&] {
    ops::SequenceMap(make_sequence(DataType::int64, 2), {opt}, identity_body(2, {DataType::int64}),
                     ctx);
  });
}

}  // namespace
}  // namespace seqconf::testing
