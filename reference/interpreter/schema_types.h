// The types of a node the reference does not run itself (a node delegated to a host runtime),
// checked against ONNX's schema of its operator as the linked ONNX library states it: the
// reference's own type table (type_constraints.h) has rows only for the operators it runs.
//
// Operators.md, "Type Constraints": every input and output of an operator is typed by a formal
// parameter, and a type parameter "T" binds one type for all its homogeneous uses in a node. A
// node whose input is outside its formal's allowed types makes the model invalid whatever the
// inputs, as for any node of the reference's table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>
#include "reference/value.h"

namespace seqconf::interp {

// A value standing for its type alone (its contents unused); nullopt where the type is unknown.
using TypeOf = std::optional<Value>;

// Checks the known input types of node `n` (default-domain opset `opset`) against ONNX's schema
// and returns the output types the schema determines (a type parameter an input bound, or a
// formal with one allowed type). Throws Error(invalid_model) naming the operator, its version,
// the input, the type constraint and its allowed types, for an input the schema does not allow.
// Returns nullopt, checking nothing, when the library has no schema for the node: another domain,
// an operator it does not know, or an opset past the newest it knows (whose schemas may have
// changed).
std::optional<std::vector<TypeOf>> schema_types(const onnx::NodeProto& n, int64_t opset,
                                                const std::vector<TypeOf>& in);

}  // namespace seqconf::interp
