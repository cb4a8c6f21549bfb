// The execution step of a run (cases -> runtimes -> outcomes) and what it needs around the
// runner: shards, worker threads, a stop request on SIGINT or SIGTERM, and a progress line.
// Nothing here knows about reports; suite/suite.h builds a run on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/runner.h"

namespace seqconf {

// --shard I/N: shard I (1-based) of N. A case belongs to shard 1 + fnv1a64(id) mod N, so its
// shard depends only on its id (stable when cases are added or removed elsewhere).
struct Shard {
  int index = 1;
  int count = 1;
  bool contains(std::string_view case_id) const;
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};
// Throws Error(invalid_argument) unless text is "I/N" with 1 <= I <= N.
Shard parse_shard(const std::string& text);
uint64_t fnv1a64(std::string_view s);

// SIGINT / SIGTERM set a flag instead of killing the process; the run loop checks it and stops
// after the cases in flight. A second signal restores the default action (kills the process).
void install_stop_handlers();
bool stop_requested();
int stop_signal();  // the signal that asked to stop, 0 if none
// Asks to stop as a signal would (for --stop-after and tests).
void request_stop();
// Forgets a stop request (tests).
void clear_stop_request();

// Runs work(worker, index) for index in [0, count) on `jobs` threads (worker in [0, jobs)),
// each index exactly once unless a stop is requested: then no new index starts. Returns the
// number of indices started. jobs <= 1 runs on the calling thread, in order.
size_t run_indices(size_t count, int jobs,
                   const std::function<void(int worker, size_t index)>& work);

// "[12/340] id" on one terminal line (rewritten in place), only when stderr is a terminal.
class Progress {
 public:
  // Whole lines (print) go to out.
  Progress(size_t total, std::ostream& out);
  ~Progress();
  void done(const std::string& id);  // thread-safe
  // Prints a whole line (e.g. a failure) without tearing the progress line. Thread-safe.
  void print(const std::string& line);
  void finish();

 private:
  std::mutex mutex_;
  std::ostream& out_;
  size_t total_;
  size_t done_ = 0;
  bool tty_;
  bool shown_ = false;
};

// Runs every case on the runtime of the worker that takes it (runtimes[w] serves worker w only:
// a runtime object is never shared between threads) until a stop is requested; then no new case
// starts. Returns one slot per case, in case order; an empty slot was not run. A crash or
// timeout met while the run is being stopped says nothing about the runtime (the signal may have
// reached its process too): that case counts as not run. on_outcome is called for each kept
// outcome, from the worker's thread.
std::vector<std::optional<Outcome>> run_cases(
    const std::vector<Case>& cases, const std::vector<Runtime*>& runtimes,
    const RunOptions& options, const std::function<void(const Outcome&)>& on_outcome = {});

}  // namespace seqconf
