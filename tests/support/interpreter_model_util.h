// Small ONNX models in tests, on reference/model_builder.h: nodes with attribute lists, graphs
// from (name, type) pairs, one-node models, and running a model on the interpreter.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/context.h"
#include "reference/dtype.h"
#include "reference/interpreter/interpreter.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

namespace seqconf::testing {

using model::tensor_type;
inline onnx::TypeProto seq_type(DataType d) { return model::sequence_type(d); }

inline onnx::AttributeProto int_attr(const std::string& name, int64_t v) {
  return model::int_attribute(name, v);
}
inline onnx::AttributeProto graph_attr(const std::string& name, const onnx::GraphProto& g) {
  return model::graph_attribute(name, g);
}
inline onnx::AttributeProto ints_attr(const std::string& name, const std::vector<int64_t>& v) {
  return model::ints_attribute(name, v);
}
inline onnx::AttributeProto tensor_attr(const std::string& name, const Tensor& t) {
  return model::tensor_attribute(name, tensor_to_proto(t, TensorEncoding::typed_fields));
}

inline onnx::NodeProto node(const std::string& op, std::vector<std::string> inputs,
                            std::vector<std::string> outputs,
                            std::vector<onnx::AttributeProto> attrs = {},
                            const std::string& domain = "") {
  onnx::NodeProto n = model::node(op, inputs, outputs);
  if (!domain.empty()) n.set_domain(domain);
  for (auto& a : attrs) *n.add_attribute() = a;
  return n;
}

using NamedType = std::pair<std::string, onnx::TypeProto>;

inline onnx::GraphProto graph(const std::string& name, std::vector<onnx::NodeProto> nodes,
                              std::vector<NamedType> inputs, std::vector<NamedType> outputs) {
  onnx::GraphProto g;
  g.set_name(name);
  for (auto& n : nodes) *g.add_node() = n;
  for (auto& [n, t] : inputs) *g.add_input() = model::value_info(n, t);
  for (auto& [n, t] : outputs) *g.add_output() = model::value_info(n, t);
  return g;
}

inline onnx::ModelProto model(int64_t opset, onnx::GraphProto g) {
  return model::make_model(std::move(g), opset, "seqconf-test", 8);
}

// One node reading the graph inputs `ins` and writing the graph outputs `outs`.
inline onnx::ModelProto one_node(int64_t opset, const std::string& op, std::vector<NamedType> ins,
                                 std::vector<NamedType> outs,
                                 std::vector<onnx::AttributeProto> attrs = {}) {
  std::vector<std::string> in_names, out_names;
  for (const auto& [n, t] : ins) in_names.push_back(n);
  for (const auto& [n, t] : outs) out_names.push_back(n);
  return model(opset, graph("g", {node(op, in_names, out_names, attrs)}, ins, outs));
}

// The model's outputs on the interpreter, in a fresh Context unless one is given.
inline std::vector<Value> run(const onnx::ModelProto& m, std::vector<Value> inputs,
                              Context* ctx = nullptr) {
  Context local;
  return interp::run_model(m, inputs, ctx ? *ctx : local);
}

}  // namespace seqconf::testing
