// Expectations file: the known departures of one runtime, each with a reason.
//
//   {"runtime": "onnxruntime",
//    "entries": [{"id": "<case id or glob>", "status": "not_supported",
//                 "reason": "...", "link": "optional", "clause": "optional"}]}
//
// An exporter's file (expectations/torch-onnx.json, {"exporter": "torch.onnx", "entries": ...})
// lists the exporter departures of exported models the same way: "status" is the exporter
// verdict's (Outcome::exported) and "clause" names the spec clause the model departs on.
//
// The first entry whose id glob (fnmatch: * ? [...]) matches a case id applies to that case.
// "status" may also be a list, e.g. ["not_supported", "pass"]: every status in it is expected
// (the first is the one reports show). This covers globs over both valid and must-reject cases
// of a type a runtime lacks: the valid ones are not_supported, the must-reject ones pass.
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
  bool accepts(Status s) const;
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
  const std::vector<Expectation>& entries() const { return entries_; }
  // The first entry whose glob matches case_id, or null.
  const Expectation* match(const std::string& case_id) const;

 private:
  std::string runtime_;
  std::vector<Expectation> entries_;
};

}  // namespace seqconf::reports
