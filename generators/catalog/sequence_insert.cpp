// SequenceInsert-11 cases.
// ID: SequenceInsert/position=<class|default>[/ptype=<type>][/pshape=<dims>][/tensor_dtype=<T2>]
//     /dtype=<T>/n=<length>
#include "generators/catalog/common.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kOp = "SequenceInsert";
const std::string kInserts = spec_text({"SequenceInsert.summary"});
const std::string kRange = spec_text({"SequenceInsert.position_range"});
const std::string kDefault = spec_text({"SequenceInsert.position_default"});
const std::string kSameType = spec_text({"SequenceInsert.same_type"});

// The inserted tensor: rank 2, keys distinct from every sequence element's.
KeyTensor inserted_tensor() { return key_tensor({2, 2}, 101); }

CatalogCase insert_case(DataType dtype, const std::vector<KeyTensor>& elements,
                        const Tensor& tensor, const Tensor* position,
                        const std::string& position_label, const std::string& pshape) {
  CatalogCase c = start_case(kOp, 11, dtype);
  c.params = {{"position", position_label}};
  if (position) c.params.push_back({"ptype", type_label(position->dtype())});
  if (!pshape.empty()) c.params.push_back({"pshape", pshape});
  if (tensor.dtype() != dtype) c.params.push_back({"tensor_dtype", type_label(tensor.dtype())});
  c.params.push_back({"dtype", type_label(dtype)});
  c.params.push_back({"n", std::to_string(elements.size())});
  c.details["elements"] = shapes_string(elements);
  c.details["tensor"] = dims_string(tensor.shape());
  c.inputs = {{"input_sequence", materialize_sequence(dtype, elements)}, {"tensor", tensor}};
  if (position) c.inputs.push_back({"position", *position});
  c.node = model::node(kOp,
                       position ? std::vector<std::string>{"input_sequence", "tensor", "position"}
                                : std::vector<std::string>{"input_sequence", "tensor"},
                       {"output_sequence"});
  c.output_names = {"output_sequence"};
  c.output_types = {sequence_type(dtype)};
  return c;
}

std::vector<KeyTensor> with(std::vector<KeyTensor> v, size_t index, const KeyTensor& t) {
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(index), t);
  return v;
}

}  // namespace

void add_sequence_insert_cases(std::vector<CatalogCase>& out) {
  const KeyTensor t = inserted_tensor();
  for (DataType dtype : kAllDataTypes) {
    const Tensor tensor = materialize(dtype, t);
    for (size_t n : {5, 1, 0}) {
      const auto elements = mixed_elements(n);
      {
        CatalogCase c = insert_case(dtype, elements, tensor, nullptr, "default", "");
        c.outputs = {materialize_sequence(dtype, with(elements, n, t))};
        c.spec = kDefault;
        out.push_back(std::move(c));
      }
      for (DataType ptype : {DataType::int64, DataType::int32}) {
        const bool full =
            ptype == DataType::int64 || dtype == DataType::float32 || dtype == DataType::string;
        if (ptype == DataType::int32 && n != 5) continue;
        for (const auto& pc : position_classes(static_cast<int64_t>(n), true)) {
          if (!full && pc.label != "-1") continue;
          const Tensor position = int_scalar(ptype, pc.value);
          CatalogCase c = insert_case(dtype, elements, tensor, &position, pc.label, "");
          c.details["position_value"] = pc.value;
          if (pc.valid) {
            // Position p < 0 means p + n: the tensor lands before the element at p + n.
            const auto index = position_index(pc.value, n);
            c.outputs = {materialize_sequence(dtype, with(elements, index, t))};
            c.spec = pc.value < 0 ? kPositionNegative
                     : (pc.label == "n" || pc.label == "n-1" || pc.label == "mid") ? kRange
                                                                                   : kInserts;
          } else {
            c.error = ErrorCode::position_out_of_range;
            c.spec = kPositionOutOfBounds;
          }
          out.push_back(std::move(c));
        }
      }
    }
    // The tensor's element type differs from the sequence's.
    {
      const Tensor wrong = materialize(other_type(dtype), t);
      CatalogCase c = insert_case(dtype, mixed_elements(5), wrong, nullptr, "default", "");
      c.spec = kSameType;
      c.error = ErrorCode::element_type_mismatch;
      out.push_back(std::move(c));
    }
    // A scalar inserted among tensors of other ranks: the elements' shapes are free.
    {
      const KeyTensor scalar = key_tensor({}, 110);
      const Tensor position = int_scalar(DataType::int64, 0);
      CatalogCase c =
          insert_case(dtype, mixed_elements(2), materialize(dtype, scalar), &position, "0", "");
      c.params.insert(c.params.end() - 2, Param{"tensor", "scalar"});
      c.details["position_value"] = 0;
      c.outputs = {materialize_sequence(dtype, with(mixed_elements(2), 0, scalar))};
      c.spec = kInserts;
      out.push_back(std::move(c));
    }
  }

  for (DataType dtype : {DataType::float32, DataType::int64, DataType::string}) {
    const auto elements = mixed_elements(5);
    const Tensor tensor = materialize(dtype, t);
    {
      // ONNX's own test_sequence_insert_at_front uses exactly this: position [0] of shape [1].
      const Tensor position = int_tensor(DataType::int64, {1}, {0});
      CatalogCase c = insert_case(dtype, elements, tensor, &position, "0", "1");
      c.spec = kPositionScalar;
      c.ambiguous = true;
      c.ambiguity =
          "position of shape [1]: the spec requires a scalar, ONNX's own fixture "
          "test_sequence_insert_at_front and ONNX Runtime use a one-element 1-D position. "
          "Lenient policy (the expectation): read its element. Strict policy: "
          "position_not_scalar.";
      c.strict_error = ErrorCode::position_not_scalar;
      c.outputs = {materialize_sequence(dtype, with(elements, 0, t))};
      out.push_back(std::move(c));
    }
    const std::vector<std::pair<Shape, std::vector<int64_t>>> not_scalar = {
        {{2}, {0, 1}}, {{1, 1}, {0}}, {{0}, {}}};
    for (const auto& [shape, values] : not_scalar) {
      const Tensor position = int_tensor(DataType::int64, shape, values);
      CatalogCase c = insert_case(dtype, elements, tensor, &position, "0", dims_string(shape));
      c.spec = kPositionScalar;
      c.error = ErrorCode::position_not_scalar;
      out.push_back(std::move(c));
    }
    for (DataType ptype : {DataType::float32, DataType::int16}) {
      const Tensor position = int_scalar(ptype, 0);
      CatalogCase c = insert_case(dtype, elements, tensor, &position, "0", "");
      c.spec = kPositionIntegral;
      c.error = ErrorCode::position_type;
      out.push_back(std::move(c));
    }
  }
}

}  // namespace seqconf::catalog
