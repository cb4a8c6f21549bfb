#include "bundle/source.h"

#include <filesystem>
#include <fstream>

#include "reference/error.h"
#include "reports/json_report.h"
#include "runtimes/host.h"

namespace seqconf::bundle {

namespace fs = std::filesystem;

std::string text_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Source read_source(const BundleOptions& o) {
  std::ifstream in(o.report, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read " + o.report.string());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw Error(ErrorCode::invalid_argument, o.report.string() + ": not JSON: " + e.what());
  }
  Source s;
  if (text_of(j, "kind") == "seqconf-fuzz") {
    s.kind = "fuzz";
    s.runtime_name = text_of(j, "runtime");
    s.runtime_version = text_of(j, "runtime_version");
    s.runtime_spec = text_of(j, "runtime_spec");
    if (s.runtime_spec.empty()) s.runtime_spec = s.runtime_name;
    s.oracle = text_of(j, "oracle");
    fs::path fixtures = o.fixtures;
    if (fixtures.empty()) fixtures = text_of(j, "out");
    if (fixtures.empty())
      throw Error(ErrorCode::invalid_argument,
                  o.report.string() +
                      ": the fuzz report names no fixtures folder; give the campaign's --out "
                      "with --fixtures");
    s.selection.source = "corpus";
    s.selection.corpus = fixtures;
    for (const auto& f : j.value("findings", nlohmann::json::array()))
      s.message["corpus/" + text_of(f, "id")] = text_of(f, "description");
    for (const auto& d : j.value("departures", nlohmann::json::array())) {
      reports::Departure dep;
      dep.id = text_of(d, "id");
      dep.op = text_of(d, "op");
      dep.what = text_of(d, "what");
      dep.title = text_of(d, "title");
      dep.spec = text_of(d, "spec");
      dep.smallest = text_of(d, "smallest");
      dep.rerun = text_of(d, "rerun");
      dep.listed = text_of(d, "listed");
      for (const auto& c : d.value("clauses", nlohmann::json::array()))
        dep.clauses.push_back(c.get<std::string>());
      for (const auto& c : d.value("cases", nlohmann::json::array()))
        dep.case_ids.push_back(c.get<std::string>());
      s.departures.push_back(std::move(dep));
    }
    return s;
  }
  if (!j.contains("schema_version") || !j.contains("cases"))
    throw Error(ErrorCode::invalid_argument,
                o.report.string() + ": neither a conformance report nor a fuzz report");
  s.kind = "conformance";
  s.report = reports::report_from_json(j);
  const reports::RunInfo& info = s.report.info;
  s.runtime_name = info.runtime_name;
  s.runtime_version = info.runtime_version;
  s.runtime_path = info.runtime_path;
  s.os = info.os;
  s.hostname = info.hostname;
  s.cpu_count = info.cpu_count;
  const auto opt = [&](const char* key) { return text_of(info.options, key); };
  s.runtime_spec = opt("runtime");
  if (s.runtime_spec.empty()) s.runtime_spec = s.runtime_name;
  s.selection.source = opt("source").empty() ? "all" : opt("source");
  s.selection.corpus = opt("corpus");
  s.selection.exported = opt("exported");
  s.selection.onnx_testdata = opt("onnx_testdata");
  if (const auto it = info.options.find("onnx_all_ops");
      it != info.options.end() && it->is_boolean() && it->get<bool>())
    s.selection.backend_models = BackendModels::implemented;
  if (const auto it = info.options.find("strict"); it != info.options.end() && it->is_boolean())
    s.strict = it->get<bool>();
  if (const auto it = info.options.find("no_host");
      it != info.options.end() && it->is_boolean() && it->get<bool>())
    s.host = std::nullopt;
  else
    s.host = opt("host");
  s.meaning.policy = s.strict ? Policy::strict : Policy::lenient;
  s.meaning.locate_rejections = true;  // a README says where the spec rejects the case
  if (s.host) s.meaning.host = make_lazy_host(*s.host);
  s.departures = s.report.departures;
  for (const auto& c : s.report.cases) {
    s.message[c.outcome.case_id] = c.outcome.message;
    s.record[c.outcome.case_id] = &c;
  }
  return s;
}

}  // namespace seqconf::bundle
