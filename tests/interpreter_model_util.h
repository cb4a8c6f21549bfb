// Builders for small ONNX models in tests of the interpreter, the fixtures and the harness.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/dtype.h"
#include "reference/proto.h"

namespace seqconf::testing {

inline onnx::TypeProto tensor_type(DataType d) {
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(d));
  return t;
}
inline onnx::TypeProto seq_type(DataType d) {
  onnx::TypeProto t;
  *t.mutable_sequence_type()->mutable_elem_type() = tensor_type(d);
  return t;
}

inline onnx::AttributeProto int_attr(const std::string& name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}
inline onnx::AttributeProto graph_attr(const std::string& name, const onnx::GraphProto& g) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::GRAPH);
  *a.mutable_g() = g;
  return a;
}
inline onnx::AttributeProto tensor_attr(const std::string& name, const Tensor& t) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = tensor_to_proto(t, TensorEncoding::typed_fields);
  return a;
}

inline onnx::NodeProto node(const std::string& op, std::vector<std::string> inputs,
                            std::vector<std::string> outputs,
                            std::vector<onnx::AttributeProto> attrs = {},
                            const std::string& domain = "") {
  onnx::NodeProto n;
  n.set_op_type(op);
  if (!domain.empty()) n.set_domain(domain);
  for (auto& i : inputs) n.add_input(i);
  for (auto& o : outputs) n.add_output(o);
  for (auto& a : attrs) *n.add_attribute() = a;
  return n;
}

using NamedType = std::pair<std::string, onnx::TypeProto>;

inline onnx::GraphProto graph(const std::string& name, std::vector<onnx::NodeProto> nodes,
                              std::vector<NamedType> inputs, std::vector<NamedType> outputs) {
  onnx::GraphProto g;
  g.set_name(name);
  for (auto& n : nodes) *g.add_node() = n;
  for (auto& [n, t] : inputs) {
    auto* vi = g.add_input();
    vi->set_name(n);
    *vi->mutable_type() = t;
  }
  for (auto& [n, t] : outputs) {
    auto* vi = g.add_output();
    vi->set_name(n);
    *vi->mutable_type() = t;
  }
  return g;
}

inline onnx::ModelProto model(int64_t opset, onnx::GraphProto g) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("seqconf-test");
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  *m.mutable_graph() = std::move(g);
  return m;
}

}  // namespace seqconf::testing
