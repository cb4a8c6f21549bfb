#include "reports/expectations.h"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

#include "reference/error.h"
#include "reports/report.h"

namespace seqconf::reports {

namespace {

std::string string_field(const nlohmann::json& e, const char* field, size_t index, bool required) {
  const auto it = e.find(field);
  if (it == e.end()) {
    if (required)
      throw Error(ErrorCode::invalid_argument,
                  "expectations entry " + std::to_string(index) + " lacks \"" + field + "\"");
    return {};
  }
  if (!it->is_string())
    throw Error(ErrorCode::invalid_argument, "expectations entry " + std::to_string(index) +
                                                 ": \"" + field + "\" is not a string but " +
                                                 it->dump());
  return it->get<std::string>();
}

}  // namespace

Expectations Expectations::from_json(const nlohmann::json& j) {
  if (!j.is_object())
    throw Error(ErrorCode::invalid_argument, "expectations: the top level is not an object");
  Expectations ex;
  if (const auto it = j.find("runtime"); it != j.end()) {
    if (!it->is_string())
      throw Error(ErrorCode::invalid_argument, "expectations: \"runtime\" is not a string");
    ex.runtime_ = it->get<std::string>();
  }
  const auto entries = j.find("entries");
  if (entries == j.end() || !entries->is_array())
    throw Error(ErrorCode::invalid_argument, "expectations: \"entries\" is missing or not a list");
  for (size_t i = 0; i < entries->size(); ++i) {
    const auto& e = (*entries)[i];
    if (!e.is_object())
      throw Error(ErrorCode::invalid_argument,
                  "expectations entry " + std::to_string(i) + " is not an object");
    Expectation x;
    x.id = string_field(e, "id", i, true);
    if (x.id.empty())
      throw Error(ErrorCode::invalid_argument,
                  "expectations entry " + std::to_string(i) + " has an empty id");
    const std::string status = string_field(e, "status", i, true);
    const auto s = status_from_key(status);
    if (!s)
      throw Error(ErrorCode::invalid_argument,
                  "expectations entry " + std::to_string(i) + " (" + x.id + "): unknown status \"" +
                      status + "\" (pass, fail, error, not_supported, crash, timeout, skipped)");
    x.status = *s;
    x.reason = string_field(e, "reason", i, true);
    x.link = string_field(e, "link", i, false);
    ex.entries_.push_back(std::move(x));
  }
  return ex;
}

Expectations Expectations::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read expectations file " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(ErrorCode::invalid_argument, path.string() + ": not JSON: " + e.what());
  }
  try {
    return from_json(j);
  } catch (const Error& e) {
    throw Error(e.code(), path.string() + ": " + e.what());
  }
}

const Expectation* Expectations::match(const std::string& case_id) const {
  for (const auto& e : entries_)
    if (::fnmatch(e.id.c_str(), case_id.c_str(), 0) == 0) return &e;
  return nullptr;
}

}  // namespace seqconf::reports
