#include "bench/models.h"

#include <vector>

namespace seqconf::bench {

namespace {

constexpr int kFloat = onnx::TensorProto::FLOAT;
constexpr int kInt64 = onnx::TensorProto::INT64;

void tensor_type(onnx::TypeProto* t, int elem, const std::vector<int64_t>* dims) {
  auto* tt = t->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (!dims) return;  // unknown rank
  auto* shape = tt->mutable_shape();
  for (int64_t d : *dims) shape->add_dim()->set_dim_value(d);
}

void add_tensor(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                const std::string& name, int elem, const std::vector<int64_t>* dims) {
  auto* v = list->Add();
  v->set_name(name);
  tensor_type(v->mutable_type(), elem, dims);
}

void add_sequence(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                  const std::string& name, const std::vector<int64_t>* dims) {
  auto* v = list->Add();
  v->set_name(name);
  tensor_type(v->mutable_type()->mutable_sequence_type()->mutable_elem_type(), kFloat, dims);
}

onnx::ModelProto model_with(int64_t opset, onnx::NodeProto node) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("seqconf-bench");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name(node.op_type() + "_bench");
  *g->add_node() = std::move(node);
  return m;
}

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(op);
  for (const auto& i : inputs) n.add_input(i);
  for (const auto& o : outputs) n.add_output(o);
  return n;
}

}  // namespace

onnx::ModelProto split_model(int64_t rows, int64_t cols, int64_t axis, bool with_split) {
  auto n = node(
      "SplitToSequence",
      with_split ? std::vector<std::string>{"input", "split"} : std::vector<std::string>{"input"},
      {"output_sequence"});
  auto* a = n.add_attribute();
  a->set_name("axis");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(axis);
  onnx::ModelProto m = model_with(11, std::move(n));
  auto* g = m.mutable_graph();
  const std::vector<int64_t> dims = {rows, cols};
  const std::vector<int64_t> scalar;
  add_tensor(g->mutable_input(), "input", kFloat, &dims);
  if (with_split) add_tensor(g->mutable_input(), "split", kInt64, &scalar);
  add_sequence(g->mutable_output(), "output_sequence", nullptr);
  return m;
}

onnx::ModelProto insert_model() {
  onnx::ModelProto m = model_with(
      11, node("SequenceInsert", {"input_sequence", "tensor", "position"}, {"output_sequence"}));
  auto* g = m.mutable_graph();
  const std::vector<int64_t> scalar;
  add_sequence(g->mutable_input(), "input_sequence", nullptr);
  add_tensor(g->mutable_input(), "tensor", kFloat, nullptr);
  add_tensor(g->mutable_input(), "position", kInt64, &scalar);
  add_sequence(g->mutable_output(), "output_sequence", nullptr);
  return m;
}

onnx::ModelProto erase_model() {
  onnx::ModelProto m =
      model_with(11, node("SequenceErase", {"input_sequence", "position"}, {"output_sequence"}));
  auto* g = m.mutable_graph();
  const std::vector<int64_t> scalar;
  add_sequence(g->mutable_input(), "input_sequence", nullptr);
  add_tensor(g->mutable_input(), "position", kInt64, &scalar);
  add_sequence(g->mutable_output(), "output_sequence", nullptr);
  return m;
}

onnx::ModelProto at_model() {
  onnx::ModelProto m =
      model_with(11, node("SequenceAt", {"input_sequence", "position"}, {"tensor"}));
  auto* g = m.mutable_graph();
  const std::vector<int64_t> scalar;
  add_sequence(g->mutable_input(), "input_sequence", nullptr);
  add_tensor(g->mutable_input(), "position", kInt64, &scalar);
  add_tensor(g->mutable_output(), "tensor", kFloat, nullptr);
  return m;
}

onnx::ModelProto map_model(int64_t n, bool add) {
  const std::vector<int64_t> dims = {n};
  onnx::GraphProto body;
  body.set_name(add ? "add_body" : "identity_body");
  add_tensor(body.mutable_input(), "x", kFloat, &dims);
  if (add) add_tensor(body.mutable_input(), "b", kFloat, &dims);
  *body.add_node() = add ? node("Add", {"x", "b"}, {"y"}) : node("Identity", {"x"}, {"y"});
  add_tensor(body.mutable_output(), "y", kFloat, &dims);

  auto map = node("SequenceMap",
                  add ? std::vector<std::string>{"input_sequence", "b"}
                      : std::vector<std::string>{"input_sequence"},
                  {"output_sequence"});
  auto* a = map.add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = std::move(body);
  onnx::ModelProto m = model_with(17, std::move(map));
  auto* g = m.mutable_graph();
  add_sequence(g->mutable_input(), "input_sequence", &dims);
  if (add) add_tensor(g->mutable_input(), "b", kFloat, &dims);
  add_sequence(g->mutable_output(), "output_sequence", &dims);
  return m;
}

}  // namespace seqconf::bench
