// A compliance report: what one runtime did on every case of a run, with the expectations
// that were applied, the counts derived from the cases and how the run was produced.
//
// Data flows one way: outcomes (+ expectations) -> Report -> JSON / JUnit / HTML / text.
// Everything derived (summary, op x dtype and op x context matrices, findings) is recomputed from
// the cases by recompute(), so a report read back from JSON and merged with others stays
// consistent.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/outcome.h"
#include "reports/expectations.h"

namespace seqconf::reports {

// The stable names of the statuses in reports and expectations files ("pass", "fail", ...).
std::string_view status_key(Status s);
std::optional<Status> status_from_key(std::string_view name);
inline constexpr Status kAllStatuses[] = {Status::pass,          Status::fail,   Status::error,
                                          Status::not_supported, Status::crash,  Status::timeout,
                                          Status::not_judged,    Status::skipped};

// How a case counts once the expectations are applied.
enum class Verdict {
  pass,                // passed, no expectation said otherwise
  expected_failure,    // a non-pass whose status equals its expectation entry's
  unexpected_failure,  // any other non-pass (except skipped)
  unexpected_pass,     // passed although an entry expected a non-pass
  skipped,             // not run, or not judged; never counts against the run
};
std::string_view verdict_key(Verdict v);
std::optional<Verdict> verdict_from_key(std::string_view name);

struct CaseRecord {
  Outcome outcome;
  std::optional<Expectation> expectation;  // the entry that matched, if any
  Verdict verdict = Verdict::skipped;
  // An exported case: its exporter verdict under the exporter's expectations file.
  std::optional<Expectation> exporter_expectation;
  Verdict exporter_verdict = Verdict::skipped;
  // Why the entry whose glob matched the case does not cover it (Expectation::mismatch), when
  // the verdict is unexpected; empty otherwise.
  std::string expectation_mismatch;
  // The same for the exporter verdict, or why the exporter's file is not applied to the case.
  std::string exporter_expectation_mismatch;
};

// Applies the expectation (or its absence) to one outcome.
Verdict judge(const Outcome& outcome, const Expectation* expectation);
// The same for a status alone (an exported case's exporter verdict).
Verdict judge(Status status, const Expectation* expectation);

// The outcomes' tally with the verdicts of the expectations: for the whole report and per
// operator.
struct Summary : Tally {
  int expected_failures = 0;
  int unexpected_failures = 0;
  int unexpected_passes = 0;
  // Exported cases whose exporter verdict is unexpected (an exporter departure its expectations
  // file does not list, or a listed one that is gone).
  int unexpected_exporter = 0;
  void add(const CaseRecord& c);
  // Exit code 1 of a run iff this holds.
  bool has_unexpected() const {
    return unexpected_failures > 0 || unexpected_passes > 0 || unexpected_exporter > 0;
  }
};

// The outcomes counted by op and one more key of the case, the matrix's column: op x dtype
// (Report::matrix) and op x graph context (Report::context_matrix).
struct MatrixCell {
  std::string op;
  std::string column;  // the dtype or the context the cell counts
  std::map<Status, int> counts;
  int total = 0;
  // The status the cell is coloured by: the worst one present.
  Status worst() const;
};

// What a matrix's column is: its name in reports (the JSON field of a cell and the HTML data-
// attribute), the JSON list of the columns, a title, and the column of an outcome.
struct MatrixColumn {
  std::string_view key;
  std::string_view plural;
  std::string_view title;
  std::string (*of)(const Outcome&);
};
// Cases without a dtype go to dtype kNoDtype.
inline constexpr std::string_view kNoDtype = "-";
std::string dtype_column(const Outcome& o);
// Cases without a context (Outcome::context empty) go to kDefaultContext, "inputs".
std::string context_column(const Outcome& o);
inline constexpr MatrixColumn kDtypeColumn{"dtype", "dtypes", "element type", &dtype_column};
inline constexpr MatrixColumn kContextColumn{"context", "contexts", "graph context",
                                             &context_column};

// The cells of op x column over the cases, sorted by op, then column.
std::vector<MatrixCell> op_matrix(const std::vector<CaseRecord>& cases, const MatrixColumn& column);

// What the cases met besides their status, aggregated over cases: one entry per distinct
// finding, with every case that met it.
//   kind "ambiguity": a spec ambiguity (Outcome::ambiguities), by op and ambiguity id;
//   kind "checker" / "shape_inference": a StaticFinding (Outcome::findings), by op and message
//   (id = the check).
struct AggregatedFinding {
  std::string kind = "ambiguity";
  std::string id;
  std::string op;
  std::string spec_sentence;
  std::vector<std::string> details;   // distinct details, first met first
  std::vector<std::string> case_ids;  // sorted
};

// A distinct way the runtime departs from the spec: the non-pass cases that share an operator,
// the spec clauses they check and what the runtime did (departure_what). Every non-pass case,
// skipped ones included ("not run"), belongs to exactly one departure.
struct Departure {
  std::string id;  // stable slug of the key: "<op>.<clauses>.<what>"
  std::string op;
  std::vector<std::string> clauses;  // the cases' clause ids; empty for backend fixtures, fuzz
  std::string what;                  // departure_what of the cases' status and reason
  // An exporter departure of models the spec rejects through a node other than the case's own
  // operator: that node's operator (ExportedVerdicts::fault_op; "Loop" for a Loop-11 carrying a
  // sequence in a model about SequenceInsert); else empty.
  std::string fault_op;
  std::string title;                  // "<op>: <what> — <first clause's sentence>"
  std::string spec;                   // the cases' spec sentences (Outcome::spec)
  std::vector<std::string> case_ids;  // sorted
  std::vector<std::string> dtypes;    // dtype_column, sorted, unique
  std::vector<std::string> contexts;  // context_column, sorted, unique
  std::string smallest;               // the shortest case id, ties by id
  std::string rerun;                  // reproduce_command of the smallest case
  std::string listed;                 // "all" | "some" | "none" of the cases listed (listed_by)
  bool run = true;                    // false for "not run" (skipped cases)
  // Which layer of the runtime it comes from: its smallest case's attribution, in a run that
  // attributes departures (suite/attribution.h).
  std::optional<Attribution> attribution;
  // The exported programs whose end-to-end result depends on it: the runtime matches the
  // framework on them only because it departs (Outcome::depends_on_departure). Sorted.
  std::vector<std::string> depending_programs;
  // Set when every case of the departure is ambiguous under the spec (Outcome::ambiguity): the
  // first case's ambiguity, the sentences and what each policy expects.
  std::string ambiguity;
  // The graph machinery the departure is named for ("Loop", "If", "Scan", "SequenceMap body")
  // when its cases are machinery probes that depart, or context cases whose operator passes as
  // a bare node; empty for an operator's departure.
  std::string machinery;
  // Of its cases, how many are context cases that its machinery explains (the rest are probes).
  size_t explained_cases = 0;
};

// The exported cases of a report, counted by their three verdicts (Outcome::exported).
struct ExportedSummary {
  int cases = 0;
  int programs = 0;           // distinct programs
  int exporter_passed = 0;    // the spec's meaning of the model matches the framework
  int runtime_passed = 0;     // the runtime matches the spec
  int end_to_end_passed = 0;  // the runtime matches the framework
  int depending = 0;          // end-to-end passes only through a runtime departure
  int exporter_listed = 0;    // exporter departures its expectations file lists
};

// What a runtime did on a non-pass outcome in the spec's terms: "wrong values", "accepts what
// must be rejected", "crash", "not run", ... The one table that maps status and reason.
std::string departure_what(Status status, Reason reason);
// A reason that a model-to-model tool gave (tool_failed, tool_crash, ...): the departure is the
// tool's, one per operator whatever sentence the case checks.
bool is_tool_reason(Reason reason);

struct RunInfo {
  std::string suite_name = "seqconf";
  std::string suite_version;
  std::string git_revision = "unknown";
  std::string runtime_name;
  std::string runtime_version;
  std::string runtime_path;
  std::string hostname;
  std::string os;
  int cpu_count = 0;
  std::string start_time;  // ISO 8601 UTC
  std::string end_time;
  nlohmann::json options = nlohmann::json::object();  // the options the run used
  bool complete = true;                               // false: the run was interrupted
  std::string expectations_file;                      // empty: none applied
  std::string exporter_expectations_file;             // empty: none applied
  std::vector<std::string> merged_from;               // reports this one was merged from
  // The reference's host runtime for the operators it lacks (runtimes/host.h): name and version;
  // empty when the run had none.
  std::string host;
  // The host is the runtime under test (runtimes/host.h: is_same_runtime, by the library itself):
  // the delegated operators' values are then the runtime's own.
  bool host_is_runtime_under_test = false;
  // A run under valgrind memcheck (--memcheck): the errors its workers made outside any case,
  // while they started and made their runtime or between cases; never a case's.
  std::vector<WorkerMemoryError> worker_memory_errors;
};

struct Report {
  RunInfo info;
  std::vector<CaseRecord> cases;  // sorted by id
  // Derived by recompute():
  Summary summary;
  std::vector<MatrixCell> matrix;           // op x dtype, sorted by op, then dtype
  std::vector<MatrixCell> context_matrix;   // op x graph context, sorted by op, then context
  std::vector<AggregatedFinding> findings;  // sorted by kind, op, then id
  std::vector<Departure> departures;        // the largest first, then by id
  // Exported cases only: the exporter's departures (ExportedVerdicts::exporter), grouped by the
  // spec clause their expectations entry names and what the model does; the largest first.
  ExportedSummary exported;
  std::vector<Departure> exporter_departures;
  // Exported cases only: where the runtime's result is not the framework's, grouped by who it
  // is due to (attribution->layer: ExportedVerdicts::end_to_end_layer), operator and what the
  // runtime gives; the largest first.
  std::vector<Departure> end_to_end_departures;
};

// Builds a report: applies the expectations (may be null), sorts the cases by id, derives
// summary, matrices and findings.
// exporter_expectations (may be null) judge the exporter verdicts of exported cases.
Report make_report(RunInfo info, std::vector<Outcome> outcomes, const Expectations* expectations,
                   const Expectations* exporter_expectations = nullptr);

// Sorts the cases by id and rederives summary, matrices, findings and departures.
void recompute(Report& report);

// Merges reports of disjoint shards of one run. Throws Error(invalid_argument) when the
// reports are of different runtimes or share a case id.
Report merge(const std::vector<Report>& parts, std::vector<std::string> sources);

// The summary of each operator's cases (the end-of-run table, the per-op table of the HTML).
std::map<std::string, Summary> counts_per_op(const Report& report);

// The departures of the cases of a report, the largest first, then by id.
std::vector<Departure> departures_of(const Report& report);

// Whether the expectations list a case: an entry matched and accepted its status (or it was
// not run).
bool listed_by_expectations(const CaseRecord& c);

// The command that reruns one case: build/seqconf run --runtime R [--source S --corpus C
// --strict, as the run used them] --filter '<id>'.
std::string reproduce_command(const Report& report, const CaseRecord& c);

// The end-of-run table: one line per op (passed/total, not supported, failed, errored,
// crashed, timed out, expected, unexpected) and a total line.
std::string summary_text(const Report& report);

// The departures as a short table (count, op, what, clauses, smallest case), at most max_rows
// rows, then "... and K more"; empty when every case passed.
std::string departures_text(const Report& report, size_t max_rows = 20);

// The exported cases' three verdicts and the exporter's departures as a short table; empty
// when the run has no exported case.
std::string exported_text(const Report& report, size_t max_rows = 20);
// What the suite could not judge (not_judged cases by reason, with their first case and message)
// and what the reference ran on its host (operators, the cases that needed each, the host);
// empty when neither happened.
std::string judging_text(const Report& report);
// The delegated operators of a report: "MatMul-13" -> the cases that ran it on the host.
std::map<std::string, int> delegated_cases(const Report& report);

// What an exporter departure is, from the exporter verdict: "model means other values",
// "model is invalid under the spec", ...
std::string exporter_departure_what(Status status, Reason reason);

// Exit code of a run or merge: 1 iff unexpected failures or unexpected passes, or a worker's
// memory error outside any case (RunInfo::worker_memory_errors), else 0.
int exit_code(const Report& report);

}  // namespace seqconf::reports
