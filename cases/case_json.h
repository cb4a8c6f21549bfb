// case.json: what a corpus case (generated, or a fuzz finding) says about itself. One type, one
// reader, one writer; the folder writer puts it beside the model and the data set.
//
//   {"id", "op", "opset", "dtype",
//    "expectation": {"kind": "outputs"} | {"kind": "error", "code": <ErrorCode name>},
//    "strict_expectation" (ambiguous cases), "comparison": {"kind": "exact"} |
//    {"kind": "tolerance", "rtol", "atol"} (harness/compare.h), "spec", "clauses"
//    (ids of the spec clauses the sentences are, when known), "clarity",
//    "ambiguity" (ambiguous cases), "static": {"check_model", "shape_inference"} ("pass" or
//    "fail") or {"not_applicable": why} (a model newer than the ONNX library reads),
//    "params": {...}, "inputs": [names], "outputs": [names],
//    then, for fuzz findings, "expected", "found": {...}, "reproduce"}
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include "reference/proto.h"
#include "reference/value.h"

namespace seqconf {

struct Tolerance {
  double rtol = 1e-3;  // ONNX backend tests: rtol=1e-3, atol=1e-7
  double atol = 1e-7;
};

// How a case's outputs are compared with the expected ones (harness/compare.h applies it, and
// decides it for a case that does not say, by comparison_rule): exact, bit for bit, where the
// expected values are copies of the inputs (every output of the sequence operators); within a
// tolerance where they are computed (arithmetic in a SequenceMap body, ONNX's backend fixtures).
struct ComparisonRule {
  bool exact = true;
  Tolerance tolerance;  // when !exact
  // One rule per graph output where the outputs are compared differently (an output that only
  // moves values beside one that computes); each has no `outputs` of its own. exact and
  // tolerance above are then the loosest of them. Empty: every output follows exact/tolerance.
  std::vector<ComparisonRule> outputs;
  // The rule of graph output i.
  const ComparisonRule& output(size_t i) const { return i < outputs.size() ? outputs[i] : *this; }
  // "exact", or "tolerance rtol=0.001 atol=1e-07", or per output "exact, tolerance rtol=..":
  // the report's per-case record of it.
  std::string name() const;
  static ComparisonRule tolerant(Tolerance t = {}) { return {false, t, {}}; }
  bool operator==(const ComparisonRule& o) const {
    return exact == o.exact &&
           (exact || (tolerance.rtol == o.tolerance.rtol && tolerance.atol == o.tolerance.atol)) &&
           outputs == o.outputs;
  }
};

// The one table of how values are compared, by a case's source and the operators its model uses:
// - ONNX's backend fixtures ("onnx-backend") keep ONNX's own rtol/atol;
// - a model with an operator outside kMovingOps computes values (Add, Sub, Mul, Div, Cast,
//   Range among the reference's own operators, and every operator it does not implement, run on
//   a host or not at all): it compares within the tolerance;
// - every other model only moves values (the five operators, SequenceConstruct, SequenceEmpty,
//   SequenceLength, ConcatFromSequence, and the shape and selection operators of bodies and
//   contexts), so its outputs are copies and compare bit for bit.
// clang-format off
inline const std::vector<std::string> kMovingOps = {
    "SequenceAt", "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert",
    "SequenceLength", "SequenceMap", "SplitToSequence", "ConcatFromSequence", "Concat", "Constant",
    "ConstantOfShape", "Equal", "Expand", "Gather", "Greater", "Identity", "If", "Less", "Loop",
    "Not", "Optional", "OptionalGetElement", "OptionalHasElement", "Reshape", "Shape", "Size",
    "Slice", "Squeeze", "Unsqueeze", "Where", "Split", "Transpose", "Tile", "Flatten", "And", "Or",
    "GreaterOrEqual", "LessOrEqual", "NonZero"};
// clang-format on
ComparisonRule comparison_rule(std::string_view source, const std::vector<std::string>& ops_used);
// The same table output by output (interp::ops_used_by_outputs): an output that only passes
// through kMovingOps compares bit for bit also where another output of the model computes.
ComparisonRule comparison_rule(std::string_view source, const onnx::GraphProto& graph);

struct CaseJson {
  std::string id;  // without the source prefix
  std::string op = "model";
  int64_t opset = 0;
  std::string dtype;
  std::optional<std::string> expected_error;  // "expectation": an ErrorCode name, or outputs
  bool has_strict_expectation = false;        // "strict_expectation" present
  std::optional<std::string> strict_expected_error;
  // "comparison"; unset for a case.json written before the field (its old "tolerance" is then
  // in legacy_tolerance, and the loader decides by comparison_rule).
  std::optional<ComparisonRule> comparison;
  Tolerance legacy_tolerance;
  std::string spec;
  std::vector<std::string> clauses;  // the ids of the spec clauses (reference/spec_clauses.h)
  std::string clarity;               // "normative" | "ambiguous"
  std::string ambiguity;
  // "static": whether onnx::checker and shape inference accept the model.
  std::optional<bool> check_model_passes, shape_inference_passes;
  std::string static_not_applicable;  // why the checks do not apply (then both are unset)
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  std::vector<std::string> inputs, outputs;
  // Written after the fields above, in this order (fuzz findings: expected, found, reproduce;
  // exported models: producer).
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
};

// The graph context a case runs its operator in: params "context" (inputs, initializers,
// constant_nodes, all_constant, if_branch, loop_body, sequence_map_body, chained). A case without
// it (ONNX's backend fixtures, fuzz findings, a corpus generated before the parameter) feeds the
// operator from graph inputs.
inline constexpr std::string_view kDefaultContext = "inputs";
// The context of the machinery probes (generators/catalog/machinery.cpp): whole graphs testing
// Loop, If, Scan and SequenceMap bodies, whose departures are named for that machinery.
inline constexpr std::string_view kMachineryContext = "machinery";
// params["context"] when it is a string, else kDefaultContext.
std::string context_of(const nlohmann::ordered_json& params);

// Throws Error(invalid_proto) naming the field that is wrong (an expectation kind that is neither
// outputs nor error, a code that is no ErrorCode, a field of the wrong type).
CaseJson parse_case_json(const std::string& text);
// Pretty-printed (two spaces), ending in a newline; the same bytes for the same CaseJson.
std::string case_json_text(const CaseJson& c);

// The files of a case folder in the ONNX backend layout, by path relative to the folder:
// model.onnx, test_data_set_0/input_K.pb and output_K.pb (in raw_data unless told otherwise,
// named after the graph's inputs and outputs), case.json. Deterministic bytes.
std::map<std::string, std::string> case_folder_files(
    const onnx::ModelProto& model, const std::vector<Value>& inputs,
    const std::vector<Value>& outputs, const CaseJson& json,
    TensorEncoding encoding = TensorEncoding::raw_data);
// Writes them below dir (created). Throws Error(io_error) naming the file.
void write_case_folder(const std::filesystem::path& dir,
                       const std::map<std::string, std::string>& files);

}  // namespace seqconf
