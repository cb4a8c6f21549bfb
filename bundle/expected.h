// The case's expectation (the spec's outputs, or a rejection) and whether a runtime's result
// departs from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cases/case.h"
#include "harness/compare.h"
#include "harness/oracle.h"
#include "runtimes/runtime.h"

namespace seqconf::bundle {

struct Expected {
  bool rejected = false;
  std::string why;  // rejected: the error code the reference gives
  // rejected: where the reference rejects it: the model when it is loaded (true), or its inputs
  // when it runs (false).
  bool at_load = false;
  // The spec's meaning of the data set was not found (harness/oracle.h: a gap of the reference
  // or its host): nothing is expected of the runtime there; why says what stopped it.
  bool not_judged = false;
  std::vector<Value> outputs;
};

// Each data set's expectation, from the oracle (harness/oracle.h) under the options of the
// report's run: an exported model's from the reference and its host, another case's from its
// fixture (its outputs, or the error it must be rejected with under the policy).
std::vector<Expected> expectations_of(const Case& c, const LoadedCase& lc,
                                      const OracleOptions& options);

// "<kind>: <message>" of a runtime's error.
std::string error_text(const RunError& e);

// Whether a result departs from the expectation, and how (one line); never on a data set that
// is not judged.
std::optional<std::string> departs(const Expected& e, const RunResult& r,
                                   const ComparisonRule& rule);

}  // namespace seqconf::bundle
