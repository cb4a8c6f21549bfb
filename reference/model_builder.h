// Building ONNX models: type protos, value infos, nodes with attributes, graphs and models. The
// one place the suite writes these protos, for the corpus catalog, the fuzzer, the benchmarks,
// the process runtime's lifting and the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/value.h"

namespace seqconf::model {

// tensor(d) without a shape (unknown rank).
onnx::TypeProto tensor_type(DataType d);
// tensor(d) of exactly this shape ([] is a scalar).
onnx::TypeProto tensor_type(DataType d, const Shape& shape);
// seq(tensor(d)) without an element shape.
onnx::TypeProto sequence_type(DataType d);
onnx::TypeProto sequence_of(onnx::TypeProto element);
onnx::TypeProto optional_of(onnx::TypeProto element);

// How a sequence value's type states its elements' shape.
enum class SequenceShape {
  none,    // element type only
  common,  // the shape its tensors share: a dimension without value where they differ; no
           // shape when their ranks differ or the sequence is empty
};
// The type a graph declares for this value: a tensor with its exact shape, a sequence per
// `shape`, an optional of its element's type (or of the declared element type when empty).
onnx::TypeProto declared_type(const Value& v, SequenceShape shape = SequenceShape::common);

onnx::ValueInfoProto value_info(const std::string& name, onnx::TypeProto type);

// A node; an empty name leaves the name unset.
onnx::NodeProto node(const std::string& op, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::string& name = "");
// Attributes, one function per kind; a node takes them with *node.add_attribute() = ... (or the
// test helpers' node(op, inputs, outputs, attributes)).
onnx::AttributeProto int_attribute(const std::string& name, int64_t value);
onnx::AttributeProto float_attribute(const std::string& name, float value);
onnx::AttributeProto string_attribute(const std::string& name, const std::string& value);
onnx::AttributeProto ints_attribute(const std::string& name, const std::vector<int64_t>& values);
onnx::AttributeProto graph_attribute(const std::string& name, onnx::GraphProto graph);
onnx::AttributeProto tensor_attribute(const std::string& name, onnx::TensorProto tensor);

// The IR version that goes with an opset of the default domain: the release that introduced the
// opset (opset 11 -> IR 6, 13 -> IR 7, 15 to 18 -> IR 8, ...).
int64_t ir_version_for(int64_t opset);

// A model of the default domain at `opset` (IR version from ir_version_for unless given)
// holding `graph`.
onnx::ModelProto make_model(onnx::GraphProto graph, int64_t opset,
                            const std::string& producer = "seqconf", int64_t ir_version = 0);

}  // namespace seqconf::model
