#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

template <class Tag>
class SequenceAtTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SequenceAtTyped, AllTypes, TypeTagName);

// "Accepted range for 'position' is in [-n, n - 1]" and "Negative value means counting
// positions from the back": with n = 3, positions 0, 1, 2, -1, -2, -3 name tensors 0, 1, 2, 2, 1,
// 0.
TYPED_TEST(SequenceAtTyped, EveryPositionClass) {
  const DataType d = TypeParam::value;
  const Sequence seq = make_sequence(d, 3);
  Context ctx;
  const std::pair<int64_t, size_t> cases[] = {{0, 0}, {1, 1}, {2, 2}, {-1, 2}, {-2, 1}, {-3, 0}};
  for (auto [p, want] : cases) {
    EXPECT_TRUE(ops::SequenceAt(seq, i64(p), ctx).identical(seq.at(want))) << "position " << p;
    EXPECT_TRUE(ops::SequenceAt(seq, i32(static_cast<int32_t>(p)), ctx).identical(seq.at(want)));
  }
  EXPECT_TRUE(ctx.ambiguities.empty());
}

TYPED_TEST(SequenceAtTyped, OutOfRangeOnBothSides) {
  const Sequence seq = make_sequence(TypeParam::value, 3);
  Context ctx;
  expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceAt(seq, i64(3), ctx); });
  expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceAt(seq, i64(-4), ctx); });
}

TYPED_TEST(SequenceAtTyped, ScalarAndZeroSizeElements) {
  const DataType d = TypeParam::value;
  const Sequence seq(d, {make_tensor(d, {}, 1), make_tensor(d, {0, 3}), make_tensor(d, {2, 0})});
  Context ctx;
  EXPECT_TRUE(ops::SequenceAt(seq, i64(0), ctx).identical(make_tensor(d, {}, 1)));
  EXPECT_EQ(ops::SequenceAt(seq, i64(1), ctx).shape(), (Shape{0, 3}));
  EXPECT_EQ(ops::SequenceAt(seq, i64(-1), ctx).shape(), (Shape{2, 0}));
}

TEST(SequenceAt, EmptySequenceHasNoPosition) {
  Context ctx;
  const auto msg = expect_error(ErrorCode::position_out_of_range,
                                [&] { ops::SequenceAt(Sequence(DataType::float32), i64(0), ctx); });
  EXPECT_NE(msg.find("length 0"), std::string::npos) << msg;
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceAt(Sequence(DataType::float32), i64(-1), ctx); });
}

TEST(SequenceAt, MessageNamesPositionAndLength) {
  Context ctx;
  const auto msg = expect_error(ErrorCode::position_out_of_range, [&] {
    ops::SequenceAt(make_sequence(DataType::int64, 3), i64(3), ctx);
  });
  EXPECT_NE(msg.find("position 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[-3, 2]"), std::string::npos) << msg;
}

TEST(SequenceAt, PositionMustBeInt32OrInt64) {
  Context ctx;
  const Sequence seq = make_sequence(DataType::float32, 2);
  expect_error(ErrorCode::position_type, [&] { ops::SequenceAt(seq, f32({}, {0.f}), ctx); });
  expect_error(ErrorCode::position_type,
               [&] { ops::SequenceAt(seq, Tensor::from_values<DataType::int16>({}, {0}), ctx); });
}

TEST(SequenceAt, PositionMustBeScalar) {
  Context ctx;
  const Sequence seq = make_sequence(DataType::float32, 2);
  expect_error(ErrorCode::position_not_scalar, [&] { ops::SequenceAt(seq, i64_vec({0, 1}), ctx); });
  expect_error(ErrorCode::position_not_scalar, [&] { ops::SequenceAt(seq, i64_vec({}), ctx); });
  expect_error(ErrorCode::position_not_scalar, [&] {
    ops::SequenceAt(seq, Tensor::from_values<DataType::int64>({1, 1}, {0}), ctx);
  });
}

// The [1]-shaped position: lenient accepts and records the ambiguity; strict rejects.
TEST(SequenceAt, PositionOfShapeOneIsAnAmbiguity) {
  const Sequence seq = make_sequence(DataType::float32, 2);
  Context lenient;
  EXPECT_TRUE(ops::SequenceAt(seq, i64_vec({-1}), lenient).identical(seq.at(1)));
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  EXPECT_EQ(lenient.ambiguities[0].id, "position_shape_1");
  EXPECT_EQ(lenient.ambiguities[0].op, "SequenceAt");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::position_not_scalar,
               [&] { ops::SequenceAt(seq, i64_vec({-1}), strict); });
}

TEST(SequenceAt, Int64ExtremesAreOutOfRangeNotWrapped) {
  Context ctx;
  const Sequence seq = make_sequence(DataType::float32, 2);
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceAt(seq, i64(std::numeric_limits<int64_t>::min()), ctx); });
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceAt(seq, i64(std::numeric_limits<int64_t>::max()), ctx); });
}

}  // namespace
}  // namespace seqconf::testing
