// Crash and timeout isolation: a Runtime decorator that prepares and runs the model in a forked
// child process. Results come back over a pipe as serialized protos. A child killed by a signal
// gives RunError::Kind::crash naming the signal; a child that does not answer within the time
// limit is killed (with its process group) and gives RunError::Kind::timeout. The suite goes
// on with the next case either way.
#pragma once

#include <memory>

#include "runtimes/runtime.h"

namespace seqconf {

struct IsolationOptions {
  int timeout_ms = 60000;  // per prepare and per run; <= 0 waits forever
};

// prepare() checks the model in a child (so a crash while loading is an outcome too); each
// run() forks a child that prepares the model again and runs it. The inner runtime object is
// only used inside children after construction.
std::unique_ptr<Runtime> make_isolated_runtime(std::shared_ptr<Runtime> inner,
                                               IsolationOptions options = {});

}  // namespace seqconf
