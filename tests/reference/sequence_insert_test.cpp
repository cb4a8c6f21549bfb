#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

template <class Tag>
class SequenceInsertTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SequenceInsertTyped, AllTypes, TypeTagName);

// Sequence [t0, t1] (n = 2) and tensor x. "Accepted range for 'position' is in [-n, n]":
// p = 0 and -2 put x first, p = 1 and -1 between, p = 2 (= n) last.
TYPED_TEST(SequenceInsertTyped, EveryPositionClass) {
  const DataType d = TypeParam::value;
  const Sequence seq = make_sequence(d, 2);
  const Tensor x = make_tensor(d, {2, 2}, 100);
  Context ctx;
  struct Case {
    int64_t position;
    size_t x_at;
  };
  const Case cases[] = {{0, 0}, {1, 1}, {2, 2}, {-1, 1}, {-2, 0}};
  for (const auto& c : cases) {
    const Sequence out = ops::SequenceInsert(seq, x, i64(c.position), ctx);
    ASSERT_EQ(out.size(), 3u);
    size_t next = 0;
    for (size_t i = 0; i < 3; ++i) {
      if (i == c.x_at)
        EXPECT_TRUE(out.at(i).identical(x)) << "position " << c.position << " slot " << i;
      else
        EXPECT_TRUE(out.at(i).identical(seq.at(next++)))
            << "position " << c.position << " slot " << i;
    }
  }
}

// "by default it inserts 'tensor' to the back of 'input_sequence'"
TYPED_TEST(SequenceInsertTyped, DefaultAppends) {
  const DataType d = TypeParam::value;
  const Sequence seq = make_sequence(d, 2);
  const Tensor x = make_tensor(d, {}, 7);
  Context ctx;
  const Sequence out = ops::SequenceInsert(seq, x, std::nullopt, ctx);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out.at(0).identical(seq.at(0)));
  EXPECT_TRUE(out.at(1).identical(seq.at(1)));
  EXPECT_TRUE(out.at(2).identical(x));
}

TYPED_TEST(SequenceInsertTyped, IntoEmptySequenceAtZeroAndByDefault) {
  const DataType d = TypeParam::value;
  const Sequence empty(d);
  const Tensor x = make_tensor(d, {0}, 0);
  Context ctx;
  for (const auto& out : {ops::SequenceInsert(empty, x, i64(0), ctx),
                          ops::SequenceInsert(empty, x, std::nullopt, ctx)}) {
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out.at(0).identical(x));
  }
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceInsert(empty, x, i64(1), ctx); });
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceInsert(empty, x, i64(-1), ctx); });
}

TYPED_TEST(SequenceInsertTyped, OutOfRangeOnBothSides) {
  const DataType d = TypeParam::value;
  const Sequence seq = make_sequence(d, 2);
  Context ctx;
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceInsert(seq, make_tensor(d, {1}), i64(3), ctx); });
  expect_error(ErrorCode::position_out_of_range,
               [&] { ops::SequenceInsert(seq, make_tensor(d, {1}), i64(-3), ctx); });
}

// Clause SequenceInsert.same_type.
TYPED_TEST(SequenceInsertTyped, ElementTypeMustMatch) {
  const DataType d = TypeParam::value;
  const DataType other = d == DataType::string ? DataType::float32 : DataType::string;
  Context ctx;
  const auto msg = expect_error(ErrorCode::element_type_mismatch, [&] {
    ops::SequenceInsert(make_sequence(d, 1), make_tensor(other, {1}), std::nullopt, ctx);
  });
  EXPECT_NE(msg.find(std::string(dtype_name(d))), std::string::npos) << msg;
  EXPECT_NE(msg.find("SequenceInsert"), std::string::npos) << msg;
}

TEST(SequenceInsert, EmptySequenceKeepsItsTypeForTheCheck) {
  Context ctx;
  expect_error(ErrorCode::element_type_mismatch, [&] {
    ops::SequenceInsert(Sequence(DataType::int64), make_tensor(DataType::int32, {}), std::nullopt,
                        ctx);
  });
}

TEST(SequenceInsert, PositionOfShapeOne) {
  const Sequence seq = make_sequence(DataType::float32, 2);
  const Tensor x = make_tensor(DataType::float32, {3}, 50);
  Context lenient;
  const Sequence out = ops::SequenceInsert(seq, x, i64_vec({0}), lenient);
  EXPECT_TRUE(out.at(0).identical(x));
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  EXPECT_EQ(lenient.ambiguities[0].op, "SequenceInsert");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::position_not_scalar,
               [&] { ops::SequenceInsert(seq, x, i64_vec({0}), strict); });
}

TEST(SequenceInsert, SharesTensorsWithTheInput) {
  const Sequence seq = make_sequence(DataType::float32, 2);
  Context ctx;
  const Sequence out = ops::SequenceInsert(seq, make_tensor(DataType::float32, {1}), i64(0), ctx);
  EXPECT_TRUE(out.at(1).shares_storage_with(seq.at(0)));
  EXPECT_TRUE(out.at(2).shares_storage_with(seq.at(1)));
}

}  // namespace
}  // namespace seqconf::testing
