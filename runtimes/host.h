// A host runtime for the reference: the nodes whose operators the reference does not implement
// run alone on another runtime (ONNX Runtime by default), each as a model of one node, and their
// outputs flow on through the reference's interpreter (interp::HostKernel).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "reference/interpreter/interpreter.h"
#include "runtimes/runtime.h"

namespace seqconf {

// The host kernel that runs each delegated node on `host` (prepared once per node, opset imports
// and input types and shapes, then kept). Its name is the host's name and version; spec, when
// given, is how another process makes it again (HostKernel::spec). Calls are serialised: one host
// serves every thread of a run.
std::shared_ptr<const interp::HostKernel> make_host_kernel(
    std::shared_ptr<Runtime> host, std::optional<std::string> spec = std::nullopt);

// The host a run asks for: spec empty for ONNX Runtime from default_onnxruntime_library(), else a
// runtime as --runtime spells it (runtimes/registry.h), made in this process. Null, with *why,
// when it cannot be made.
std::shared_ptr<const interp::HostKernel> make_host(const std::string& spec, std::string* why);

// The host of make_host(spec), opened when a node is first delegated (a worker process that may
// never need one); a node it cannot run is host_rejected with the reason.
std::shared_ptr<const interp::HostKernel> make_lazy_host(const std::string& spec);

// Whether a host (HostKernel::location) is the runtime under test (Runtime::location): the same
// command, or the same library, by path or by content; the delegated values are then that
// runtime's own.
bool is_same_runtime(const std::string& host_location, const std::string& runtime_location);

// The words that carry a reference's host to a worker process (WorkerRecipe::argument): "no-host",
// or "host=" and its spec; none when the host cannot be made again (HostKernel::spec).
std::optional<std::string> host_argument(const std::shared_ptr<const interp::HostKernel>& host);
// The host a worker makes from host_argument's words (lazily, make_lazy_host); null for "no-host".
// Throws Error(invalid_argument) for other words.
std::shared_ptr<const interp::HostKernel> host_from_argument(const std::string& argument);

}  // namespace seqconf
