#include "suite/suite.h"

#include <algorithm>
#include <csignal>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

#include <CLI/CLI.hpp>

#include "harness/run.h"
#include "reference/error.h"
#include "reports/expectations.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "runtimes/host.h"
#include "runtimes/isolated.h"
#include "runtimes/memcheck.h"

namespace seqconf {
namespace {

// The worker kind of suite_main's runtime factory.
constexpr const char* kSuiteMainWorker = "suite_main";

// The report's record of the options, by long option name.
nlohmann::json options_json(const SuiteOptions& o, const std::string& runtime, bool isolated) {
  nlohmann::json j = {{"runtime", o.runtime_spec.empty() ? runtime : o.runtime_spec},
                      {"source", o.source},
                      {"filters", o.filters},
                      {"strict", o.run.strict},
                      {"static_checks", o.run.static_checks},
                      {"jobs", o.jobs},
                      {"isolate", isolated},
                      {"corpus", o.corpus.string()},
                      {"exported", o.exported.string()},
                      {"onnx_testdata", o.onnx_testdata.string()}};
  if (o.timeout_ms > 0) j["timeout_ms"] = o.timeout_ms;
  if (o.memcheck) j["memcheck"] = true;
  if (o.run.max_tensor_bytes > 0) j["max_tensor_bytes"] = o.run.max_tensor_bytes;
  if (o.embedded) j["embedded"] = true;
  if (o.onnx_all_ops) j["onnx_all_ops"] = true;
  if (!o.shard.empty()) j["shard"] = o.shard;
  if (!o.expectations.empty()) j["expectations"] = o.expectations.string();
  if (!o.ort_graph_optimization.empty()) j["ort_graph_optimization"] = o.ort_graph_optimization;
  if (o.attribution) j["attribution"] = true;
  if (!o.host.empty()) j["host"] = o.host;
  if (o.no_host) j["no_host"] = true;
  return j;
}

// Drops what nobody reads, so that quiet runs write nothing.
struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};

}  // namespace

SuiteResult run_suite(const RuntimeFactory& make_runtime, const SuiteOptions& options) {
  NullBuffer null_buffer;
  std::ostream null_stream(&null_buffer);
  std::ostream& log = options.quiet ? null_stream : options.log ? *options.log : std::cout;
  std::ostream& notes = options.quiet ? null_stream : options.notes ? *options.notes : std::cerr;
  SuiteResult result;
  // From here on a signal asks the run to stop: while the cases are selected and loaded too,
  // so that an early SIGTERM still leaves a (empty, incomplete) report.
  clear_stop_request();
  if (options.stop_on_signals) install_stop_handlers();

  std::optional<reports::Expectations> expectations;
  if (!options.expectations.empty() && !options.no_expectations)
    expectations = reports::Expectations::load(options.expectations);
  std::optional<Shard> shard;
  if (!options.shard.empty()) shard = parse_shard(options.shard);

  // One runtime per worker thread: a runtime object is never shared between threads.
  const int jobs = std::max(1, options.jobs);
  std::vector<std::unique_ptr<Runtime>> runtimes;
  std::vector<Runtime*> workers;
  bool isolated = false;
  if (const std::string why = options.memcheck ? memcheck_unavailable() : ""; !why.empty())
    throw Error(ErrorCode::invalid_argument, "--memcheck: " + why);
  for (int w = 0; w < jobs; ++w) {
    std::unique_ptr<Runtime> rt = make_runtime();
    if (!rt) throw Error(ErrorCode::invalid_argument, "the runtime factory gave null");
    IsolationOptions io;
    if (options.timeout_ms > 0) io.timeout_ms = options.timeout_ms;
    if (options.run.max_tensor_bytes > 0) io.max_tensor_bytes = options.run.max_tensor_bytes;
    io.recipe = options.worker_recipe;
    io.memcheck = options.memcheck;
    if (options.memcheck && rt->out_of_process())
      throw Error(ErrorCode::invalid_argument,
                  "--memcheck runs seqconf's own worker processes under valgrind; runtime '" +
                      rt->name() +
                      "' runs in a process of its own (process=, transform=): run that command "
                      "under valgrind instead");
    // Under memcheck every runtime runs in a worker, the reference too.
    rt = isolate_unless_told(std::move(rt), options.memcheck ? true : options.isolate, io);
    isolated = rt->out_of_process();
    workers.push_back(rt.get());
    runtimes.push_back(std::move(rt));
  }
  const Runtime& runtime = *runtimes.front();

  CaseSelection selection;
  selection.source = options.source;
  selection.corpus = options.corpus;
  selection.onnx_testdata = options.onnx_testdata;
  selection.backend_models =
      options.onnx_all_ops ? BackendModels::implemented : BackendModels::sequences;
  selection.filters = options.filters;
  selection.exported = options.exported;
  std::vector<Case> cases = options.cases ? *options.cases : select_cases(selection, &result.notes);
  for (const auto& n : result.notes) notes << "note: " << terminal_safe(n) << "\n";
  if (cases.empty() && !stop_requested())
    throw Error(ErrorCode::invalid_argument, "no case found (source " + options.source + ")");
  if (expectations && !expectations->runtime().empty() && expectations->runtime() != runtime.name())
    notes << "note: "
          << terminal_safe(options.expectations.string() + " is written for runtime " +
                           expectations->runtime() + ", this run is on " + runtime.name())
          << "\n";
  if (shard) {
    std::vector<Case> mine;
    for (auto& c : cases)
      if (shard->contains(c.id)) mine.push_back(std::move(c));
    cases = std::move(mine);
  }

  reports::RunInfo info =
      reports::describe_run(runtime.name(), runtime.version(), runtime.location());
  info.options = options_json(options, runtime.name(), isolated);
  if (expectations) info.expectations_file = options.expectations.string();
  // The exporter's expectations, when the run has exported cases.
  std::optional<reports::Expectations> exporter_expectations;
  if (!options.no_expectations &&
      std::any_of(cases.begin(), cases.end(), [](const Case& c) { return c.exported(); })) {
    const std::filesystem::path file = options.exporter_expectations.empty()
                                           ? default_exporter_expectations()
                                           : options.exporter_expectations;
    if (!options.exporter_expectations.empty() || std::filesystem::exists(file)) {
      exporter_expectations = reports::Expectations::load(file);
      // A file the user chose applies to every exported case; the default one only to the
      // models of the producers it was measured on.
      if (!options.exporter_expectations.empty()) exporter_expectations->apply_to_every_producer();
      info.exporter_expectations_file = file.string();
    }
  }

  RunOptions run = options.run;
  if (!run.host && !options.no_host &&
      std::any_of(cases.begin(), cases.end(), [](const Case& c) { return c.exported(); })) {
    std::string why;
    run.host = make_host(options.host, &why);
    if (!run.host)
      notes << "note: no host runtime for the operators the reference lacks (" << terminal_safe(why)
            << "): exported models that use them are not judged\n";
  }
  if (run.host) {
    info.host = run.host->name;
    info.host_is_runtime_under_test = is_same_runtime(run.host->location, runtime.location());
  }

  Progress progress(cases.size(), log);
  std::mutex count_mutex;
  size_t finished = 0;
  std::vector<std::optional<Outcome>> slots = run_cases(cases, workers, run, [&](const Outcome& o) {
    if (!options.quiet) {
      if (o.status != Status::pass) progress.print(outcome_line(o));
      progress.done(o.case_id);
    }
    std::lock_guard<std::mutex> lock(count_mutex);
    if (++finished != options.stop_after) return;
    if (options.stop_on_signals)
      std::raise(SIGINT);  // through the handler, as a user's Ctrl-C
    else
      request_stop();
  });
  progress.finish();

  std::vector<Outcome> outcomes;
  for (auto& slot : slots)
    if (slot) outcomes.push_back(std::move(*slot));
  info.complete = outcomes.size() == cases.size();
  // Under memcheck: what the workers did outside the cases (start-up, between cases), each once.
  for (const auto& rt : runtimes)
    if (IsolatedRuntime* in_worker = as_isolated(*rt))
      for (const WorkerMemoryError& e : in_worker->take_worker_memory_errors())
        add_worker_memory_error(info.worker_memory_errors, e);
  info.end_time = reports::now_iso8601();

  for (const auto& o : outcomes)
    for (const auto& f : o.findings)
      log << terminal_safe("FINDING " + o.case_id + " [" + f.check + "] " + f.message) << "\n";
  for (const WorkerMemoryError& e : info.worker_memory_errors)
    log << terminal_safe(worker_memory_error_line(e) + " (" + runtime.name() +
                         "'s worker, outside any case)")
        << "\n";
  log << summary_line(tally(outcomes), runtime.name() + " " + runtime.version()) << "\n";

  result.report = reports::make_report(std::move(info), std::move(outcomes),
                                       expectations ? &*expectations : nullptr,
                                       exporter_expectations ? &*exporter_expectations : nullptr);
  const size_t selection_notes = result.notes.size();
  // The default exporter's file that applies to no case of the run is not the run's.
  if (exporter_expectations &&
      std::none_of(result.report.cases.begin(), result.report.cases.end(),
                   [&](const reports::CaseRecord& c) {
                     return c.outcome.exported &&
                            exporter_expectations->applies_to(c.outcome.exported->producer);
                   })) {
    for (const auto& n :
         reports::expectations_notes(result.report, nullptr, "", &*exporter_expectations,
                                     result.report.info.exporter_expectations_file))
      result.notes.push_back(n);
    exporter_expectations.reset();
    result.report.info.exporter_expectations_file.clear();
  } else {
    for (const auto& n :
         reports::expectations_notes(result.report, expectations ? &*expectations : nullptr,
                                     result.report.info.expectations_file,
                                     exporter_expectations ? &*exporter_expectations : nullptr,
                                     result.report.info.exporter_expectations_file))
      result.notes.push_back(n);
  }
  for (size_t k = selection_notes; k < result.notes.size(); ++k) {
    const std::string& n = result.notes[k];
    notes << (n.rfind("warning: ", 0) == 0 ? "" : "note: ") << terminal_safe(n) << "\n";
  }
  for (const auto& line : reports::uncovered_lines(result.report))
    log << terminal_safe(line) << "\n";
  // A signal during the attribution leaves departures unattributed: the run is incomplete too.
  bool attribution_interrupted = false;
  if (options.attribution && result.report.info.complete) {
    attribute_departures(result.report, cases, *options.attribution, run, log);
    attribution_interrupted = stop_requested();
    if (attribution_interrupted) result.report.info.complete = false;
  }
  const auto& s = result.report.summary;
  log << terminal_safe(reports::summary_text(result.report), true);
  log << terminal_safe(reports::departures_text(result.report), true);
  log << terminal_safe(reports::exported_text(result.report), true);
  log << terminal_safe(reports::judging_text(result.report), true);
  if (expectations)
    log << s.expected_failures << " expected failure(s), " << s.unexpected_failures
        << " unexpected failure(s), " << s.unexpected_passes << " unexpected pass(es)\n";
  if (exporter_expectations)
    log << result.report.exported.exporter_listed << " listed exporter departure(s), "
        << s.unexpected_exporter << " unexpected exporter verdict(s) ("
        << result.report.info.exporter_expectations_file << ")\n";
  result.exit_code = result.report.info.complete ? reports::exit_code(result.report) : 1;
  if (!result.report.info.complete)
    log << "interrupted by signal " << stop_signal() << " after " << s.total << " of "
        << cases.size() << " cases"
        << (attribution_interrupted ? ", while attributing the departures" : "") << "\n";
  const auto write = [&](const std::filesystem::path& path, const std::string& text,
                         const char* what) {
    if (path.empty()) return;
    reports::write_file_atomic(path, text);
    log << what << ": " << path.string() << "\n";
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
    bool out_of_process() const override { return inner.out_of_process(); }
    bool isolated_by_default() const override { return inner.isolated_by_default(); }
    std::optional<WorkerRecipe> recipe() const override { return inner.recipe(); }
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

void add_suite_options(CLI::App& app, SuiteOptions& o) {
  app.add_option("--source", o.source, "Cases: onnx-backend, corpus, exported or all")
      ->check(CLI::IsMember({"onnx-backend", "corpus", "exported", "all"}))
      ->capture_default_str();
  app.add_option("--exported", o.exported,
                 "Exported models root: folders in ONNX backend layout (model.onnx, "
                 "test_data_set_N) whose outputs came from the producing framework; each is "
                 "judged three ways (exporter, runtime, end to end)")
      ->capture_default_str();
  app.add_option("--onnx-testdata", o.onnx_testdata,
                 "ONNX backend test data root (default $SEQCONF_ONNX_TESTDATA or "
                 "/usr/share/libonnx-testdata/data)");
  app.add_flag("--onnx-all-ops", o.onnx_all_ops,
               "onnx-backend: also every model without a sequence op whose ops the reference "
               "all implements (ONNX's node tests of the supporting operators)");
  app.add_option("--corpus", o.corpus, "Generated corpus root")->capture_default_str();
  app.add_option("--filter", o.filters,
                 "Case id glob (* and ?; a plain id also selects its subtree); repeatable");
  app.add_option("--host", o.host,
                 "The runtime that runs, node by node, the operators the reference lacks when it "
                 "gives an exported model's meaning (as --runtime spells it; default ONNX "
                 "Runtime)");
  app.add_flag("--no-host", o.no_host,
               "No host runtime: an exported model that uses an operator the reference lacks "
               "is not judged");
  app.add_flag("--strict", o.run.strict,
               "Strict policy: reject where the spec is ambiguous (reference), and use the "
               "strict expectations of ambiguous cases");
  app.add_flag_function(
      "--no-static-checks", [&o](int64_t n) { o.run.static_checks = n == 0; },
      "Skip onnx::checker and shape inference on each model");
  auto* isolate = app.add_flag_function(
      "--isolate", [&o](int64_t) { o.isolate = true; },
      "Prepare and run each case in a worker process: a crash or hang becomes a crash / timeout "
      "outcome and the run goes on (the default for every runtime but the reference)");
  CLI::Option* in_process = app.add_flag_function(
      "--in-process", [&o](int64_t) { o.isolate = false; },
      "Run the runtime in this process: faster, but a runtime that aborts or hangs takes the "
      "run with it");
  in_process->excludes(isolate);
  app.add_option("--timeout-ms", o.timeout_ms,
                 "Time limit per isolated prepare and run, and per process-runtime answer "
                 "(default 60000)")
      ->check(CLI::Range(0, 86400000));
  app.add_flag("--memcheck", o.memcheck,
               "Run each isolated worker under valgrind memcheck: a case during which the runtime "
               "reads uninitialised memory or memory it does not own fails with reason "
               "memory_error. About 10 times as slow (ONNX Runtime on small cases), up to 50 "
               "times; --timeout-ms counts 20 times as long. Implies --isolate")
      ->excludes(in_process);
  app.add_option("--max-tensor-bytes", o.run.max_tensor_bytes,
                 "Largest tensor read or computed, in bytes (default 1 GiB); larger is "
                 "limit_exceeded");
  app.add_option("--expectations", o.expectations,
                 "Known departures of the runtime (JSON: runtime, entries of id glob, status, "
                 "outcome_reason, reason, link, optional clause and programs); an outcome whose "
                 "status and reason an entry lists is an expected failure");
  app.add_option("--exporter-expectations", o.exporter_expectations,
                 "Known exporter departures of the exported models, applied to every exported "
                 "case (default: expectations/torch-onnx.json, applied only to the models of the "
                 "producers it names)");
  app.add_flag("--no-expectations", o.no_expectations,
               "Apply no expectations file (neither --expectations nor the exporter's): every "
               "departure shows as new");
  app.add_option("--report", o.json_report, "Write the JSON report here");
  app.add_option("--junit", o.junit_report, "Write a JUnit XML report here");
  app.add_option("--html", o.html_report, "Write a self-contained HTML report here");
  app.add_option("--jobs,-j", o.jobs, "Worker threads (one runtime instance each)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--shard", o.shard,
                 "Run shard I of N (I/N, 1-based); a case's shard depends only on its id");
  app.add_option("--stop-after", o.stop_after,
                 "Raise SIGINT after this many cases (tests the interrupted report)")
      ->group("");
}

int suite_main(int argc, char** argv, const RuntimeFactory& make_runtime) {
  // An isolated worker of this program makes its runtime with the same factory.
  const WorkerKind factory(kSuiteMainWorker, [make_runtime](const std::string&) {
    return serve_runtime(std::shared_ptr<Runtime>(make_runtime()));
  });
  serve_if_worker(argc, argv);
  SuiteOptions o;
  o.stop_on_signals = true;
  o.worker_recipe = WorkerRecipe{kSuiteMainWorker, ""};
  CLI::App app{"Conformance of this runtime to the ONNX sequence operators (seqconf)"};
  add_suite_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  const std::string program = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "";
  try {
    return run_suite(make_runtime, o).exit_code;
  } catch (const Error& e) {
    std::cerr << program << ": " << error_code_name(e.code()) << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace seqconf
