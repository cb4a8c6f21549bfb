// The generated conformance corpus: every case of the five sequence operators, built from
// parameter lists (one catalog file per operator) with expected values derived from the
// parameters alone, never by running the reference (the reference is what the corpus tests).
//
// Case IDs (stable; results and expectations speak in them):
//   <Op>/<key>=<value>/<key>=<value>/...
// e.g. "SequenceInsert/position=-n/ptype=int64/dtype=float16/n=5". Keys are lower-case
// [a-z0-9_]; values use [a-z0-9_,+-] ('-' and '+' as signs or in position classes such as
// "n-1" and "n+1", ',' between list entries, 'x' between dimensions: "2x3"). The order of the keys
// is fixed per operator (declared once in its catalog, an IdKeys of params.h) and part of the ID;
// a trailing "*" in `seqconf list --filter` selects a subtree.
//
// Folder names (ONNX backend layout, filesystem-safe, [a-z0-9_-]) are derived from the ID:
//   "test_" + snake_case(Op) + for each component: "__" + key + "-" + value with '-' -> 'm',
//   '+' -> 'p' and ',' -> 'x'
// e.g. "test_sequence_insert__position-mn__ptype-int64__dtype-float16__n-5". The generator
// fails when two IDs map to one folder.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include "cases/case_json.h"
#include "harness/static_checks.h"
#include "reference/error.h"
#include "reference/model_builder.h"
#include "reference/proto.h"
#include "reference/spec_clauses.h"
#include "reference/value.h"

namespace seqconf::catalog {

// A tensor described by the keys of its elements (row-major): element i holds
// value_of(dtype, keys[i]). Expected outputs are computed on keys by index arithmetic, then
// materialized for each type, so one derivation serves all 15 types.
struct KeyTensor {
  Shape shape;
  std::vector<int> keys;
};

// keys first, first+1, ... for every element of shape.
KeyTensor key_tensor(Shape shape, int first_key);
// Keys kEdgeKey .. kEdgeKey + kEdgeKeys - 1 materialize to the edge values of each type (the
// extremes of integer types, infinities and NaN, strings holding NUL bytes; build.cpp).
inline constexpr int kEdgeKey = 1000;
inline constexpr int kEdgeKeys = 4;
// The edge keys in turn, for every element of shape.
KeyTensor edge_key_tensor(Shape shape);
// Keys kBitsKey .. kBitsKey + kBitsKeys - 1 materialize to the values that show a lossy copy
// (values=bits; build.cpp): for the floating types -0.0, NaNs of both signs with payloads, quiet
// and signalling, the smallest and largest subnormals, the smallest normal, the largest and
// lowest finite values, 1 ulp either side of 1.0, the infinities and an inexact fraction; the
// extremes of the integer types; strings with NUL bytes, invalid UTF-8, the empty string and
// one of 100,000 bytes. A runtime that copies them through float registers, flushes
// subnormals, narrows or rounds returns other bits.
inline constexpr int kBitsKey = 2000;
inline constexpr int kBitsKeys = 16;
// The sixteen bits keys, first to last (reversed: last to first), as a tensor of shape [16].
KeyTensor bits_key_tensor(bool reversed = false);
// The values=bits variants of a case: the ID value and how the case's files write its tensors
// (raw_data, or the typed fields: a reader bug often lives in only one of them).
struct BitsVariant {
  const char* value;  // "bits" | "bits_typed"
  TensorEncoding encoding;
};
inline constexpr BitsVariant kBitsVariants[] = {{"bits", TensorEncoding::raw_data},
                                                {"bits_typed", TensorEncoding::typed_fields}};
// Whether the variant applies to the element type (strings have only their typed field).
inline bool bits_variant_applies(const BitsVariant& v, DataType dtype) {
  return v.encoding == TensorEncoding::raw_data || dtype != DataType::string;
}
// The typed tensor; distinct keys give distinct values for every type but bool.
Tensor materialize(DataType dtype, const KeyTensor& t);
Sequence materialize_sequence(DataType dtype, const std::vector<KeyTensor>& tensors);
// Elements [start, start+length) of `axis`, other axes whole, by direct index arithmetic.
KeyTensor chunk_along(const KeyTensor& input, size_t axis, int64_t start, int64_t length);

// Integer tensors (positions, split).
Tensor int_tensor(DataType dtype, Shape shape, const std::vector<int64_t>& values);
Tensor int_scalar(DataType dtype, int64_t v);

struct Param {
  std::string key;
  std::string value;
};

struct GraphInput {
  std::string name;
  Value value;
};

struct CatalogCase {
  std::string op;  // SequenceAt, ...
  int opset = 11;
  DataType dtype = DataType::float32;                                 // the element type under test
  std::vector<Param> params;                                          // ID components, in order
  nlohmann::ordered_json details = nlohmann::ordered_json::object();  // params not in the ID
  SpecPassage spec;  // the spec clauses the case checks, and their sentences
  bool ambiguous = false;
  std::string ambiguity;  // what is ambiguous and which policy gives the expectation

  // The operands: the values the node reads (and SequenceMap bodies' outer-scope values), by
  // name. In the context "inputs" they are the graph inputs, fed in this order; other contexts
  // (context.h) make some of them initializers, Constant nodes or constructed sequences.
  std::vector<GraphInput> inputs;
  onnx::NodeProto node;  // the node under test
  std::string context = "inputs";
  int trips = 0;                           // loop_body: iterations
  std::vector<GraphInput> context_inputs;  // graph inputs the context adds (If's cond, ...)
  std::vector<std::string> output_names;
  std::vector<onnx::TypeProto> output_types;  // element types only (no shapes)

  std::vector<Value> outputs;             // expected outputs; empty for must-reject cases
  std::optional<ErrorCode> error;         // must-reject: the lenient (default) policy's error
  std::optional<ErrorCode> strict_error;  // ambiguous cases: the strict policy's error, if any
  // The corpus grew in stages; a group of cases that differ only in their element type samples
  // its graph contexts from the rotation of its stage (the lowest of its cases), so adding a
  // stage leaves the contexts of the earlier ones as they were: 0 the first corpus, 1
  // SplitToSequence-24 and bfloat16, 2 SequenceMap bodies of Reshape, Cast, Concat, Gather, Less,
  // 3 edge values (values=edge), 4 the values that show a lossy copy (values=bits), 5 the
  // companion operators (ConcatFromSequence, SequenceConstruct, SequenceEmpty, SequenceLength).
  int stage = 0;
  // Exporter patterns (patterns.cpp): the whole graph but its name and outputs, built by the
  // catalog; the graph inputs are `inputs` then `context_inputs`, all fed.
  std::optional<onnx::GraphProto> pattern;
  // How the case's files write its tensors (data sets, initializers and Constant nodes).
  TensorEncoding encoding = TensorEncoding::raw_data;

  std::string id() const;
  std::string folder() const;
  bool must_reject() const { return error.has_value(); }
};

// Every case, sorted by ID.
const std::vector<CatalogCase>& all_cases();

// Per-operator catalogs (one file each).
void add_sequence_at_cases(std::vector<CatalogCase>& out);
void add_sequence_erase_cases(std::vector<CatalogCase>& out);
void add_sequence_insert_cases(std::vector<CatalogCase>& out);
void add_split_to_sequence_cases(std::vector<CatalogCase>& out);
void add_sequence_map_cases(std::vector<CatalogCase>& out);
// The companion operators, under test like the five (one file each).
inline constexpr int kCompanionStage = 5;
void add_concat_from_sequence_cases(std::vector<CatalogCase>& out);
void add_sequence_construct_cases(std::vector<CatalogCase>& out);
void add_sequence_empty_cases(std::vector<CatalogCase>& out);
void add_sequence_length_cases(std::vector<CatalogCase>& out);
// Exporter patterns, each a context of its own (patterns.cpp); added after the sampling.
void add_pattern_cases(std::vector<CatalogCase>& out);
// Machinery probes: Loop, If, Scan and SequenceMap bodies on their own, the context
// `machinery` (machinery.cpp); added after the sampling.
void add_machinery_cases(std::vector<CatalogCase>& out);

std::string folder_for_id(const std::string& id);

using model::declared_type;
using model::sequence_type;
using model::tensor_type;

// The model of a case in its context (context.h): graph inputs with declared types, valid tensor
// outputs with their exact shape, sequence outputs typed by element type only.
onnx::ModelProto build_model(const CatalogCase& c);

// The files of a case, relative to its folder, with their bytes (deterministic).
std::map<std::string, std::string> case_files(const CatalogCase& c);
CaseJson case_json(const CatalogCase& c);

// onnx::checker::check_model and onnx::shape_inference::InferShapes on the case's model,
// compared with the expected outputs.
StaticCheck static_check(const CatalogCase& c);

// Findings over the whole catalog: valid cases the checker or shape inference reject, and
// inferred outputs that disagree with the expected ones. One line each: "<id>: <what>".
std::vector<std::string> static_findings();

}  // namespace seqconf::catalog
