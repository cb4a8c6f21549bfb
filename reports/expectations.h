// Expectations file: the known departures of one runtime, each with a reason.
//
//   {"runtime": "onnxruntime",
//    "entries": [{"id": "<case id or glob>", "status": "not_supported",
//                 "outcome_reason": "not_supported", "reason": "...", "link": "optional",
//                 "clause": "optional", "programs": ["optional"]}]}
//
// An exporter's file (expectations/torch-onnx.json, {"exporter": "torch.onnx", "producers":
// [...], "entries": ...}) lists the exporter departures of exported models the same way:
// "status" and "outcome_reason" are the exporter verdict's (Outcome::exported) and "clause" names
// the spec clause the model departs on. "producers" names the producers whose models the file was
// measured on, as reports write an exported case's producer up to its framework in parentheses
// ("torch.onnx 1.13.0a0" from case.json, "pytorch 1.13.0" from the model's producer_name and
// producer_version): a run applies the file by default only to the cases of those producers.
//
// The first entry whose id glob (fnmatch: * ? [...]) matches a case id applies to that case, and
// covers it when it says what the case did:
//   "status" may also be a list, e.g. ["not_supported", "pass"]: every status in it is expected
//   (the first is the one reports show). This covers globs over both valid and must-reject cases
//   of a type a runtime lacks: the valid ones are not_supported, the must-reject ones pass.
//   "outcome_reason" (a name or a list of names of reports' "reason"): a non-pass is covered
//   only when its reason is one of them; an entry without it takes any reason.
//   "clause" of a runtime's entry: the case's spec clauses (case.json "clauses") must include it.
//   "programs": the exported programs the glob means; a case of another program is not covered,
//   and the run warns about the entry.
// An entry that applies but does not cover a case says why (Expectation::mismatch): the case is
// then an unexpected failure or pass.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/outcome.h"

namespace seqconf::reports {

struct Expectation {
  std::string id;                // case id or glob
  Status status = Status::fail;  // the expected status
  std::string reason;
  std::string link;
  std::vector<Status> also;  // further statuses that are expected too
  std::string clause = {};   // an exporter departure's spec clause id (spec_clauses.h)
  // The outcome reasons expected with a non-pass status; empty: any.
  std::vector<Reason> outcome_reasons = {};
  // The exported programs the glob means; empty: any.
  std::vector<std::string> programs = {};
  bool accepts(Status s) const;
  // Why the entry does not cover an outcome (empty when it does): its status, reason, the case's
  // spec clauses (checked when the entry names a clause and checks_clause) and program (an
  // exported case's; empty otherwise).
  std::string mismatch(Status s, Reason r, const std::vector<std::string>& clauses,
                       const std::string& program, bool checks_clause = true) const;
  // Whether the entry means this exported program ("programs" lists it, or lists none).
  bool means_program(const std::string& program) const;
  // "fail [shape_mismatch]" or "not_supported or pass": what the entry expects.
  std::string expected_text() const;
};

class Expectations {
 public:
  Expectations() = default;
  // Throws Error(invalid_argument) naming the entry and field that is wrong.
  static Expectations from_json(const nlohmann::json& j);
  // Throws Error(io_error) when the file cannot be read, Error(invalid_argument) otherwise.
  static Expectations load(const std::filesystem::path& path);

  // "runtime", or an exporter's file's "exporter".
  const std::string& runtime() const { return runtime_; }
  // An exporter's file's "producers"; empty for a runtime's file.
  const std::vector<std::string>& producers() const { return producers_; }
  const std::vector<Expectation>& entries() const { return entries_; }
  // The first entry whose glob matches case_id, or null.
  const Expectation* match(const std::string& case_id) const;
  // Whether the file was measured on the models of this producer (an exported case's
  // ExportedVerdicts::producer): "producers" lists it, up to the framework in parentheses.
  bool for_producer(const std::string& producer) const;
  // An exporter's file applied to every exported case whatever its producer (a file the user
  // chose, --exporter-expectations).
  void apply_to_every_producer() { every_producer_ = true; }
  bool applies_to_every_producer() const { return every_producer_; }
  // Whether the file applies to an exported case of this producer: for_producer, or every
  // producer when told so.
  bool applies_to(const std::string& producer) const {
    return every_producer_ || for_producer(producer);
  }

 private:
  std::string runtime_;
  std::vector<std::string> producers_;
  std::vector<Expectation> entries_;
  bool every_producer_ = false;
};

struct Report;

// What a run says about its expectations files beyond the verdicts, one line each:
//   "warning: ..." for an entry whose glob matched cases of programs its "programs" do not list
//   (those cases are not covered), in either file;
//   a note (no prefix) for the exported cases of producers the exporter's file was not measured on:
//   not applied to them by default, or applied to them as the user chose the file.
// expectations_file / exporter_file name the files (empty: that file was not applied).
std::vector<std::string> expectations_notes(const Report& r, const Expectations* expectations,
                                            const std::string& expectations_file,
                                            const Expectations* exporter,
                                            const std::string& exporter_file);
// One line per case an entry matched without covering it, with why (CaseRecord's
// expectation_mismatch): "not covered: <case id>: entry '...' expects ..., the case is ...".
std::vector<std::string> uncovered_lines(const Report& r);

// An exported case's producer as an exporter's file names it: ExportedVerdicts::producer up to
// its framework in parentheses ("torch.onnx 1.13.0a0 (pytorch 1.13.0a0)" -> "torch.onnx
// 1.13.0a0").
std::string producer_key(const std::string& producer);

}  // namespace seqconf::reports
