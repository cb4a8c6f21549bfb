// What a bundle needs of a report, whichever kind it is: a conformance report (seqconf run
// --report) or a fuzz report (seqconf fuzz --report), read into one shape.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bundle/bundle.h"
#include "cases/case.h"
#include "harness/oracle.h"
#include "reports/report.h"

namespace seqconf::bundle {

struct Source {
  std::string kind;  // "conformance" | "fuzz"
  std::string runtime_name, runtime_version, runtime_path, runtime_spec;
  std::string os, hostname;
  int cpu_count = 0;
  std::vector<reports::Departure> departures;
  // What the report says of each case: its message, and for a conformance report its outcome.
  std::map<std::string, std::string> message;
  std::map<std::string, const reports::CaseRecord*> record;
  CaseSelection selection;
  bool strict = false;
  // The host of the report's run for the operators the reference lacks (--host; "" for ONNX
  // Runtime's default library); none: the run had --no-host.
  std::optional<std::string> host = std::string();
  // The oracle's options of the report's run (its policy and its host, opened when a node is
  // first delegated): what each case must give is worked out as the run worked it out.
  OracleOptions meaning;
  std::string oracle;      // a fuzz report: what gave the expected values
  reports::Report report;  // a conformance report (kept for the records above)
};

// The string at key, or empty when it is absent or not a string.
std::string text_of(const nlohmann::json& j, const char* key);

// Reads options.report. Throws Error(io_error) when it cannot be read, Error(invalid_argument)
// when it is neither kind of report.
Source read_source(const BundleOptions& options);

}  // namespace seqconf::bundle
