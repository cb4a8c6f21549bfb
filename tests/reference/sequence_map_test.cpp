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

// Clause SequenceMap.same_samples: "Any other sequence inputs should have the same number of
// samples." Sequences of one float each: [1], [2] and [10], [20], [30].
Sequence floats(std::vector<float> values) {
  std::vector<Tensor> v;
  for (float x : values) v.push_back(f32({1}, {x}));
  return Sequence(DataType::float32, std::move(v));
}

std::vector<Sequence> map_two(const Sequence& first, const Sequence& other, Context& ctx) {
  return ops::SequenceMap(first, {Value(other)},
                          identity_body(2, {DataType::float32, DataType::float32}), ctx);
}

// A longer other sequence: "should", not "must"; ONNX's function body reads its first n samples.
TEST(SequenceMap, LongerSequenceIsAnAmbiguity) {
  Context lenient;
  const auto out = map_two(floats({1, 2}), floats({10, 20, 30}), lenient);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].identical(floats({1, 2})));
  EXPECT_TRUE(out[1].identical(floats({10, 20})));
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  const Ambiguity& a = lenient.ambiguities[0];
  EXPECT_EQ(a.id, "sequence_map_lengths");
  EXPECT_EQ(a.op, "SequenceMap");
  EXPECT_EQ(a.spec_sentence, "Any other sequence inputs should have the same number of samples.");
  EXPECT_NE(a.detail.find("input 0 has 2 samples but input 1 has 3"), std::string::npos)
      << a.detail;

  Context strict;
  strict.policy = Policy::strict;
  const auto msg = expect_error(ErrorCode::sequence_length_mismatch, [&] {
    map_two(floats({1, 2}), floats({10, 20, 30}), strict);
  });
  EXPECT_NE(msg.find("input 0 has 2 samples but input 1 has 3"), std::string::npos) << msg;
  EXPECT_TRUE(strict.ambiguities.empty());
}

// No samples: a longer other sequence gives empty outputs under the lenient policy.
TEST(SequenceMap, LongerThanAnEmptyFirstSequence) {
  Context lenient;
  const auto out = map_two(floats({}), floats({10}), lenient);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].empty());
  EXPECT_TRUE(out[1].empty());
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  EXPECT_EQ(lenient.ambiguities[0].id, "sequence_map_lengths");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::sequence_length_mismatch,
               [&] { map_two(floats({}), floats({10}), strict); });
}

// A shorter other sequence: "a sample will be extracted from the input sequence(s) at the i-th
// position" has nothing to extract past its end, under both policies.
TEST(SequenceMap, ShorterSequenceIsRejected) {
  for (Policy policy : {Policy::lenient, Policy::strict}) {
    Context ctx;
    ctx.policy = policy;
    const auto msg = expect_error(ErrorCode::sequence_length_mismatch, [&] {
      map_two(floats({1, 2, 3}), floats({10, 20}), ctx);
    });
    EXPECT_NE(msg.find("input 0 has 3 samples but input 1 has 2"), std::string::npos) << msg;
    EXPECT_TRUE(ctx.ambiguities.empty());
    expect_error(ErrorCode::sequence_length_mismatch,
                 [&] { map_two(floats({1}), floats({}), ctx); });
  }
}

// Equal lengths are no ambiguity.
TEST(SequenceMap, EqualLengthsRecordNothing) {
  Context ctx;
  map_two(floats({1, 2}), floats({10, 20}), ctx);
  EXPECT_TRUE(ctx.ambiguities.empty());
}

// Three sequences: the third shorter is rejected even where the second is longer.
TEST(SequenceMap, EverySequenceInputIsChecked) {
  Context ctx;
  expect_error(ErrorCode::sequence_length_mismatch, [&] {
    ops::SequenceMap(floats({1, 2}), {Value(floats({10, 20, 30})), Value(floats({5}))},
                     identity_body(3, {DataType::float32, DataType::float32, DataType::float32}),
                     ctx);
  });
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
