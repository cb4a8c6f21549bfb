#include "reports/expectations.h"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
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

// A string or a list of strings (not empty); empty when the field is absent.
std::vector<std::string> string_list_field(const nlohmann::json& e, const char* field,
                                           const std::string& where) {
  const auto it = e.find(field);
  if (it == e.end()) return {};
  std::vector<std::string> values;
  if (it->is_string()) {
    values.push_back(it->get<std::string>());
  } else if (it->is_array() && !it->empty()) {
    for (const auto& v : *it) {
      if (!v.is_string() || v.get<std::string>().empty())
        throw Error(ErrorCode::invalid_argument,
                    where + ": \"" + field + "\" lists " + v.dump() + ", not a name");
      values.push_back(v.get<std::string>());
    }
  } else {
    throw Error(ErrorCode::invalid_argument,
                where + ": \"" + field + "\" is not a name or a list of names but " + it->dump());
  }
  return values;
}

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : separator) + n;
  return s;
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
  ex.producers_ = string_list_field(j, "producers", "expectations");
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
    const std::string where = "expectations entry " + std::to_string(i) + " (" + x.id + ")";
    for (const auto& name : string_list_field(e, "outcome_reason", where)) {
      const auto r = reason_from_name(name);
      if (!r)
        throw Error(ErrorCode::invalid_argument,
                    where + ": unknown outcome_reason \"" + name +
                        "\" (a \"reason\" of reports: value_mismatch, shape_mismatch, "
                        "not_supported, invalid_input, ...)");
      x.outcome_reasons.push_back(*r);
    }
    if (!x.outcome_reasons.empty() && !x.accepts(Status::fail) && !x.accepts(Status::error) &&
        !x.accepts(Status::not_supported) && !x.accepts(Status::crash) &&
        !x.accepts(Status::timeout))
      throw Error(ErrorCode::invalid_argument,
                  where + ": \"outcome_reason\" without a non-pass status");
    x.programs = string_list_field(e, "programs", where);
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

bool Expectation::means_program(const std::string& program) const {
  return programs.empty() || std::find(programs.begin(), programs.end(), program) != programs.end();
}

std::string Expectation::expected_text() const {
  std::string s(status_key(status));
  for (Status a : also) s += " or " + std::string(status_key(a));
  if (!outcome_reasons.empty()) {
    std::vector<std::string> names;
    for (Reason r : outcome_reasons) names.emplace_back(reason_name(r));
    s += " [" + joined(names, ", ") + "]";
  }
  return s;
}

std::string Expectation::mismatch(Status s, Reason r, const std::vector<std::string>& clauses,
                                  const std::string& program, bool checks_clause) const {
  const std::string entry = "entry '" + id + "'";
  if (!means_program(program))
    return entry + " lists programs " + joined(programs, ", ") + ", not " + program;
  if (s == Status::skipped || s == Status::not_judged) return {};
  const std::string got = std::string(status_key(s)) +
                          (r == Reason::none ? "" : " [" + std::string(reason_name(r)) + "]");
  if (!accepts(s)) return entry + " expects " + expected_text() + ", the case is " + got;
  if (s == Status::pass) return {};
  if (!outcome_reasons.empty() &&
      std::find(outcome_reasons.begin(), outcome_reasons.end(), r) == outcome_reasons.end())
    return entry + " expects " + expected_text() + ", the case is " + got + " (another reason)";
  if (checks_clause && !clause.empty() &&
      std::find(clauses.begin(), clauses.end(), clause) == clauses.end())
    return entry + " is about clause " + clause + ", the case checks " +
           (clauses.empty() ? std::string("no clause") : joined(clauses, ", "));
  return {};
}

bool Expectations::for_producer(const std::string& producer) const {
  const std::string key = producer_key(producer);
  return !key.empty() && std::find(producers_.begin(), producers_.end(), key) != producers_.end();
}

std::string producer_key(const std::string& producer) {
  std::string key = producer.substr(0, producer.find(" ("));
  while (!key.empty() && key.back() == ' ') key.pop_back();
  return key;
}

const Expectation* Expectations::match(const std::string& case_id) const {
  for (const auto& e : entries_)
    if (::fnmatch(e.id.c_str(), case_id.c_str(), 0) == 0) return &e;
  return nullptr;
}

namespace {

// "a (2), b (1)": names with their counts.
std::string counted(const std::map<std::string, int>& n) {
  std::string s;
  for (const auto& [name, count] : n)
    s += (s.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
  return s;
}

// The entries of ex whose glob matched a case of a program they do not list: entry -> program ->
// cases. exporter: the exporter's file, applied only to the cases it applies to.
std::map<std::string, std::map<std::string, int>> unlisted_programs(const Report& r,
                                                                    const Expectations& ex,
                                                                    bool exporter) {
  std::map<std::string, std::map<std::string, int>> found;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (!o.exported) continue;
    if (exporter && !ex.applies_to(o.exported->producer)) continue;
    const Expectation* e = ex.match(o.case_id);
    if (e && !e->means_program(o.exported->program)) ++found[e->id][o.exported->program];
  }
  return found;
}

}  // namespace

std::vector<std::string> expectations_notes(const Report& r, const Expectations* expectations,
                                            const std::string& expectations_file,
                                            const Expectations* exporter,
                                            const std::string& exporter_file) {
  std::vector<std::string> lines;
  const auto warn = [&](const Expectations* ex, const std::string& file, bool is_exporter) {
    if (!ex) return;
    for (const auto& [entry, programs] : unlisted_programs(r, *ex, is_exporter))
      lines.push_back("warning: " + file + ": entry '" + entry +
                      "' matches cases of programs it does not list, which it does not cover: " +
                      counted(programs));
  };
  warn(expectations, expectations_file, false);
  warn(exporter, exporter_file, true);
  if (!exporter) return lines;
  std::map<std::string, int> others;
  for (const auto& c : r.cases)
    if (c.outcome.exported && !exporter->for_producer(c.outcome.exported->producer))
      ++others[c.outcome.exported->producer.empty() ? "unknown"
                                                    : producer_key(c.outcome.exported->producer)];
  if (others.empty()) return lines;
  const std::string measured = exporter->producers().empty()
                                   ? "no producer named"
                                   : "measured on " + joined(exporter->producers(), ", ");
  if (exporter->applies_to_every_producer())
    lines.push_back(exporter_file + " (" + measured +
                    ") applied, as --exporter-expectations asks, to the exported cases of "
                    "other producers: " +
                    counted(others));
  else
    lines.push_back(exporter_file + " (" + measured +
                    ") not applied to the exported cases of other producers: " + counted(others) +
                    "; --exporter-expectations FILE applies a file to them");
  return lines;
}

std::vector<std::string> uncovered_lines(const Report& r) {
  std::vector<std::string> lines;
  for (const auto& c : r.cases) {
    if (!c.expectation_mismatch.empty())
      lines.push_back("not covered: " + c.outcome.case_id + ": " + c.expectation_mismatch);
    // An exporter's file that does not apply to the case is said once (expectations_notes).
    if (!c.exporter_expectation_mismatch.empty() && c.exporter_verdict != Verdict::pass &&
        c.exporter_verdict != Verdict::skipped &&
        c.exporter_expectation_mismatch.rfind("entry '", 0) == 0)
      lines.push_back("not covered (exporter verdict): " + c.outcome.case_id + ": " +
                      c.exporter_expectation_mismatch);
  }
  return lines;
}

}  // namespace seqconf::reports
