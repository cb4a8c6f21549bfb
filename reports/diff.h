// Comparing two reports case by case (seqconf diff): which cases regressed, progressed, changed
// their failure, appeared or disappeared between a base run and a new one, grouped by departure.
//
// A case is its id; what is compared is its status and, for a non-pass, its reason. Messages,
// durations and verdicts (expectations) are not compared. Shards merged with seqconf merge
// compare like any report.
//
// The JSON form (diff_to_json; reports/seqconf-diff.schema.json):
//   {"diff_version": 1,
//    "base": {"file", "runtime": {"name", "version"}, "cases", "complete"}, "new": {...},
//    "runtime_changed": bool, "gate": {"passed": bool, "failures": [why, ...]},
//    "counts": {"regressed", "progressed", "changed", "appeared", "disappeared", "unchanged"},
//    "regressed": [{"id", "op", "context", "departure", "base_status", "new_status",
//                   "base_reason", "new_reason"}], "progressed": [...], ... }
// The status of an absent side (appeared: base, disappeared: new) and its reason are null; the
// reason of a pass or skipped case is "". Lists are sorted by id.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/report.h"

namespace seqconf::reports {

enum class Change {
  regressed,    // pass in base, anything else in new
  progressed,   // not pass in base, pass in new
  changed,      // not pass in both, with another status or reason
  appeared,     // only in new
  disappeared,  // only in base
};
inline constexpr Change kAllChanges[] = {Change::regressed, Change::progressed, Change::changed,
                                         Change::appeared, Change::disappeared};
// "regressed", "progressed", ...: the names in the JSON form and on the HTML page.
std::string_view change_key(Change c);

// One case whose outcome differs between the two reports.
struct CaseChange {
  Change change = Change::changed;
  std::string id;
  std::optional<Outcome> base;  // absent: the case appeared
  std::optional<Outcome> next;  // absent: the case disappeared
  // The outcome that names the case's op and context: next if present, else base.
  const Outcome& current() const { return next ? *next : *base; }
};

// Which report a side comes from: its file (as given) and run.
struct DiffSide {
  std::string file;
  std::string runtime_name;
  std::string runtime_version;
  int cases = 0;
  bool complete = true;
  // The run's options that select its cases (kSelectionOptions present in Report::info.options).
  nlohmann::json selection = nlohmann::json::object();
  std::string runtime() const { return runtime_name + " " + runtime_version; }
};

// The options of a run that decide which cases it runs, compared by the gate.
inline constexpr const char* kSelectionOptions[] = {"source", "filters", "shard", "strict",
                                                    "onnx_all_ops"};

// What the gate of seqconf diff lets through besides "no regression". A gate that cannot be
// fooled fails safe: a run that stopped halfway or ran a subset has fewer cases to regress, so
// by default it fails too.
struct DiffGate {
  bool allow_incomplete = false;  // new may be an interrupted run
  bool allow_missing = false;     // cases that passed in base may be absent from new, and the
                                  // runs may select cases differently
};
struct ReportDiff {
  DiffSide base;
  DiffSide next;
  std::vector<CaseChange> changes;  // by change (in kAllChanges order), then id
  int unchanged = 0;                // in both reports with the same status and reason
  DiffGate gate;                    // what the caller allows (default: nothing)
  int count(Change c) const;
  bool runtime_changed() const;
  bool has_regressions() const { return count(Change::regressed) > 0; }
  // Cases that passed in base and are absent from new.
  int passes_missing() const;
};

// Why the gate fails, most telling first: regressions, new incomplete, passes missing from new,
// runs that selected cases differently (each with the option that allows it). Empty: it passes,
// and seqconf diff exits 0; else 1.
std::vector<std::string> gate_failures(const ReportDiff& diff);

// Compares next against base. The file names are only carried into the outputs and messages.
// Throws Error(invalid_argument) when a case id occurs twice in one report.
ReportDiff diff_reports(const Report& base, const Report& next, std::string base_file = "base",
                        std::string next_file = "new");

// The departure a change belongs to, the key changes are grouped by. A change spans two runs,
// so it is not one of a report's departures (Report::departures): it is the case's op and graph
// context with its status and reason on each side: "SequenceAt [loop_body] pass ->
// fail/value_mismatch". The one place that decides the grouping.
std::string departure_of(const CaseChange& c);

// The changes of one kind that share a departure.
struct ChangeGroup {
  Change change = Change::changed;
  std::string departure;
  std::vector<const CaseChange*> cases;  // shortest id first, then by id
};
// The groups of one kind of change: the largest first, then by departure. Points into diff.
std::vector<ChangeGroup> group_changes(const ReportDiff& diff, Change change);

// The console form: the two runs, the counts, then the groups of each kind of change
// (regressions first), each with its size, its shortest case id and up to `ids` more ids.
std::string diff_to_text(const ReportDiff& diff, size_t ids = 3);
nlohmann::json diff_to_json(const ReportDiff& diff);
// A self-contained page in the look of the HTML report. Stable hooks: the counts are
// <td data-count="regressed">...; every group is a <details class="group" data-change
// data-departure data-count>; every case a <tr data-case-id data-change>.
std::string diff_to_html(const ReportDiff& diff);

}  // namespace seqconf::reports
