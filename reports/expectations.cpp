#include "reports/expectations.h"

#include <fnmatch.h>

#include <algorithm>
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
  for (const char* key : {"runtime", "exporter"})
    if (const auto it = j.find(key); it != j.end()) {
      if (!it->is_string())
        throw Error(ErrorCode::invalid_argument,
                    std::string("expectations: \"") + key + "\" is not a string");
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
    std::vector<std::string> statuses;
    const auto st = e.find("status");
    if (st != e.end() && st->is_array()) {
      for (const auto& v : *st) {
        if (!v.is_string())
          throw Error(ErrorCode::invalid_argument, "expectations entry " + std::to_string(i) +
                                                       ": \"status\" lists a non-string " +
                                                       v.dump());
        statuses.push_back(v.get<std::string>());
      }
      if (statuses.empty())
        throw Error(ErrorCode::invalid_argument,
                    "expectations entry " + std::to_string(i) + ": \"status\" is an empty list");
    } else {
      statuses.push_back(string_field(e, "status", i, true));
    }
    for (size_t k = 0; k < statuses.size(); ++k) {
      const auto s = status_from_key(statuses[k]);
      if (!s)
        throw Error(ErrorCode::invalid_argument,
                    "expectations entry " + std::to_string(i) + " (" + x.id +
                        "): unknown status \"" + statuses[k] +
                        "\" (pass, fail, error, not_supported, crash, timeout, skipped)");
      if (k == 0)
        x.status = *s;
      else
        x.also.push_back(*s);
    }
    x.reason = string_field(e, "reason", i, true);
    x.link = string_field(e, "link", i, false);
    x.clause = string_field(e, "clause", i, false);
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

bool Expectation::accepts(Status s) const {
  return s == status || std::find(also.begin(), also.end(), s) != also.end();
}

const Expectation* Expectations::match(const std::string& case_id) const {
  for (const auto& e : entries_)
    if (::fnmatch(e.id.c_str(), case_id.c_str(), 0) == 0) return &e;
  return nullptr;
}

}  // namespace seqconf::reports
