#include "cases/case_json.h"

#include <algorithm>

#include <cstdio>
#include <fstream>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/proto.h"

namespace seqconf {

namespace {

using ojson = nlohmann::ordered_json;

ojson expectation_json(const std::optional<std::string>& code) {
  return code ? ojson{{"kind", "error"}, {"code", *code}} : ojson{{"kind", "outputs"}};
}

std::optional<std::string> parse_expectation(const nlohmann::json& e, const char* key) {
  const std::string kind = e.at("kind").get<std::string>();
  if (kind == "outputs") return std::nullopt;
  if (kind != "error")
    throw Error(ErrorCode::invalid_proto,
                std::string(key) + ".kind '" + kind + "' is neither outputs nor error");
  const std::string code = e.at("code").get<std::string>();
  ErrorCode parsed;
  if (!error_code_from_name(code, parsed))
    throw Error(ErrorCode::invalid_proto,
                std::string(key) + ".code '" + code + "' is not an error code");
  return code;
}

std::string serialize_deterministic(const google::protobuf::MessageLite& msg) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sos(&out);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&cos);  // computes the sizes first
  }
  return out;
}

// {"kind": "exact"}, {"kind": "tolerance", "rtol", "atol"}, or {"kind": "per_output",
// "outputs": [one of the first two per graph output]}.
ComparisonRule parse_comparison(const nlohmann::json& cmp, bool top) {
  const std::string kind = cmp.at("kind").get<std::string>();
  if (kind == "exact") return ComparisonRule{};
  if (kind == "tolerance") {
    Tolerance t;
    t.rtol = cmp.value("rtol", t.rtol);
    t.atol = cmp.value("atol", t.atol);
    return ComparisonRule::tolerant(t);
  }
  if (kind == "per_output" && top) {
    ComparisonRule r;
    for (const auto& o : cmp.at("outputs")) {
      r.outputs.push_back(parse_comparison(o, false));
      if (!r.outputs.back().exact) {
        r.exact = false;
        r.tolerance = r.outputs.back().tolerance;
      }
    }
    return r;
  }
  throw Error(ErrorCode::invalid_proto, "comparison.kind '" + kind + "' is neither exact nor " +
                                            (top ? "tolerance nor per_output" : "tolerance"));
}

ojson comparison_json(const ComparisonRule& r) {
  if (!r.outputs.empty()) {
    ojson outputs = ojson::array();
    for (const auto& o : r.outputs) outputs.push_back(comparison_json(o));
    return ojson{{"kind", "per_output"}, {"outputs", outputs}};
  }
  if (r.exact) return ojson{{"kind", "exact"}};
  return ojson{{"kind", "tolerance"}, {"rtol", r.tolerance.rtol}, {"atol", r.tolerance.atol}};
}

}  // namespace

std::string ComparisonRule::name() const {
  if (!outputs.empty()) {
    std::string s = "per output: ";
    for (size_t i = 0; i < outputs.size(); ++i) s += (i ? ", " : "") + outputs[i].name();
    return s;
  }
  if (exact) return "exact";
  char buf[80];
  std::snprintf(buf, sizeof buf, "tolerance rtol=%g atol=%g", tolerance.rtol, tolerance.atol);
  return buf;
}

ComparisonRule comparison_rule(std::string_view source, const std::vector<std::string>& ops_used) {
  if (source == "onnx-backend") return ComparisonRule::tolerant();
  for (const auto& op : ops_used)
    if (std::find(kMovingOps.begin(), kMovingOps.end(), op) == kMovingOps.end())
      return ComparisonRule::tolerant();
  return {};
}

ComparisonRule comparison_rule(std::string_view source, const onnx::GraphProto& graph) {
  ComparisonRule whole = comparison_rule(source, interp::ops_used(graph));
  if (whole.exact || source == "onnx-backend") return whole;
  // A computing node that no output depends on leaves every output exact.
  std::vector<ComparisonRule> per_output;
  for (const auto& ops : interp::ops_used_by_outputs(graph))
    per_output.push_back(comparison_rule(source, ops));
  if (per_output.empty()) return whole;
  if (std::all_of(per_output.begin(), per_output.end(),
                  [&](const ComparisonRule& r) { return r == per_output.front(); }))
    return per_output.front();
  whole.outputs = std::move(per_output);
  return whole;
}

std::string context_of(const nlohmann::ordered_json& params) {
  const auto it = params.find("context");
  if (it == params.end() || !it->is_string()) return std::string(kDefaultContext);
  return it->get<std::string>();
}

CaseJson parse_case_json(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    if (!j.is_object()) throw Error(ErrorCode::invalid_proto, "not a JSON object");
    CaseJson c;
    c.id = j.value("id", std::string());
    c.op = j.value("op", std::string("model"));
    c.opset = j.value("opset", int64_t{0});
    c.dtype = j.value("dtype", std::string());
    if (j.contains("expectation"))
      c.expected_error = parse_expectation(j.at("expectation"), "expectation");
    if (j.contains("strict_expectation")) {
      c.has_strict_expectation = true;
      c.strict_expected_error = parse_expectation(j.at("strict_expectation"), "strict_expectation");
    }
    if (j.contains("comparison")) {
      c.comparison = parse_comparison(j.at("comparison"), true);
    } else if (j.contains("tolerance")) {
      c.legacy_tolerance.rtol = j.at("tolerance").value("rtol", c.legacy_tolerance.rtol);
      c.legacy_tolerance.atol = j.at("tolerance").value("atol", c.legacy_tolerance.atol);
    }
    c.spec = j.value("spec", std::string());
    if (j.contains("clauses")) c.clauses = j.at("clauses").get<std::vector<std::string>>();
    c.clarity = j.value("clarity", std::string());
    c.ambiguity = j.value("ambiguity", std::string());
    if (j.contains("static")) {
      const auto& s = j.at("static");
      if (s.contains("check_model")) c.check_model_passes = s.at("check_model") == "pass";
      if (s.contains("shape_inference"))
        c.shape_inference_passes = s.at("shape_inference") == "pass";
      c.static_not_applicable = s.value("not_applicable", std::string());
    }
    if (j.contains("params")) c.params = ojson::parse(j.at("params").dump());
    if (j.contains("inputs")) c.inputs = j.at("inputs").get<std::vector<std::string>>();
    if (j.contains("outputs")) c.outputs = j.at("outputs").get<std::vector<std::string>>();
    for (const char* key : {"expected", "found", "reproduce", "producer"})
      if (j.contains(key)) c.extra[key] = ojson::parse(j.at(key).dump());
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::invalid_proto, e.what());
  }
}

std::string case_json_text(const CaseJson& c) {
  ojson j;
  j["id"] = c.id;
  j["op"] = c.op;
  j["opset"] = c.opset;
  j["dtype"] = c.dtype;
  j["expectation"] = expectation_json(c.expected_error);
  if (c.has_strict_expectation) j["strict_expectation"] = expectation_json(c.strict_expected_error);
  if (c.comparison) j["comparison"] = comparison_json(*c.comparison);
  j["spec"] = c.spec;
  if (!c.clauses.empty()) j["clauses"] = c.clauses;
  j["clarity"] = c.clarity;
  if (!c.ambiguity.empty()) j["ambiguity"] = c.ambiguity;
  if (!c.static_not_applicable.empty()) {
    j["static"] = ojson{{"not_applicable", c.static_not_applicable}};
  } else if (c.check_model_passes || c.shape_inference_passes) {
    ojson s = ojson::object();
    if (c.check_model_passes) s["check_model"] = *c.check_model_passes ? "pass" : "fail";
    if (c.shape_inference_passes)
      s["shape_inference"] = *c.shape_inference_passes ? "pass" : "fail";
    j["static"] = s;
  }
  j["params"] = c.params;
  j["inputs"] = c.inputs;
  j["outputs"] = c.outputs;
  for (const auto& [k, v] : c.extra.items()) j[k] = v;
  return j.dump(2) + "\n";
}

std::map<std::string, std::string> case_folder_files(const onnx::ModelProto& model,
                                                     const std::vector<Value>& inputs,
                                                     const std::vector<Value>& outputs,
                                                     const CaseJson& json,
                                                     TensorEncoding encoding) {
  // Data set files are named after the graph's inputs that are not initializers, and its
  // outputs, in order.
  const auto& g = model.graph();
  std::vector<std::string> input_names, output_names;
  for (const auto& in : g.input()) {
    bool initializer = false;
    for (const auto& i : g.initializer()) initializer = initializer || i.name() == in.name();
    if (!initializer) input_names.push_back(in.name());
  }
  for (const auto& out : g.output()) output_names.push_back(out.name());
  auto name_of = [](const std::vector<std::string>& names, size_t k) {
    return k < names.size() ? names[k] : std::string();
  };
  std::map<std::string, std::string> files;
  files["model.onnx"] = serialize_deterministic(model);
  for (size_t k = 0; k < inputs.size(); ++k)
    files["test_data_set_0/input_" + std::to_string(k) + ".pb"] =
        value_to_bytes(inputs[k], encoding, name_of(input_names, k));
  for (size_t k = 0; k < outputs.size(); ++k)
    files["test_data_set_0/output_" + std::to_string(k) + ".pb"] =
        value_to_bytes(outputs[k], encoding, name_of(output_names, k));
  // A model without graph inputs whose case expects an error has an empty data set; a file
  // keeps its folder (version control drops empty folders), so runners still find and run it.
  if (inputs.empty() && outputs.empty())
    files["test_data_set_0/empty.txt"] =
        "No inputs (the model has no graph inputs) and no outputs (the case expects an error).\n";
  files["case.json"] = case_json_text(json);
  return files;
}

void write_case_folder(const std::filesystem::path& dir,
                       const std::map<std::string, std::string>& files) {
  for (const auto& [rel, bytes] : files) {
    const auto path = dir / rel;
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream os(path, std::ios::binary | std::ios::trunc);
    os.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!os) throw Error(ErrorCode::io_error, "cannot write " + path.string());
  }
}

}  // namespace seqconf
