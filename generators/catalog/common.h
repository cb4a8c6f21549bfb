// Helpers shared by the per-operator catalogs (not part of the catalog's interface).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "generators/catalog/catalog.h"
#include "reference/spec_clauses.h"

namespace seqconf::catalog::detail {

// The element types of the cases that vary something other than the element type: a float,
// an integer and string.
inline constexpr std::array<DataType, 3> kRepresentativeTypes = {DataType::float32, DataType::int64,
                                                                 DataType::string};

// A clause's sentence in double quotes, without its final period (for notes that quote it).
std::string spec_quote(std::string_view id);

// SequenceMap with another sequence input longer than the first (sequence_map.cpp and the
// machinery probe lengths_differ): what is ambiguous and which policy expects what.
std::string sequence_map_longer_note();

// The first n of the sequence elements used throughout: shapes [2], [], [2,3], [0,2,1],
// [1,2,1,2] (rank 1, scalar, rank 2, zero-size rank 3, rank 4), element i with keys from
// 20*i + 1.
std::vector<KeyTensor> mixed_elements(size_t n);
std::string shapes_string(const std::vector<KeyTensor>& ts);
std::string dims_string(const Shape& s);  // "2x3"; "scalar" for []

CatalogCase start_case(const std::string& op, int opset, DataType dtype);
std::string type_label(DataType d);  // dtype_name as a std::string

// A type other than d, for element-type mismatches.
DataType other_type(DataType d);

// Graph-building helpers of the whole-graph cases (exporter patterns, machinery probes).
onnx::NodeProto with_int(onnx::NodeProto n, const std::string& name, int64_t v);
void add_int_initializer(onnx::GraphProto& g, const std::string& name, int64_t v);
// A Loop body named `name` with the two inputs every Loop body starts with: the iteration
// counter ("iteration") and the condition ("cond_in").
onnx::GraphProto loop_body(const std::string& name);
// The condition passed through unchanged (the trip count alone ends the Loop): its node, and
// the body's first output ("cond_out").
void pass_condition(onnx::GraphProto& body);
// The Loop node running `body`.
onnx::NodeProto loop_node(const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, onnx::GraphProto body);
// The rows of a key tensor (its slices along axis 0).
std::vector<KeyTensor> rows_of(const KeyTensor& t);
// The tensors stacked on a new leading axis (their keys one after another).
KeyTensor stack_rows(const std::vector<KeyTensor>& rows, const Shape& row_shape);

}  // namespace seqconf::catalog::detail
