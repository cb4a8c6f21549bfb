#include <functional>

#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

// x = iota [4, 3]: rows [0,1,2], [3,4,5], [6,7,8], [9,10,11].
const Tensor kX = iota_f32({4, 3});

Sequence split(const Tensor& input, std::optional<Tensor> s, int64_t axis, int64_t keepdims,
               Context& ctx) {
  return ops::SplitToSequence(input, s, axis, keepdims, ctx);
}

void expect_parts(const Sequence& out, const std::vector<Tensor>& want) {
  ASSERT_EQ(out.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(out.at(i).identical(want[i]))
        << "part " << i << ": " << out.at(i).describe() << " want " << want[i].describe();
}

// split absent: chunks of length 1; keepdims (default 1) keeps the axis.
TEST(SplitToSequence, NoSplitKeepdimsAxis0) {
  Context ctx;
  expect_parts(split(kX, std::nullopt, 0, 1, ctx),
               {f32({1, 3}, {0, 1, 2}), f32({1, 3}, {3, 4, 5}), f32({1, 3}, {6, 7, 8}),
                f32({1, 3}, {9, 10, 11})});
}

TEST(SplitToSequence, NoSplitNoKeepdimsRemovesAxis) {
  Context ctx;
  expect_parts(split(kX, std::nullopt, 0, 0, ctx), {f32({3}, {0, 1, 2}), f32({3}, {3, 4, 5}),
                                                    f32({3}, {6, 7, 8}), f32({3}, {9, 10, 11})});
  expect_parts(split(kX, std::nullopt, 1, 0, ctx),
               {f32({4}, {0, 3, 6, 9}), f32({4}, {1, 4, 7, 10}), f32({4}, {2, 5, 8, 11})});
}

TEST(SplitToSequence, NegativeAxisCountsFromTheBack) {
  Context ctx;
  const std::vector<Tensor> want = {f32({4, 1}, {0, 3, 6, 9}), f32({4, 1}, {1, 4, 7, 10}),
                                    f32({4, 1}, {2, 5, 8, 11})};
  expect_parts(split(kX, std::nullopt, -1, 1, ctx), want);
  expect_parts(split(kX, std::nullopt, 1, 1, ctx), want);
  expect_parts(split(kX, std::nullopt, -2, 1, ctx), split(kX, std::nullopt, 0, 1, ctx).tensors());
}

// Clause SplitToSequence.split_scalar_last.
TEST(SplitToSequence, ScalarSplitUnevenLastChunk) {
  Context ctx;
  expect_parts(split(kX, i64(3), 0, 1, ctx),
               {f32({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}), f32({1, 3}, {9, 10, 11})});
  expect_parts(split(kX, i32(2), 1, 1, ctx),
               {f32({4, 2}, {0, 1, 3, 4, 6, 7, 9, 10}), f32({4, 1}, {2, 5, 8, 11})});
}

TEST(SplitToSequence, ScalarSplitDividesEvenly) {
  Context ctx;
  expect_parts(split(kX, i64(2), 0, 1, ctx),
               {f32({2, 3}, {0, 1, 2, 3, 4, 5}), f32({2, 3}, {6, 7, 8, 9, 10, 11})});
}

TEST(SplitToSequence, ScalarSplitLargerThanAxisGivesOneChunk) {
  Context ctx;
  expect_parts(split(kX, i64(5), 0, 1, ctx), {kX});
  expect_parts(split(kX, i64(100), 1, 1, ctx), {kX});
}

TEST(SplitToSequence, OneDimensionalSplit) {
  Context ctx;
  expect_parts(split(kX, i64_vec({1, 3}), 0, 1, ctx),
               {f32({1, 3}, {0, 1, 2}), f32({3, 3}, {3, 4, 5, 6, 7, 8, 9, 10, 11})});
  expect_parts(split(kX, i64_vec({2, 1}), -1, 1, ctx),
               {f32({4, 2}, {0, 1, 3, 4, 6, 7, 9, 10}), f32({4, 1}, {2, 5, 8, 11})});
  expect_parts(split(kX, i64_vec({4}), 0, 1, ctx), {kX});
}

// Clause SplitToSequence.keepdims_ignored.
TEST(SplitToSequence, KeepdimsIgnoredWithSplit) {
  Context ctx;
  expect_parts(split(kX, i64(1), 0, 0, ctx), split(kX, std::nullopt, 0, 1, ctx).tensors());
  expect_parts(split(kX, i64_vec({2, 2}), 0, 0, ctx),
               {f32({2, 3}, {0, 1, 2, 3, 4, 5}), f32({2, 3}, {6, 7, 8, 9, 10, 11})});
}

// 'split' "must contain only positive numbers" (summary) versus "All values must be >= 0".
TEST(SplitToSequence, ZeroEntriesAreAnAmbiguity) {
  Context lenient;
  expect_parts(
      split(kX, i64_vec({1, 0, 3}), 0, 1, lenient),
      {f32({1, 3}, {0, 1, 2}), f32({0, 3}, {}), f32({3, 3}, {3, 4, 5, 6, 7, 8, 9, 10, 11})});
  ASSERT_EQ(lenient.ambiguities.size(), 1u);
  EXPECT_EQ(lenient.ambiguities[0].id, "split_zero_entry");
  Context strict;
  strict.policy = Policy::strict;
  expect_error(ErrorCode::split_zero, [&] { split(kX, i64_vec({1, 0, 3}), 0, 1, strict); });
}

// ONNX's test_sequence_model8 splits an empty axis with [0, 0, 0].
TEST(SplitToSequence, EmptyAxis) {
  const Tensor empty = f32({0, 3}, {});
  Context ctx;
  EXPECT_EQ(split(empty, std::nullopt, 0, 1, ctx).size(), 0u);
  EXPECT_EQ(split(empty, i64(2), 0, 1, ctx).size(), 0u);
  expect_parts(split(empty, i64_vec({0, 0, 0}), 0, 1, ctx),
               {f32({0, 3}, {}), f32({0, 3}, {}), f32({0, 3}, {})});
}

TEST(SplitToSequence, ZeroSizeOtherAxis) {
  Context ctx;
  expect_parts(split(f32({3, 0}, {}), std::nullopt, 0, 0, ctx),
               {f32({0}, {}), f32({0}, {}), f32({0}, {})});
}

TEST(SplitToSequence, Rank4MiddleAxis) {
  // x = iota [2, 3, 2, 1]; axis 1 in chunks of length 1 without keepdims: part j holds
  // elements (i, j, k) at i * 6 + j * 2 + k.
  Context ctx;
  const Sequence out = split(iota_f32({2, 3, 2, 1}), std::nullopt, 1, 0, ctx);
  expect_parts(out, {f32({2, 2, 1}, {0, 1, 6, 7}), f32({2, 2, 1}, {2, 3, 8, 9}),
                     f32({2, 2, 1}, {4, 5, 10, 11})});
}

TEST(SplitToSequence, Errors) {
  Context ctx;
  expect_error(ErrorCode::axis_out_of_range, [&] { split(kX, std::nullopt, 2, 1, ctx); });
  expect_error(ErrorCode::axis_out_of_range, [&] { split(kX, std::nullopt, -3, 1, ctx); });
  expect_error(ErrorCode::axis_out_of_range, [&] { split(f32({}, {1}), std::nullopt, 0, 1, ctx); });
  expect_error(ErrorCode::split_negative, [&] { split(kX, i64(-1), 0, 1, ctx); });
  expect_error(ErrorCode::split_negative, [&] { split(kX, i64_vec({-1, 5}), 0, 1, ctx); });
  expect_error(ErrorCode::split_zero, [&] { split(kX, i64(0), 0, 1, ctx); });
  expect_error(ErrorCode::split_sum_mismatch, [&] { split(kX, i64_vec({1, 2}), 0, 1, ctx); });
  expect_error(ErrorCode::split_sum_mismatch, [&] { split(kX, i64_vec({3, 3}), 0, 1, ctx); });
  expect_error(ErrorCode::split_empty, [&] { split(kX, i64_vec({}), 0, 1, ctx); });
  expect_error(ErrorCode::split_rank, [&] {
    split(kX, Tensor::from_values<DataType::int64>({2, 1}, {2, 2}), 0, 1, ctx);
  });
  expect_error(ErrorCode::split_type, [&] { split(kX, f32({}, {2}), 0, 1, ctx); });
  expect_error(ErrorCode::invalid_argument, [&] { split(kX, std::nullopt, 0, 2, ctx); });
  const auto msg = expect_error(ErrorCode::split_sum_mismatch, [&] {
    split(kX, i64_vec({1, 2}), 0, 1, ctx);
  });
  EXPECT_NE(msg.find("[1,2]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4"), std::string::npos) << msg;
}

TEST(SplitToSequence, OuterAxisChunksShareStorage) {
  Context ctx;
  const Sequence out = split(kX, i64(2), 0, 1, ctx);
  EXPECT_TRUE(out.at(0).shares_storage_with(kX));
  EXPECT_TRUE(out.at(1).shares_storage_with(kX));
}

template <class Tag>
class SplitToSequenceTyped : public ::testing::Test {};
TYPED_TEST_SUITE(SplitToSequenceTyped, AllTypes, TypeTagName);

// x of shape [3, 2] holds sample values 0..5 in row-major order.
TYPED_TEST(SplitToSequenceTyped, ScalarSplitOnAxis0KeepsRowMajorOrder) {
  constexpr DataType D = TypeParam::value;
  Context ctx;
  const Sequence out = split(make_tensor(D, {3, 2}), i64(2), 0, 1, ctx);
  EXPECT_EQ(out.elem_type(), D);
  expect_parts(out, {make_tensor(D, {2, 2}, 0), make_tensor(D, {1, 2}, 4)});
}

TYPED_TEST(SplitToSequenceTyped, NoSplitOnAxis1WithoutKeepdims) {
  constexpr DataType D = TypeParam::value;
  Context ctx;
  const Sequence out = split(make_tensor(D, {2, 3}), std::nullopt, 1, 0, ctx);
  std::vector<Tensor> want;
  for (int j = 0; j < 3; ++j)
    want.push_back(Tensor::from_values<D>({2}, {sample_value<D>(j), sample_value<D>(3 + j)}));
  expect_parts(out, want);
}

TYPED_TEST(SplitToSequenceTyped, OneDimensionalSplitOnLastAxis) {
  constexpr DataType D = TypeParam::value;
  Context ctx;
  const Sequence out = split(make_tensor(D, {2, 3}), i64_vec({1, 2}), -1, 1, ctx);
  expect_parts(out, {Tensor::from_values<D>({2, 1}, {sample_value<D>(0), sample_value<D>(3)}),
                     Tensor::from_values<D>({2, 2}, {sample_value<D>(1), sample_value<D>(2),
                                                     sample_value<D>(4), sample_value<D>(5)})});
}

// T of SplitToSequence-11: all_tensor_types(), without bfloat16; SplitToSequence-24 adds it
// (all_tensor_types_ir4()) and splits it like any other 2-byte type: bits are copied.
TEST(SplitToSequence, BFloat16OnlyFromVersion24) {
  Context ctx;
  std::vector<BFloat16> v;
  for (uint16_t b : {0x3F80, 0x7FC1, 0x8000, 0xFF80, 0x0001, 0x4040}) v.push_back(BFloat16{b});
  const Tensor x = Tensor::from_values<DataType::bfloat16>({3, 2}, v);
  const std::string msg = expect_error(ErrorCode::element_type_not_allowed, [&] {
    ops::SplitToSequence(x, std::nullopt, 0, 1, ctx, 11);
  });
  EXPECT_NE(msg.find("bfloat16"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Constrain input types to all tensor types."), std::string::npos) << msg;
  const Sequence out = ops::SplitToSequence(x, i64(2), 1, 1, ctx, 24);
  ASSERT_EQ(out.elem_type(), DataType::bfloat16);
  expect_parts(out, {Tensor::from_values<DataType::bfloat16>({3, 2}, v)});
  const Sequence rows = ops::SplitToSequence(x, std::nullopt, 0, 0, ctx, 24);
  expect_parts(rows, {Tensor::from_values<DataType::bfloat16>({2}, {v[0], v[1]}),
                      Tensor::from_values<DataType::bfloat16>({2}, {v[2], v[3]}),
                      Tensor::from_values<DataType::bfloat16>({2}, {v[4], v[5]})});
}

// The other four operators exist only at their first version, whose type constraints ("Constrain
// to any tensor type.", SequenceMap's "Constrain input types to any sequence type.") do not list
// bfloat16.
TEST(SequenceOperators, RejectBFloat16Sequences) {
  Context ctx;
  const Tensor t = Tensor::from_values<DataType::bfloat16>({1}, {BFloat16{0x3F80}});
  const Sequence s(DataType::bfloat16, {t, t});
  for (const auto& run : std::vector<std::function<void()>>{
           [&] { ops::SequenceAt(s, i64(0), ctx); },
           [&] { ops::SequenceErase(s, std::nullopt, ctx); },
           [&] { ops::SequenceInsert(s, t, std::nullopt, ctx); },
           [&] { ops::SequenceInsert(Sequence(DataType::float32), t, std::nullopt, ctx); }}) {
    const std::string msg = expect_error(ErrorCode::element_type_not_allowed, run);
    EXPECT_NE(msg.find("Constrain to any tensor type."), std::string::npos) << msg;
  }
  ops::SequenceMapBody identity;
  identity.num_inputs = 1;
  identity.output_elem_types = {DataType::float32};
  identity.run = [](const std::vector<Value>& x) { return x; };
  const std::string msg = expect_error(ErrorCode::element_type_not_allowed,
                                       [&] { ops::SequenceMap(s, {}, identity, ctx); });
  EXPECT_NE(msg.find("Constrain input types to any sequence type."), std::string::npos) << msg;
  // A tensor of the 15 in the same positions is accepted.
  const Sequence f(DataType::float32, {f32({1}, {1})});
  EXPECT_EQ(ops::SequenceAt(f, i64(0), ctx).dtype(), DataType::float32);
}

}  // namespace
}  // namespace seqconf::testing
