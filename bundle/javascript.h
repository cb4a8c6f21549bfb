// Values as a JavaScript API takes them: values.json's readable values, how well a JavaScript
// API runs a model, and what repro.js runs (values.json "repro" and the models it names).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bundle/expected.h"
#include "cases/case.h"
#include "harness/compare.h"
#include "reference/proto.h"

namespace seqconf::bundle {

// A tensor: {"type", "dims", "values"} and, for floating types, "bits" (each element's bits in
// hex, what repro.js builds its inputs from and compares exact outputs with). 64-bit integers
// are strings; a floating element is a number (exact), or "NaN" (the canonical quiet NaN),
// "NaN:0x..." (any other NaN, by its bits), "Infinity", "-Infinity", "-0".
nlohmann::ordered_json tensor_json(const Tensor& t);
// A tensor as above, or a sequence {"sequence_of", "tensors"}, or an optional.
nlohmann::ordered_json value_json(const Value& v);

// Every string of the value is valid UTF-8 (JavaScript can pass it).
bool strings_are_utf8(const Value& v);

// The graph's inputs that are not initializers.
std::vector<const onnx::ValueInfoProto*> graph_inputs(const onnx::GraphProto& g);

// How well a JavaScript API can run a model: 0 as it is, 1 with its sequences lifted to tensors,
// 2 not at all (an optional, or an element type it cannot pass).
int javascript_fit(const onnx::ModelProto& m);

// What repro.js runs: the feeds, the models and what to expect of them (values.json "repro").
// A model that takes or gives sequences runs with them lifted to tensors (lift_sequences): each
// sequence input given as its tensors, each sequence output read as its length (lengths.onnx),
// then as its tensors (items.onnx). Input tensors the JavaScript API cannot pass (strings that
// are not UTF-8, complex or bfloat16 tensors) are in those models as the inputs' defaults
// (repro.onnx when nothing is lifted). The models are written in dir.
nlohmann::ordered_json repro_json(const onnx::ModelProto& model, const DataSet& ds,
                                  const Expected& e, const ComparisonRule& rule,
                                  const std::string& package, const std::string& version,
                                  int timeout_ms, const std::filesystem::path& dir);

// A control of the departure, as repro.js runs it before the departing model (values.json
// "repro"."control"): a case of the same operator in the same graph context that passed in the
// same run, with its feeds, its models (written in dir as control_*.onnx) and its outputs. The
// runtime loading and running it shows that it could load and run the departing model's kind.
nlohmann::ordered_json control_json(const Case& c, const onnx::ModelProto& model, const DataSet& ds,
                                    const Expected& e, const std::filesystem::path& dir);

}  // namespace seqconf::bundle
