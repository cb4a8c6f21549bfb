#include "properties/loop_expansion.h"

#include <onnx/defs/schema.h>

#include "reference/interpreter/interpreter.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

namespace seqconf::properties {

onnx::ModelProto sequence_map_expansion_model(const Sequence& input_sequence,
                                              const std::vector<Value>& additional_inputs,
                                              const onnx::GraphProto& body) {
  std::vector<std::string> inputs = {"input_sequence"}, outputs;
  std::vector<onnx::TypeProto> input_types = {type_of(input_sequence)};
  for (size_t k = 0; k < additional_inputs.size(); ++k) {
    inputs.push_back("additional_input_" + std::to_string(k));
    input_types.push_back(type_of(additional_inputs[k]));
  }
  for (int j = 0; j < body.output_size(); ++j)
    outputs.push_back("out_sequence_" + std::to_string(j));
  onnx::NodeProto node = model::node("SequenceMap", inputs, outputs, "sequence_map");
  *node.add_attribute() = model::graph_attribute("body", body);

  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema("SequenceMap", 17, "");
  if (!schema || !schema->HasContextDependentFunction())
    throw Error(ErrorCode::not_supported, "SequenceMap-17 has no function body in this ONNX");
  onnx::FunctionBodyBuildContextImpl build_ctx(node, input_types);
  onnx::FunctionProto fn;
  if (!schema->BuildContextDependentFunction(build_ctx, fn))
    throw Error(ErrorCode::invalid_model, "ONNX could not expand the SequenceMap node");

  onnx::ModelProto model;
  model.set_ir_version(8);
  if (fn.opset_import_size() == 0) {
    auto* op = model.add_opset_import();
    op->set_domain("");
    op->set_version(17);
  } else {
    *model.mutable_opset_import() = fn.opset_import();
  }
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name("SequenceMap_expanded");
  for (int i = 0; i < fn.input_size(); ++i)
    *g->add_input() = model::value_info(fn.input(i), input_types.at(static_cast<size_t>(i)));
  for (int j = 0; j < fn.output_size(); ++j)
    *g->add_output() = model::value_info(fn.output(j), model::sequence_of(body.output(j).type()));
  *g->mutable_node() = fn.node();
  return model;
}

std::vector<Sequence> run_sequence_map_expanded(const Sequence& input_sequence,
                                                const std::vector<Value>& additional_inputs,
                                                const onnx::GraphProto& body) {
  const onnx::ModelProto model =
      sequence_map_expansion_model(input_sequence, additional_inputs, body);
  std::vector<Value> inputs = {input_sequence};
  inputs.insert(inputs.end(), additional_inputs.begin(), additional_inputs.end());
  Context ctx;
  std::vector<Sequence> out;
  for (const Value& v : interp::run_model(model, inputs, ctx))
    out.push_back(v.sequence("expanded SequenceMap output"));
  return out;
}

}  // namespace seqconf::properties
