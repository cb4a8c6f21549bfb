#include "reports/report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

#include "cases/case_json.h"
#include "reference/error.h"
#include "reference/spec_clauses.h"
#include "reports/output.h"

namespace seqconf::reports {

std::string_view status_key(Status s) { return status_name(s); }

std::optional<Status> status_from_key(std::string_view name) {
  for (Status s : kAllStatuses)
    if (status_key(s) == name) return s;
  return std::nullopt;
}

namespace {
constexpr const char* kMachineryWhat = "departs in the graph around the operator";
constexpr const char* kRejectedInternallyWhat =
    "rejects what must be rejected through an internal error";
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
    case Status::not_judged:
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

Verdict judge(Status status, const Expectation* expectation) {
  // A case the suite could not judge is neither a pass nor a departure.
  if (status == Status::skipped || status == Status::not_judged) return Verdict::skipped;
  if (status == Status::pass)
    return expectation && !expectation->accepts(Status::pass) ? Verdict::unexpected_pass
                                                              : Verdict::pass;
  if (expectation && expectation->accepts(status)) return Verdict::expected_failure;
  return Verdict::unexpected_failure;
}

namespace {

// An outcome under the entry its id matched (null: none): the entry that applies (null when its
// "programs" do not mean the case's), the verdict and why the entry does not cover the outcome.
struct Judged {
  const Expectation* applied = nullptr;
  Verdict verdict = Verdict::skipped;
  std::string mismatch;
};

Judged judge_entry(Status status, Reason reason, const std::vector<std::string>& clauses,
                   const std::string& program, const Expectation* e, bool checks_clause) {
  Judged j;
  if (e) j.mismatch = e->mismatch(status, reason, clauses, program, checks_clause);
  j.applied = e && e->means_program(program) ? e : nullptr;
  if (status == Status::skipped || status == Status::not_judged)
    j.verdict = Verdict::skipped;
  else if (status == Status::pass)
    j.verdict =
        j.applied && !j.applied->accepts(Status::pass) ? Verdict::unexpected_pass : Verdict::pass;
  else
    j.verdict =
        j.applied && j.mismatch.empty() ? Verdict::expected_failure : Verdict::unexpected_failure;
  return j;
}

std::string program_of(const Outcome& o) { return o.exported ? o.exported->program : ""; }

std::string join(const std::vector<std::string>& names, const char* separator) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : separator) + n;
  return s;
}

}  // namespace

Verdict judge(const Outcome& outcome, const Expectation* expectation) {
  return judge_entry(outcome.status, outcome.reason, outcome.clauses, program_of(outcome),
                     expectation, true)
      .verdict;
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

namespace {

ExportedSummary exported_summary(const Report& r) {
  ExportedSummary x;
  std::set<std::string> programs;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (!o.exported) continue;
    ++x.cases;
    programs.insert(o.exported->program);
    x.exporter_passed += o.exported->exporter.status == Status::pass;
    x.runtime_passed += o.status == Status::pass;
    x.end_to_end_passed += o.exported->end_to_end.status == Status::pass;
    x.depending += o.depends_on_departure();
    x.exporter_listed += o.exported->exporter.status != Status::pass &&
                         c.exporter_verdict == Verdict::expected_failure;
  }
  x.programs = static_cast<int>(programs.size());
  return x;
}

// A slug of [A-Za-z0-9_.+-]: every other character becomes '_'.
std::string slug(std::string_view s) {
  std::string out(s);
  for (char& ch : out)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '+' || ch == '-'))
      ch = '_';
  return out;
}

// The largest departure first, then by id.
// Largest first; departures of low severity (a must-reject case rejected through an internal
// error: the runtime does reject it) after all the others.
void sort_largest_first(std::vector<Departure>& v) {
  const auto low = [](const Departure& d) { return d.what == kRejectedInternallyWhat; };
  std::stable_sort(v.begin(), v.end(), [&](const Departure& a, const Departure& b) {
    if (low(a) != low(b)) return low(b);
    return a.case_ids.size() != b.case_ids.size() ? a.case_ids.size() > b.case_ids.size()
                                                  : a.id < b.id;
  });
}

void insert_sorted(std::vector<std::string>& v, const std::string& x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}

// The operator a departure table names for a case: the node at fault where the spec rejects an
// exported model or its inputs through a node (an Identity-13 over a sequence in a model about
// SequenceInsert), else the case's own operator.
const std::string& departure_op(const Outcome& o) {
  // The node the departure comes from, on the runtime's own values.
  if (o.localization && o.localization->kind == "node") return o.localization->op;
  return o.exported && !o.exported->fault_op.empty() ? o.exported->fault_op : o.op;
}

// The exporter's departures: exported cases whose exporter verdict is not a pass, by the spec
// clause their expectations entry names (unlisted ones by "-"), what the model does and, where
// the spec rejects the model through a node, that node's operator (named in the title and what).
std::vector<Departure> exporter_departures_of(const Report& r) {
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<Departure, size_t>> by_key;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (!o.exported || o.exported->exporter.status == Status::pass ||
        o.exported->exporter.status == Status::skipped ||
        o.exported->exporter.status == Status::not_judged)
      continue;
    const std::string clause = c.exporter_expectation && !c.exporter_expectation->clause.empty()
                                   ? c.exporter_expectation->clause
                                   : std::string("-");
    // The node at fault, named where it is not the case's own operator.
    const std::string fault = o.exported->fault_op == o.op ? "" : o.exported->fault_op;
    const std::string what =
        exporter_departure_what(o.exported->exporter.status, o.exported->exporter.reason);
    auto& [d, listed] = by_key[{clause, what, fault}];
    if (d.case_ids.empty()) {
      const std::string exporter =
          o.exported->producer.empty()
              ? std::string("exporter")
              : o.exported->producer.substr(0, o.exported->producer.find(' '));
      d.id = slug(exporter + "." + clause + "." + what + (fault.empty() ? "" : "." + fault));
      d.op = exporter;
      d.fault_op = fault;
      if (clause != "-") d.clauses = {clause};
      d.what = what;
      d.title =
          exporter + ": " + what + (fault.empty() ? "" : " (the node at fault: " + fault + ")");
      if (const SpecClause* sc = clause != "-" ? find_spec_clause(clause) : nullptr)
        d.title += " \u2014 " + std::string(sc->sentence);
      d.spec =
          c.exporter_expectation ? c.exporter_expectation->reason : o.exported->exporter.message;
      d.smallest = o.case_id;
    }
    d.case_ids.push_back(o.case_id);
    insert_sorted(d.dtypes, dtype_column(o));
    insert_sorted(d.contexts, context_column(o));
    insert_sorted(d.depending_programs, o.exported->program);  // the programs it touches
    listed += c.exporter_verdict == Verdict::expected_failure;
    if (o.case_id.size() < d.smallest.size()) d.smallest = o.case_id;
  }
  std::vector<Departure> out;
  for (auto& [key, value] : by_key) {
    auto& [d, listed] = value;
    d.listed = listed == d.case_ids.size() ? "all" : listed == 0 ? "none" : "some";
    out.push_back(std::move(d));
  }
  sort_largest_first(out);
  return out;
}

// The end-to-end departures: exported cases whose runtime result is not the framework's, by
// layer (end_to_end_layer), operator and what the runtime gives against the framework.
std::vector<Departure> end_to_end_departures_of(const Report& r) {
  std::map<std::tuple<std::string, std::string, std::string>, Departure> by_key;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (!o.exported || o.exported->end_to_end_layer.empty()) continue;
    const ExportedVerdicts& x = *o.exported;
    const std::string what = departure_what(x.end_to_end.status, x.end_to_end.reason);
    const std::string& op = departure_op(o);
    Departure& d = by_key[{x.end_to_end_layer, op, what}];
    if (d.case_ids.empty()) {
      d.id = slug("end_to_end." + x.end_to_end_layer + "." + op + "." + what);
      d.op = op;
      d.what = what;
      d.title = op + ": " + what + " against the framework";
      d.smallest = o.case_id;
      Attribution a;
      a.layer = x.end_to_end_layer;
      a.why = a.layer == "exporter"
                  ? "the runtime gives the spec's meaning of the model, and the exported model "
                    "already departs from the framework on the reference"
              : a.layer == "runtime"
                  ? "the model means what the framework computes (the reference reproduces it), "
                    "and the runtime departs from the spec"
              : a.layer == "runtime and exporter"
                  ? "the exported model departs from the framework on the reference, and the "
                    "runtime departs from the spec as well"
                  : "the runtime gives the spec's meaning, which matches the framework on the "
                    "reference, yet its result is not the framework's";
      d.attribution = std::move(a);
      d.listed = "none";
    }
    d.case_ids.push_back(o.case_id);
    insert_sorted(d.dtypes, dtype_column(o));
    insert_sorted(d.contexts, context_column(o));
    insert_sorted(d.depending_programs, x.program);
    if (o.case_id.size() < d.smallest.size()) d.smallest = o.case_id;
  }
  std::vector<Departure> out;
  for (auto& [key, d] : by_key) {
    for (const auto& c : r.cases)
      if (c.outcome.case_id == d.smallest) d.rerun = reproduce_command(r, c);
    out.push_back(std::move(d));
  }
  sort_largest_first(out);
  return out;
}

}  // namespace

std::string exporter_departure_what(Status status, Reason reason) {
  switch (status) {
    case Status::not_supported:
      return "model uses what the reference lacks";
    case Status::error:
    case Status::crash:
    case Status::timeout:
      return "model is invalid under the spec";
    default:
      break;
  }
  switch (reason) {
    case Reason::shape_mismatch:
      return "model means another shape";
    case Reason::length_mismatch:
      return "model means another sequence length";
    case Reason::dtype_mismatch:
      return "model means another element type";
    case Reason::kind_mismatch:
    case Reason::output_count_mismatch:
      return "model means other outputs";
    default:
      return "model means other values";
  }
}

Report make_report(RunInfo info, std::vector<Outcome> outcomes, const Expectations* expectations,
                   const Expectations* exporter_expectations) {
  Report r;
  r.info = std::move(info);
  r.cases.reserve(outcomes.size());
  for (auto& o : outcomes) {
    CaseRecord c;
    const Judged j = judge_entry(o.status, o.reason, o.clauses, program_of(o),
                                 expectations ? expectations->match(o.case_id) : nullptr, true);
    if (j.applied) c.expectation = *j.applied;
    c.verdict = j.verdict;
    if (j.verdict != Verdict::pass && j.verdict != Verdict::skipped)
      c.expectation_mismatch = j.mismatch;
    if (o.exported) {
      // The exporter's file applies to the models of the producers it was measured on, or to
      // every model when the user chose it.
      const bool applies =
          exporter_expectations && exporter_expectations->applies_to(o.exported->producer);
      const Judged x = judge_entry(
          o.exported->exporter.status, o.exported->exporter.reason, {}, o.exported->program,
          applies ? exporter_expectations->match(o.case_id) : nullptr, false);
      if (x.applied) c.exporter_expectation = *x.applied;
      c.exporter_verdict = x.verdict;
      if (x.verdict != Verdict::pass && x.verdict != Verdict::skipped)
        c.exporter_expectation_mismatch = x.mismatch;
      if (exporter_expectations && !applies)
        c.exporter_expectation_mismatch =
            "the exporter's expectations (" + exporter_expectations->runtime() + ", " +
            (exporter_expectations->producers().empty()
                 ? std::string("no producer named")
                 : "measured on " + join(exporter_expectations->producers(), ", ")) +
            ") are not applied to a model whose producer is " +
            (o.exported->producer.empty() ? std::string("unknown") : o.exported->producer);
    }
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
  r.departures = departures_of(r);
  r.exported = exported_summary(r);
  r.exporter_departures = exporter_departures_of(r);
  r.end_to_end_departures = end_to_end_departures_of(r);
}

bool is_tool_reason(Reason reason) {
  return reason == Reason::tool_failed || reason == Reason::tool_crash ||
         reason == Reason::tool_timeout || reason == Reason::tool_invalid_model ||
         reason == Reason::tool_lost_type;
}

std::string departure_what(Status status, Reason reason) {
  // What a model-to-model tool did, whatever the status it gave the case.
  switch (reason) {
    case Reason::tool_failed:
      return "tool fails on a valid model";
    case Reason::tool_crash:
      return "tool crashes";
    case Reason::tool_timeout:
      return "tool hangs";
    case Reason::tool_invalid_model:
      return "tool emits an invalid model";
    case Reason::tool_lost_type:
      return "tool loses a type";
    default:
      break;
  }
  switch (status) {
    case Status::pass:
      return "pass";
    case Status::skipped:
      return "not run";
    case Status::not_judged:
      return "not judged";
    case Status::not_supported:
      return "not supported";
    case Status::crash:
      return "crash";
    case Status::timeout:
      return "timeout";
    case Status::fail:
    case Status::error:
      break;
  }
  switch (reason) {
    case Reason::value_mismatch:
      return "wrong values";
    case Reason::shape_mismatch:
      return "wrong shape";
    case Reason::dtype_mismatch:
      return "wrong element type";
    case Reason::length_mismatch:
      return "wrong sequence length";
    case Reason::kind_mismatch:
      return "wrong kind of output";
    case Reason::output_count_mismatch:
      return "wrong number of outputs";
    case Reason::zero_sign_changed:
      return "changes the bits of copied values: the sign of a zero";
    case Reason::nan_changed:
      return "changes the bits of copied values: a NaN's sign or payload";
    case Reason::nan_quieted:
      return "changes the bits of copied values: quiets signalling NaNs";
    case Reason::subnormal_flushed:
      return "changes the bits of copied values: flushes subnormals to zero";
    case Reason::bits_changed:
      return "changes the bits of copied values: within ONNX's tolerance";
    case Reason::accepted_invalid:
      return "accepts what must be rejected";
    case Reason::wrong_error_code:
      return "rejects with another error";
    case Reason::rejected_internally:
      return kRejectedInternallyWhat;
    case Reason::memory_error:
      return "reads or writes memory it does not own";
    case Reason::invalid_input:
      return "rejects a valid case";
    case Reason::internal:
      return "fails on a valid case";
    case Reason::not_supported:
      return "not supported";
    case Reason::crash:
      return "crash";
    case Reason::timeout:
      return "timeout";
    case Reason::limit_exceeded:
      return "output beyond the size limit";
    case Reason::load_error:
      return "case not loadable";
    case Reason::tool_failed:
    case Reason::tool_crash:
    case Reason::tool_timeout:
    case Reason::tool_invalid_model:
    case Reason::tool_lost_type:
    case Reason::reference_not_supported:
    case Reason::reference_limit:
    case Reason::nondeterministic:
    case Reason::host_rejected:
    case Reason::none:
      break;
  }
  return status == Status::fail ? "wrong result" : "rejects a valid case";
}

bool listed_by_expectations(const CaseRecord& c) {
  return c.expectation.has_value() && c.verdict != Verdict::unexpected_failure;
}

// The graph machinery a corpus context stands on (generators/catalog/context.cpp).
std::string machinery_of_context(const std::string& context) {
  if (context == "if_branch") return "If";
  if (context == "sequence_map_body") return "SequenceMap body";
  if (context == "loop_body" || context == "loop_carried" || context == "loop_counter_position" ||
      context == "list_append" || context == "scan_of_sequences")
    return "Loop";
  return "graph " + context;  // initializers, constant nodes, chained nodes
}

// The machinery a probe (context machinery) tests: its operator, or the SequenceMap body.
std::string machinery_of_probe(const std::string& op) {
  return op == "SequenceMap" ? "SequenceMap body" : op;
}

// The id of a context case's bare case: the same id with context=inputs.
std::string bare_id(const std::string& case_id) {
  const auto at = case_id.find("/context=");
  if (at == std::string::npos) return case_id;
  return case_id.substr(0, at) + "/context=" + std::string(kDefaultContext);
}

// A corpus case that departs in a graph context while its operator, on the same parameters and
// values as a bare node (the case of the same id with context=inputs, in the same run), passes:
// the departure is the context's machinery's, not the operator's. A case with no bare case in the
// run (an exporter pattern, or a run that did not select it) is the machinery's when that
// machinery's probes depart in the same run (departing_probes). A probe that departs (context
// machinery) is its machinery's. Empty otherwise.
std::string machinery_cause(const Outcome& o, const std::map<std::string, const Outcome*>& by_id,
                            const std::set<std::string>& departing_probes) {
  if (o.source != "corpus" || o.context.empty() || o.context == kDefaultContext) return {};
  // A runtime that lacks an operator or a type lacks it wherever it sits.
  if (o.status == Status::not_supported || is_tool_reason(o.reason)) return {};
  // A probe departs: its machinery does.
  if (o.context == kMachineryContext) return machinery_of_probe(o.op);
  if (o.case_id.find("/context=") == std::string::npos) return {};
  const std::string machinery = machinery_of_context(o.context);
  const auto bare = by_id.find(bare_id(o.case_id));
  if (bare == by_id.end()) return departing_probes.count(machinery) ? machinery : std::string();
  return bare->second->status == Status::pass ? machinery : std::string();
}

// What a departure of the graph machinery explains, in its spec: its probes that depart, and the
// context cases of the operators `ops` whose bare case passes (or that have none, `unpaired`).
// With only probes that all depart alike, its what and clauses are theirs.
void describe_machinery(Departure& d, const std::set<std::string>& ops, size_t unpaired,
                        const std::vector<const Outcome*>& probes) {
  const auto join = [](const auto& items) {
    std::string out;
    for (const auto& x : items) out += (out.empty() ? "" : ", ") + std::string(x);
    return out;
  };
  std::vector<std::string> contexts;
  for (const auto& x : d.contexts)
    if (x != kMachineryContext) contexts.push_back(x);
  std::vector<std::string> parts;
  if (!probes.empty()) {
    std::vector<std::string> listed;
    for (const Outcome* p : probes)
      listed.push_back(p->case_id + " (" + departure_what(p->status, p->reason) + ")");
    parts.push_back(std::to_string(probes.size()) + " machinery probe(s) depart: " + join(listed));
  }
  const size_t paired = d.explained_cases - unpaired;
  if (paired > 0)
    parts.push_back(std::to_string(paired) + " case(s) of " + join(ops) + " in context " +
                    join(contexts) +
                    " pass as a bare node (their context=inputs case in this run) and depart "
                    "inside the " +
                    d.op);
  if (unpaired > 0)
    parts.push_back(std::to_string(unpaired) + " case(s) of " + join(ops) +
                    " have no bare case in the run and depart in a context whose " + d.op +
                    " probes depart");
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  d.spec = "1 " + d.op + " departure explains " + std::to_string(d.case_ids.size()) +
           " case(s): " + text + ".";
  std::set<std::string> clauses, whats;
  for (const Outcome* p : probes) {
    clauses.insert(p->clauses.begin(), p->clauses.end());
    whats.insert(departure_what(p->status, p->reason));
  }
  d.clauses.assign(clauses.begin(), clauses.end());
  if (d.explained_cases == 0 && whats.size() == 1) {
    d.what = *whats.begin();
    d.title = d.op + ": " + d.what;
    if (probes.size() == 1 && !probes.front()->clauses.empty())
      if (const SpecClause* clause = find_spec_clause(probes.front()->clauses.front()))
        d.title += " \u2014 " + std::string(clause->sentence);
  }
}

std::vector<Departure> departures_of(const Report& r) {
  // (op, clause key, what) -> departure, with the number of its cases the expectations list; a
  // departure of the graph machinery is keyed by the machinery alone.
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<Departure, size_t>> by_key;
  std::map<std::string, const CaseRecord*> smallest;  // departure id -> its smallest case
  std::map<std::string, const Outcome*> by_id;
  for (const auto& c : r.cases) by_id[c.outcome.case_id] = &c.outcome;
  std::map<std::string, std::set<std::string>> machinery_ops;  // departure id -> its operators
  std::set<std::string> departing_probes;      // the machinery whose probes depart in this run
  std::map<std::string, size_t> without_bare;  // departure id -> its cases with no bare case
  std::map<std::string, std::vector<const Outcome*>> machinery_probes;  // its departing probes
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (o.source == "corpus" && o.context == kMachineryContext && o.status != Status::pass &&
        o.status != Status::not_judged && o.status != Status::not_supported)
      departing_probes.insert(machinery_of_probe(o.op));
  }
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (o.status == Status::pass || o.status == Status::not_judged) continue;
    if (const std::string machinery = machinery_cause(o, by_id, departing_probes);
        !machinery.empty()) {
      auto& [d, listed] = by_key[{machinery, "-", kMachineryWhat}];
      if (d.case_ids.empty()) {
        d.id = slug(machinery + ".machinery");
        d.op = machinery;
        d.what = kMachineryWhat;
        d.title = machinery + ": " + kMachineryWhat;
        d.run = true;
        d.machinery = machinery;
      }
      if (o.context == kMachineryContext) {
        machinery_probes[d.id].push_back(&o);
      } else {
        ++d.explained_cases;
        machinery_ops[d.id].insert(o.op);
        if (!by_id.count(bare_id(o.case_id))) ++without_bare[d.id];
      }
      d.case_ids.push_back(o.case_id);
      insert_sorted(d.dtypes, dtype_column(o));
      insert_sorted(d.contexts, context_column(o));
      listed += listed_by_expectations(c);
      const CaseRecord*& s = smallest[d.id];
      if (!s || o.case_id.size() < s->outcome.case_id.size()) s = &c;
      continue;
    }
    // A runtime that does not support a case lacks a type or an operator, whatever sentence the
    // case checks: one departure per operator, its types listed, not one per clause. So does a
    // model-to-model tool that breaks the model: it never reached the sentence.
    const bool unsupported = o.status == Status::not_supported || is_tool_reason(o.reason);
    std::string clause_key;
    if (!unsupported)
      for (const auto& id : o.clauses) clause_key += (clause_key.empty() ? "" : "+") + id;
    if (clause_key.empty()) clause_key = "-";
    const std::string what = departure_what(o.status, o.reason);
    const std::string& op = departure_op(o);
    auto& [d, listed] = by_key[{op, clause_key, what}];
    if (d.case_ids.empty()) {
      d.id = slug(op + "." + clause_key + "." + what);
      d.op = op;
      if (!unsupported) d.clauses = o.clauses;
      d.what = what;
      d.title = op + ": " + what;
      if (!d.clauses.empty())
        if (const SpecClause* clause = find_spec_clause(d.clauses.front()))
          d.title += " \u2014 " + std::string(clause->sentence);
      if (!unsupported) d.spec = o.spec;
      d.run = o.status != Status::skipped;
    }
    d.case_ids.push_back(o.case_id);  // the cases are sorted by id
    insert_sorted(d.dtypes, dtype_column(o));
    if (o.depends_on_departure()) insert_sorted(d.depending_programs, o.exported->program);
    insert_sorted(d.contexts, context_column(o));
    listed += listed_by_expectations(c);
    const CaseRecord*& s = smallest[d.id];
    if (!s || o.case_id.size() < s->outcome.case_id.size()) s = &c;
  }
  std::vector<Departure> out;
  out.reserve(by_key.size());
  for (auto& [key, value] : by_key) {
    auto& [d, listed] = value;
    const CaseRecord& s = *smallest[d.id];
    d.smallest = s.outcome.case_id;
    d.attribution = s.outcome.attribution;
    d.rerun = reproduce_command(r, s);
    d.listed = listed == d.case_ids.size() ? "all" : listed == 0 ? "none" : "some";
    if (!d.machinery.empty())
      describe_machinery(d, machinery_ops[d.id], without_bare[d.id], machinery_probes[d.id]);
    // Every case ambiguous: the departure may be a reading the spec allows.
    const bool all_ambiguous =
        std::all_of(d.case_ids.begin(), d.case_ids.end(), [&](const auto& id) {
          const auto it = by_id.find(id);
          return it != by_id.end() && !it->second->ambiguity.empty();
        });
    if (all_ambiguous) d.ambiguity = by_id.at(d.case_ids.front())->ambiguity;
    if (d.what == "not supported") {
      d.title += " for ";
      for (size_t k = 0; k < d.dtypes.size(); ++k) d.title += (k ? ", " : "") + d.dtypes[k];
    }
    out.push_back(std::move(d));
  }
  sort_largest_first(out);
  return out;
}

std::string reproduce_command(const Report& r, const CaseRecord& c) {
  const auto& opts = r.info.options;
  const auto text = [&](const char* key) {
    const auto it = opts.find(key);
    return it != opts.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string runtime = text("runtime");
  if (runtime.empty()) runtime = r.info.runtime_name;
  std::string cmd = "build/seqconf run --runtime " + shell_quote(runtime);
  const std::string& source = c.outcome.source;
  if (source == "onnx-backend" || source == "corpus" || source == "exported")
    cmd += " --source " + source;
  if (source == "exported" && !text("exported").empty())
    cmd += " --exported " + shell_quote(text("exported"));
  if (source == "corpus" && !text("corpus").empty())
    cmd += " --corpus " + shell_quote(text("corpus"));
  if (source == "onnx-backend" && !text("onnx_testdata").empty())
    cmd += " --onnx-testdata " + shell_quote(text("onnx_testdata"));
  if (const auto it = opts.find("onnx_all_ops");
      source == "onnx-backend" && it != opts.end() && it->is_boolean() && it->get<bool>())
    cmd += " --onnx-all-ops";
  if (const auto it = opts.find("strict"); it != opts.end() && it->is_boolean() && it->get<bool>())
    cmd += " --strict";
  if (!text("ort_graph_optimization").empty())
    cmd += " --ort-graph-optimization " + shell_quote(text("ort_graph_optimization"));
  return cmd + " --filter " + shell_quote(c.outcome.case_id);
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
    if (p.info.expectations_file != r.info.expectations_file ||
        p.info.exporter_expectations_file != r.info.exporter_expectations_file)
      throw Error(ErrorCode::invalid_argument, "merge: report " + std::to_string(i + 1) +
                                                   " applied expectations \"" +
                                                   p.info.expectations_file + "\", the first \"" +
                                                   r.info.expectations_file + "\"");
    if (i > 0) {
      r.info.start_time = std::min(r.info.start_time, p.info.start_time);
      r.info.end_time = std::max(r.info.end_time, p.info.end_time);
      r.info.complete = r.info.complete && p.info.complete;
      for (const auto& e : p.info.worker_memory_errors)
        add_worker_memory_error(r.info.worker_memory_errors, e);
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
  unexpected_exporter += c.exporter_verdict == Verdict::unexpected_failure ||
                         c.exporter_verdict == Verdict::unexpected_pass;
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

std::string departures_text(const Report& r, size_t max_rows) {
  if (r.departures.empty()) return {};
  size_t op_width = 2, what_width = 4, clause_width = 7, layer_width = 0;
  const auto clause_key = [](const Departure& d) {
    std::string k;
    for (const auto& id : d.clauses) k += (k.empty() ? "" : "+") + id;
    return k.empty() ? std::string("-") : k;
  };
  const size_t rows = std::min(max_rows, r.departures.size());
  for (size_t k = 0; k < rows; ++k) {
    const Departure& d = r.departures[k];
    op_width = std::max(op_width, d.op.size());
    what_width = std::max(what_width, d.what.size());
    clause_width = std::max(clause_width, clause_key(d).size());
    if (d.attribution)
      layer_width = std::max<size_t>({layer_width, 5, d.attribution->layer.size()});
  }
  size_t ways = 0;
  for (const auto& d : r.departures) ways += d.run;
  std::string out = r.info.runtime_name + " " + r.info.runtime_version +
                    " departs from the spec in " + std::to_string(ways) + " way" +
                    (ways == 1 ? "" : "s");
  if (ways != r.departures.size())
    out += " (and " + std::to_string(r.departures.size() - ways) + " group(s) of cases not run)";
  out += ":\n";
  char line[1024];
  // The layer column only in a run that attributes departures.
  const auto row = [&](const std::string& n, const std::string& op, const std::string& what,
                       const std::string& clauses, const std::string& layer,
                       const std::string& smallest) {
    std::snprintf(line, sizeof line, "%6s  %-*s  %-*s  %-*s  %s%-*s%s%s\n", n.c_str(),
                  static_cast<int>(op_width), op.c_str(), static_cast<int>(what_width),
                  what.c_str(), static_cast<int>(clause_width), clauses.c_str(), "",
                  static_cast<int>(layer_width), layer.c_str(), layer_width ? "  " : "",
                  smallest.c_str());
    out += line;
  };
  row("cases", "op", "what", "clauses", layer_width ? "layer" : "", "smallest case");
  for (size_t k = 0; k < rows; ++k) {
    const Departure& d = r.departures[k];
    row(std::to_string(d.case_ids.size()), d.op, d.what, clause_key(d),
        d.attribution ? d.attribution->layer : (layer_width ? "-" : ""), d.smallest);
  }
  if (rows < r.departures.size())
    out += "... and " + std::to_string(r.departures.size() - rows) + " more\n";
  for (const auto& d : r.departures) {
    if (!d.machinery.empty()) out += d.spec + "\n";
    if (!d.ambiguity.empty())
      out += d.id + ": every case is ambiguous under the spec: " + d.ambiguity + "\n";
  }
  return out;
}

std::map<std::string, int> delegated_cases(const Report& r) {
  std::map<std::string, int> ops;
  for (const auto& c : r.cases)
    for (const auto& [op, n] : c.outcome.delegated) ++ops[op];
  return ops;
}

std::string judging_text(const Report& r) {
  std::string out;
  std::map<Reason, std::vector<const Outcome*>> not_judged;
  for (const auto& c : r.cases)
    if (c.outcome.status == Status::not_judged) not_judged[c.outcome.reason].push_back(&c.outcome);
  for (const auto& [reason, v] : not_judged)
    out += "not judged [" + std::string(reason_name(reason)) + "]: " + std::to_string(v.size()) +
           " case(s), the first " + v.front()->case_id + ": " + v.front()->message + "\n";
  // Cases judged on some of their data sets only (harness/oracle.h).
  std::vector<const Outcome*> partly;
  size_t judged = 0, total = 0;
  for (const auto& c : r.cases)
    if (c.outcome.data_sets_judged < c.outcome.data_sets) {
      partly.push_back(&c.outcome);
      judged += c.outcome.data_sets_judged;
      total += c.outcome.data_sets;
    }
  if (!partly.empty())
    out += "judged on some data sets only: " + std::to_string(partly.size()) + " case(s), " +
           std::to_string(judged) + " of their " + std::to_string(total) +
           " data sets judged, the first " + partly.front()->case_id + "\n";
  // By operator, its opsets together.
  std::map<std::string, int> ops;
  for (const auto& c : r.cases) {
    std::set<std::string> names;
    for (const auto& [op, n] : c.outcome.delegated) names.insert(op.substr(0, op.rfind('-')));
    for (const auto& op : names) ++ops[op];
  }
  if (!ops.empty()) {
    std::string list;
    for (const auto& [op, n] : ops)
      list += (list.empty() ? "" : ", ") + op + " (" + std::to_string(n) + ")";
    int cases = 0;
    for (const auto& c : r.cases) cases += !c.outcome.delegated.empty();
    out += "host " + r.info.host + " ran the nodes the reference lacks in " +
           std::to_string(cases) + " case(s): " + list + "\n";
    if (r.info.host_is_runtime_under_test)
      out +=
          "  the host is the runtime under test: the delegated operators' values are its own, "
          "and are not judged\n";
  }
  return out;
}

std::string exported_text(const Report& r, size_t max_rows) {
  const ExportedSummary& x = r.exported;
  if (x.cases == 0) return {};
  const auto pct = [&](int n) { return std::to_string(n) + "/" + std::to_string(x.cases); };
  std::string out = "exported models: " + std::to_string(x.cases) + " (" +
                    std::to_string(x.programs) + " programs); exporter (spec vs framework) " +
                    pct(x.exporter_passed) + " pass, runtime (" + r.info.runtime_name +
                    " vs spec) " + pct(x.runtime_passed) + ", end to end (" + r.info.runtime_name +
                    " vs framework) " + pct(x.end_to_end_passed) + "\n";
  if (x.depending > 0)
    out += "  " + std::to_string(x.depending) +
           " exported model(s) match the framework only through a departure of " +
           r.info.runtime_name + "\n";
  for (const auto& d : r.departures)
    if (!d.depending_programs.empty())
      out += "  programs that depend on " + d.id + ": " +
             std::to_string(d.depending_programs.size()) + "\n";
  char line[1024];
  if (!r.end_to_end_departures.empty()) {
    out += "end-to-end departures (" + r.info.runtime_name + " against the framework), by layer:\n";
    std::snprintf(line, sizeof line, "%6s  %-20s  %-16s  %-28s  %8s  %s\n", "models", "layer", "op",
                  "what", "programs", "smallest case");
    out += line;
    for (const auto& d : r.end_to_end_departures) {
      std::snprintf(line, sizeof line, "%6zu  %-20s  %-16s  %-28s  %8zu  %s\n", d.case_ids.size(),
                    d.attribution->layer.c_str(), d.op.c_str(), d.what.c_str(),
                    d.depending_programs.size(), d.smallest.c_str());
      out += line;
    }
  }
  if (r.exporter_departures.empty()) return out;
  out += "exporter departures (the exported model under the spec against the framework):\n";
  const size_t rows = std::min(max_rows, r.exporter_departures.size());
  std::snprintf(line, sizeof line, "%6s  %-44s  %-34s  %-6s  %s\n", "models", "what", "clause",
                "listed", "smallest case");
  out += line;
  for (size_t k = 0; k < rows; ++k) {
    const Departure& d = r.exporter_departures[k];
    const std::string what = d.what + (d.fault_op.empty() ? "" : " at " + d.fault_op);
    std::snprintf(line, sizeof line, "%6zu  %-44s  %-34s  %-6s  %s\n", d.case_ids.size(),
                  what.c_str(), d.clauses.empty() ? "-" : d.clauses.front().c_str(),
                  d.listed.c_str(), d.smallest.c_str());
    out += line;
  }
  if (rows < r.exporter_departures.size())
    out += "... and " + std::to_string(r.exporter_departures.size() - rows) + " more\n";
  return out;
}

int exit_code(const Report& report) {
  return report.summary.has_unexpected() || !report.info.worker_memory_errors.empty() ? 1 : 0;
}

}  // namespace seqconf::reports
