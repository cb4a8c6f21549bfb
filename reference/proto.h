// Conversion between values and ONNX protobuf messages (TensorProto, SequenceProto,
// OptionalProto). Decoding validates counts and sizes before allocating anything large.
#pragma once

#include <optional>
#include <string>

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include "reference/value.h"

namespace seqconf {

// How numeric tensor data is written: the typed repeated fields, or little-endian raw_data.
enum class TensorEncoding { typed_fields, raw_data };

Tensor tensor_from_proto(const onnx::TensorProto& proto);
onnx::TensorProto tensor_to_proto(const Tensor& tensor, TensorEncoding encoding,
                                  const std::string& name = "");

// An empty SequenceProto carries no element type: declared_elem_type (from the graph) gives it.
Sequence sequence_from_proto(const onnx::SequenceProto& proto,
                             std::optional<DataType> declared_elem_type = std::nullopt);
onnx::SequenceProto sequence_to_proto(const Sequence& sequence, TensorEncoding encoding,
                                      const std::string& name = "");

Optional optional_from_proto(const onnx::OptionalProto& proto,
                             const onnx::TypeProto* declared = nullptr);
onnx::OptionalProto optional_to_proto(const Optional& optional, TensorEncoding encoding,
                                      const std::string& name = "");

// The value a serialized message holds, decoded according to the declared ONNX type
// (tensor, sequence of tensors, or optional of either).
Value value_from_bytes(const std::string& bytes, const onnx::TypeProto& declared,
                       const std::string& what);
// Serialize a value in the message type that matches it.
std::string value_to_bytes(const Value& value, TensorEncoding encoding,
                           const std::string& name = "");

// The value's ONNX type, e.g. for a graph input's declaration.
onnx::TypeProto type_of(const Value& value);
// Element type of a declared tensor type, checked to be one of the 15.
DataType dtype_from_onnx(int32_t elem_type, const std::string& what);

}  // namespace seqconf
