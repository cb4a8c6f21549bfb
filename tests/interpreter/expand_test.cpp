// Expand-8, 13 (reference/support/expand.cpp). Expected values are worked out by hand from the
// operator's definition: "The broadcast rule is similar to numpy.array(input) * numpy.ones(shape):
// Dimensions are right alignment; Two corresponding dimensions must have the same value, or one of
// them is equal to 1."
#include <gtest/gtest.h>

#include "reference/support/body_ops.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using namespace seqconf::support;

template <DataType D>
Tensor tv(seqconf::Shape shape, std::vector<storage_t<D>> v) {
  return Tensor::from_values<D>(std::move(shape), std::move(v));
}
Tensor strs(seqconf::Shape shape, std::vector<std::string> v) {
  return Tensor::from_strings(std::move(shape), std::move(v));
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

}  // namespace
}  // namespace seqconf::testing
