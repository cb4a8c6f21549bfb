// Memory errors of isolated workers; see memory_error.h.
#include "runtimes/memory_error.h"

namespace seqconf {

std::string_view worker_phase_name(WorkerPhase phase) {
  switch (phase) {
    case WorkerPhase::startup:
      return "startup";
    case WorkerPhase::between_cases:
      return "between_cases";
  }
  return "startup";
}

std::string_view worker_phase_text(WorkerPhase phase) {
  return phase == WorkerPhase::between_cases ? "between cases" : "while the worker started";
}

void add_worker_memory_error(std::vector<WorkerMemoryError>& into, const WorkerMemoryError& e) {
  for (WorkerMemoryError& known : into)
    if (known.phase == e.phase && known.error == e.error) {
      known.workers += e.workers;
      return;
    }
  into.push_back(e);
}

}  // namespace seqconf
