// What valgrind memcheck reports of a runtime in an isolated worker (seqconf run --memcheck;
// runtimes/memcheck.h): an error of a case (Outcome::memory_error), or one the worker made
// outside any case. Below the harness and the reports, which both carry them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace seqconf {

// One error memcheck reported.
struct MemoryError {
  // valgrind's error kind: "UninitCondition", "InvalidRead", "SyscallParam", ...
  std::string kind;
  std::string description;  // valgrind's one-line text of it
  // The top frames, innermost first: "function (library or file:line)".
  std::vector<std::string> frames;
};
inline bool operator==(const MemoryError& a, const MemoryError& b) {
  return a.kind == b.kind && a.description == b.description && a.frames == b.frames;
}

// When a worker made an error that belongs to no case.
enum class WorkerPhase {
  startup,        // while the worker started and made its runtime (loading ONNX Runtime, say)
  between_cases,  // between two answered requests (dropping a prepared model)
};
// "startup" | "between_cases", as in reports.
std::string_view worker_phase_name(WorkerPhase phase);
// "while the worker started" | "between cases": the phase in a sentence (HTML, JUnit).
std::string_view worker_phase_text(WorkerPhase phase);

// An error a worker made outside any case: the worker's, never a case's. A worker that is
// started again (after a case with an error, a crash or a timeout) makes its start-up errors
// again: one record counts the workers that made the same error (kind, text and frames).
struct WorkerMemoryError {
  WorkerPhase phase = WorkerPhase::startup;
  MemoryError error;
  int workers = 1;  // how many workers made it
};

// Adds e to `into`: counted on the record of the same phase and error, if there is one.
void add_worker_memory_error(std::vector<WorkerMemoryError>& into, const WorkerMemoryError& e);

}  // namespace seqconf
