// SequenceMap-17 cases. Bodies use only Identity and Shape, which accept the 15 types and
// which every runtime has, so every body runs for every element type; bodies with one output
// per input show which value each iteration received.
// ID: SequenceMap/body=<identity|identity2|identity3|identity_tensor|identity_outer|shape|
//     identity_shape>/inputs=<seq|seq,seq|seq,tensor|seq,seq,seq>/dtype=<T>/n=<samples>
//     [/lengths=<a,b,..>]
#include "generators/catalog/common.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kOp = "SequenceMap";
const std::string kApplied = spec_text({"SequenceMap.per_sample"});
const std::string kLength = spec_text({"SequenceMap.sample_count"});
const std::string kSameSamples = spec_text({"SequenceMap.same_samples"});
const std::string kTensors = spec_text({"SequenceMap.inputs"});
const std::string kOrder = spec_text({"SequenceMap.order"});
const std::string kBody = spec_text({"SequenceMap.body"});

enum class Body {
  identity,
  identity2,
  identity3,
  identity_tensor,
  identity_outer,
  shape,
  identity_shape
};

const char* body_name(Body b) {
  switch (b) {
    case Body::identity:
      return "identity";
    case Body::identity2:
      return "identity2";
    case Body::identity3:
      return "identity3";
    case Body::identity_tensor:
      return "identity_tensor";
    case Body::identity_outer:
      return "identity_outer";
    case Body::shape:
      return "shape";
    case Body::identity_shape:
      return "identity_shape";
  }
  return "";
}

// Elements of the first input sequence: scalar, zero-size, ranks 1 and 2, mixed.
std::vector<KeyTensor> first_elements(size_t n) { return mixed_elements(n); }

// Elements of the k-th further sequence input (k = 1, 2): keys distinct from the first's.
std::vector<KeyTensor> further_elements(Body b, size_t k, size_t n) {
  const std::vector<Shape> shapes = b == Body::identity2 ? std::vector<Shape>{{3}, {0}, {1, 1}}
                                                         : std::vector<Shape>{{1}, {2}, {0}};
  std::vector<KeyTensor> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(key_tensor(shapes.at(i), static_cast<int>(60 + 20 * (k - 1) + 5 * i)));
  return v;
}

Tensor shape_tensor(const Shape& s) {
  return Tensor::from_values<DataType::int64>({static_cast<int64_t>(s.size())}, s);
}

void add_body_node(onnx::GraphProto& g, const std::string& op,
                   const std::vector<std::string>& inputs, const std::string& output) {
  *g.add_node() = model::node(op, inputs, {output});
}

void add_value_info(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                    const std::string& name, const onnx::TypeProto& type) {
  auto* vi = list->Add();
  vi->set_name(name);
  *vi->mutable_type() = type;
}

// lengths: the number of tensors in each sequence input (the first fixes the samples).
CatalogCase map_case(DataType dtype, Body body, const std::vector<size_t>& lengths) {
  CatalogCase c = start_case(kOp, 17, dtype);
  const size_t n = lengths.at(0);
  const bool extra_tensor = body == Body::identity_tensor;
  const size_t sequences = lengths.size();

  std::string inputs_label = "seq";
  for (size_t k = 1; k < sequences; ++k) inputs_label += ",seq";
  if (extra_tensor) inputs_label += ",tensor";
  c.params = {{"body", body_name(body)},
              {"inputs", inputs_label},
              {"dtype", type_label(dtype)},
              {"n", std::to_string(n)}};
  bool same = true;
  for (size_t len : lengths) same = same && len == n;
  if (!same) {
    std::string l;
    for (size_t k = 0; k < lengths.size(); ++k) l += (k ? "," : "") + std::to_string(lengths[k]);
    c.params.push_back({"lengths", l});
  }

  // Graph inputs: the sequences, the extra tensor, the outer-scope value.
  std::vector<std::vector<KeyTensor>> seqs = {first_elements(n)};
  for (size_t k = 1; k < sequences; ++k) seqs.push_back(further_elements(body, k, lengths[k]));
  const KeyTensor extra = key_tensor({2, 1}, 90);
  const KeyTensor outer = key_tensor({3}, 95);
  std::vector<std::string> node_inputs;
  for (size_t k = 0; k < sequences; ++k) {
    const std::string name = k == 0 ? "input_sequence" : "sequence_" + std::to_string(k);
    c.inputs.push_back({name, materialize_sequence(dtype, seqs[k])});
    node_inputs.push_back(name);
  }
  if (extra_tensor) {
    c.inputs.push_back({"tensor", materialize(dtype, extra)});
    node_inputs.push_back("tensor");
  }
  if (body == Body::identity_outer) {
    // Not an input of the node: the body reads it by name from the enclosing graph.
    c.inputs.push_back({"outer", materialize(dtype, outer)});
    c.details["outer_scope"] =
        "the body reads 'outer', a graph input of the enclosing graph (ONNX IR: a nested graph "
        "sees the names of its enclosing scopes)";
  }
  c.details["elements"] = shapes_string(seqs[0]);

  // The body: inputs x0.. (one per node input, typed as one sample), outputs y0..
  onnx::GraphProto g;
  g.set_name("body");
  for (size_t k = 0; k < node_inputs.size(); ++k)
    add_value_info(g.mutable_input(), "x" + std::to_string(k), tensor_type(dtype));
  std::vector<DataType> out_types;
  switch (body) {
    case Body::identity:
      add_body_node(g, "Identity", {"x0"}, "y0");
      out_types = {dtype};
      break;
    case Body::identity2:
      add_body_node(g, "Identity", {"x0"}, "y0");
      add_body_node(g, "Identity", {"x1"}, "y1");
      out_types = {dtype, dtype};
      break;
    case Body::identity3:
      add_body_node(g, "Identity", {"x0"}, "y0");
      add_body_node(g, "Identity", {"x1"}, "y1");
      add_body_node(g, "Identity", {"x2"}, "y2");
      out_types = {dtype, dtype, dtype};
      break;
    case Body::identity_tensor:
      add_body_node(g, "Identity", {"x0"}, "y0");
      add_body_node(g, "Identity", {"x1"}, "y1");
      out_types = {dtype, dtype};
      break;
    case Body::identity_outer:
      add_body_node(g, "Identity", {"x0"}, "y0");
      add_body_node(g, "Identity", {"outer"}, "y1");
      out_types = {dtype, dtype};
      break;
    case Body::shape:
      add_body_node(g, "Shape", {"x0"}, "y0");
      out_types = {DataType::int64};
      break;
    case Body::identity_shape:
      add_body_node(g, "Identity", {"x0"}, "y0");
      add_body_node(g, "Shape", {"x0"}, "y1");
      out_types = {dtype, DataType::int64};
      break;
  }
  for (size_t j = 0; j < out_types.size(); ++j) {
    add_value_info(g.mutable_output(), "y" + std::to_string(j), tensor_type(out_types[j]));
    c.output_names.push_back("out_sequence_" + std::to_string(j));
    c.output_types.push_back(sequence_type(out_types[j]));
  }
  c.node = model::node(kOp, node_inputs, c.output_names);
  auto* attr = c.node.add_attribute();
  attr->set_name("body");
  attr->set_type(onnx::AttributeProto::GRAPH);
  *attr->mutable_g() = g;

  if (!same) {
    c.error = ErrorCode::sequence_length_mismatch;
    c.spec = kSameSamples;
    return c;
  }
  // Expected outputs: the body applied to each sample, derived on keys.
  std::vector<std::vector<Tensor>> outs(out_types.size());
  for (size_t i = 0; i < n; ++i) {
    const KeyTensor& x0 = seqs[0][i];
    switch (body) {
      case Body::identity:
        outs[0].push_back(materialize(dtype, x0));
        break;
      case Body::identity2:
        outs[0].push_back(materialize(dtype, x0));
        outs[1].push_back(materialize(dtype, seqs[1][i]));
        break;
      case Body::identity3:
        outs[0].push_back(materialize(dtype, x0));
        outs[1].push_back(materialize(dtype, seqs[1][i]));
        outs[2].push_back(materialize(dtype, seqs[2][i]));
        break;
      case Body::identity_tensor:
        // A tensor input is passed whole to every iteration.
        outs[0].push_back(materialize(dtype, x0));
        outs[1].push_back(materialize(dtype, extra));
        break;
      case Body::identity_outer:
        outs[0].push_back(materialize(dtype, x0));
        outs[1].push_back(materialize(dtype, outer));
        break;
      case Body::shape:
        outs[0].push_back(shape_tensor(x0.shape));
        break;
      case Body::identity_shape:
        outs[0].push_back(materialize(dtype, x0));
        outs[1].push_back(shape_tensor(x0.shape));
        break;
    }
  }
  for (size_t j = 0; j < out_types.size(); ++j)
    c.outputs.push_back(Sequence(out_types[j], std::move(outs[j])));
  switch (body) {
    case Body::identity:
      c.spec = n == 0 ? kLength : kApplied;
      break;
    case Body::identity2:
    case Body::identity3:
      c.spec = kSameSamples;
      break;
    case Body::identity_tensor:
      c.spec = kTensors;
      break;
    case Body::identity_outer:
      c.spec = kBody;
      break;
    case Body::shape:
    case Body::identity_shape:
      c.spec = n == 0 ? kLength : kOrder;
      break;
  }
  return c;
}

}  // namespace

void add_sequence_map_cases(std::vector<CatalogCase>& out) {
  for (DataType dtype : kAllDataTypes) {
    out.push_back(map_case(dtype, Body::identity, {3}));
    out.push_back(map_case(dtype, Body::identity, {0}));
    out.push_back(map_case(dtype, Body::identity2, {3, 3}));
    out.push_back(map_case(dtype, Body::identity2, {0, 0}));
    out.push_back(map_case(dtype, Body::identity_tensor, {3}));
    out.push_back(map_case(dtype, Body::identity_tensor, {0}));
    out.push_back(map_case(dtype, Body::identity3, {3, 3, 3}));
    out.push_back(map_case(dtype, Body::identity_outer, {3}));
    out.push_back(map_case(dtype, Body::identity_outer, {0}));
    out.push_back(map_case(dtype, Body::shape, {3}));
    out.push_back(map_case(dtype, Body::shape, {0}));
    out.push_back(map_case(dtype, Body::identity_shape, {3}));
  }
  for (DataType dtype : {DataType::float32, DataType::int64, DataType::string}) {
    out.push_back(map_case(dtype, Body::identity2, {3, 2}));
    out.push_back(map_case(dtype, Body::identity2, {2, 3}));
    out.push_back(map_case(dtype, Body::identity2, {0, 1}));
    out.push_back(map_case(dtype, Body::identity3, {3, 3, 2}));
  }
}

}  // namespace seqconf::catalog
