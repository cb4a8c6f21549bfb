// Runtimes by name, as the CLI's --runtime option spells them.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/context.h"
#include "reference/interpreter/interpreter.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct RuntimeOptions {
  Policy policy = Policy::lenient;  // for the reference
  // Run every prepare and run in a worker process (runtimes/isolated.h): a crash or a hang
  // becomes a crash / timeout outcome and the run goes on.
  bool isolate = false;
  // Time limit in ms for an isolated run and for a process runtime's answer; 0: the default
  // (60 s).
  int timeout_ms = 0;
  // ONNX Runtime's graph optimization level (onnxruntime only); unset: ONNX Runtime's default.
  std::optional<OrtGraphOptimization> ort_graph_optimization;
  // transform=TOOL,RUNTIME: where the tool's output models of the cases that did not pass are
  // kept (runtimes/transform.h); empty: kept nowhere.
  std::filesystem::path keep_models_dir;
  // The reference's host runtime for the operators it does not implement (runtimes/host.h).
  std::shared_ptr<const interp::HostKernel> host;
};

// spec: "reference", or "<name>=<argument>" for runtimes that need a library path or a
// command, or "transform=TOOL[,RUNTIME]": a model-to-model tool (runtimes/transform.h), then
// RUNTIME (the reference when omitted; the text after the last comma, when it names a runtime).
// Throws Error(invalid_argument) naming the known runtimes for an unknown name.
std::unique_ptr<Runtime> make_runtime(const std::string& spec, const RuntimeOptions& options = {});

// The names make_runtime accepts (for --help and error messages).
std::vector<std::string> known_runtimes();

}  // namespace seqconf
