#include "generators/catalog/position.h"

#include <set>

namespace seqconf::catalog::detail {

namespace {

const SpecPassage kPositionNegative = spec_passage({"position.negative"});
const SpecPassage kPositionOutOfBounds = spec_passage({"position.out_of_bounds"});
const SpecPassage kPositionScalar = spec_passage({"position.scalar"});
const SpecPassage kPositionIntegral = spec_passage({"position.integral", "position.scalar"});
const SpecPassage kAnyTensorType = spec_passage({"position.any_tensor_type"});

// A position input that is not an integer scalar, for the representative element types.
struct PositionInput {
  std::string label;
  DataType ptype;
  Shape shape;
  std::vector<int64_t> values;
  DataType dtype = DataType::float32;  // the element type of the sequence
};

bool is_integral(DataType d) { return d == DataType::int32 || d == DataType::int64; }

}  // namespace

const std::string kShapeOneNote =
    "position of shape [1]: the spec requires a scalar, ONNX's own fixtures and ONNX "
    "Runtime accept a one-element 1-D position. Lenient policy (the expectation): read its "
    "element. Strict policy: position_not_scalar.";

std::vector<PositionClass> position_classes(int64_t n, bool accept_n) {
  const std::vector<std::pair<std::string, int64_t>> all = {
      {"0", 0},   {"1", 1}, {"-1", -1},       {"mid", n / 2}, {"n-1", n - 1},
      {"-n", -n}, {"n", n}, {"-n-1", -n - 1}, {"n+1", n + 1}};
  const int64_t hi = accept_n ? n : n - 1;
  std::vector<PositionClass> out;
  std::set<int64_t> seen;
  for (const auto& [label, v] : all) {
    if (label == "n+1" && !accept_n) continue;  // n is already the first value past the end
    if (!seen.insert(v).second) continue;
    out.push_back({label, v, v >= -n && v <= hi});
  }
  return out;
}

CatalogCase position_start(const PositionOperator& op, DataType dtype,
                           const std::vector<KeyTensor>& elements) {
  CatalogCase c = start_case(op.op, 11, dtype);
  c.details["elements"] = shapes_string(elements);
  c.inputs = {{"input_sequence", materialize_sequence(dtype, elements)}};
  c.output_names = {op.output_is_sequence ? "output_sequence" : "tensor"};
  c.output_types = {op.output_is_sequence ? sequence_type(dtype) : tensor_type(dtype)};
  return c;
}

CatalogCase with_position(const PositionOperator& op, CatalogCase c, size_t n,
                          const std::string& label, const std::optional<Tensor>& position,
                          const std::string& pshape) {
  c.params.push_back({"position", label});
  if (position) {
    c.params.push_back({"ptype", type_label(position->dtype())});
    c.inputs.push_back({"position", *position});
  }
  if (!pshape.empty()) c.params.push_back({"pshape", pshape});
  c.params.push_back({"dtype", type_label(c.dtype)});
  c.params.push_back({"n", std::to_string(n)});
  c.params = op.keys.order(std::move(c.params));
  std::vector<std::string> inputs;
  for (const auto& in : c.inputs) inputs.push_back(in.name);
  c.node = model::node(op.op, inputs, c.output_names);
  return c;
}

void add_position_cases(const PositionOperator& op, std::vector<CatalogCase>& out) {
  const auto start = [&](DataType dtype, const std::vector<KeyTensor>& elements) {
    CatalogCase c = position_start(op, dtype, elements);
    if (op.add_inputs) op.add_inputs(c);
    return c;
  };
  struct Row {
    DataType dtype;
    size_t n;
    DataType ptype;
    PositionClass position;
  };
  const auto sweep =
      Params<Row>()
          .combine(&Row::dtype, kAllDataTypes)
          .combine(&Row::n, {5, 1, 0})
          .combine(&Row::ptype, {DataType::int64, DataType::int32})
          .unless([](const Row& r) { return r.ptype == DataType::int32 && r.n != 5; })
          .expand(&Row::position,
                  [&](const Row& r) {
                    return position_classes(static_cast<int64_t>(r.n), op.accepts_n);
                  })
          // int32 positions: every class for float and string, the control "-1" for the rest.
          .unless([](const Row& r) {
            return r.ptype == DataType::int32 && r.dtype != DataType::float32 &&
                   r.dtype != DataType::string && r.position.label != "-1";
          });
  for (const Row& r : sweep) {
    const auto elements = mixed_elements(r.n);
    const PositionClass& pc = r.position;
    CatalogCase c =
        with_position(op, start(r.dtype, elements), r.n, pc.label, int_scalar(r.ptype, pc.value));
    c.details["position_value"] = pc.value;
    if (pc.valid) {
      c.outputs = {op.result(r.dtype, elements, position_index(pc.value, r.n))};
      c.spec = pc.value < 0                                                  ? kPositionNegative
               : (pc.label == "n" || pc.label == "n-1" || pc.label == "mid") ? op.spec_range
                                                                             : op.spec_valid;
    } else {
      c.error = ErrorCode::position_out_of_range;
      c.spec = kPositionOutOfBounds;
    }
    op.keys.add(out, std::move(c));
  }

  if (op.default_index) {
    for (const Row& r :
         Params<Row>().combine(&Row::dtype, kAllDataTypes).combine(&Row::n, {5, 1, 0})) {
      const auto elements = mixed_elements(r.n);
      CatalogCase c = with_position(op, start(r.dtype, elements), r.n, "default", std::nullopt);
      const auto n = static_cast<int64_t>(r.n);
      const int64_t index = op.default_index(n);
      // SequenceErase on an empty sequence: [-0, 0-1] holds no position.
      if (index >= 0 && index <= (op.accepts_n ? n : n - 1))
        c.outputs = {op.result(r.dtype, elements, static_cast<size_t>(index))};
      else
        c.error = ErrorCode::position_out_of_range;
      c.spec = op.spec_default;
      op.keys.add(out, std::move(c));
    }
  }

  const auto inputs = Params<PositionInput>{
      // ONNX's test_sequence_insert_at_front passes a position of shape [1].
      {std::to_string(op.shape_one_position), DataType::int64, {1}, {op.shape_one_position}},
      {"0", DataType::int64, {2}, {0, 1}},
      {"0", DataType::int64, {1, 1}, {0}},
      {"0", DataType::int64, {0}, {}},
      {"0", DataType::float32, {}, {0}},
      {"0",
       DataType::int16,
       {},
       {0}}}.combine(&PositionInput::dtype, kRepresentativeTypes);
  for (const PositionInput& p : inputs) {
    const auto elements = mixed_elements(5);
    CatalogCase c = with_position(op, start(p.dtype, elements), 5, p.label,
                                  int_tensor(p.ptype, p.shape, p.values),
                                  p.shape.empty() ? "" : dims_string(p.shape));
    if (!is_integral(p.ptype)) {
      c.spec = kPositionIntegral;
      c.error = ErrorCode::position_type;
    } else if (p.shape == Shape{1}) {
      c.spec = kPositionScalar;
      c.ambiguous = true;
      c.ambiguity = op.shape_one_note;
      c.strict_error = ErrorCode::position_not_scalar;
      c.outputs = {op.result(p.dtype, elements, position_index(p.values[0], 5))};
    } else {
      c.spec = kPositionScalar;
      c.error = ErrorCode::position_not_scalar;
    }
    op.keys.add(out, std::move(c));
  }

  // bfloat16: the three operators exist only at version 11, whose S and T ("Constrain to any
  // tensor type.") list all_tensor_types(), without it. A valid position on two tensors.
  CatalogCase c = with_position(op, start(DataType::bfloat16, mixed_elements(2)), 2, "0",
                                int_scalar(DataType::int64, 0));
  c.spec = kAnyTensorType;
  c.error = ErrorCode::element_type_not_allowed;
  c.stage = 1;
  op.keys.add(out, std::move(c));

  // Edge values (values=edge): two tensors of shape [2] holding the four edge values of each type
  // (infinities, NaN, integer extremes, strings with NUL bytes); position 1 names the second.
  // The operator only moves tensors, so they must come back unchanged.
  const std::vector<KeyTensor> halves = {KeyTensor{{2}, {kEdgeKey, kEdgeKey + 1}},
                                         KeyTensor{{2}, {kEdgeKey + 2, kEdgeKey + 3}}};
  for (DataType dtype : kAllDataTypes) {
    CatalogCase e = with_position(op, start(dtype, halves), 2, "1", int_scalar(DataType::int64, 1));
    e.params.push_back({"values", "edge"});
    e.params = op.keys.order(std::move(e.params));
    e.outputs = {op.result(dtype, halves, 1)};
    e.spec = op.spec_valid;
    e.stage = 3;
    op.keys.add(out, std::move(e));
  }

  // Values that show a lossy copy (values=bits, and bits_typed in the typed fields): two tensors
  // of shape [16] holding the sixteen bits values of each type (-0.0, NaN payloads, signalling
  // NaNs, subnormals, ...), in turn and reversed; position 1 names the second. The operator only
  // moves tensors, so every output must hold them bit for bit.
  const std::vector<KeyTensor> bits = {bits_key_tensor(), bits_key_tensor(true)};
  for (const BitsVariant& variant : kBitsVariants)
    for (DataType dtype : kAllDataTypes) {
      if (!bits_variant_applies(variant, dtype)) continue;
      CatalogCase b = with_position(op, start(dtype, bits), 2, "1", int_scalar(DataType::int64, 1));
      b.params.push_back({"values", variant.value});
      b.params = op.keys.order(std::move(b.params));
      b.outputs = {op.result(dtype, bits, 1)};
      b.spec = op.spec_valid;
      b.stage = 4;
      b.encoding = variant.encoding;
      op.keys.add(out, std::move(b));
    }
}

}  // namespace seqconf::catalog::detail
