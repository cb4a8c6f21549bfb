// The case of a departure run again on the runtime, for what it gives now: the runtime of the
// report (or --runtime), isolated, and under valgrind memcheck for a case whose departure is a
// memory error.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/expected.h"
#include "cases/case.h"
#include "runtimes/runtime.h"

namespace seqconf::bundle {

// What running a case again showed.
struct Rerun {
  bool rerun = false;       // the case ran on the runtime again
  bool reproduced = false;  // ... and departed again
  size_t pick = 0;          // the first data set on which it departed (0 when none did)
  std::vector<std::optional<RunResult>> results;  // each data set's result, when it ran
  std::string what_it_did;                        // how it departed; empty when it did not
  std::optional<MemoryError> memory_error;        // memcheck's error, the report's or the rerun's
  std::string note;                               // why it was not rerun or did not depart
  bool declined = false;                          // not rerun, as told (--runtime none)
};

class Rerunner {
 public:
  // spec: a --runtime spec; "none": nothing runs again. A runtime that cannot be made is a note
  // on every case, not an error.
  Rerunner(const std::string& spec, int timeout_ms);
  ~Rerunner();

  // Runs the case's data sets until one departs from its expectation. A case with a memory
  // error (memory_error: what the report's run under memcheck found) runs under memcheck, and
  // departs when memcheck reports an error again.
  Rerun run(const Case& c, const LoadedCase& lc, const std::vector<Expected>& expected,
            std::optional<MemoryError> memory_error);
  // The runtime cases run again on (isolated); null when nothing runs again.
  Runtime* runtime() { return runtime_.get(); }

 private:
  Runtime* under_memcheck();

  std::string spec_;
  int timeout_ms_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<Runtime> memcheck_runtime_;  // made on first use
  std::string no_rerun_;                       // why nothing runs again
  bool declined_ = false;                      // --runtime none
};

}  // namespace seqconf::bundle
