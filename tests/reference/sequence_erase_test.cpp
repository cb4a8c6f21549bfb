#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

template <class Tag>
class SequenceEraseTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SequenceEraseTyped, AllTypes, TypeTagName);

// Sequence [t0, t1, t2]; erasing position p leaves the other two in order.
TYPED_TEST(SequenceEraseTyped, EveryPositionClass) {
  const DataType d = TypeParam::value;
  const Sequence seq = make_sequence(d, 3);
  Context ctx;
  struct Case {
    int64_t position;
    size_t kept_first, kept_second;
  };
  const Case cases[] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {-1, 0, 1}, {-2, 0, 2}, {-3, 1, 2}};
  for (const auto& c : cases) {
    const Sequence out = ops::SequenceErase(seq, i64(c.position), ctx);
    ASSERT_EQ(out.size(), 2u) << "position " << c.position;
    EXPECT_EQ(out.elem_type(), d);
    EXPECT_TRUE(out.at(0).identical(seq.at(c.kept_first))) << "position " << c.position;
    EXPECT_TRUE(out.at(1).identical(seq.at(c.kept_second))) << "position " << c.position;
  }
  EXPECT_EQ(seq.size(), 3u) << "the input is unchanged";
}

// "by default it erases the last tensor from 'input_sequence'"
TYPED_TEST(SequenceEraseTyped, DefaultErasesTheLast) {
  const Sequence seq = make_sequence(TypeParam::value, 3);
  Context ctx;
  const Sequence out = ops::SequenceErase(seq, std::nullopt, ctx);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out.at(0).identical(seq.at(0)));
  EXPECT_TRUE(out.at(1).identical(seq.at(1)));
}

TYPED_TEST(SequenceEraseTyped, OutOfRangeOnBothSides) {
  const Sequence seq = make_sequence(TypeParam::value, 3);
  Context ctx;
  // The message names the operator and the accepted range [-n, n - 1].
  const auto msg =
      expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceErase(seq, i64(3), ctx); });
  EXPECT_NE(msg.find("SequenceErase"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[-3, 2]"), std::string::npos) << msg;
  expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceErase(seq, i64(-4), ctx); });
}

TYPED_TEST(SequenceEraseTyped, SingleElementBecomesEmptyAndKeepsType) {
  const Sequence seq = make_sequence(TypeParam::value, 1);
  Context ctx;
  const Sequence out = ops::SequenceErase(seq, i32(-1), ctx);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(out.elem_type(), TypeParam::value);
}

TEST(SequenceErase, EmptySequenceRejectsDefaultAndEveryPosition) {
  Context ctx;
  const Sequence empty(DataType::int32);
  const auto msg = expect_error(ErrorCode::position_out_of_range,
                                [&] { ops::SequenceErase(empty, std::nullopt, ctx); });
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceErase(empty, i64(0), ctx); });
  expect_error(ErrorCode::position_out_of_range, [&] { ops::SequenceErase(empty, i64(-1), ctx); });
}

TEST(SequenceErase, PositionChecks) {
  Context ctx;
  const Sequence seq = make_sequence(DataType::float32, 2);
  expect_error(ErrorCode::position_type, [&] {
    ops::SequenceErase(seq, Tensor::from_values<DataType::uint64>({}, {0}), ctx);
  });
  expect_error(ErrorCode::position_not_scalar, [&] {
    ops::SequenceErase(seq, i64_vec({0, 0}), ctx);
  });
}

}  // namespace
}  // namespace seqconf::testing
