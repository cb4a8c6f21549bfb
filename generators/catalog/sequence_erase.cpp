// SequenceErase-11 cases.
// ID: SequenceErase/position=<class|default>[/ptype=<type>][/pshape=<dims>]/dtype=<T>/n=<length>
#include "generators/catalog/common.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kOp = "SequenceErase";
const std::string kRemoves = spec_text({"SequenceErase.summary"});
const std::string kRange = spec_text({"position.range"});
const std::string kDefault = spec_text({"SequenceErase.position_default"});

// position absent when `position` is null.
CatalogCase erase_case(DataType dtype, const std::vector<KeyTensor>& elements,
                       const Tensor* position, const std::string& position_label,
                       const std::string& pshape) {
  CatalogCase c = start_case(kOp, 11, dtype);
  c.params = {{"position", position_label}};
  if (position) c.params.push_back({"ptype", type_label(position->dtype())});
  if (!pshape.empty()) c.params.push_back({"pshape", pshape});
  c.params.push_back({"dtype", type_label(dtype)});
  c.params.push_back({"n", std::to_string(elements.size())});
  c.details["elements"] = shapes_string(elements);
  c.inputs = {{"input_sequence", materialize_sequence(dtype, elements)}};
  if (position) c.inputs.push_back({"position", *position});
  c.node = model::node(kOp,
                       position ? std::vector<std::string>{"input_sequence", "position"}
                                : std::vector<std::string>{"input_sequence"},
                       {"output_sequence"});
  c.output_names = {"output_sequence"};
  c.output_types = {sequence_type(dtype)};
  return c;
}

std::vector<KeyTensor> without(std::vector<KeyTensor> v, size_t index) {
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(index));
  return v;
}

}  // namespace

void add_sequence_erase_cases(std::vector<CatalogCase>& out) {
  for (DataType dtype : kAllDataTypes) {
    for (size_t n : {5, 1, 0}) {
      const auto elements = mixed_elements(n);
      // Default position: the last tensor; none exists in an empty sequence.
      {
        CatalogCase c = erase_case(dtype, elements, nullptr, "default", "");
        if (n > 0) {
          c.outputs = {materialize_sequence(dtype, without(elements, n - 1))};
          c.spec = kDefault;
        } else {
          // [-0, 0-1] holds no position, and there is no last tensor to erase.
          c.error = ErrorCode::position_out_of_range;
          c.spec = kDefault;
        }
        out.push_back(std::move(c));
      }
      for (DataType ptype : {DataType::int64, DataType::int32}) {
        const bool full =
            ptype == DataType::int64 || dtype == DataType::float32 || dtype == DataType::string;
        if (ptype == DataType::int32 && n != 5) continue;
        for (const auto& pc : position_classes(static_cast<int64_t>(n), false)) {
          if (!full && pc.label != "-1") continue;
          const Tensor position = int_scalar(ptype, pc.value);
          CatalogCase c = erase_case(dtype, elements, &position, pc.label, "");
          c.details["position_value"] = pc.value;
          if (pc.valid) {
            const auto index = position_index(pc.value, n);
            c.outputs = {materialize_sequence(dtype, without(elements, index))};
            c.spec = pc.value < 0                               ? kPositionNegative
                     : (pc.label == "n-1" || pc.label == "mid") ? kRange
                                                                : kRemoves;
          } else {
            c.error = ErrorCode::position_out_of_range;
            c.spec = kPositionOutOfBounds;
          }
          out.push_back(std::move(c));
        }
      }
    }
  }

  for (DataType dtype : {DataType::float32, DataType::int64, DataType::string}) {
    const auto elements = mixed_elements(5);
    {
      const Tensor position = int_tensor(DataType::int64, {1}, {0});
      CatalogCase c = erase_case(dtype, elements, &position, "0", "1");
      c.spec = kPositionScalar;
      c.ambiguous = true;
      c.ambiguity =
          "position of shape [1]: the spec requires a scalar, ONNX's own fixtures and ONNX "
          "Runtime accept a one-element 1-D position. Lenient policy (the expectation): read its "
          "element. Strict policy: position_not_scalar.";
      c.strict_error = ErrorCode::position_not_scalar;
      c.outputs = {materialize_sequence(dtype, without(elements, 0))};
      out.push_back(std::move(c));
    }
    const std::vector<std::pair<Shape, std::vector<int64_t>>> not_scalar = {
        {{2}, {0, 1}}, {{1, 1}, {0}}, {{0}, {}}};
    for (const auto& [shape, values] : not_scalar) {
      const Tensor position = int_tensor(DataType::int64, shape, values);
      CatalogCase c = erase_case(dtype, elements, &position, "0", dims_string(shape));
      c.spec = kPositionScalar;
      c.error = ErrorCode::position_not_scalar;
      out.push_back(std::move(c));
    }
    for (DataType ptype : {DataType::float32, DataType::int16}) {
      const Tensor position = int_scalar(ptype, 0);
      CatalogCase c = erase_case(dtype, elements, &position, "0", "");
      c.spec = kPositionIntegral;
      c.error = ErrorCode::position_type;
      out.push_back(std::move(c));
    }
  }
}

}  // namespace seqconf::catalog
