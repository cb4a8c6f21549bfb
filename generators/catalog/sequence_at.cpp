// SequenceAt-11 cases.
// ID: SequenceAt/position=<class>/ptype=<int64|int32|...>[/pshape=<dims>]/dtype=<T>/n=<length>
#include "generators/catalog/common.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kOp = "SequenceAt";
const std::string kCopy = spec_text({"SequenceAt.summary"});
const std::string kRange = spec_text({"position.range"});

CatalogCase at_case(DataType dtype, const std::vector<KeyTensor>& elements, const Tensor& position,
                    const std::string& position_label, const std::string& pshape) {
  CatalogCase c = start_case(kOp, 11, dtype);
  c.params = {{"position", position_label}, {"ptype", type_label(position.dtype())}};
  if (!pshape.empty()) c.params.push_back({"pshape", pshape});
  c.params.push_back({"dtype", type_label(dtype)});
  c.params.push_back({"n", std::to_string(elements.size())});
  c.details["elements"] = shapes_string(elements);
  c.inputs = {{"input_sequence", materialize_sequence(dtype, elements)}, {"position", position}};
  c.node = model::node(kOp, {"input_sequence", "position"}, {"tensor"});
  c.output_names = {"tensor"};
  c.output_types = {tensor_type(dtype)};
  return c;
}

}  // namespace

void add_sequence_at_cases(std::vector<CatalogCase>& out) {
  for (DataType dtype : kAllDataTypes) {
    for (size_t n : {5, 1, 0}) {
      const auto elements = mixed_elements(n);
      for (DataType ptype : {DataType::int64, DataType::int32}) {
        // int32 positions: every class for float and string, the control "-1" for the rest.
        const bool full =
            ptype == DataType::int64 || dtype == DataType::float32 || dtype == DataType::string;
        if (ptype == DataType::int32 && n != 5) continue;
        for (const auto& pc : position_classes(static_cast<int64_t>(n), false)) {
          if (!full && pc.label != "-1") continue;
          CatalogCase c = at_case(dtype, elements, int_scalar(ptype, pc.value), pc.label, "");
          c.details["position_value"] = pc.value;
          if (pc.valid) {
            const auto index = position_index(pc.value, n);
            c.outputs = {materialize(dtype, elements[index])};
            c.spec = pc.value < 0                               ? kPositionNegative
                     : (pc.label == "n-1" || pc.label == "mid") ? kRange
                                                                : kCopy;
          } else {
            c.error = ErrorCode::position_out_of_range;
            c.spec = kPositionOutOfBounds;
          }
          out.push_back(std::move(c));
        }
      }
    }
  }

  // Position shapes and types, on three representative element types.
  for (DataType dtype : {DataType::float32, DataType::int64, DataType::string}) {
    const auto elements = mixed_elements(5);
    {
      // ONNX's test_sequence_insert_at_front passes a position of shape [1].
      CatalogCase c = at_case(dtype, elements, int_tensor(DataType::int64, {1}, {-1}), "-1", "1");
      c.spec = kPositionScalar;
      c.ambiguous = true;
      c.ambiguity =
          "position of shape [1]: the spec requires a scalar, ONNX's own fixtures and ONNX "
          "Runtime accept a one-element 1-D position. Lenient policy (the expectation): read its "
          "element. Strict policy: position_not_scalar.";
      c.strict_error = ErrorCode::position_not_scalar;
      c.outputs = {materialize(dtype, elements[4])};
      out.push_back(std::move(c));
    }
    const std::vector<std::pair<Shape, std::vector<int64_t>>> not_scalar = {
        {{2}, {0, 1}}, {{1, 1}, {0}}, {{0}, {}}};
    for (const auto& [shape, values] : not_scalar) {
      CatalogCase c = at_case(dtype, elements, int_tensor(DataType::int64, shape, values), "0",
                              dims_string(shape));
      c.spec = kPositionScalar;
      c.error = ErrorCode::position_not_scalar;
      out.push_back(std::move(c));
    }
    for (DataType ptype : {DataType::float32, DataType::int16}) {
      CatalogCase c = at_case(dtype, elements, int_scalar(ptype, 0), "0", "");
      c.spec = kPositionIntegral;
      c.error = ErrorCode::position_type;
      out.push_back(std::move(c));
    }
  }
}

}  // namespace seqconf::catalog
