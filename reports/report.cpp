#include "reports/report.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "cases/case_json.h"
#include "reference/error.h"

namespace seqconf::reports {

std::string_view status_key(Status s) { return status_name(s); }

std::optional<Status> status_from_key(std::string_view name) {
  for (Status s : kAllStatuses)
    if (status_key(s) == name) return s;
  return std::nullopt;
}

namespace {
constexpr Verdict kAllVerdicts[] = {Verdict::pass, Verdict::expected_failure,
                                    Verdict::unexpected_failure, Verdict::unexpected_pass,
                                    Verdict::skipped};

// Colouring order of the matrix: a cell shows its worst status.
int severity(Status s) {
  switch (s) {
    case Status::crash:
      return 6;
    case Status::fail:
      return 5;
    case Status::timeout:
      return 4;
    case Status::error:
      return 3;
    case Status::not_supported:
      return 2;
    case Status::pass:
      return 1;
    case Status::skipped:
      return 0;
  }
  return 0;
}
}  // namespace

std::string_view verdict_key(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "pass";
    case Verdict::expected_failure:
      return "expected_failure";
    case Verdict::unexpected_failure:
      return "unexpected_failure";
    case Verdict::unexpected_pass:
      return "unexpected_pass";
    case Verdict::skipped:
      return "skipped";
  }
  return "skipped";
}

std::optional<Verdict> verdict_from_key(std::string_view name) {
  for (Verdict v : kAllVerdicts)
    if (verdict_key(v) == name) return v;
  return std::nullopt;
}

Verdict judge(const Outcome& outcome, const Expectation* expectation) {
  if (outcome.status == Status::skipped) return Verdict::skipped;
  if (outcome.status == Status::pass)
    return expectation && !expectation->accepts(Status::pass) ? Verdict::unexpected_pass
                                                              : Verdict::pass;
  if (expectation && expectation->accepts(outcome.status)) return Verdict::expected_failure;
  return Verdict::unexpected_failure;
}

Status MatrixCell::worst() const {
  Status w = Status::skipped;
  for (const auto& [s, n] : counts)
    if (n > 0 && severity(s) > severity(w)) w = s;
  return w;
}

std::string dtype_column(const Outcome& o) {
  return o.dtype.empty() ? std::string(kNoDtype) : o.dtype;
}

std::string context_column(const Outcome& o) {
  return o.context.empty() ? std::string(kDefaultContext) : o.context;
}

std::vector<MatrixCell> op_matrix(const std::vector<CaseRecord>& cases,
                                  const MatrixColumn& column) {
  std::map<std::pair<std::string, std::string>, MatrixCell> cells;
  for (const auto& c : cases) {
    const Outcome& o = c.outcome;
    const std::string key = column.of(o);
    auto& cell = cells[{o.op, key}];
    cell.op = o.op;
    cell.column = key;
    ++cell.counts[o.status];
    ++cell.total;
  }
  std::vector<MatrixCell> m;
  m.reserve(cells.size());
  for (auto& [k, cell] : cells) m.push_back(std::move(cell));
  return m;
}

Report make_report(RunInfo info, std::vector<Outcome> outcomes, const Expectations* expectations) {
  Report r;
  r.info = std::move(info);
  r.cases.reserve(outcomes.size());
  for (auto& o : outcomes) {
    CaseRecord c;
    const Expectation* e = expectations ? expectations->match(o.case_id) : nullptr;
    if (e) c.expectation = *e;
    c.verdict = judge(o, e);
    c.outcome = std::move(o);
    r.cases.push_back(std::move(c));
  }
  recompute(r);
  return r;
}

void recompute(Report& r) {
  std::stable_sort(r.cases.begin(), r.cases.end(), [](const CaseRecord& a, const CaseRecord& b) {
    return a.outcome.case_id < b.outcome.case_id;
  });

  Summary s;
  // (kind, op, id or message)
  std::map<std::tuple<std::string, std::string, std::string>, AggregatedFinding> findings;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    s.add(c);
    for (const auto& a : o.ambiguities) {
      auto& f = findings[{"ambiguity", a.op, a.id}];
      if (f.id.empty()) {
        f.id = a.id;
        f.op = a.op;
        f.spec_sentence = a.spec_sentence;
      }
      if (std::find(f.details.begin(), f.details.end(), a.detail) == f.details.end())
        f.details.push_back(a.detail);
      if (f.case_ids.empty() || f.case_ids.back() != o.case_id) f.case_ids.push_back(o.case_id);
    }
    for (const auto& x : o.findings) {
      auto& f = findings[{x.check, o.op, x.message}];
      if (f.id.empty()) {
        f.kind = x.check;
        f.id = x.check;
        f.op = o.op;
        f.details.push_back(x.message);
      }
      if (f.case_ids.empty() || f.case_ids.back() != o.case_id) f.case_ids.push_back(o.case_id);
    }
  }
  r.summary = s;
  r.matrix = op_matrix(r.cases, kDtypeColumn);
  r.context_matrix = op_matrix(r.cases, kContextColumn);
  r.findings.clear();
  for (auto& [k, f] : findings) r.findings.push_back(std::move(f));
}

Report merge(const std::vector<Report>& parts, std::vector<std::string> sources) {
  if (parts.empty()) throw Error(ErrorCode::invalid_argument, "merge: no reports given");
  Report r;
  r.info = parts.front().info;
  r.info.merged_from = std::move(sources);
  r.info.options.erase("shard");
  std::set<std::string> ids;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Report& p = parts[i];
    if (p.info.runtime_name != r.info.runtime_name)
      throw Error(ErrorCode::invalid_argument,
                  "merge: report " + std::to_string(i + 1) + " is of runtime \"" +
                      p.info.runtime_name + "\", the first of \"" + r.info.runtime_name + "\"");
    if (p.info.expectations_file != r.info.expectations_file)
      throw Error(ErrorCode::invalid_argument, "merge: report " + std::to_string(i + 1) +
                                                   " applied expectations \"" +
                                                   p.info.expectations_file + "\", the first \"" +
                                                   r.info.expectations_file + "\"");
    if (i > 0) {
      r.info.start_time = std::min(r.info.start_time, p.info.start_time);
      r.info.end_time = std::max(r.info.end_time, p.info.end_time);
      r.info.complete = r.info.complete && p.info.complete;
      for (const auto& c : p.cases) r.cases.push_back(c);
    } else {
      r.cases = p.cases;
    }
    for (const auto& c : p.cases)
      if (!ids.insert(c.outcome.case_id).second)
        throw Error(ErrorCode::invalid_argument,
                    "merge: case \"" + c.outcome.case_id +
                        "\" appears in more than one report (overlapping shards?)");
  }
  recompute(r);
  return r;
}

void Summary::add(const CaseRecord& c) {
  Tally::add(c.outcome);
  switch (c.verdict) {
    case Verdict::expected_failure:
      ++expected_failures;
      break;
    case Verdict::unexpected_failure:
      ++unexpected_failures;
      break;
    case Verdict::unexpected_pass:
      ++unexpected_passes;
      break;
    case Verdict::pass:
    case Verdict::skipped:
      break;
  }
}

std::map<std::string, Summary> counts_per_op(const Report& r) {
  std::map<std::string, Summary> m;
  for (const auto& c : r.cases) m[c.outcome.op].add(c);
  return m;
}

std::string summary_text(const Report& r) {
  const auto m = counts_per_op(r);
  size_t width = 5;
  for (const auto& [op, x] : m) width = std::max(width, op.size());
  std::string out;
  char line[256];
  const auto row = [&](const std::string& name, const std::string& passed, auto... rest) {
    std::snprintf(line, sizeof line, "%-*s %13s %9s %7s %7s %7s %7s %8s %10s\n",
                  static_cast<int>(width), name.c_str(), passed.c_str(), rest...);
    out += line;
  };
  row("op", "passed/total", "not_supp", "failed", "errored", "crashed", "timeout", "expected",
      "unexpected");
  Summary t;
  const auto add = [&](const std::string& name, const Summary& x) {
    row(name, std::to_string(x.passed) + "/" + std::to_string(x.total),
        std::to_string(x.not_supported).c_str(), std::to_string(x.failed).c_str(),
        std::to_string(x.errored).c_str(), std::to_string(x.crashed).c_str(),
        std::to_string(x.timed_out).c_str(), std::to_string(x.expected_failures).c_str(),
        std::to_string(x.unexpected_failures + x.unexpected_passes).c_str());
  };
  for (const auto& [op, x] : m) {
    add(op, x);
    t.Tally::operator+=(x);
    t.expected_failures += x.expected_failures;
    t.unexpected_failures += x.unexpected_failures;
    t.unexpected_passes += x.unexpected_passes;
  }
  add("total", t);
  return out;
}

int exit_code(const Report& report) { return report.summary.has_unexpected() ? 1 : 0; }

}  // namespace seqconf::reports
