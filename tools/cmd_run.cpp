// seqconf run: run the cases of one or more sources on a runtime and report what departs.
#include <atomic>
#include <csignal>
#include <iostream>
#include <map>
#include <optional>

#include "harness/runner.h"
#include "reference/error.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "reports/run_control.h"
#include "runtimes/registry.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct RunArgs {
  std::string runtime = "reference";
  CaseSelection selection;
  bool strict = false;
  bool no_static_checks = false;
  bool isolate = false;  // each prepare and run in a forked child (crash / timeout outcomes)
  int timeout_ms = 0;    // isolated runs and process runtimes; 0: 60 s
  // Reports and run control.
  std::string expectations;
  std::string report;
  std::string junit;
  std::string html;
  int jobs = 1;
  std::string shard;
  size_t stop_after = 0;  // testing: raise SIGINT after this many cases
};

nlohmann::json options_json(const RunArgs& args) {
  nlohmann::json o = {{"runtime", args.runtime},
                      {"source", args.selection.source},
                      {"filters", args.selection.filters},
                      {"strict", args.strict},
                      {"static_checks", !args.no_static_checks},
                      {"jobs", args.jobs},
                      {"corpus", args.selection.corpus.string()},
                      {"onnx_testdata", args.selection.onnx_testdata.string()}};
  if (!args.shard.empty()) o["shard"] = args.shard;
  if (!args.expectations.empty()) o["expectations"] = args.expectations;
  return o;
}

int run_command(const RunArgs& args) {
  std::vector<std::string> notes;
  std::vector<Case> cases;
  // One runtime per worker thread: a runtime object is never shared between threads.
  std::vector<std::unique_ptr<Runtime>> runtimes;
  std::optional<reports::Expectations> expectations;
  std::optional<reports::Shard> shard;
  const int jobs = std::max(1, args.jobs);
  try {
    RuntimeOptions ro;
    ro.policy = args.strict ? Policy::strict : Policy::lenient;
    ro.isolate = args.isolate;
    ro.timeout_ms = args.timeout_ms;
    if (!args.shard.empty()) shard = reports::parse_shard(args.shard);
    if (!args.expectations.empty()) expectations = reports::Expectations::load(args.expectations);
    for (int w = 0; w < jobs; ++w) runtimes.push_back(make_runtime(args.runtime, ro));
    cases = select_cases(args.selection, &notes);
  } catch (const Error& e) {
    std::cerr << "seqconf run: " << e.what() << "\n";
    return kExitUsage;
  }
  Runtime& runtime = *runtimes.front();
  for (const auto& n : notes) std::cerr << "note: " << n << "\n";
  if (cases.empty()) {
    std::cerr << "seqconf run: no case found (source " << args.selection.source << ")\n";
    return kExitUsage;
  }
  if (expectations && !expectations->runtime().empty() && expectations->runtime() != runtime.name())
    std::cerr << "note: " << args.expectations << " is written for runtime "
              << expectations->runtime() << ", this run is on " << runtime.name() << "\n";
  if (shard) {
    std::vector<Case> mine;
    for (auto& c : cases)
      if (shard->contains(c.id)) mine.push_back(std::move(c));
    cases = std::move(mine);
  }

  reports::RunInfo info =
      reports::describe_run(runtime.name(), runtime.version(), runtime.location());
  info.options = options_json(args);
  if (!args.expectations.empty()) info.expectations_file = args.expectations;

  RunOptions options;
  options.strict = args.strict;
  options.static_checks = !args.no_static_checks;

  // SIGINT / SIGTERM: finish the cases in flight, then report what ran (complete = false).
  reports::install_stop_handlers();
  reports::Progress progress(cases.size());
  std::vector<std::optional<Outcome>> slots(cases.size());
  std::atomic<size_t> finished{0};
  reports::run_indices(cases.size(), jobs, [&](int worker, size_t i) {
    Outcome o = run_case(cases[i], *runtimes[static_cast<size_t>(worker)], options);
    // A child process that died or hung while the run was being stopped says nothing about
    // the runtime: that case counts as not run.
    if (reports::stop_requested() && (o.status == Status::crash || o.status == Status::timeout))
      return;
    if (o.status != Status::pass) progress.print(outcome_line(o));
    progress.done(o.case_id);
    slots[i] = std::move(o);
    if (++finished == args.stop_after) std::raise(SIGINT);
  });
  progress.finish();

  std::vector<Outcome> outcomes;
  std::map<std::string, std::string> specs;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!slots[i]) continue;
    if (!cases[i].spec.empty()) specs[cases[i].id] = cases[i].spec;
    outcomes.push_back(std::move(*slots[i]));
  }
  const bool complete = outcomes.size() == cases.size();
  info.complete = complete;
  info.end_time = reports::now_iso8601();

  for (const auto& o : outcomes)
    for (const auto& f : o.findings)
      std::cout << "FINDING " << o.case_id << " [" << f.check << "] " << f.message << "\n";
  const Tally t = tally(outcomes);
  std::cout << summary_line(t, runtime.name() + " " + runtime.version()) << "\n";

  const reports::Report report = reports::make_report(
      std::move(info), std::move(outcomes), expectations ? &*expectations : nullptr, specs);
  std::cout << reports::summary_text(report);
  const auto& s = report.summary;
  if (expectations)
    std::cout << s.expected_failures << " expected failure(s), " << s.unexpected_failures
              << " unexpected failure(s), " << s.unexpected_passes << " unexpected pass(es)\n";
  int code = complete ? reports::exit_code(report) : kExitUnexpected;
  if (!complete)
    std::cout << "interrupted by signal " << reports::stop_signal() << " after "
              << report.summary.total << " of " << cases.size() << " cases\n";
  try {
    if (!args.report.empty()) {
      reports::write_file_atomic(args.report, reports::report_to_json_text(report));
      std::cout << "report: " << args.report << "\n";
    }
    if (!args.junit.empty()) {
      reports::write_file_atomic(args.junit, reports::report_to_junit(report));
      std::cout << "junit: " << args.junit << "\n";
    }
    if (!args.html.empty()) {
      reports::write_file_atomic(args.html, reports::report_to_html(report));
      std::cout << "html: " << args.html << "\n";
    }
  } catch (const Error& e) {
    std::cerr << "seqconf run: " << e.what() << "\n";
    code = kExitUsage;
  }
  return code;
}

const CommandRegistrar kRun(10, [](CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  args->selection.corpus = default_corpus_root();
  auto* cmd = app.add_subcommand("run", "Run conformance cases on a runtime");
  cmd->add_option("--runtime", args->runtime,
                  "Runtime: reference (default), onnxruntime[=LIBRARY], onnxruntime-web, "
                  "process=COMMAND (see seqconf runtimes)")
      ->capture_default_str();
  cmd->add_flag("--isolate", args->isolate,
                "Prepare and run each case in a forked child: a crash or hang becomes a "
                "crash / timeout outcome and the run goes on");
  cmd->add_option("--timeout-ms", args->timeout_ms,
                  "Time limit per isolated run and per process-runtime answer (default 60000)")
      ->check(CLI::Range(0, 86400000));
  cmd->add_option("--source", args->selection.source, "Cases: onnx-backend, corpus or all")
      ->check(CLI::IsMember({"onnx-backend", "corpus", "all"}))
      ->capture_default_str();
  cmd->add_option("--onnx-testdata", args->selection.onnx_testdata,
                  "ONNX backend test data root (default $SEQCONF_ONNX_TESTDATA or "
                  "/usr/share/libonnx-testdata/data)");
  cmd->add_option("--corpus", args->selection.corpus, "Generated corpus root")
      ->capture_default_str();
  cmd->add_option("--filter", args->selection.filters,
                  "Case id glob (* and ?; a plain id also selects its subtree); repeatable");
  cmd->add_flag("--strict", args->strict,
                "Strict policy: reject where the spec is ambiguous (reference), and use the "
                "strict expectations of ambiguous cases");
  cmd->add_flag("--no-static-checks", args->no_static_checks,
                "Skip onnx::checker and shape inference on each model");
  cmd->add_option_function<size_t>(
      "--max-tensor-bytes", [](size_t n) { Limits::set_max_tensor_bytes(n); },
      "Largest tensor read or computed, in bytes (default 1 GiB); larger is limit_exceeded");
  cmd->add_option("--expectations", args->expectations,
                  "Known departures of the runtime (JSON: runtime, entries of id glob, status, "
                  "reason, link); matching outcomes are expected failures");
  cmd->add_option("--report", args->report, "Write the JSON report here");
  cmd->add_option("--junit", args->junit, "Write a JUnit XML report here");
  cmd->add_option("--html", args->html, "Write a self-contained HTML report here");
  cmd->add_option("--jobs,-j", args->jobs, "Worker threads (one runtime instance each)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "Run shard I of N (I/N, 1-based); a case's shard depends only on its id");
  cmd->add_option("--stop-after", args->stop_after,
                  "Raise SIGINT after this many cases (tests the interrupted report)")
      ->group("");
  cmd->callback([args] { set_exit_code(run_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
