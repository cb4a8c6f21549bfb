// SequenceInsert-11 cases: the position sweep (position.h); a valid position gives the sequence
// with the tensor inserted before the element it names, the default position appends. Then the
// tensor itself: another element type, another rank.
// ID: SequenceInsert/position=<class|default>[/ptype=<type>][/pshape=<dims>]
//     [/tensor_dtype=<T2>|/tensor=scalar]/dtype=<T>/n=<length>
#include "generators/catalog/position.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSequenceInsert = "SequenceInsert";

// The inserted tensor: rank 2, keys distinct from every sequence element's.
const KeyTensor kTensor = key_tensor({2, 2}, 101);

std::vector<KeyTensor> with(std::vector<KeyTensor> v, size_t index, const KeyTensor& t) {
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(index), t);
  return v;
}

// The tensor input, after input_sequence.
void add_tensor(CatalogCase& c, const Tensor& tensor) {
  if (tensor.dtype() != c.dtype) c.params.push_back({"tensor_dtype", type_label(tensor.dtype())});
  c.details["tensor"] = dims_string(tensor.shape());
  c.inputs.push_back({"tensor", tensor});
}

PositionOperator sequence_insert() {
  PositionOperator op;
  op.op = kSequenceInsert;
  op.keys = {"position", "ptype", "pshape", "tensor_dtype", "tensor", "dtype", "n", "values"};
  op.accepts_n = true;
  op.spec_valid = spec_passage({"SequenceInsert.summary"});
  op.spec_range = spec_passage({"SequenceInsert.position_range"});
  op.add_inputs = [](CatalogCase& c) { add_tensor(c, materialize(c.dtype, kTensor)); };
  // Position p < 0 means p + n: the tensor lands before the element at p + n.
  op.result = [](DataType dtype, const std::vector<KeyTensor>& elements, size_t index) {
    return Value(materialize_sequence(dtype, with(elements, index, kTensor)));
  };
  // At the back.
  op.default_index = [](int64_t n) { return n; };
  op.spec_default = spec_passage({"SequenceInsert.position_default"});
  op.shape_one_position = 0;
  // ONNX's own test_sequence_insert_at_front uses exactly this: position [0] of shape [1].
  op.shape_one_note =
      "position of shape [1]: the spec requires a scalar, ONNX's own fixture "
      "test_sequence_insert_at_front and ONNX Runtime use a one-element 1-D position. "
      "Lenient policy (the expectation): read its element. Strict policy: "
      "position_not_scalar.";
  return op;
}

}  // namespace

void add_sequence_insert_cases(std::vector<CatalogCase>& out) {
  const PositionOperator op = sequence_insert();
  add_position_cases(op, out);

  for (DataType dtype : kAllDataTypes) {
    // The tensor's element type differs from the sequence's.
    {
      const auto elements = mixed_elements(5);
      const Tensor wrong = materialize(other_type(dtype), kTensor);
      CatalogCase c = position_start(op, dtype, elements);
      add_tensor(c, wrong);
      c = with_position(op, std::move(c), 5, "default", std::nullopt);
      c.spec = spec_passage({"SequenceInsert.same_type"});
      c.error = ErrorCode::element_type_mismatch;
      op.keys.add(out, std::move(c));
    }
    // A scalar inserted among tensors of other ranks: the elements' shapes are free.
    {
      const auto elements = mixed_elements(2);
      const KeyTensor scalar = key_tensor({}, 110);
      CatalogCase c = position_start(op, dtype, elements);
      add_tensor(c, materialize(dtype, scalar));
      c.params.push_back({"tensor", "scalar"});
      c = with_position(op, std::move(c), 2, "0", int_scalar(DataType::int64, 0));
      c.details["position_value"] = 0;
      c.outputs = {materialize_sequence(dtype, with(elements, 0, scalar))};
      c.spec = op.spec_valid;
      op.keys.add(out, std::move(c));
    }
  }
}

}  // namespace seqconf::catalog
