#include "reports/json_report.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "cases/data_dir.h"
#include "reference/error.h"

#ifndef SEQCONF_VERSION
#define SEQCONF_VERSION "unknown"
#endif
#ifndef SEQCONF_GIT_REVISION
#define SEQCONF_GIT_REVISION "unknown"
#endif
#ifndef SEQCONF_SOURCE_DIR
#define SEQCONF_SOURCE_DIR ""
#endif

namespace seqconf::reports {

using nlohmann::json;

namespace {

json ambiguity_to_json(const Ambiguity& a) {
  return {{"id", a.id}, {"op", a.op}, {"spec_sentence", a.spec_sentence}, {"detail", a.detail}};
}

json attribution_to_json(const Attribution& a) {
  json j = {{"layer", a.layer}, {"why", a.why}, {"runs", json::array()}};
  for (const auto& r : a.runs) {
    json run = {{"configuration", r.configuration},
                {"runtime", r.runtime},
                {"status", status_key(r.status)},
                {"reason", reason_name(r.reason)},
                {"message", r.message}};
    if (!r.kept_model.empty()) run["kept_model"] = r.kept_model;
    j["runs"].push_back(std::move(run));
  }
  return j;
}

json judgement_to_json(const Judgement& v) {
  return {
      {"status", status_key(v.status)}, {"reason", reason_name(v.reason)}, {"message", v.message}};
}

json expectation_to_json(const Expectation& e) {
  json j = {{"id", e.id},
            {"status", status_key(e.status)},
            {"also", json::array()},
            {"reason", e.reason},
            {"link", e.link}};
  for (Status s : e.also) j["also"].push_back(status_key(s));
  if (!e.clause.empty()) j["clause"] = e.clause;
  if (!e.outcome_reasons.empty()) {
    j["outcome_reason"] = json::array();
    for (Reason r : e.outcome_reasons) j["outcome_reason"].push_back(reason_name(r));
  }
  if (!e.programs.empty()) j["programs"] = e.programs;
  return j;
}

json case_to_json(const CaseRecord& c) {
  const Outcome& o = c.outcome;
  json j = {{"id", o.case_id},
            {"op", o.op},
            {"dtype", o.dtype},
            {"context", context_column(o)},
            {"source", o.source},
            {"status", status_key(o.status)},
            {"verdict", verdict_key(c.verdict)},
            {"reason", reason_name(o.reason)},
            {"message", o.message},
            {"expected", o.expected},
            {"actual", o.actual},
            {"duration_ms", o.duration_ms},
            {"spec", o.spec},
            {"ambiguities", json::array()},
            {"findings", json::array()}};
  if (!o.clauses.empty()) j["clauses"] = o.clauses;
  if (!o.ambiguity.empty()) j["ambiguity"] = o.ambiguity;
  if (!o.comparison.empty()) j["comparison"] = o.comparison;
  for (const auto& a : o.ambiguities) j["ambiguities"].push_back(ambiguity_to_json(a));
  for (const auto& f : o.findings)
    j["findings"].push_back({{"check", f.check}, {"message", f.message}});
  if (!o.static_checks_not_applicable.empty())
    j["static_checks_not_applicable"] = o.static_checks_not_applicable;
  if (!o.kept_model.empty()) j["kept_model"] = o.kept_model;
  if (o.attribution) j["attribution"] = attribution_to_json(*o.attribution);
  if (o.memory_error)
    j["memory_error"] = {{"kind", o.memory_error->kind},
                         {"description", o.memory_error->description},
                         {"frames", o.memory_error->frames}};
  if (c.expectation) j["expectation"] = expectation_to_json(*c.expectation);
  if (!c.expectation_mismatch.empty()) j["expectation_mismatch"] = c.expectation_mismatch;
  if (!o.delegated.empty()) j["delegated"] = {{"host", o.host}, {"ops", o.delegated}};
  if (o.localization) {
    const Localization& l = *o.localization;
    json x = {{"kind", l.kind}, {"message", l.message}};
    if (l.kind == "node")
      x.update({{"index", l.index},
                {"name", l.name},
                {"op", l.op},
                {"version", l.version},
                {"label", l.label},
                {"machinery", l.machinery},
                {"got", l.got},
                {"spec", l.spec},
                {"runtime", l.runtime}});
    j["localization"] = std::move(x);
  }
  if (o.data_sets_judged < o.data_sets)
    j["data_sets"] = {{"total", o.data_sets}, {"judged", o.data_sets_judged}};
  if (o.exported) {
    j["exported"] = {{"producer", o.exported->producer},
                     {"program", o.exported->program},
                     {"exporter", judgement_to_json(o.exported->exporter)},
                     {"end_to_end", judgement_to_json(o.exported->end_to_end)},
                     {"end_to_end_layer", o.exported->end_to_end_layer},
                     {"depends_on_departure", o.depends_on_departure()},
                     {"exporter_verdict", verdict_key(c.exporter_verdict)}};
    if (!o.exported->fault_node.empty())
      j["exported"]["fault"] = {{"op", o.exported->fault_op}, {"node", o.exported->fault_node}};
    if (c.exporter_expectation)
      j["exported"]["exporter_expectation"] = expectation_to_json(*c.exporter_expectation);
    if (!c.exporter_expectation_mismatch.empty())
      j["exported"]["exporter_expectation_mismatch"] = c.exporter_expectation_mismatch;
  }
  return j;
}

json summary_to_json(const Summary& s) {
  return {{"total", s.total},
          {"passed", s.passed},
          {"failed", s.failed},
          {"errored", s.errored},
          {"not_supported", s.not_supported},
          {"crashed", s.crashed},
          {"timed_out", s.timed_out},
          {"not_judged", s.not_judged},
          {"skipped", s.skipped},
          {"expected_failures", s.expected_failures},
          {"unexpected_failures", s.unexpected_failures},
          {"unexpected_passes", s.unexpected_passes}};
}

// {"ops": [...], "<plural>": [sorted], "cells": [{"op", "<key>", "total", "worst", "counts"}]}
json matrix_to_json(const std::vector<MatrixCell>& matrix, const MatrixColumn& column) {
  json ops = json::array(), columns = json::array(), cells = json::array();
  std::vector<std::string> column_list;
  for (const auto& cell : matrix) {
    if (ops.empty() || ops.back() != cell.op) ops.push_back(cell.op);
    if (std::find(column_list.begin(), column_list.end(), cell.column) == column_list.end())
      column_list.push_back(cell.column);
    json counts = json::object();
    for (const auto& [s, n] : cell.counts) counts[std::string(status_key(s))] = n;
    cells.push_back({{"op", cell.op},
                     {std::string(column.key), cell.column},
                     {"total", cell.total},
                     {"worst", status_key(cell.worst())},
                     {"counts", counts}});
  }
  std::sort(column_list.begin(), column_list.end());
  for (auto& c : column_list) columns.push_back(c);
  return {{"ops", ops}, {std::string(column.plural), columns}, {"cells", cells}};
}

// Field access that names what is wrong.
const json& need(const json& j, const char* field, const std::string& where) {
  if (!j.is_object())
    throw Error(ErrorCode::invalid_argument, "report: " + where + " is not an object");
  const auto it = j.find(field);
  if (it == j.end())
    throw Error(ErrorCode::invalid_argument, "report: " + where + " lacks \"" + field + "\"");
  return *it;
}
std::string need_string(const json& j, const char* field, const std::string& where) {
  const json& v = need(j, field, where);
  if (!v.is_string())
    throw Error(ErrorCode::invalid_argument,
                "report: " + where + "." + field + " is not a string: " + v.dump());
  return v.get<std::string>();
}
template <typename T>
T need_number(const json& j, const char* field, const std::string& where) {
  const json& v = need(j, field, where);
  if (!v.is_number())
    throw Error(ErrorCode::invalid_argument,
                "report: " + where + "." + field + " is not a number: " + v.dump());
  return v.get<T>();
}
std::string opt_string(const json& j, const char* field) {
  const auto it = j.find(field);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "value_mismatch, shape_mismatch, ... or empty", for the message on an unknown reason.
std::string reason_names_text() {
  std::string s;
  for (Reason r : kAllReasons)
    if (r != Reason::none) s += std::string(reason_name(r)) + ", ";
  return s + "or empty";
}

// A status, a reason and a message (a Judgement, or an attribution run's).
Judgement judgement_from_json(const json& j, const std::string& where) {
  Judgement v;
  const std::string status = need_string(j, "status", where);
  const auto st = status_from_key(status);
  const std::string reason = need_string(j, "reason", where);
  const auto re = reason_from_name(reason);
  if (!st || !re)
    throw Error(ErrorCode::invalid_argument,
                "report: " + where + ": unknown status or reason " + status + "/" + reason);
  v.status = *st;
  v.reason = *re;
  v.message = need_string(j, "message", where);
  return v;
}

Attribution attribution_from_json(const json& j, const std::string& where) {
  Attribution a;
  a.layer = need_string(j, "layer", where);
  a.why = need_string(j, "why", where);
  const json& runs = need(j, "runs", where);
  if (!runs.is_array())
    throw Error(ErrorCode::invalid_argument, "report: " + where + ".runs: not a list");
  for (size_t k = 0; k < runs.size(); ++k) {
    const std::string w = where + ".runs[" + std::to_string(k) + "]";
    Attribution::Run r;
    r.configuration = need_string(runs[k], "configuration", w);
    r.runtime = need_string(runs[k], "runtime", w);
    const Judgement v = judgement_from_json(runs[k], w);
    r.status = v.status;
    r.reason = v.reason;
    r.message = v.message;
    r.kept_model = opt_string(runs[k], "kept_model");
    a.runs.push_back(std::move(r));
  }
  return a;
}

Expectation expectation_from_json(const json& j, const std::string& w) {
  Expectation e;
  e.id = need_string(j, "id", w);
  const std::string es = need_string(j, "status", w);
  const auto st = status_from_key(es);
  if (!st) throw Error(ErrorCode::invalid_argument, "report: " + w + ": unknown status " + es);
  e.status = *st;
  if (const auto also = j.find("also"); also != j.end() && also->is_array())
    for (const auto& a : *also) {
      const auto as = a.is_string() ? status_from_key(a.get<std::string>()) : std::nullopt;
      if (!as)
        throw Error(ErrorCode::invalid_argument,
                    "report: " + w + ".also: unknown status " + a.dump());
      e.also.push_back(*as);
    }
  e.reason = need_string(j, "reason", w);
  e.link = opt_string(j, "link");
  e.clause = opt_string(j, "clause");
  if (const auto rs = j.find("outcome_reason"); rs != j.end() && rs->is_array())
    for (const auto& r : *rs) {
      const auto reason = r.is_string() ? reason_from_name(r.get<std::string>()) : std::nullopt;
      if (!reason || *reason == Reason::none)
        throw Error(ErrorCode::invalid_argument,
                    "report: " + w + ".outcome_reason: unknown reason " + r.dump());
      e.outcome_reasons.push_back(*reason);
    }
  if (const auto ps = j.find("programs"); ps != j.end() && ps->is_array())
    for (const auto& p : *ps)
      if (p.is_string()) e.programs.push_back(p.get<std::string>());
  return e;
}

MemoryError memory_error_from_json(const json& j, const std::string& where) {
  MemoryError m;
  m.kind = need_string(j, "kind", where);
  m.description = need_string(j, "description", where);
  if (const auto f = j.find("frames"); f != j.end() && f->is_array())
    for (const auto& frame : *f) {
      if (!frame.is_string())
        throw Error(ErrorCode::invalid_argument, "report: " + where + ".frames: not a string");
      m.frames.push_back(frame.get<std::string>());
    }
  return m;
}

json memory_error_to_json(const MemoryError& m) {
  return {{"kind", m.kind}, {"description", m.description}, {"frames", m.frames}};
}

json worker_memory_error_to_json(const WorkerMemoryError& e) {
  json j = memory_error_to_json(e.error);
  j["phase"] = worker_phase_name(e.phase);
  j["workers"] = e.workers;
  return j;
}

WorkerMemoryError worker_memory_error_from_json(const json& j, const std::string& where) {
  WorkerMemoryError e;
  e.error = memory_error_from_json(j, where);
  const std::string phase = need_string(j, "phase", where);
  if (phase == worker_phase_name(WorkerPhase::startup))
    e.phase = WorkerPhase::startup;
  else if (phase == worker_phase_name(WorkerPhase::between_cases))
    e.phase = WorkerPhase::between_cases;
  else
    throw Error(ErrorCode::invalid_argument, "report: " + where + ".phase: unknown \"" + phase +
                                                 "\" (startup or between_cases)");
  e.workers = need_number<int>(j, "workers", where);
  return e;
}

CaseRecord case_from_json(const json& j, size_t index) {
  const std::string where = "cases[" + std::to_string(index) + "]";
  CaseRecord c;
  Outcome& o = c.outcome;
  o.case_id = need_string(j, "id", where);
  o.op = need_string(j, "op", where);
  o.dtype = need_string(j, "dtype", where);
  o.context = opt_string(j, "context");  // reports of earlier builds have none: "inputs"
  o.source = need_string(j, "source", where);
  const std::string status = need_string(j, "status", where);
  const auto s = status_from_key(status);
  if (!s)
    throw Error(ErrorCode::invalid_argument, "report: " + where + ": unknown status " + status);
  o.status = *s;
  const std::string verdict = need_string(j, "verdict", where);
  const auto v = verdict_from_key(verdict);
  if (!v)
    throw Error(ErrorCode::invalid_argument, "report: " + where + ": unknown verdict " + verdict);
  c.verdict = *v;
  const std::string reason = need_string(j, "reason", where);
  const auto r = reason_from_name(reason);
  if (!r)
    throw Error(ErrorCode::invalid_argument, "report: " + where + ": unknown reason \"" + reason +
                                                 "\" (" + reason_names_text() + ")");
  o.reason = *r;
  o.message = need_string(j, "message", where);
  o.expected = need_string(j, "expected", where);
  o.actual = need_string(j, "actual", where);
  o.duration_ms = need_number<double>(j, "duration_ms", where);
  const json& amb = need(j, "ambiguities", where);
  if (!amb.is_array())
    throw Error(ErrorCode::invalid_argument, "report: " + where + ".ambiguities is not a list");
  for (const auto& a : amb) {
    const std::string w = where + ".ambiguities";
    o.ambiguities.push_back({need_string(a, "id", w), need_string(a, "op", w),
                             need_string(a, "spec_sentence", w), need_string(a, "detail", w)});
  }
  o.spec = opt_string(j, "spec");
  if (const auto it = j.find("clauses"); it != j.end()) {
    if (!it->is_array())
      throw Error(ErrorCode::invalid_argument, "report: " + where + ".clauses is not a list");
    for (const auto& id : *it) {
      if (!id.is_string())
        throw Error(ErrorCode::invalid_argument,
                    "report: " + where + ".clauses holds something other than a string");
      o.clauses.push_back(id.get<std::string>());
    }
  }
  if (const auto it = j.find("findings"); it != j.end() && it->is_array())
    for (const auto& f : *it) {
      const std::string w = where + ".findings";
      o.findings.push_back({need_string(f, "check", w), need_string(f, "message", w)});
    }
  o.static_checks_not_applicable = opt_string(j, "static_checks_not_applicable");
  o.kept_model = opt_string(j, "kept_model");
  if (const auto it = j.find("attribution"); it != j.end() && !it->is_null())
    o.attribution = attribution_from_json(*it, where + ".attribution");
  if (const auto it = j.find("memory_error"); it != j.end() && !it->is_null())
    o.memory_error = memory_error_from_json(*it, where + ".memory_error");
  o.comparison = opt_string(j, "comparison");
  o.ambiguity = opt_string(j, "ambiguity");
  if (const auto it = j.find("delegated"); it != j.end() && it->is_object()) {
    o.host = it->value("host", std::string());
    if (const auto ops = it->find("ops"); ops != it->end() && ops->is_object())
      for (const auto& [op, n] : ops->items())
        if (n.is_number_unsigned()) o.delegated[op] = n.get<size_t>();
  }
  if (const auto it = j.find("localization"); it != j.end() && it->is_object()) {
    Localization l;
    l.kind = it->value("kind", std::string());
    l.message = it->value("message", std::string());
    l.index = it->value("index", -1);
    l.name = it->value("name", std::string());
    l.op = it->value("op", std::string());
    l.version = it->value("version", int64_t{0});
    l.label = it->value("label", std::string());
    l.machinery = it->value("machinery", false);
    l.got = it->value("got", std::string());
    l.spec = it->value("spec", std::string());
    l.runtime = it->value("runtime", std::string());
    o.localization = std::move(l);
  }
  if (const auto it = j.find("data_sets"); it != j.end() && it->is_object()) {
    o.data_sets = it->value("total", size_t{0});
    o.data_sets_judged = it->value("judged", size_t{0});
  }
  if (const auto it = j.find("expectation"); it != j.end() && !it->is_null())
    c.expectation = expectation_from_json(*it, where + ".expectation");
  c.expectation_mismatch = opt_string(j, "expectation_mismatch");
  if (const auto it = j.find("exported"); it != j.end() && !it->is_null()) {
    const std::string w = where + ".exported";
    ExportedVerdicts x;
    x.producer = need_string(*it, "producer", w);
    x.program = need_string(*it, "program", w);
    x.exporter = judgement_from_json(need(*it, "exporter", w), w + ".exporter");
    x.end_to_end = judgement_from_json(need(*it, "end_to_end", w), w + ".end_to_end");
    x.end_to_end_layer = opt_string(*it, "end_to_end_layer");
    if (const auto f = it->find("fault"); f != it->end() && !f->is_null()) {
      x.fault_op = need_string(*f, "op", w + ".fault");
      x.fault_node = need_string(*f, "node", w + ".fault");
    }
    o.exported = std::move(x);
    const std::string verdict = need_string(*it, "exporter_verdict", w);
    const auto v = verdict_from_key(verdict);
    if (!v)
      throw Error(ErrorCode::invalid_argument, "report: " + w + ": unknown verdict " + verdict);
    c.exporter_verdict = *v;
    if (const auto e = it->find("exporter_expectation"); e != it->end() && !e->is_null())
      c.exporter_expectation = expectation_from_json(*e, w + ".exporter_expectation");
    c.exporter_expectation_mismatch = opt_string(*it, "exporter_expectation_mismatch");
  }
  return c;
}

std::string run_command(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return out;
  std::array<char, 256> buf{};
  while (::fgets(buf.data(), buf.size(), p)) out += buf.data();
  if (::pclose(p) != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// The revision of the source tree the binary was built from: asked of git at run time (the
// configure-time value goes stale after a commit), else the configure-time value. An installed
// seqconf (package_data_dir() set) always gives the configure-time value: the tree it was
// built from may have moved on since.
std::string git_revision() {
  const std::string dir = SEQCONF_SOURCE_DIR;
  if (!dir.empty() && dir.find('\'') == std::string::npos && package_data_dir().empty()) {
    std::string rev = run_command("git -C '" + dir + "' rev-parse HEAD 2>/dev/null");
    if (rev.size() == 40) {
      if (!run_command("git -C '" + dir + "' status --porcelain --untracked-files=no 2>/dev/null")
               .empty())
        rev += "-dirty";
      return rev;
    }
  }
  return SEQCONF_GIT_REVISION;
}

}  // namespace

json departure_to_json(const Departure& d) {
  json j = {{"id", d.id},
            {"op", d.op},
            {"clauses", d.clauses},
            {"what", d.what},
            {"title", d.title},
            {"spec", d.spec},
            {"count", d.case_ids.size()},
            {"cases", d.case_ids},
            {"dtypes", d.dtypes},
            {"contexts", d.contexts},
            {"smallest", d.smallest},
            {"rerun", d.rerun},
            {"listed", d.listed}};
  if (d.attribution) j["attribution"] = attribution_to_json(*d.attribution);
  if (!d.depending_programs.empty()) j["depending_programs"] = d.depending_programs;
  if (!d.ambiguity.empty()) j["ambiguity"] = d.ambiguity;
  if (!d.fault_op.empty()) j["fault_op"] = d.fault_op;
  if (!d.machinery.empty()) {
    j["machinery"] = d.machinery;
    j["explained_cases"] = d.explained_cases;
  }
  return j;
}

json report_to_json(const Report& r) {
  const RunInfo& i = r.info;
  json j;
  j["schema_version"] = kSchemaVersion;
  j["suite"] = {
      {"name", i.suite_name}, {"version", i.suite_version}, {"git_revision", i.git_revision}};
  j["runtime"] = {
      {"name", i.runtime_name}, {"version", i.runtime_version}, {"path", i.runtime_path}};
  j["machine"] = {{"hostname", i.hostname}, {"os", i.os}, {"cpu_count", i.cpu_count}};
  j["start_time"] = i.start_time;
  j["end_time"] = i.end_time;
  j["complete"] = i.complete;
  j["options"] = i.options.is_object() ? i.options : json::object();
  j["expectations_file"] = i.expectations_file;
  if (!i.exporter_expectations_file.empty())
    j["exporter_expectations_file"] = i.exporter_expectations_file;
  j["merged_from"] = i.merged_from;
  j["summary"] = summary_to_json(r.summary);

  j["matrix"] = matrix_to_json(r.matrix, kDtypeColumn);
  j["context_matrix"] = matrix_to_json(r.context_matrix, kContextColumn);

  j["cases"] = json::array();
  for (const auto& c : r.cases) j["cases"].push_back(case_to_json(c));

  j["findings"] = json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back({{"kind", f.kind},
                             {"id", f.id},
                             {"op", f.op},
                             {"spec_sentence", f.spec_sentence},
                             {"detail", f.details.empty() ? std::string() : f.details.front()},
                             {"details", f.details},
                             {"case_ids", f.case_ids}});

  // Written whenever the run was under memcheck: an empty list says that no worker made an error
  // outside the cases.
  if (r.info.options.value("memcheck", false) || !r.info.worker_memory_errors.empty()) {
    j["worker_memory_errors"] = json::array();
    for (const auto& e : r.info.worker_memory_errors)
      j["worker_memory_errors"].push_back(worker_memory_error_to_json(e));
  }

  // Derived from the cases like the rest; report_from_json recomputes them.
  j["departures"] = json::array();
  for (const auto& d : r.departures) j["departures"].push_back(departure_to_json(d));
  if (!r.info.host.empty()) {
    int cases = 0;
    for (const auto& c : r.cases) cases += !c.outcome.delegated.empty();
    j["delegation"] = {{"host", r.info.host},
                       {"host_is_runtime_under_test", r.info.host_is_runtime_under_test},
                       {"cases", cases},
                       {"ops", delegated_cases(r)}};
  }
  if (r.exported.cases > 0) {
    j["summary"]["unexpected_exporter"] = r.summary.unexpected_exporter;
    const ExportedSummary& x = r.exported;
    j["exported"] = {{"cases", x.cases},
                     {"programs", x.programs},
                     {"exporter_passed", x.exporter_passed},
                     {"runtime_passed", x.runtime_passed},
                     {"end_to_end_passed", x.end_to_end_passed},
                     {"depending", x.depending},
                     {"exporter_listed", x.exporter_listed}};
    j["exporter_departures"] = json::array();
    for (const auto& d : r.exporter_departures)
      j["exporter_departures"].push_back(departure_to_json(d));
    j["end_to_end_departures"] = json::array();
    for (const auto& d : r.end_to_end_departures)
      j["end_to_end_departures"].push_back(departure_to_json(d));
  }
  return j;
}

std::string report_to_json_text(const Report& report) {
  return report_to_json(report).dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

Report report_from_json(const json& j) {
  if (!j.is_object()) throw Error(ErrorCode::invalid_argument, "report: not a JSON object");
  const int version = need_number<int>(j, "schema_version", "report");
  if (version != kSchemaVersion)
    throw Error(ErrorCode::invalid_argument, "report: schema_version " + std::to_string(version) +
                                                 ", this build reads " +
                                                 std::to_string(kSchemaVersion));
  Report r;
  RunInfo& i = r.info;
  const json& suite = need(j, "suite", "report");
  i.suite_name = need_string(suite, "name", "suite");
  i.suite_version = need_string(suite, "version", "suite");
  i.git_revision = need_string(suite, "git_revision", "suite");
  const json& rt = need(j, "runtime", "report");
  i.runtime_name = need_string(rt, "name", "runtime");
  i.runtime_version = need_string(rt, "version", "runtime");
  i.runtime_path = need_string(rt, "path", "runtime");
  const json& m = need(j, "machine", "report");
  i.hostname = need_string(m, "hostname", "machine");
  i.os = need_string(m, "os", "machine");
  i.cpu_count = need_number<int>(m, "cpu_count", "machine");
  i.start_time = need_string(j, "start_time", "report");
  i.end_time = need_string(j, "end_time", "report");
  const json& complete = need(j, "complete", "report");
  if (!complete.is_boolean())
    throw Error(ErrorCode::invalid_argument, "report: complete is not a boolean");
  i.complete = complete.get<bool>();
  i.options = need(j, "options", "report");
  i.expectations_file = opt_string(j, "expectations_file");
  i.exporter_expectations_file = opt_string(j, "exporter_expectations_file");
  if (const auto it = j.find("merged_from"); it != j.end() && it->is_array())
    for (const auto& s : *it)
      if (s.is_string()) i.merged_from.push_back(s.get<std::string>());
  if (const auto it = j.find("delegation"); it != j.end() && it->is_object()) {
    i.host = it->value("host", std::string());
    i.host_is_runtime_under_test = it->value("host_is_runtime_under_test", false);
  }
  if (const auto it = j.find("worker_memory_errors"); it != j.end() && !it->is_null()) {
    if (!it->is_array())
      throw Error(ErrorCode::invalid_argument, "report: worker_memory_errors is not a list");
    for (size_t k = 0; k < it->size(); ++k)
      i.worker_memory_errors.push_back(worker_memory_error_from_json(
          (*it)[k], "worker_memory_errors[" + std::to_string(k) + "]"));
  }
  const json& cases = need(j, "cases", "report");
  if (!cases.is_array()) throw Error(ErrorCode::invalid_argument, "report: cases is not a list");
  for (size_t k = 0; k < cases.size(); ++k) r.cases.push_back(case_from_json(cases[k], k));
  recompute(r);
  return r;
}

Report load_report(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io_error, "cannot read report " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return report_from_json(json::parse(text.str()));
  } catch (const json::exception& e) {
    throw Error(ErrorCode::invalid_argument, path.string() + ": " + e.what());
  } catch (const Error& e) {
    throw Error(e.code(), path.string() + ": " + e.what());
  }
}

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[40];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

RunInfo describe_run(std::string runtime_name, std::string runtime_version,
                     std::string runtime_path) {
  RunInfo i;
  i.suite_version = SEQCONF_VERSION;
  i.git_revision = git_revision();
  i.runtime_name = std::move(runtime_name);
  i.runtime_version = std::move(runtime_version);
  i.runtime_path = std::move(runtime_path);
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) i.hostname = host;
  struct utsname u {};
  if (::uname(&u) == 0) i.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  i.cpu_count = static_cast<int>(std::thread::hardware_concurrency());
  i.start_time = now_iso8601();
  i.end_time = i.start_time;
  return i;
}

}  // namespace seqconf::reports
