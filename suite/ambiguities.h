// Measures what the spec leaves open (reference/open_questions.h): for each question, the cases
// of the corpus, ONNX's fixtures and the exported models that bear on it (for a question a
// policy decides, those whose expectations differ between the policies, by the one oracle,
// harness/oracle.h), the smallest of them, and what each implementation does on each: the
// reference under each policy, every runtime asked for, and the programs the exported models came
// from. Each implementation runs the cases through run_suite, once judged under the lenient
// policy and once under the strict one; its reading is the policy whose expectation it meets.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "reports/ambiguities_report.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct AmbiguityRuntime {
  std::string spec;  // as `seqconf run --runtime` takes it
  // Makes one runtime object; null (or a throw) when the runtime is not available.
  std::function<std::unique_ptr<Runtime>()> make;
};

struct AmbiguityOptions {
  std::filesystem::path corpus, exported, onnx_testdata;  // empty: the defaults (cases/data_dir.h)
  // Cases kept per question, per source and operator (the smallest models); every ONNX fixture
  // that matches is kept.
  size_t cases_per_group = 2;
  int jobs = 1;
  int timeout_ms = 0;
  std::vector<std::string> questions;  // ids to measure; empty: every question
};

// Throws Error(invalid_argument) for an unknown question id.
reports::AmbiguitiesReport measure_ambiguities(const std::vector<AmbiguityRuntime>& runtimes,
                                               const AmbiguityOptions& options);

}  // namespace seqconf
