// Crash and timeout isolation: a Runtime decorator that prepares and runs models in a forked
// worker process. Requests (a model to prepare, inputs to run) and answers travel over a socket
// as serialized protos; the worker keeps its prepared models, so one fork serves many models.
// A worker killed by a signal gives RunError::Kind::crash naming the signal; a worker that does
// not answer within the time limit is killed (with its process group) and gives
// RunError::Kind::timeout. The next request forks a new worker, so the suite goes on with the
// next case either way. A crash is confirmed on a new worker that has prepared only the model
// concerned before it is reported, so a crash never depends on what the worker ran earlier.
#pragma once

#include <memory>

#include "runtimes/runtime.h"

namespace seqconf {

struct IsolationOptions {
  int timeout_ms = 60000;  // per prepare and per run; <= 0 waits forever
};

// The inner runtime object is only used inside the worker after construction (the worker is a
// fork of this process, so it starts with the inner runtime's state as it is here).
std::unique_ptr<Runtime> make_isolated_runtime(std::shared_ptr<Runtime> inner,
                                               IsolationOptions options = {});

// The runtime in an isolated worker, or the runtime itself when it runs out of process already
// (Runtime::out_of_process).
std::unique_ptr<Runtime> isolate_runtime(std::unique_ptr<Runtime> runtime,
                                         IsolationOptions options = {});

}  // namespace seqconf
