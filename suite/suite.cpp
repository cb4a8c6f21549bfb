#include "suite/suite.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

#include <CLI/CLI.hpp>

#include "reference/error.h"
#include "reports/expectations.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "reports/run_control.h"
#include "runtimes/isolated.h"

namespace seqconf {
namespace {

nlohmann::json options_json(const SuiteOptions& o, const std::string& runtime) {
  nlohmann::json j = {{"runtime", runtime},
                      {"source", o.source},
                      {"filters", o.filters},
                      {"strict", o.run.strict},
                      {"static_checks", o.run.static_checks},
                      {"jobs", o.jobs},
                      {"isolate", o.isolate},
                      {"corpus", o.corpus.string()},
                      {"onnx_testdata", o.onnx_testdata.string()},
                      {"embedded", true}};
  if (!o.shard.empty()) j["shard"] = o.shard;
  if (!o.expectations.empty()) j["expectations"] = o.expectations.string();
  return j;
}

}  // namespace

SuiteResult run_suite(const RuntimeFactory& make_runtime, const SuiteOptions& options) {
  std::ostream& log = options.log ? *options.log : std::cout;
  const bool talk = !options.quiet;
  SuiteResult result;

  std::optional<reports::Expectations> expectations;
  if (!options.expectations.empty())
    expectations = reports::Expectations::load(options.expectations);
  std::optional<reports::Shard> shard;
  if (!options.shard.empty()) shard = reports::parse_shard(options.shard);
  CaseSelection selection;
  selection.source = options.source;
  selection.corpus = options.corpus;
  selection.onnx_testdata = options.onnx_testdata;
  selection.filters = options.filters;
  std::vector<Case> cases = select_cases(selection, &result.notes);
  if (shard) {
    std::vector<Case> mine;
    for (auto& c : cases)
      if (shard->contains(c.id)) mine.push_back(std::move(c));
    cases = std::move(mine);
  }
  if (cases.empty())
    throw Error(ErrorCode::invalid_argument, "no case selected (source " + options.source + ")");

  // One runtime per worker thread: a runtime object is never shared between threads.
  const int jobs = std::max(1, options.jobs);
  std::vector<std::unique_ptr<Runtime>> runtimes;
  for (int w = 0; w < jobs; ++w) {
    std::unique_ptr<Runtime> rt = make_runtime();
    if (!rt) throw Error(ErrorCode::invalid_argument, "the runtime factory gave null");
    if (options.isolate) {
      IsolationOptions io;
      if (options.timeout_ms > 0) io.timeout_ms = options.timeout_ms;
      rt = make_isolated_runtime(std::shared_ptr<Runtime>(std::move(rt)), io);
    }
    runtimes.push_back(std::move(rt));
  }
  const Runtime& runtime = *runtimes.front();
  if (talk) {
    for (const auto& n : result.notes) log << "note: " << n << "\n";
    if (expectations && !expectations->runtime().empty() &&
        expectations->runtime() != runtime.name())
      log << "note: " << options.expectations.string() << " is written for runtime "
          << expectations->runtime() << ", this run is on " << runtime.name() << "\n";
  }

  reports::RunInfo info =
      reports::describe_run(runtime.name(), runtime.version(), runtime.location());
  info.options = options_json(options, runtime.name());
  if (!options.expectations.empty()) info.expectations_file = options.expectations.string();

  std::vector<std::optional<Outcome>> slots(cases.size());
  std::mutex log_mutex;
  reports::run_indices(cases.size(), jobs, [&](int worker, size_t i) {
    Outcome o = run_case(cases[i], *runtimes[static_cast<size_t>(worker)], options.run);
    if (talk && o.status != Status::pass) {
      std::lock_guard<std::mutex> lock(log_mutex);
      log << outcome_line(o) << "\n";
    }
    slots[i] = std::move(o);
  });

  std::vector<Outcome> outcomes;
  std::map<std::string, std::string> specs;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!slots[i]) continue;
    if (!cases[i].spec.empty()) specs[cases[i].id] = cases[i].spec;
    outcomes.push_back(std::move(*slots[i]));
  }
  info.complete = outcomes.size() == cases.size();
  info.end_time = reports::now_iso8601();
  if (talk) log << summary_line(tally(outcomes), runtime.name() + " " + runtime.version()) << "\n";

  result.report = reports::make_report(std::move(info), std::move(outcomes),
                                       expectations ? &*expectations : nullptr, specs);
  result.exit_code = reports::exit_code(result.report);
  if (talk) {
    log << reports::summary_text(result.report);
    const auto& s = result.report.summary;
    if (expectations)
      log << s.expected_failures << " expected failure(s), " << s.unexpected_failures
          << " unexpected failure(s), " << s.unexpected_passes << " unexpected pass(es)\n";
  }
  auto write = [&](const std::filesystem::path& path, const std::string& text, const char* what) {
    if (path.empty()) return;
    reports::write_file_atomic(path, text);
    if (talk) log << what << ": " << path.string() << "\n";
  };
  write(options.json_report, reports::report_to_json_text(result.report), "report");
  write(options.junit_report, reports::report_to_junit(result.report), "junit");
  write(options.html_report, reports::report_to_html(result.report), "html");
  return result;
}

SuiteResult run_suite(Runtime& runtime, const SuiteOptions& options) {
  // The caller keeps ownership: the factory hands out a non-owning pointer, once.
  struct Borrowed : Runtime {
    explicit Borrowed(Runtime& r) : inner(r) {}
    std::string name() const override { return inner.name(); }
    std::string version() const override { return inner.version(); }
    std::string location() const override { return inner.location(); }
    std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& model_path,
                                           const onnx::ModelProto& model,
                                           RunError* error) override {
      return inner.prepare(model_path, model, error);
    }
    Runtime& inner;
  };
  SuiteOptions one = options;
  one.jobs = 1;
  return run_suite([&runtime] { return std::make_unique<Borrowed>(runtime); }, one);
}

int suite_main(int argc, char** argv, const RuntimeFactory& make_runtime) {
  SuiteOptions o;
  std::vector<std::string> sources = {"onnx-backend", "corpus", "all"};
  bool no_static_checks = false;
  CLI::App app{"Conformance of this runtime to the ONNX sequence operators (seqconf)"};
  app.add_option("--source", o.source, "Cases: onnx-backend, corpus or all")
      ->check(CLI::IsMember(sources))
      ->capture_default_str();
  app.add_option("--corpus", o.corpus, "Generated corpus root")->capture_default_str();
  app.add_option("--onnx-testdata", o.onnx_testdata,
                 "ONNX backend test data root (default $SEQCONF_ONNX_TESTDATA or "
                 "/usr/share/libonnx-testdata/data)");
  app.add_option("--filter", o.filters,
                 "Case id glob (* and ?; a plain id also selects its subtree); repeatable");
  app.add_option("--shard", o.shard, "Run shard I of N (I/N, 1-based)");
  app.add_flag("--strict", o.run.strict, "Use the strict expectations of ambiguous cases");
  app.add_flag("--no-static-checks", no_static_checks,
               "Skip onnx::checker and shape inference on each model");
  app.add_flag("--isolate", o.isolate,
               "Prepare and run each case in a forked worker: a crash or hang becomes a "
               "crash / timeout outcome and the run goes on");
  app.add_option("--timeout-ms", o.timeout_ms,
                 "Time limit per isolated prepare and run (default 60000)")
      ->check(CLI::Range(0, 86400000));
  app.add_option("--expectations", o.expectations,
                 "Known departures of the runtime (JSON: runtime, entries of id glob, status, "
                 "reason, link); matching outcomes are expected failures");
  app.add_option("--report", o.json_report, "Write the JSON report here");
  app.add_option("--junit", o.junit_report, "Write a JUnit XML report here");
  app.add_option("--html", o.html_report, "Write a self-contained HTML report here");
  app.add_option("--jobs,-j", o.jobs, "Worker threads (one runtime instance each)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  o.run.static_checks = !no_static_checks;
  const std::string program = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "";
  try {
    return run_suite(make_runtime, o).exit_code;
  } catch (const Error& e) {
    std::cerr << program << ": " << error_code_name(e.code()) << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace seqconf
