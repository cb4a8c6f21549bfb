// seqconf selftest: checks the suite itself against the seeded defects (runtimes/seeded/). Each
// defect runs on the cases (corpus and ONNX's fixtures) and under differential fuzzing with a
// few seeds; a defect that no case catches is a gap in the corpus, one that fuzzing does not
// find within its budget a gap in the fuzzer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "difffuzz/campaign.h"

#include <nlohmann/json.hpp>

namespace seqconf::selftest {

struct Options {
  std::string source = "all";    // the cases: onnx-backend | corpus | all
  std::filesystem::path corpus;  // empty: the default corpus
  std::filesystem::path onnx_testdata;
  std::vector<std::string> defects;                    // id globs; empty: every defect
  std::vector<uint64_t> fuzz_seeds = {1, 2, 3, 4, 5};  // empty: no fuzzing
  double fuzz_budget_s = 10;                           // per defect and seed
  // Input sets per structure of the campaigns (difffuzz::FuzzOptions::input_sets). One: a
  // seeded defect is the reference with a defect, whose models cost as little to prepare as
  // to run, so input sets do not find them sooner (docs/selftest.md).
  size_t fuzz_input_sets = 1;
  int jobs = 1;                                 // worker threads for the case runs
  std::function<void(const std::string&)> log;  // one line per defect, may be empty
};

struct FuzzTry {
  uint64_t seed = 0;
  bool found = false;
  double seconds = 0;   // to the first finding, or the budget spent without one
  size_t programs = 0;  // programs evaluated until then
  std::string finding;  // kind and op of the first finding
};

struct DefectResult {
  std::string id, op, description, copies;
  size_t cases = 0;       // cases run
  size_t caught = 0;      // cases the reference passes and the defect does not
  std::string smallest;   // the shortest of those ids (ties by id)
  size_t departures = 0;  // distinct departures among them
  std::vector<FuzzTry> fuzz;
  double fuzz_median_s = 0;  // median over the seeds; the budget counts for a seed not found
  size_t fuzz_found = 0;     // seeds that found it
};

struct Result {
  size_t reference_cases = 0, reference_failures = 0;  // the reference on the same cases
  std::vector<DefectResult> defects;
  size_t caught_by_no_case = 0;  // defects with caught == 0: gaps in the cases
  size_t not_found = 0;          // defects fuzzed whose median reached the budget
  double seconds = 0;
};

// Throws Error(invalid_argument) when no defect matches the globs, or what run_suite throws
// for the case selection.
Result run(const Options& options);

// The report: {"kind": "seqconf-selftest", options, reference, defects: [...], summary}.
nlohmann::ordered_json report_json(const Result& r, const Options& options);

}  // namespace seqconf::selftest
