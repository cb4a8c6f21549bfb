// Runs cases on a runtime and turns what happened into Outcomes.
// Cases -> runtime -> Outcome; nothing here knows about reports.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "fixtures/case.h"
#include "harness/outcome.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct RunOptions {
  // Use the strict expectations of ambiguous corpus cases (the reference under --strict).
  bool strict = false;
  // Run onnx::checker and shape inference on every model (Outcome::findings).
  bool static_checks = true;
};

// Prepares the case's model, runs every data set and compares, or, for a must-reject case,
// expects a rejection: accepted -> fail/accepted_invalid; the reference rejecting with another
// code -> fail/wrong_error_code; any rejection by a runtime without the reference's codes ->
// pass. A case that cannot be loaded -> status error, reason load_error, naming the file.
Outcome run_case(const Case& c, Runtime& runtime, const RunOptions& options = {});

using ProgressFn = std::function<void(const Outcome&)>;
std::vector<Outcome> run_cases(const std::vector<Case>& cases, Runtime& runtime,
                               const RunOptions& options = {}, const ProgressFn& progress = {});

// Which cases a run covers.
struct CaseSelection {
  std::string source = "all";           // onnx-backend | corpus | all
  std::filesystem::path onnx_testdata;  // empty: default_onnx_testdata_root()
  std::filesystem::path corpus;         // empty: no corpus
  std::vector<std::string> filters;     // id globs (any matches); empty: every case
};
// Throws Error(invalid_argument) for an unknown source, Error(io_error) when the root of an
// explicitly chosen source is missing. With source "all", a missing root is skipped and named
// in *notes.
std::vector<Case> select_cases(const CaseSelection& selection, std::vector<std::string>* notes);

struct Tally {
  size_t total = 0, pass = 0, fail = 0, error = 0, not_supported = 0, crash = 0, timeout = 0,
         skipped = 0, findings = 0, ambiguities = 0;
};
Tally tally(const std::vector<Outcome>& outcomes);
// "26 cases: 26 pass, 0 fail, ..." in one line.
std::string summary_line(const Tally& t, const std::string& runtime);
// One line for a non-passing outcome: "FAIL <id> [reason] message".
std::string outcome_line(const Outcome& o);

}  // namespace seqconf

namespace seqconf {
// $SEQCONF_CORPUS, else the corpus of the installed package (package_data_dir() / "corpus"),
// else the repository's fixtures/corpus.
std::filesystem::path default_corpus_root();

// The share/seqconf folder of an installed seqconf (cmake --install): the one registered with
// set_package_data_dir, else <folder of the running program>/../share/seqconf when that holds a
// corpus (an installed bin/seqconf), else empty (a program of the build tree).
std::filesystem::path package_data_dir();
// find_package(seqconf) compiles a call of this into every program that links seqconf::seqconf,
// so that the installed library finds its own data rather than the tree it was built from.
bool set_package_data_dir(const std::filesystem::path& dir);
}  // namespace seqconf
