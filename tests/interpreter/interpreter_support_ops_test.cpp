// Supporting operators (reference/support) and the four companion operators (reference/ops).
// Expected values are worked out from the operator definitions by hand.
#include <gtest/gtest.h>

#include "reference/ops/ops.h"
#include "reference/support/support_ops.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using namespace seqconf::support;
using seqconf::ops::ConcatFromSequence;
using seqconf::ops::SequenceConstruct;
using seqconf::ops::SequenceEmpty;
using seqconf::ops::SequenceLength;

const auto F = DataType::float32;

Sequence two_2x2() { return Sequence(F, {iota_f32({2, 2}), f32({2, 2}, {4, 5, 6, 7})}); }

// ConcatFromSequence-11, clause ConcatFromSequence.same_shape; new_axis=0 is
// numpy.concatenate.
TEST(ConcatFromSequence, ConcatenatesAlongAnExistingAxis) {
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), 0).identical(iota_f32({4, 2})));
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), 1).identical(f32({2, 4}, {0, 1, 4, 5, 2, 3, 6, 7})));
  // "Accepted range in `[-r, r - 1]`": -1 is the last axis.
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), -1).identical(f32({2, 4}, {0, 1, 4, 5, 2, 3, 6, 7})));
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), -2).identical(iota_f32({4, 2})));
}

TEST(ConcatFromSequence, AxisLengthsMayDiffer) {
  Sequence s(F, {f32({1, 2}, {0, 1}), f32({2, 2}, {2, 3, 4, 5})});
  EXPECT_TRUE(ConcatFromSequence(s, 0).identical(iota_f32({3, 2})));
}

// Clause ConcatFromSequence.new_axis_stack. Range [-r-1, r].
TEST(ConcatFromSequence, NewAxisStacks) {
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), 0, 1).identical(iota_f32({2, 2, 2})));
  EXPECT_TRUE(ConcatFromSequence(two_2x2(), -3, 1).identical(iota_f32({2, 2, 2})));
  // axis = r: out[i][j][k] = tensor k [i][j].
  EXPECT_TRUE(
      ConcatFromSequence(two_2x2(), 2, 1).identical(f32({2, 2, 2}, {0, 4, 1, 5, 2, 6, 3, 7})));
  EXPECT_TRUE(
      ConcatFromSequence(two_2x2(), -1, 1).identical(f32({2, 2, 2}, {0, 4, 1, 5, 2, 6, 3, 7})));
  // Scalars stack into a vector.
  Sequence scalars(F, {f32({}, {1}), f32({}, {2}), f32({}, {3})});
  EXPECT_TRUE(ConcatFromSequence(scalars, 0, 1).identical(f32({3}, {1, 2, 3})));
}

TEST(ConcatFromSequence, Strings) {
  Sequence s(DataType::string,
             {Tensor::from_strings({1}, {"a"}), Tensor::from_strings({2}, {"b", "c"})});
  EXPECT_TRUE(ConcatFromSequence(s, 0).identical(Tensor::from_strings({3}, {"a", "b", "c"})));
}

template <class Tag>
class ConcatAllTypes : public ::testing::Test {};
TYPED_TEST_SUITE(ConcatAllTypes, AllTypes, TypeTagName);

TYPED_TEST(ConcatAllTypes, ConcatenatesEveryType) {
  constexpr DataType D = TypeParam::value;
  // make_sequence(D, 2): tensor 0 = [v(0)], tensor 1 = [v(10), v(11)].
  const Tensor expected =
      Tensor::from_values<D>({3}, {sample_value<D>(0), sample_value<D>(10), sample_value<D>(11)});
  EXPECT_TRUE(ConcatFromSequence(make_sequence(D, 2), 0).identical(expected));
}

TEST(ConcatFromSequence, Errors) {
  expect_error(ErrorCode::invalid_argument, [] { ConcatFromSequence(Sequence(F), 0); });
  // Shapes differ outside the axis.
  expect_error(ErrorCode::shape_mismatch, [] {
    ConcatFromSequence(Sequence(F, {iota_f32({2, 2}), iota_f32({2, 3})}), 0);
  });
  // With new_axis=1 no axis may differ.
  expect_error(ErrorCode::shape_mismatch, [] {
    ConcatFromSequence(Sequence(F, {iota_f32({1, 2}), iota_f32({2, 2})}), 0, 1);
  });
  const std::string msg =
      expect_error(ErrorCode::axis_out_of_range, [] { ConcatFromSequence(two_2x2(), 2); });
  EXPECT_NE(msg.find("[-2, 1]"), std::string::npos) << msg;
  expect_error(ErrorCode::axis_out_of_range, [] { ConcatFromSequence(two_2x2(), -3); });
  expect_error(ErrorCode::axis_out_of_range, [] { ConcatFromSequence(two_2x2(), 3, 1); });
  expect_error(ErrorCode::axis_out_of_range, [] { ConcatFromSequence(two_2x2(), -4, 1); });
  expect_error(ErrorCode::input_rank, [] { ConcatFromSequence(Sequence(F, {f32({}, {1})}), 0); });
  expect_error(ErrorCode::invalid_argument, [] { ConcatFromSequence(two_2x2(), 0, 2); });
}

TEST(SequenceConstructEmptyLength, Basics) {
  Sequence s = SequenceConstruct({f32({1}, {1}), f32({2}, {2, 3})});
  EXPECT_EQ(s.size(), 2u);
  EXPECT_TRUE(SequenceLength(s).identical(i64(2)));
  expect_error(ErrorCode::element_type_mismatch, [] {
    SequenceConstruct({f32({1}, {1}), i64(1)});
  });
  expect_error(ErrorCode::missing_input, [] { SequenceConstruct({}); });
  // "The default type is 'float'."
  EXPECT_EQ(SequenceEmpty().elem_type(), F);
  EXPECT_EQ(SequenceEmpty(DataType::string).elem_type(), DataType::string);
  EXPECT_TRUE(SequenceLength(SequenceEmpty()).identical(i64(0)));
}

TEST(Add, BroadcastsNumpyStyle) {
  // [2,1] + [3] -> [2,3].
  const Tensor a = f32({2, 1}, {1, 2});
  const Tensor b = f32({3}, {10, 20, 30});
  EXPECT_TRUE(Add(a, b).identical(f32({2, 3}, {11, 21, 31, 12, 22, 32})));
  EXPECT_TRUE(Add(i64(5), i64_vec({1, 2})).identical(i64_vec({6, 7})));
  const auto h = [](float v) { return float_to_float16(v); };
  EXPECT_TRUE(Add(Tensor::from_values<DataType::float16>({1}, {h(1.5f)}),
                  Tensor::from_values<DataType::float16>({1}, {h(2.25f)}))
                  .identical(Tensor::from_values<DataType::float16>({1}, {h(3.75f)})));
  expect_error(ErrorCode::shape_mismatch, [] { Add(iota_f32({2}), iota_f32({3})); });
  expect_error(ErrorCode::element_type_mismatch, [] { Add(iota_f32({2}), i64_vec({1, 2})); });
  expect_error(ErrorCode::unsupported_type,
               [] { Add(Tensor::from_strings({1}, {"a"}), Tensor::from_strings({1}, {"b"})); });
}

TEST(Shape, StartAndEndCountFromTheBackAndClamp) {
  const Tensor x = iota_f32({2, 3, 4});
  EXPECT_TRUE(support::Shape(x).identical(i64_vec({2, 3, 4})));
  EXPECT_TRUE(support::Shape(x, 1).identical(i64_vec({3, 4})));
  EXPECT_TRUE(support::Shape(x, -1).identical(i64_vec({4})));
  EXPECT_TRUE(support::Shape(x, std::nullopt, -1).identical(i64_vec({2, 3})));
  EXPECT_TRUE(support::Shape(x, 10).identical(i64_vec({})));
  EXPECT_TRUE(support::Shape(x, -10, 1).identical(i64_vec({2})));
}

TEST(Slice, StartsEndsAxesSteps) {
  const Tensor x = iota_f32({10});
  EXPECT_TRUE(Slice(x, i64_vec({-3}), i64_vec({100})).identical(f32({3}, {7, 8, 9})));
  EXPECT_TRUE(Slice(x, i64_vec({9}), i64_vec({0}), i64_vec({0}), i64_vec({-2}))
                  .identical(f32({5}, {9, 7, 5, 3, 1})));
  EXPECT_TRUE(Slice(x, i64_vec({5}), i64_vec({2})).identical(f32({0}, {})));
  const Tensor m = iota_f32({2, 3});
  EXPECT_TRUE(
      Slice(m, i64_vec({1}), i64_vec({3}), i64_vec({1})).identical(f32({2, 2}, {1, 2, 4, 5})));
  expect_error(ErrorCode::invalid_argument,
               [&] { Slice(x, i64_vec({0}), i64_vec({1}), std::nullopt, i64_vec({0})); });
  expect_error(ErrorCode::axis_out_of_range,
               [&] { Slice(x, i64_vec({0}), i64_vec({1}), i64_vec({1})); });
}

TEST(Unsqueeze, InsertsAxesOfSizeOne) {
  const Tensor x = iota_f32({3});
  EXPECT_EQ(Unsqueeze(x, {0, -1}).shape(), (seqconf::Shape{1, 3, 1}));
  EXPECT_EQ(Unsqueeze(i64(4), {0}).shape(), (seqconf::Shape{1}));
  expect_error(ErrorCode::invalid_argument, [&] { Unsqueeze(x, {0, 0}); });
  expect_error(ErrorCode::axis_out_of_range, [&] { Unsqueeze(x, {2}); });
}

TEST(NotAndOptional, Basics) {
  EXPECT_TRUE(Not(Tensor::from_values<DataType::bool_>({2}, {1, 0}))
                  .identical(Tensor::from_values<DataType::bool_>({2}, {0, 1})));
  expect_error(ErrorCode::unsupported_type, [] { Not(i64(1)); });
  onnx::TypeProto seq_float;
  seq_float.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  const Optional empty = MakeOptional(std::nullopt, &seq_float);
  EXPECT_TRUE(empty.holds_sequence);
  EXPECT_TRUE(OptionalHasElement(Value(empty), 15)
                  .identical(Tensor::from_values<DataType::bool_>({}, {0})));
  const Optional full = MakeOptional(Value(iota_f32({2})), nullptr);
  EXPECT_TRUE(
      OptionalHasElement(Value(full), 15).identical(Tensor::from_values<DataType::bool_>({}, {1})));
  EXPECT_TRUE(OptionalGetElement(Value(full), 15).tensor().identical(iota_f32({2})));
  expect_error(ErrorCode::missing_input, [&] { OptionalGetElement(Value(empty), 18); });
  // Opset 15 takes optionals only; 18 also plain tensors.
  expect_error(ErrorCode::not_a_tensor, [] { OptionalGetElement(Value(iota_f32({1})), 15); });
  EXPECT_TRUE(OptionalGetElement(Value(iota_f32({1})), 18).tensor().identical(iota_f32({1})));
  EXPECT_TRUE(OptionalHasElement(Value(iota_f32({1})), 18)
                  .identical(Tensor::from_values<DataType::bool_>({}, {1})));
}

TEST(Constant, ValueAttributes) {
  onnx::AttributeProto a;
  a.set_name("value_ints");
  a.add_ints(3);
  a.add_ints(4);
  EXPECT_TRUE(Constant(a).identical(i64_vec({3, 4})));
  onnx::AttributeProto f;
  f.set_name("value_float");
  f.set_f(2.5f);
  EXPECT_TRUE(Constant(f).identical(f32({}, {2.5f})));
  onnx::AttributeProto bad;
  bad.set_name("colour");
  expect_error(ErrorCode::invalid_argument, [&] { Constant(bad); });
}

}  // namespace
}  // namespace seqconf::testing
