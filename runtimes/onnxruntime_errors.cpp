#include "runtimes/onnxruntime_errors.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtimes/onnxruntime_errors_data.h"

namespace seqconf {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

struct Rule {
  OrtErrorRule rule;
  std::vector<std::string> messages;  // lower case
  std::vector<int> codes;
  std::vector<std::string> builds;  // empty: every build
};

RunError::Kind kind_named(const std::string& name) {
  if (name == "not_supported") return RunError::Kind::not_supported;
  if (name == "invalid_input") return RunError::Kind::invalid_input;
  return RunError::Kind::internal;
}

// The table, read once from the copy compiled in.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = [] {
    const auto j = nlohmann::json::parse(kOnnxRuntimeErrorsJson);
    const std::map<std::string, int> codes = j.at("codes");
    std::vector<Rule> out;
    for (const auto& r : j.at("rules")) {
      Rule rule;
      rule.rule = {r.at("id").get<std::string>(), kind_named(r.at("kind").get<std::string>())};
      for (const auto& m : r.value("messages", nlohmann::json::array()))
        rule.messages.push_back(lower(m.get<std::string>()));
      for (const auto& c : r.value("codes", nlohmann::json::array()))
        rule.codes.push_back(codes.at(c.get<std::string>()));
      rule.builds = r.value("builds", std::vector<std::string>{});
      out.push_back(std::move(rule));
    }
    return out;
  }();
  return table;
}

}  // namespace

std::optional<OrtErrorRule> onnxruntime_error_rule(std::string_view message,
                                                   std::optional<int> code, OrtBuild build) {
  const std::string text = lower(message);
  const std::string build_name = build == OrtBuild::web ? "web" : "native";
  const auto applies = [&](const Rule& r) {
    return r.builds.empty() ||
           std::find(r.builds.begin(), r.builds.end(), build_name) != r.builds.end();
  };
  // The words of a message say more than its code: messages first, then codes.
  for (const Rule& r : rules())
    if (applies(r))
      for (const std::string& m : r.messages)
        if (text.find(m) != std::string::npos) return r.rule;
  if (code)
    for (const Rule& r : rules())
      if (applies(r) && std::find(r.codes.begin(), r.codes.end(), *code) != r.codes.end())
        return r.rule;
  return std::nullopt;
}

RunError::Kind onnxruntime_error_kind(std::string_view message, std::optional<int> code,
                                      OrtBuild build) {
  const auto rule = onnxruntime_error_rule(message, code, build);
  return rule ? rule->kind : RunError::Kind::internal;
}

std::string_view onnxruntime_errors_json() { return kOnnxRuntimeErrorsJson; }
std::string_view onnxruntime_errors_js() { return kOnnxRuntimeErrorsJs; }

}  // namespace seqconf
