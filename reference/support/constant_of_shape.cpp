// ConstantOfShape-9, 20, 21, 23, 24: "Generate a tensor with given value and shape."
#include <string>

#include "reference/support/body_ops.h"

namespace seqconf::support {

Tensor ConstantOfShape(const Tensor& input, const std::optional<Tensor>& value) {
  // input, T1 = tensor(int64): "1D tensor. The shape of the expected output tensor. If empty
  //  tensor is given, the output would be a scalar. All values must be >= 0."
  if (input.dtype() != DataType::int64)
    throw Error(ErrorCode::unsupported_type,
                "ConstantOfShape: input must be int64, got " + input.describe());
  if (input.rank() != 1)
    throw Error(ErrorCode::input_rank,
                "ConstantOfShape: input must be 1D, got " + input.describe());
  seqconf::Shape shape(input.element_count());
  for (size_t i = 0; i < shape.size(); ++i) {
    shape[i] = input.int_at(i);
    if (shape[i] < 0)
      throw Error(ErrorCode::invalid_argument, "ConstantOfShape: input " + shape_to_string(shape) +
                                                   " holds " + std::to_string(shape[i]) +
                                                   " (\"All values must be >= 0.\")");
  }
  // value: "(Optional) The value of the output elements.Should be a one-element tensor. If not
  //  specified, it defaults to a tensor of value 0 and datatype float32"
  const Tensor fill = value ? *value : Tensor::from_values<DataType::float32>({1}, {0.0f});
  if (fill.element_count() != 1)
    throw Error(ErrorCode::invalid_argument,
                "ConstantOfShape: value must be a one-element tensor, got " + fill.describe());
  // T2: "Constrain output types to be numerics." (bool included; no string, no complex)
  if (fill.dtype() == DataType::string || fill.dtype() == DataType::complex64 ||
      fill.dtype() == DataType::complex128)
    throw Error(ErrorCode::unsupported_type,
                "ConstantOfShape: value " + fill.describe() + " is not a numeric or bool tensor");
  const size_t n = checked_tensor_elements(fill.dtype(), shape);  // before allocating
  return visit_dtype(fill.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    if constexpr (D == DataType::string) {
      return Tensor();  // excluded above
    } else {
      return Tensor::from_values<D>(shape,
                                    std::vector<storage_t<D>>(n, fill.data<storage_t<D>>()[0]));
    }
  });
}

}  // namespace seqconf::support
