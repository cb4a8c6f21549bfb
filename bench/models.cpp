#include "bench/models.h"

#include <vector>

#include "reference/model_builder.h"

namespace seqconf::bench {

namespace {

using model::node;
using model::value_info;

onnx::TypeProto float_tensor(const Shape& dims) {
  return model::tensor_type(DataType::float32, dims);
}
onnx::TypeProto float_tensor() { return model::tensor_type(DataType::float32); }
onnx::TypeProto int64_scalar() { return model::tensor_type(DataType::int64, Shape{}); }
onnx::TypeProto float_sequence() { return model::sequence_type(DataType::float32); }
onnx::TypeProto float_sequence(const Shape& dims) {
  return model::sequence_of(model::tensor_type(DataType::float32, dims));
}

// One node at `opset`; the workload's graph named after its operator.
onnx::ModelProto model_with(int64_t opset, onnx::NodeProto n,
                            std::vector<onnx::ValueInfoProto> inputs,
                            std::vector<onnx::ValueInfoProto> outputs) {
  onnx::GraphProto g;
  g.set_name(n.op_type() + "_bench");
  *g.add_node() = std::move(n);
  for (auto& v : inputs) *g.add_input() = std::move(v);
  for (auto& v : outputs) *g.add_output() = std::move(v);
  return model::make_model(std::move(g), opset, "seqconf-bench", 8);
}

}  // namespace

onnx::ModelProto split_model(int64_t rows, int64_t cols, int64_t axis, bool with_split) {
  auto n = node(
      "SplitToSequence",
      with_split ? std::vector<std::string>{"input", "split"} : std::vector<std::string>{"input"},
      {"output_sequence"}, "SplitToSequence");
  *n.add_attribute() = model::int_attribute("axis", axis);
  std::vector<onnx::ValueInfoProto> inputs = {value_info("input", float_tensor({rows, cols}))};
  if (with_split) inputs.push_back(value_info("split", int64_scalar()));
  return model_with(11, std::move(n), std::move(inputs),
                    {value_info("output_sequence", float_sequence())});
}

onnx::ModelProto insert_model() {
  return model_with(11,
                    node("SequenceInsert", {"input_sequence", "tensor", "position"},
                         {"output_sequence"}, "SequenceInsert"),
                    {value_info("input_sequence", float_sequence()),
                     value_info("tensor", float_tensor()), value_info("position", int64_scalar())},
                    {value_info("output_sequence", float_sequence())});
}

onnx::ModelProto erase_model() {
  return model_with(
      11,
      node("SequenceErase", {"input_sequence", "position"}, {"output_sequence"}, "SequenceErase"),
      {value_info("input_sequence", float_sequence()), value_info("position", int64_scalar())},
      {value_info("output_sequence", float_sequence())});
}

onnx::ModelProto at_model() {
  return model_with(
      11, node("SequenceAt", {"input_sequence", "position"}, {"tensor"}, "SequenceAt"),
      {value_info("input_sequence", float_sequence()), value_info("position", int64_scalar())},
      {value_info("tensor", float_tensor())});
}

onnx::ModelProto map_model(int64_t n, bool add) {
  const Shape dims = {n};
  onnx::GraphProto body;
  body.set_name(add ? "add_body" : "identity_body");
  *body.add_input() = value_info("x", float_tensor(dims));
  if (add) *body.add_input() = value_info("b", float_tensor(dims));
  *body.add_node() =
      add ? node("Add", {"x", "b"}, {"y"}, "Add") : node("Identity", {"x"}, {"y"}, "Identity");
  *body.add_output() = value_info("y", float_tensor(dims));

  auto map = node("SequenceMap",
                  add ? std::vector<std::string>{"input_sequence", "b"}
                      : std::vector<std::string>{"input_sequence"},
                  {"output_sequence"}, "SequenceMap");
  *map.add_attribute() = model::graph_attribute("body", std::move(body));
  std::vector<onnx::ValueInfoProto> inputs = {value_info("input_sequence", float_sequence(dims))};
  if (add) inputs.push_back(value_info("b", float_tensor(dims)));
  return model_with(17, std::move(map), std::move(inputs),
                    {value_info("output_sequence", float_sequence(dims))});
}

onnx::ModelProto add_model(int64_t n) {
  return model_with(14, node("Add", {"a", "b"}, {"c"}, "Add"),
                    {value_info("a", float_tensor({n})), value_info("b", float_tensor({n}))},
                    {value_info("c", float_tensor({n}))});
}

}  // namespace seqconf::bench
