// The suite as one call: select the cases, run them on a runtime, apply an expectations file,
// write the reports. `seqconf run` is this call behind its command line, and so is the program
// of a runtime implemented in another repository (the installed package exports it as
// seqconf::seqconf, find_package):
//
//   class MyRuntime : public seqconf::Runtime { ... };
//   int main(int argc, char** argv) {
//     return seqconf::suite_main(argc, argv, [] { return std::make_unique<MyRuntime>(); });
//   }
//
// A case flows: cases/ (select, load) -> harness/run.h (one runtime per worker) -> Outcome
// -> reports/ (make_report, writers).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cases/data_dir.h"
#include "harness/runner.h"
#include "reports/report.h"
#include "runtimes/runtime.h"
#include "suite/attribution.h"

namespace CLI {
class App;
}

namespace seqconf {

struct SuiteOptions {
  std::string source = "all";                            // onnx-backend | corpus | exported | all
  std::filesystem::path corpus = default_corpus_root();  // the generated corpus
  // Models an exporter wrote, with the framework's outputs (--exported).
  std::filesystem::path exported = default_exported_root();
  std::filesystem::path onnx_testdata;  // empty: default_onnx_testdata_root()
  std::vector<std::string> filters;     // case id globs; empty: every case
  // The cases to run, already selected (seqconf ambiguities runs the same few cases many
  // times); set, it replaces the selection by source and filters.
  std::optional<std::vector<Case>> cases;
  // onnx-backend: also every model whose ops the reference all implements (--onnx-all-ops).
  bool onnx_all_ops = false;
  std::string shard;                   // "I/N"; empty: every case
  RunOptions run;                      // strict, static checks, max_tensor_bytes
  std::filesystem::path expectations;  // known departures; empty: none
  // The exporter's known departures, applied to exported cases' exporter verdicts
  // (--exporter-expectations); empty: default_exporter_expectations() when it exists.
  std::filesystem::path exporter_expectations;
  bool no_expectations = false;  // apply neither file (--no-expectations)
  std::filesystem::path json_report, junit_report, html_report;  // empty: not written
  int jobs = 1;  // worker threads, one runtime each (from the factory)
  // Prepare and run in a worker process (runtimes/isolated.h): a crash or a hang of the
  // runtime becomes a crash / timeout outcome and the run goes on. Unset: isolated unless the
  // runtime is the reference (Runtime::isolated_by_default); false (--in-process) is faster
  // and unsafe with a runtime that aborts.
  std::optional<bool> isolate;
  int timeout_ms = 0;  // per isolated prepare and run; 0: 60 s
  // Run each isolated worker under valgrind memcheck (IsolationOptions::memcheck), every
  // runtime isolated: a case during which the runtime misuses memory is fail, memory_error.
  bool memcheck = false;
  // How an isolated worker makes a runtime that has no recipe of its own (Runtime::recipe):
  // suite_main registers its factory as one.
  std::optional<WorkerRecipe> worker_recipe;
  // SIGINT / SIGTERM finish the cases in flight, then the reports are written with
  // complete: false (suite_main and `seqconf run` turn this on). A signal that comes while the
  // cases are being selected and loaded stops the run before any case: its reports are written,
  // empty and marked incomplete.
  bool stop_on_signals = false;
  size_t stop_after = 0;  // raise SIGINT after this many cases (tests the interrupted report)
  // How the runtime was asked for (e.g. "onnxruntime=/path/lib.so"), recorded in the report's
  // options and used in its rerun commands; empty: the runtime's name.
  std::string runtime_spec;
  // ONNX Runtime's graph optimization level as asked for (`seqconf run
  // --ort-graph-optimization`), recorded in the report's options and its rerun commands; empty:
  // not asked for.
  std::string ort_graph_optimization;
  // Which layer of the runtime each departure comes from (suite/attribution.h): the smallest
  // case of each departure runs again in these configurations; unset: not attributed.
  // `seqconf run --runtime onnxruntime` sets ONNX Runtime's unless --no-attribution.
  std::optional<AttributionRuntimes> attribution;
  bool embedded = true;           // recorded in the report's options: false for `seqconf run`
  std::ostream* log = nullptr;    // non-passing outcomes, findings, the summary; null: std::cout
  std::ostream* notes = nullptr;  // notes about the run (a skipped source, ...); null: std::cerr
  bool quiet = false;             // write nothing to log or notes
  // The reference's host for the operators it lacks, when it gives an exported model's meaning
  // (runtimes/host.h): empty for ONNX Runtime (--host RUNTIME names another); no_host (--no-host)
  // for none. Made once a run has exported cases, unless run.host is already set.
  std::string host;
  bool no_host = false;
};

struct SuiteResult {
  reports::Report report;
  std::vector<std::string> notes;  // e.g. a case source whose root is missing
  // 0: every outcome as expected; 1: an unexpected failure or pass (reports::exit_code), or an
  // interrupted run.
  int exit_code = 0;
};

using RuntimeFactory = std::function<std::unique_ptr<Runtime>()>;

// Runs the selected cases on runtimes made by make_runtime (one per worker) and writes the
// reports that options name. Throws Error: invalid_argument for a bad source, shard or
// expectations file, or when no case is selected; io_error for a missing case root that was
// chosen explicitly, an unreadable expectations file or a report that cannot be written.
SuiteResult run_suite(const RuntimeFactory& make_runtime, const SuiteOptions& options);

// The same on one runtime object (options.jobs is ignored: one worker).
SuiteResult run_suite(Runtime& runtime, const SuiteOptions& options);

// The command-line options of a suite run (--source --corpus --exported --onnx-testdata --filter
// --shard --exporter-expectations --no-expectations
// --strict --no-static-checks --isolate --in-process --timeout-ms --max-tensor-bytes --expectations
// --report
// --junit --html --jobs), written into *options when app parses. One table for `seqconf run`
// and suite_main.
void add_suite_options(CLI::App& app, SuiteOptions& options);

// main() of a runtime's conformance program: the options of add_suite_options (--help lists
// them); runs the suite and returns 0 (as expected), 1 (unexpected outcomes or interrupted) or 2
// (usage or input error). Its isolated workers are this program started again
// (runtimes/isolated.h): they serve from here with a runtime from the same factory.
int suite_main(int argc, char** argv, const RuntimeFactory& make_runtime);

}  // namespace seqconf
