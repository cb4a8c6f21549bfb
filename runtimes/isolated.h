// Crash and timeout isolation: a Runtime decorator that prepares and runs models in a worker
// process. Requests (a model to prepare, inputs to run) and answers travel over a socket
// as serialized protos; the worker keeps its prepared models, so one worker serves many models.
// A worker killed by a signal gives RunError::Kind::crash naming the signal; a worker that does
// not answer within the time limit is killed (with its process group) and gives
// RunError::Kind::timeout. The next request starts a new worker, so the suite goes on with the
// next case either way. A crash is confirmed on a new worker that has prepared only the model
// concerned before it is reported, so a crash never depends on what the worker ran earlier.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "reference/limits.h"
#include "runtimes/memory_error.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct IsolationOptions {
  int timeout_ms = 60000;  // per prepare and per run; <= 0 waits forever
  // The size limit the worker runs under (reference/limits.h): the worker is another process,
  // so the limit of the thread that asks does not reach it otherwise.
  size_t max_tensor_bytes = kDefaultMaxTensorBytes;
  // The recipe of a runtime that has none of its own (Runtime::recipe), for example the one a
  // program embedding the suite registers for its runtime factory (suite_main).
  std::optional<WorkerRecipe> recipe;
  // Run the worker under valgrind memcheck (runtimes/memcheck.h) with its time limit
  // kMemcheckSlowdown times as long. The worker tells how many errors memcheck has counted so
  // far (VALGRIND_COUNT_ERRORS) once it has started and made its runtime, before its first
  // request, after each answered request, and after each request without an answer (dropping a
  // model). The parent reads those counts before it sends the next request, while the worker
  // waits: the errors memcheck wrote in its XML output until then are the worker's
  // (IsolatedRuntime::take_worker_memory_errors: start-up, or between cases), and those written
  // while it answered a request are the request's (IsolatedRuntime::take_memory_error).
  bool memcheck = false;
};

// Requests and answers are lists of fields: each a uint64 length, then its bytes.
void put_field(std::string& out, const std::string& field);
class FieldReader {
 public:
  explicit FieldReader(const std::string& s) : s_(s) {}
  std::string get();  // the next field; Error(invalid_proto) when the message is truncated

 private:
  const std::string& s_;
  size_t pos_ = 0;
};

// A persistent worker process that answers requests (bytes in, bytes out) with a handler,
// started on first use and again after it died or was killed. A worker killed by a signal gives
// an answer with RunError::Kind::crash naming the signal and quoting the last line it wrote to
// stderr; one that does not answer within the time limit is killed with its process group and
// gives RunError::Kind::timeout. One request at a time. The isolated runtime below and the
// sandboxed static checks (harness/static_checks.h) are built on it.
//
// A worker is started by exec of this program (posix_spawn of /proc/self/exe with the worker's
// arguments), never by fork() alone: a fork of a process whose other threads hold a lock (the
// allocator's, the sanitizer's, protobuf's, the loader's) would start with that lock held
// forever. The exec'd program serves from the top of its main (serve_if_worker) and makes its
// handler from the recipe: a kind registered with WorkerKind, and its argument.
class WorkerProcess {
 public:
  // Runs in the worker: the answer to a request, or nullopt for a request without one.
  using Handler = std::function<std::optional<std::string>(const std::string& request)>;
  struct Answer {
    bool ok = false;
    std::string bytes;  // the handler's answer when ok
    RunError error;     // else: crash, timeout, or internal (the worker could not be started)
  };
  WorkerProcess(WorkerRecipe recipe, IsolationOptions options);
  ~WorkerProcess();
  // what: names the request in error messages ("onnxruntime prepare").
  Answer call(const std::string& what, const std::string& payload);
  // call() in two halves, so that the caller can work while the worker does: send() returns
  // once the request is sent, receive() waits for its answer (or gives the failure of either).
  // The time limit counts from send(). Every send() is followed by one receive() before the
  // next request.
  void send(const std::string& what, const std::string& payload);
  Answer receive();
  // Starts the worker now if there is none.
  void start();
  // A request without an answer, for the worker of that generation only.
  void tell(uint64_t generation, const std::string& payload);
  uint64_t generation() const;  // changes each time the worker is started anew
  uint64_t requests() const;    // requests sent to the current worker (calls and tells)
  bool alive() const;
  std::string new_id();
  // Under memcheck (IsolationOptions::memcheck): the first memory error the worker made while it
  // answered a request since the last call, if any; the worker is then stopped, and the next
  // request starts a new one.
  std::optional<MemoryError> take_memory_error();
  // Under memcheck: the errors the workers made outside any request since the last call (while
  // they started and made their runtime, or between requests), each once with the number of
  // workers that made it. Reads first what the current worker still owes (its start-up, the
  // models it dropped since its last answer), waiting for it within the time limit.
  std::vector<WorkerMemoryError> take_worker_memory_errors();

 private:
  class Process;
  std::unique_ptr<Process> process_;
};

// A worker kind: makes, inside the worker, the handler of a recipe from its argument. Register
// one at static initialization, in the file that defines what it serves (so that every program
// that can ask for it also has it).
using WorkerFactory = std::function<WorkerProcess::Handler(const std::string& argument)>;
struct WorkerKind {
  WorkerKind(const std::string& kind, WorkerFactory make);
};

// The handler of a worker that serves a runtime: prepares, runs and drops models on request.
WorkerProcess::Handler serve_runtime(std::shared_ptr<Runtime> runtime);

// Every program that starts workers calls this first in main(): when the program was started
// as a worker, it serves its parent's requests and exits; otherwise it returns at once.
void serve_if_worker(int argc, char** argv);

// A runtime in an isolated worker (make_isolated_runtime): a Runtime, and what only its worker
// can tell, valgrind memcheck's errors (IsolationOptions::memcheck).
class IsolatedRuntime : public Runtime {
 public:
  // The first memory error memcheck reported while the worker prepared and ran models since the
  // last call, and the worker is replaced so that every error it reports is new; nullopt
  // otherwise, and always without memcheck. A run asks once a case has its outcome.
  virtual std::optional<MemoryError> take_memory_error() = 0;
  // The errors the worker made outside any case since the last call (WorkerProcess::
  // take_worker_memory_errors): never a case's. A run asks once its cases are done.
  virtual std::vector<WorkerMemoryError> take_worker_memory_errors() = 0;
};

// The runtime as an isolated one, or null when it does not run in an isolated worker.
IsolatedRuntime* as_isolated(Runtime& runtime);
// IsolatedRuntime::take_memory_error of an isolated runtime; nullopt for any other.
std::optional<MemoryError> take_memory_error(Runtime& runtime);

// The inner runtime answers name(), version() and location() here; the worker makes its own
// from the inner runtime's recipe (Runtime::recipe), or else from options.recipe. Throws
// Error(invalid_argument) when there is neither.
std::unique_ptr<IsolatedRuntime> make_isolated_runtime(std::shared_ptr<Runtime> inner,
                                                       IsolationOptions options = {});

// The runtime in an isolated worker, or the runtime itself when it runs out of process already
// (Runtime::out_of_process).
std::unique_ptr<Runtime> isolate_runtime(std::unique_ptr<Runtime> runtime,
                                         IsolationOptions options = {});

// The runtime as a run uses it: isolated when `isolate` says so, or, when it is unset, when the
// runtime is isolated by default (every runtime but the reference: Runtime::isolated_by_default).
std::unique_ptr<Runtime> isolate_unless_told(std::unique_ptr<Runtime> runtime,
                                             std::optional<bool> isolate,
                                             IsolationOptions options = {});

}  // namespace seqconf
