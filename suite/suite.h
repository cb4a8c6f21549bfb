// The suite as a library call: what `seqconf run` does (select the cases, run them on a
// runtime, apply an expectations file, write the reports), for a runtime implemented in
// another repository. The installed package exports it as seqconf::seqconf (find_package).
//
//   class MyRuntime : public seqconf::Runtime { ... };
//   int main(int argc, char** argv) {
//     return seqconf::suite_main(argc, argv, [] { return std::make_unique<MyRuntime>(); });
//   }
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner.h"
#include "reports/report.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct SuiteOptions {
  std::string source = "all";                            // onnx-backend | corpus | all
  std::filesystem::path corpus = default_corpus_root();  // the generated corpus
  std::filesystem::path onnx_testdata;                   // empty: default_onnx_testdata_root()
  std::vector<std::string> filters;                      // case id globs; empty: every case
  std::string shard;                                     // "I/N"; empty: every case
  RunOptions run;                                        // strict, static checks
  std::filesystem::path expectations;                    // known departures; empty: none
  std::filesystem::path json_report, junit_report, html_report;  // empty: not written
  int jobs = 1;  // worker threads, one runtime each (from the factory)
  // Prepare and run in a forked worker process (runtimes/isolated.h): a crash or a hang of the
  // runtime becomes a crash / timeout outcome and the run goes on.
  bool isolate = false;
  int timeout_ms = 0;           // per isolated prepare and run; 0: 60 s
  std::ostream* log = nullptr;  // non-passing outcomes and the summary; null: std::cout
  bool quiet = false;           // write nothing to log
};

struct SuiteResult {
  reports::Report report;
  std::vector<std::string> notes;  // e.g. a case source whose root is missing
  // 0: every outcome as expected; 1: an unexpected failure or pass (reports::exit_code).
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

// main() of a runtime's conformance program. Takes the options of `seqconf run` that concern
// cases and reports (--source --corpus --onnx-testdata --filter --shard --strict
// --no-static-checks --isolate --timeout-ms --expectations --report --junit --html --jobs;
// --help lists them), runs
// the suite and returns 0 (as expected), 1 (unexpected outcomes) or 2 (usage or input error).
int suite_main(int argc, char** argv, const RuntimeFactory& make_runtime);

}  // namespace seqconf
