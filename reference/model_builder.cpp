#include "reference/model_builder.h"

#include <iterator>

#include "reference/error.h"

namespace seqconf::model {

onnx::TypeProto tensor_type(DataType d) {
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(d));
  return t;
}

onnx::TypeProto tensor_type(DataType d, const Shape& shape) {
  onnx::TypeProto t = tensor_type(d);
  auto* s = t.mutable_tensor_type()->mutable_shape();
  for (int64_t dim : shape) s->add_dim()->set_dim_value(dim);
  return t;
}

onnx::TypeProto sequence_of(onnx::TypeProto element) {
  onnx::TypeProto t;
  *t.mutable_sequence_type()->mutable_elem_type() = std::move(element);
  return t;
}

onnx::TypeProto sequence_type(DataType d) { return sequence_of(tensor_type(d)); }

onnx::TypeProto optional_of(onnx::TypeProto element) {
  onnx::TypeProto t;
  *t.mutable_optional_type()->mutable_elem_type() = std::move(element);
  return t;
}

onnx::TypeProto declared_type(const Value& v, SequenceShape shape) {
  if (v.is_tensor()) return tensor_type(v.tensor().dtype(), v.tensor().shape());
  if (v.is_optional()) {
    const Optional& o = v.optional();
    if (o.element) return optional_of(declared_type(*o.element, shape));
    return optional_of(o.holds_sequence ? sequence_type(o.elem_type) : tensor_type(o.elem_type));
  }
  const Sequence& s = v.sequence();
  onnx::TypeProto t = sequence_type(s.elem_type());
  if (shape == SequenceShape::none || s.empty()) return t;
  const Shape& first = s.at(0).shape();
  for (const auto& x : s.tensors())
    if (x.rank() != first.size()) return t;  // ranks differ: no shape
  auto* sp = t.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->mutable_shape();
  for (size_t i = 0; i < first.size(); ++i) {
    bool same = true;
    for (const auto& x : s.tensors()) same = same && x.shape()[i] == first[i];
    auto* dim = sp->add_dim();
    if (same) dim->set_dim_value(first[i]);  // else: a dimension without value
  }
  return t;
}

onnx::ValueInfoProto value_info(const std::string& name, onnx::TypeProto type) {
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  *vi.mutable_type() = std::move(type);
  return vi;
}

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto n;
  n.set_op_type(op);
  if (!name.empty()) n.set_name(name);
  for (const auto& i : inputs) n.add_input(i);
  for (const auto& o : outputs) n.add_output(o);
  return n;
}

namespace {
onnx::AttributeProto attribute(const std::string& name, onnx::AttributeProto::AttributeType type) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(type);
  return a;
}
}  // namespace

onnx::AttributeProto int_attribute(const std::string& name, int64_t value) {
  auto a = attribute(name, onnx::AttributeProto::INT);
  a.set_i(value);
  return a;
}

onnx::AttributeProto float_attribute(const std::string& name, float value) {
  auto a = attribute(name, onnx::AttributeProto::FLOAT);
  a.set_f(value);
  return a;
}

onnx::AttributeProto string_attribute(const std::string& name, const std::string& value) {
  auto a = attribute(name, onnx::AttributeProto::STRING);
  a.set_s(value);
  return a;
}

onnx::AttributeProto ints_attribute(const std::string& name, const std::vector<int64_t>& values) {
  auto a = attribute(name, onnx::AttributeProto::INTS);
  for (int64_t v : values) a.add_ints(v);
  return a;
}

onnx::AttributeProto graph_attribute(const std::string& name, onnx::GraphProto graph) {
  auto a = attribute(name, onnx::AttributeProto::GRAPH);
  *a.mutable_g() = std::move(graph);
  return a;
}

onnx::AttributeProto tensor_attribute(const std::string& name, onnx::TensorProto tensor) {
  auto a = attribute(name, onnx::AttributeProto::TENSOR);
  *a.mutable_t() = std::move(tensor);
  return a;
}

int64_t ir_version_for(int64_t opset) {
  // ONNX releases: opset 7 and 8 came with IR 3, 9 with IR 4, 10 with IR 5, 11 with IR 6, 12 to
  // 14 with IR 7, 15 to 18 with IR 8, 19 and 20 with IR 9, 21 and 22 with IR 10, 23 with IR 11,
  // 24 with IR 12 (ONNX 1.19).
  static const int64_t kIr[] = {3, 3, 3, 3, 3, 3, 3, 3, 3,  4,  5,  6, 7,
                                7, 7, 8, 8, 8, 8, 9, 9, 10, 10, 11, 12};
  if (opset < 1 || opset >= static_cast<int64_t>(std::size(kIr)))
    throw Error(ErrorCode::invalid_argument,
                "no IR version is known for opset " + std::to_string(opset));
  return kIr[opset];
}

onnx::ModelProto make_model(onnx::GraphProto graph, int64_t opset, const std::string& producer,
                            int64_t ir_version) {
  onnx::ModelProto m;
  m.set_ir_version(ir_version > 0 ? ir_version : ir_version_for(opset));
  m.set_producer_name(producer);
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  *m.mutable_graph() = std::move(graph);
  return m;
}

}  // namespace seqconf::model
