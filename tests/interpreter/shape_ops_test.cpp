// Operators of SequenceMap bodies and loops that make or reshape tensors (reference/support/
// body_ops.h): Squeeze, Reshape, Size, ConstantOfShape, Range. Expected values are worked out by
// hand from the operator definitions quoted next to them (ONNX Operators.md / Changelog.md).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/interpreter/interpreter.h"
#include "reference/support/body_ops.h"
#include "tests/support/interpreter_model_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

using namespace seqconf::support;

const auto F = DataType::float32;
const auto I64 = DataType::int64;

template <DataType D>
Tensor tv(seqconf::Shape shape, std::vector<storage_t<D>> v) {
  return Tensor::from_values<D>(std::move(shape), std::move(v));
}

::testing::AssertionResult Same(const Tensor& got, const Tensor& want) {
  if (got.identical(want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got.describe() << " differs from " << want.describe();
}

// ---------------------------------------------------------------------------------------------
// Size: "Takes a tensor as input and outputs a int64 scalar that equals to the total number of
// elements of the input tensor."

TEST(Size, CountsElements) {
  EXPECT_TRUE(Same(Size(iota_f32({2, 3})), i64(6)));
  EXPECT_TRUE(Same(Size(f32({}, {1})), i64(1)));
  EXPECT_TRUE(Same(Size(f32({0, 5}, {})), i64(0)));
  EXPECT_TRUE(Same(Size(Tensor::from_strings({3}, {"a", "b", "c"})), i64(3)));
}

template <class Tag>
class SizeTypes : public ::testing::Test {};
TYPED_TEST_SUITE(SizeTypes, AllTypes, TypeTagName);

// T: "Input tensor can be of arbitrary type."
TYPED_TEST(SizeTypes, EveryType) {
  EXPECT_TRUE(Same(Size(make_tensor(TypeParam::value, {2, 2})), i64(4)));
}

// ---------------------------------------------------------------------------------------------
// Reshape-14: "Reshape the input tensor similar to numpy.reshape."

TEST(Reshape, ShapesAndInference) {
  // Row-major order is kept: [[0, 1, 2], [3, 4, 5]] to [3, 2] is [[0, 1], [2, 3], [4, 5]].
  EXPECT_TRUE(Same(Reshape(iota_f32({2, 3}), i64_vec({3, 2})), iota_f32({3, 2})));
  // "At most one dimension of the new shape can be -1. In this case, the value is inferred from
  //  the size of the tensor and the remaining dimensions."
  EXPECT_TRUE(Same(Reshape(iota_f32({2, 3}), i64_vec({-1})), iota_f32({6})));
  EXPECT_TRUE(Same(Reshape(iota_f32({2, 3}), i64_vec({2, -1, 1})), iota_f32({2, 3, 1})));
  // "A dimension could also be 0, in which case the actual dimension value is unchanged".
  EXPECT_TRUE(Same(Reshape(iota_f32({2, 3}), i64_vec({0, -1})), iota_f32({2, 3})));
  EXPECT_TRUE(Same(Reshape(iota_f32({2, 3, 1}), i64_vec({0, 3})), iota_f32({2, 3})));
  // "Shape (second input) could be an empty shape, which means converting to a scalar."
  EXPECT_TRUE(Same(Reshape(f32({1, 1}, {7}), tv<I64>({0}, {})), f32({}, {7})));
}

TEST(Reshape, AllowZero) {
  // "If 'allowzero' is set, and the new shape includes 0, the dimension will be set explicitly
  //  to zero": [0, 3] to [3, 0] has 0 elements on both sides.
  EXPECT_TRUE(Same(Reshape(f32({0, 3}, {}), i64_vec({3, 0}), 1), f32({3, 0}, {})));
  // Without allowzero the 0 copies dimension 1 (3): [3, 3] holds 9 elements, the data 0.
  expect_error(ErrorCode::shape_mismatch, [] { Reshape(f32({0, 3}, {}), i64_vec({3, 0}), 0); });
  // "If the attribute 'allowzero' is set, it is invalid for the specified shape to contain both a
  //  zero value and -1".
  expect_error(ErrorCode::invalid_argument, [] { Reshape(f32({0, 3}, {}), i64_vec({0, -1}), 1); });
}

TEST(Reshape, Errors) {
  const Tensor data = iota_f32({2, 3});
  expect_error(ErrorCode::invalid_argument, [&] { Reshape(data, i64_vec({-1, -1})); });
  expect_error(ErrorCode::invalid_argument, [&] { Reshape(data, i64_vec({-2, -3})); });
  // "The input tensor's shape and the output tensor's shape are required to have the same number
  //  of elements."
  expect_error(ErrorCode::shape_mismatch, [&] { Reshape(data, i64_vec({4})); });
  expect_error(ErrorCode::shape_mismatch, [&] { Reshape(data, i64_vec({4, -1})); });
  expect_error(ErrorCode::shape_mismatch, [&] {
    Reshape(data, i64_vec({INT64_MAX, INT64_MAX, 2}));
  });
  // A 0 past the input's rank has no dimension to copy.
  expect_error(ErrorCode::invalid_argument, [] { Reshape(iota_f32({6}), i64_vec({6, 0})); });
  expect_error(ErrorCode::input_rank, [&] { Reshape(data, tv<I64>({1, 2}, {3, 2})); });
}

// ---------------------------------------------------------------------------------------------
// Squeeze-13: "Remove single-dimensional entries from the shape of a tensor."

TEST(Squeeze, RemovesAxesOfLengthOne) {
  const Tensor data = iota_f32({1, 3, 1});
  // "If `axes` is not provided, all the single dimensions will be removed from the shape."
  EXPECT_TRUE(Same(Squeeze(data, std::nullopt), iota_f32({3})));
  EXPECT_TRUE(Same(Squeeze(f32({1, 1}, {5}), std::nullopt), f32({}, {5})));
  EXPECT_TRUE(Same(Squeeze(data, std::vector<int64_t>{0}), iota_f32({3, 1})));
  // "Negative value means counting dimensions from the back." (from Squeeze-11)
  EXPECT_TRUE(Same(Squeeze(data, std::vector<int64_t>{-1}), iota_f32({1, 3})));
  EXPECT_TRUE(Same(Squeeze(data, std::vector<int64_t>{-1, 0}), iota_f32({3})));
}

TEST(Squeeze, Errors) {
  const Tensor data = iota_f32({1, 3, 1});
  // "If an axis is selected with shape entry not equal to one, an error is raised."
  expect_error(ErrorCode::shape_mismatch, [&] { Squeeze(data, std::vector<int64_t>{1}); });
  // "Accepted range is [-r, r-1] where r = rank(data)."
  expect_error(ErrorCode::axis_out_of_range, [&] { Squeeze(data, std::vector<int64_t>{3}); });
  expect_error(ErrorCode::axis_out_of_range, [&] { Squeeze(data, std::vector<int64_t>{-4}); });
  // Squeeze-1: "List of non-negative integers, indicate the dimensions to squeeze."
  expect_error(ErrorCode::axis_out_of_range, [&] { Squeeze(data, std::vector<int64_t>{-1}, 1); });
  expect_error(ErrorCode::invalid_argument, [&] { Squeeze(data, std::vector<int64_t>{0, -3}); });
}

// ---------------------------------------------------------------------------------------------
// ConstantOfShape: "Generate a tensor with given value and shape."

TEST(ConstantOfShape, ValueAndShape) {
  // value "If not specified, it defaults to a tensor of value 0 and datatype float32"
  EXPECT_TRUE(
      Same(ConstantOfShape(i64_vec({2, 3}), std::nullopt), f32({2, 3}, {0, 0, 0, 0, 0, 0})));
  EXPECT_TRUE(Same(ConstantOfShape(i64_vec({2}), tv<I64>({1}, {7})), tv<I64>({2}, {7, 7})));
  EXPECT_TRUE(Same(ConstantOfShape(i64_vec({1, 2}), tv<DataType::bool_>({1}, {1})),
                   tv<DataType::bool_>({1, 2}, {1, 1})));
  // input: "If empty tensor is given, the output would be a scalar."
  EXPECT_TRUE(Same(ConstantOfShape(tv<I64>({0}, {}), f32({1}, {2.5f})), f32({}, {2.5f})));
  EXPECT_TRUE(Same(ConstantOfShape(i64_vec({0}), std::nullopt), f32({0}, {})));
}

TEST(ConstantOfShape, Errors) {
  // input: "All values must be >= 0."
  expect_error(ErrorCode::invalid_argument, [] {
    ConstantOfShape(i64_vec({2, -1}), std::nullopt);
  });
  // value: "Should be a one-element tensor."
  expect_error(ErrorCode::invalid_argument, [] {
    ConstantOfShape(i64_vec({2}), f32({2}, {1, 2}));
  });
  // T2: "Constrain output types to be numerics."
  expect_error(ErrorCode::unsupported_type,
               [] { ConstantOfShape(i64_vec({2}), Tensor::from_strings({1}, {"a"})); });
  expect_error(ErrorCode::input_rank, [] { ConstantOfShape(i64(2), std::nullopt); });
  expect_error(ErrorCode::limit_exceeded, [] {
    ConstantOfShape(i64_vec({INT64_MAX, 2}), std::nullopt);
  });
}

// ---------------------------------------------------------------------------------------------
// Range-11: "number_of_elements = max( ceil( (limit - start) / delta ) , 0 )"; "output[i] =
// start + (i * delta);"

TEST(Range, TheSpecsExamplesAndTypes) {
  // "Inputs: start = 3, limit = 9, delta = 3  Output: [3, 6]"
  EXPECT_TRUE(Same(Range(i64(3), i64(9), i64(3)), i64_vec({3, 6})));
  // "Inputs: start = 10, limit = 4, delta = -2  Output: [10, 8, 6]"
  EXPECT_TRUE(Same(Range(i32(10), i32(4), i32(-2)), tv<DataType::int32>({3}, {10, 8, 6})));
  // ceil(1 / 0.25) = 4 elements.
  EXPECT_TRUE(
      Same(Range(f32({}, {0}), f32({}, {1}), f32({}, {0.25f})), f32({4}, {0, 0.25f, 0.5f, 0.75f})));
  // ceil((2.5 - 0) / 1) = 3: [0, 1, 2].
  EXPECT_TRUE(Same(Range(tv<DataType::float64>({}, {0}), tv<DataType::float64>({}, {2.5}),
                         tv<DataType::float64>({}, {1})),
                   tv<DataType::float64>({3}, {0, 1, 2})));
  // ceil(65535 / 16384) = 4: the last is -32768 + 3 x 16384 = 16384.
  using I16 = DataType;
  EXPECT_TRUE(Same(
      Range(tv<I16::int16>({}, {-32768}), tv<I16::int16>({}, {32767}), tv<I16::int16>({}, {16384})),
      tv<I16::int16>({4}, {-32768, -16384, 0, 16384})));
  // limit not past start in delta's direction: max(..., 0) = 0 elements.
  EXPECT_TRUE(Same(Range(i64(1), i64(1), i64(1)), tv<I64>({0}, {})));
  EXPECT_TRUE(Same(Range(i64(5), i64(1), i64(1)), tv<I64>({0}, {})));
}

TEST(Range, Errors) {
  expect_error(ErrorCode::undefined_result, [] { Range(i64(0), i64(5), i64(0)); });
  expect_error(ErrorCode::undefined_result,
               [] { Range(f32({}, {0}), f32({}, {5}), f32({}, {0})); });
  // start, limit, delta: "Scalar."
  expect_error(ErrorCode::input_rank, [] { Range(i64_vec({0}), i64(5), i64(1)); });
  expect_error(ErrorCode::element_type_mismatch, [] { Range(i64(0), i32(5), i64(1)); });
  // T: "Constrain input types to common numeric type tensors." (no uint8)
  const Tensor u = tv<DataType::uint8>({}, {1});
  expect_error(ErrorCode::unsupported_type, [&] { Range(u, u, u); });
  expect_error(ErrorCode::limit_exceeded, [] { Range(i64(INT64_MIN), i64(INT64_MAX), i64(1)); });
}

// ---------------------------------------------------------------------------------------------
// Through the interpreter: attributes and inputs by version, and the type table's rows.

TEST(ShapeOpsInInterpreter, SqueezeAxesAreAnAttributeBefore13AndAnInputFrom13) {
  auto attr = one_node(11, "Squeeze", {{"x", tensor_type(F)}}, {{"y", tensor_type(F)}},
                       {ints_attr("axes", {-1})});
  EXPECT_TRUE(Same(run(attr, {iota_f32({2, 1})})[0].tensor(), iota_f32({2})));
  auto input = one_node(13, "Squeeze", {{"x", tensor_type(F)}, {"axes", tensor_type(I64)}},
                        {{"y", tensor_type(F)}});
  EXPECT_TRUE(Same(run(input, {iota_f32({2, 1}), i64_vec({1})})[0].tensor(), iota_f32({2})));
  // Squeeze-13's axes is tensor(int64).
  auto int32_axes =
      one_node(13, "Squeeze", {{"x", tensor_type(F)}, {"axes", tensor_type(DataType::int32)}},
               {{"y", tensor_type(F)}});
  const std::string msg = expect_error(ErrorCode::invalid_model, [&] {
    run(int32_axes, {iota_f32({2, 1}), Tensor::from_values<DataType::int32>({1}, {1})});
  });
  EXPECT_NE(msg.find("input 1 (axes) is tensor(int32)"), std::string::npos) << msg;
}

TEST(ShapeOpsInInterpreter, ReshapeReadsAllowzeroFrom14) {
  auto m = [](int64_t opset) {
    return one_node(opset, "Reshape", {{"x", tensor_type(F)}, {"s", tensor_type(I64)}},
                    {{"y", tensor_type(F)}}, {int_attr("allowzero", 1)});
  };
  EXPECT_TRUE(Same(run(m(14), {f32({0, 3}, {}), i64_vec({3, 0})})[0].tensor(), f32({3, 0}, {})));
  // Reshape-13 has no allowzero: 0 copies the input's dimension.
  EXPECT_TRUE(Same(run(m(13), {f32({0, 3}, {}), i64_vec({0, 3})})[0].tensor(), f32({0, 3}, {})));
}

TEST(ShapeOpsInInterpreter, ConstantOfShapeRangeAndSize) {
  auto cos = one_node(20, "ConstantOfShape", {{"s", tensor_type(I64)}},
                      {{"y", tensor_type(DataType::int32)}},
                      {tensor_attr("value", Tensor::from_values<DataType::int32>({1}, {4}))});
  EXPECT_TRUE(Same(run(cos, {i64_vec({2})})[0].tensor(),
                   Tensor::from_values<DataType::int32>({2}, {4, 4})));
  auto range = [](DataType d) {
    return one_node(11, "Range",
                    {{"a", tensor_type(d)}, {"b", tensor_type(d)}, {"c", tensor_type(d)}},
                    {{"y", tensor_type(d)}});
  };
  EXPECT_TRUE(Same(run(range(I64), {i64(0), i64(3), i64(1)})[0].tensor(), i64_vec({0, 1, 2})));
  const Tensor u = tv<DataType::uint8>({}, {1});
  expect_error(ErrorCode::invalid_model, [&] { run(range(DataType::uint8), {u, u, u}); });
  auto size =
      one_node(19, "Size", {{"x", tensor_type(DataType::string)}}, {{"n", tensor_type(I64)}});
  EXPECT_TRUE(Same(run(size, {Tensor::from_strings({2}, {"a", "b"})})[0].tensor(), i64(2)));
}

}  // namespace
}  // namespace seqconf::testing
