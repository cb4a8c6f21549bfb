// What the spec leaves open, as measured: each open question (reference/open_questions.h) with
// the smallest cases that tell its readings apart and what every implementation does on each
// (suite/ambiguities.h measures it). Written as JSON (reports/seqconf-ambiguities.schema.json),
// Markdown (each question an issue ready to file with the spec's maintainers) and HTML.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/outcome.h"
#include "reference/open_questions.h"

namespace seqconf::reports {

// One implementation asked: the reference under a policy, a runtime, or the programs the
// exported models came from.
struct AmbiguityImplementation {
  std::string id;    // "reference-lenient", "reference-strict", the runtime spec, "framework"
  std::string name;  // "reference (lenient policy)", "onnxruntime 1.30.0", "torch.onnx 1.13.1 ..."
  std::string kind;  // "reference" | "runtime" | "framework"
  std::string note;  // why it could not answer (a runtime that could not be made); empty if it did
};

// A case that bears on a question.
struct AmbiguityCase {
  std::string id;
  std::string source;  // corpus | onnx-backend | exported
  std::string op;
  std::string model;  // path of its model.onnx
  uintmax_t model_bytes = 0;
  std::string lenient;  // what the lenient policy expects: "outputs" or "rejected (code)"
  std::string strict;   // the same under the strict policy
  bool splits = false;  // the two expectations differ
};

// What one implementation did on one case.
struct AmbiguityAnswer {
  std::string implementation;  // AmbiguityImplementation::id
  std::string case_id;
  // The reading it follows: a Reading::name of the question ("lenient", "strict", "spec", ...),
  // "both" when it meets the expectations of both policies on a case that does not split them,
  // "neither", or what stopped it ("not_run", "crash", "timeout", "not_supported", "not_judged").
  std::string reading;
  Status lenient = Status::skipped;  // its verdict against the lenient expectation
  Status strict = Status::skipped;   // against the strict one
  std::string message;               // the verdict's words when it met neither
  // The reference recorded the question's ambiguity on the case (Outcome::ambiguities).
  bool recorded = false;
};

struct AmbiguityEntry {
  OpenQuestion question;
  std::vector<AmbiguityCase> cases;
  std::vector<AmbiguityAnswer> answers;
};

struct AmbiguitiesReport {
  std::string seqconf_version, git_revision, start_time, end_time;
  std::vector<AmbiguityImplementation> implementations;
  std::vector<AmbiguityEntry> entries;
  std::vector<std::string> notes;
};

// The readings an implementation follows on a question's cases, counted: "lenient 3/3",
// "neither 1/2, strict 1/2"; empty when it answered no case.
std::string reading_summary(const AmbiguityEntry& e, const std::string& implementation);

nlohmann::json ambiguities_to_json(const AmbiguitiesReport& r);
std::string ambiguities_markdown(const AmbiguitiesReport& r);
std::string ambiguities_html(const AmbiguitiesReport& r);
// Writes dir/ambiguities.{json,md,html}; throws Error(io_error).
void write_ambiguities(const AmbiguitiesReport& r, const std::filesystem::path& dir);

}  // namespace seqconf::reports
