// Departures across releases (seqconf history): given the reports of several releases of a
// runtime (or of several runtimes), which departures from the spec each shows, in which release
// each first appeared and in which it was first gone.
//
// A departure is Report::departures' key (Departure::id: op, clauses, what the runtime did), so
// the reports should be runs of the same cases (the same corpus and sources); the columns carry
// each report's case count so a reader sees when they are not.
//
// The JSON form (history_to_json; reports/seqconf-history.schema.json):
//   {"history_version": 1,
//    "columns": [{"file", "label", "runtime": {"name", "version"}, "cases", "passed",
//                 "departures", "complete"}],
//    "departures": [{"id", "op", "what", "title", "clauses", "spec", "counts": [int per column],
//                    "first_seen": label, "first_gone": label or null, "smallest", "rerun"}]}
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/report.h"

namespace seqconf::reports {

// One report: a column of the table.
struct HistoryColumn {
  std::string file;
  std::string runtime_name;
  std::string runtime_version;
  int cases = 0;
  int passed = 0;
  int departures = 0;
  bool complete = true;
  // "onnxruntime 1.17.0": the column's title.
  std::string label() const;
};

// One departure seen in at least one report.
struct HistoryRow {
  std::string id;  // Departure::id
  std::string op;
  std::string what;
  std::string title;
  std::vector<std::string> clauses;
  std::string spec;
  std::vector<int> counts;  // its cases in each column; 0: the column does not show it
  size_t first_seen = 0;    // the first column that shows it
  // The first column after first_seen that no longer shows it; none while it persists.
  std::optional<size_t> first_gone;
  // The smallest case and its rerun command, from the last column that shows it.
  std::string smallest;
  std::string rerun;
};

struct History {
  std::vector<HistoryColumn> columns;  // by runtime name, then release number (1.9 < 1.10)
  std::vector<HistoryRow> rows;        // by first_seen, then op, then id
};

// Orders two release numbers: dot-separated parts compare as numbers where both are numbers
// ("1.9.0" < "1.10.0"), and a pre-release comes before its release ("1.10.0-rc1" < "1.10.0").
bool release_less(const std::string& a, const std::string& b);

// The departures of the reports (file name, report) side by side. Throws
// Error(invalid_argument) when two reports have the same runtime name and version, or when
// there are none.
History history_of(const std::vector<std::pair<std::string, Report>>& reports);

// The console form: one line per column, then the table of departures x columns (counts, "."
// where absent) with first seen / first gone.
std::string history_to_text(const History& history);
nlohmann::json history_to_json(const History& history);
// A GitHub-flavoured Markdown table (a README, a CI job summary): one row per departure, one
// column per run, "·" where a run does not show it; '|' in cells escaped.
std::string history_to_markdown(const History& history);
// A self-contained page in the look of the HTML report. Stable hooks: every column head is a
// <th data-column="LABEL">; every departure a <tr data-departure="ID" data-first-seen
// data-first-gone>; every count cell a <td data-column="LABEL" data-count="N">.
std::string history_to_html(const History& history);

}  // namespace seqconf::reports
