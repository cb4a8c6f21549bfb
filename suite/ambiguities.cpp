// seqconf ambiguities' measurement (suite/ambiguities.h).
#include "suite/ambiguities.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "cases/data_dir.h"
#include "harness/compare.h"
#include "harness/oracle.h"
#include "reference/error.h"
#include "reports/json_report.h"
#include "runtimes/host.h"
#include "runtimes/registry.h"
#include "suite/suite.h"

namespace seqconf {
namespace {

using reports::AmbiguityAnswer;
using reports::AmbiguityCase;
using reports::AmbiguityEntry;
using reports::AmbiguityImplementation;

// What the spec's meaning of a case is, in a few words: "outputs", "rejected (code)",
// "not judged (why)"; the data sets' when they differ.
std::string describe(const CaseMeaning& m) {
  std::vector<std::string> parts;
  for (const Meaning& d : m.data_sets) {
    std::string s = d.kind == Meaning::Kind::outputs    ? "outputs"
                    : d.kind == Meaning::Kind::rejected ? "rejected (" + d.code + ")"
                                                        : "not judged (" + d.message + ")";
    if (std::find(parts.begin(), parts.end(), s) == parts.end()) parts.push_back(std::move(s));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out.empty() ? "no data set" : out;
}

// Whether the two policies' meanings of a case differ: on some data set one gives outputs and
// the other a rejection, or their codes or outputs differ.
bool meanings_differ(const CaseMeaning& a, const CaseMeaning& b) {
  if (a.data_sets.size() != b.data_sets.size()) return true;
  for (size_t i = 0; i < a.data_sets.size(); ++i) {
    const Meaning& x = a.data_sets[i];
    const Meaning& y = b.data_sets[i];
    if (x.kind != y.kind) return true;
    if (x.kind == Meaning::Kind::rejected && x.code != y.code) return true;
    if (x.kind == Meaning::Kind::outputs && !compare_outputs(x.outputs, y.outputs, {}).ok)
      return true;
  }
  return false;
}

std::string program_of(const Case& c) {
  if (c.producer.is_object() && c.producer.contains("program") && c.producer["program"].is_string())
    return c.producer["program"].get<std::string>();
  return c.dir.parent_path().filename().string();
}

std::string producer_of(const Case& c) {
  if (!c.producer.is_object()) return "the exporting programs";
  const auto str = [&](const char* k) {
    return c.producer.contains(k) && c.producer[k].is_string() ? c.producer[k].get<std::string>()
                                                               : std::string();
  };
  std::string s = str("exporter");
  if (!str("exporter_version").empty()) s += " " + str("exporter_version");
  if (!str("framework").empty())
    s += (s.empty() ? "" : ", ") + str("framework") + " " + str("framework_version");
  return s.empty() ? "the exporting programs" : "the programs, as " + s + " ran them";
}

struct Chosen {
  const OpenQuestion* question;
  std::vector<AmbiguityCase> cases;
};

// The cases of each question: the candidates its globs select, those that split the policies
// when a policy decides it, the smallest per source and operator (per program for exported
// models); every ONNX fixture.
std::vector<Chosen> choose_cases(const std::vector<const OpenQuestion*>& questions,
                                 const std::vector<Case>& cases, const AmbiguityOptions& options,
                                 const std::shared_ptr<const interp::HostKernel>& host,
                                 std::vector<std::string>& notes) {
  std::vector<Chosen> out;
  for (const OpenQuestion* q : questions) {
    std::map<std::string, std::vector<AmbiguityCase>> groups;
    for (const Case& c : cases) {
      if (std::none_of(q->case_globs.begin(), q->case_globs.end(),
                       [&](const std::string& g) { return id_matches(g, c.id); }))
        continue;
      AmbiguityCase a;
      a.id = c.id;
      a.source = c.source;
      a.op = c.op;
      a.model = (c.dir / "model.onnx").string();
      std::error_code ec;
      a.model_bytes = std::filesystem::file_size(c.dir / "model.onnx", ec);
      try {
        const LoadedCase lc = load_case(c);
        const CaseMeaning lenient = spec_meaning(c, lc, OracleOptions(Policy::lenient, host));
        const CaseMeaning strict = spec_meaning(c, lc, OracleOptions(Policy::strict, host));
        a.lenient = describe(lenient);
        a.strict = describe(strict);
        a.splits = meanings_differ(lenient, strict);
      } catch (const Error& e) {
        notes.push_back(q->id + ": " + c.id + " could not be loaded: " + e.what());
        continue;
      }
      // ONNX's own tests carry one expectation (its outputs) whatever the policy: they show
      // which reading ONNX takes, and are kept whether or not the oracle splits them.
      if (c.source == "onnx-backend") {
        a.lenient += " (ONNX's expected outputs)";
        if (q->split_by_policy()) a.strict = "what the strict policy's reference does (below)";
      } else if (q->split_by_policy() && !a.splits) {
        continue;
      }
      const std::string key = c.source == "exported"       ? "exported/" + program_of(c)
                              : c.source == "onnx-backend" ? "onnx-backend/" + c.id
                                                           : c.source + "/" + c.op;
      groups[key].push_back(std::move(a));
    }
    Chosen chosen{q, {}};
    for (auto& [key, group] : groups) {
      // The smallest models; of equal size, float first (the type every runtime implements).
      std::sort(group.begin(), group.end(), [](const AmbiguityCase& a, const AmbiguityCase& b) {
        const bool fa = a.id.find("dtype=float/") != std::string::npos;
        const bool fb = b.id.find("dtype=float/") != std::string::npos;
        return std::make_tuple(a.model_bytes, !fa, a.id) <
               std::make_tuple(b.model_bytes, !fb, b.id);
      });
      const size_t keep = key.rfind("corpus/", 0) == 0 ? options.cases_per_group : 1;
      for (size_t i = 0; i < group.size() && i < keep; ++i) chosen.cases.push_back(group[i]);
    }
    if (chosen.cases.empty())
      notes.push_back(q->id + ": no case found" +
                      (q->split_by_policy() ? " that the two policies judge differently" : ""));
    out.push_back(std::move(chosen));
  }
  return out;
}

// One implementation's outcomes on the chosen cases, judged under each policy.
struct Runs {
  std::map<std::string, Outcome> lenient, strict;
};

Runs run_both(const std::function<std::unique_ptr<Runtime>()>& make, const std::vector<Case>& cases,
              const AmbiguityOptions& options, AmbiguityImplementation& impl) {
  Runs runs;
  for (const bool strict : {false, true}) {
    SuiteOptions so;
    so.source = "all";
    so.cases = cases;
    so.run.strict = strict;
    so.run.static_checks = false;  // findings are not what this asks
    so.no_expectations = true;
    so.jobs = std::max(1, options.jobs);
    so.timeout_ms = options.timeout_ms;
    so.quiet = true;
    so.runtime_spec = impl.id;
    const SuiteResult r = run_suite(
        [&] {
          std::unique_ptr<Runtime> rt = make();
          if (!rt) throw Error(ErrorCode::invalid_argument, impl.id + " is not available");
          return rt;
        },
        so);
    if (impl.name.empty() || impl.name == impl.id)
      impl.name =
          r.report.info.runtime_name +
          (r.report.info.runtime_version.empty() ? "" : " " + r.report.info.runtime_version);
    for (const auto& rec : r.report.cases)
      (strict ? runs.strict : runs.lenient)[rec.outcome.case_id] = rec.outcome;
  }
  return runs;
}

// The reading an answer's two verdicts show.
std::string reading_of(const OpenQuestion& q, Status lenient, Status strict, bool matches_program) {
  // A runtime that lacks the kernel or the type says nothing about the reading, whatever the
  // strict expectation (a rejection) makes of its refusal.
  if (lenient == Status::not_supported) return "not_supported";
  if (lenient == Status::pass && strict == Status::pass)
    return q.split_by_policy() ? "both" : "spec";
  if (lenient == Status::pass) return "lenient";
  if (strict == Status::pass) return "strict";
  if (matches_program && !q.program_reading.empty()) return q.program_reading;
  for (const Status s : {lenient, strict})
    if (s == Status::crash || s == Status::timeout || s == Status::not_supported ||
        s == Status::not_judged || s == Status::skipped)
      return s == Status::skipped ? "not_run" : std::string(status_name(s));
  return "neither";
}

void add_answers(AmbiguityEntry& e, const Runs& runs, const std::string& implementation,
                 bool framework) {
  for (const AmbiguityCase& c : e.cases) {
    const auto l = runs.lenient.find(c.id);
    const auto s = runs.strict.find(c.id);
    AmbiguityAnswer a;
    a.implementation = implementation;
    a.case_id = c.id;
    if (framework) {
      // The program's own result: the exporter verdict compares it with the spec's meaning.
      if (l == runs.lenient.end() || !l->second.exported) continue;
      a.lenient = l->second.exported->exporter.status;
      a.strict = s != runs.strict.end() && s->second.exported ? s->second.exported->exporter.status
                                                              : Status::skipped;
      a.reading = reading_of(e.question, a.lenient, a.strict, true);
      if (a.reading == e.question.program_reading || a.reading == "neither")
        a.message = l->second.exported->exporter.message;
    } else {
      a.lenient = l == runs.lenient.end() ? Status::skipped : l->second.status;
      a.strict = s == runs.strict.end() ? Status::skipped : s->second.status;
      const bool matches_program = l != runs.lenient.end() && l->second.exported &&
                                   l->second.exported->end_to_end.status == Status::pass;
      a.reading = reading_of(e.question, a.lenient, a.strict, matches_program);
      // An ONNX test of an open question expects the lenient reading's outputs under both
      // policies; the strict reading of its model is a rejection.
      if (c.source == "onnx-backend" && e.question.split_by_policy())
        a.reading = a.lenient == Status::pass    ? "lenient"
                    : a.lenient == Status::error ? "strict"
                                                 : a.reading;
      if (a.lenient != Status::pass && l != runs.lenient.end()) a.message = l->second.message;
      if (l != runs.lenient.end())
        for (const Ambiguity& m : l->second.ambiguities)
          a.recorded = a.recorded || m.id == e.question.id;
    }
    e.answers.push_back(std::move(a));
  }
}

}  // namespace

reports::AmbiguitiesReport measure_ambiguities(const std::vector<AmbiguityRuntime>& runtimes,
                                               const AmbiguityOptions& options) {
  reports::AmbiguitiesReport report;
  const reports::RunInfo info = reports::describe_run("", "", "");
  report.seqconf_version = info.suite_version;
  report.git_revision = info.git_revision;
  report.start_time = reports::now_iso8601();

  std::vector<const OpenQuestion*> questions;
  if (options.questions.empty()) {
    for (const OpenQuestion& q : open_questions()) questions.push_back(&q);
  } else {
    for (const std::string& id : options.questions) {
      const OpenQuestion* q = find_open_question(id);
      if (!q) throw Error(ErrorCode::invalid_argument, "unknown question '" + id + "'");
      questions.push_back(q);
    }
  }

  CaseSelection sel;
  sel.source = "all";
  sel.corpus = options.corpus.empty() ? default_corpus_root() : options.corpus;
  sel.exported = options.exported.empty() ? default_exported_root() : options.exported;
  sel.onnx_testdata = options.onnx_testdata;
  sel.backend_models = BackendModels::implemented;
  for (const OpenQuestion* q : questions)
    for (const std::string& g : q->case_globs) sel.filters.push_back(g);
  const std::vector<Case> cases = select_cases(sel, &report.notes);
  std::string why;
  const std::shared_ptr<const interp::HostKernel> host = make_host("", &why);
  const std::vector<Chosen> chosen = choose_cases(questions, cases, options, host, report.notes);

  std::vector<std::string> ids;
  bool any_exported = false;
  for (const Chosen& c : chosen)
    for (const AmbiguityCase& a : c.cases) {
      if (std::find(ids.begin(), ids.end(), a.id) == ids.end()) ids.push_back(a.id);
      any_exported = any_exported || a.source == "exported";
    }
  for (const Chosen& c : chosen) report.entries.push_back({*c.question, c.cases, {}});
  std::vector<Case> to_run;
  for (const Case& c : cases)
    if (std::find(ids.begin(), ids.end(), c.id) != ids.end()) to_run.push_back(c);
  if (ids.empty()) {
    report.end_time = reports::now_iso8601();
    return report;
  }

  // The implementations: the reference under each policy, then each runtime.
  struct Asked {
    AmbiguityImplementation impl;
    std::function<std::unique_ptr<Runtime>()> make;
  };
  std::vector<Asked> asked;
  for (const Policy p : {Policy::lenient, Policy::strict}) {
    const std::string policy = p == Policy::lenient ? "lenient" : "strict";
    RuntimeOptions ro;
    ro.policy = p;
    asked.push_back({{"reference-" + policy, "", "reference", ""},
                     [ro] { return make_runtime("reference", ro); }});
  }
  for (const AmbiguityRuntime& r : runtimes) asked.push_back({{r.spec, "", "runtime", ""}, r.make});

  for (size_t i = 0; i < asked.size(); ++i) {
    AmbiguityImplementation& impl = asked[i].impl;
    Runs runs;
    try {
      runs = run_both(asked[i].make, to_run, options, impl);
    } catch (const std::exception& e) {
      impl.note = e.what();
      if (impl.name.empty()) impl.name = impl.id;
      report.implementations.push_back(impl);
      continue;
    }
    if (impl.kind == "reference")
      impl.name =
          "seqconf reference (" + impl.id.substr(std::string("reference-").size()) + " policy)";
    report.implementations.push_back(impl);
    for (AmbiguityEntry& e : report.entries) add_answers(e, runs, impl.id, false);
    // What the strict policy makes of ONNX's own tests of an open question: the strict
    // reference's verdict on them.
    if (impl.id == "reference-strict")
      for (AmbiguityEntry& e : report.entries)
        for (AmbiguityCase& c : e.cases) {
          const auto o = runs.lenient.find(c.id);
          if (c.source != "onnx-backend" || !e.question.split_by_policy() ||
              o == runs.lenient.end())
            continue;
          const std::string& m = o->second.message;
          const std::string marker = "rejected a valid case: ";
          const size_t at = m.find(marker);
          c.strict = o->second.status == Status::error && at != std::string::npos
                         ? "rejected: " + m.substr(at + marker.size())
                         : "outputs";
        }
    // The programs the exported models came from: their results are in the cases, and the
    // reference's run judges them (the exporter verdict) whatever the runtime.
    if (i == 0 && any_exported) {
      std::string producer = "the exporting programs";
      for (const Case& c : cases)
        if (c.exported() && std::find(ids.begin(), ids.end(), c.id) != ids.end()) {
          producer = producer_of(c);
          break;
        }
      report.implementations.push_back({"framework", producer, "framework", ""});
      for (AmbiguityEntry& e : report.entries) add_answers(e, runs, "framework", true);
    }
  }
  report.end_time = reports::now_iso8601();
  return report;
}

}  // namespace seqconf
