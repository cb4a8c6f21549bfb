#include "runtimes/registry.h"

#include "reference/error.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/process.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/seeded/seeded.h"
#include "runtimes/transform.h"

namespace seqconf {

std::vector<std::string> known_runtimes() {
  return {"reference",       "onnxruntime[=LIBRARY]", "onnxruntime-web",
          "process=COMMAND", "seeded=DEFECT",         "transform=TOOL[,RUNTIME]"};
}

namespace {

std::unique_ptr<Runtime> isolated(std::unique_ptr<Runtime> runtime, const RuntimeOptions& options) {
  if (!options.isolate) return runtime;
  IsolationOptions isolation;
  if (options.timeout_ms > 0) isolation.timeout_ms = options.timeout_ms;
  return isolate_runtime(std::move(runtime), isolation);
}

// transform=TOOL[,RUNTIME]: the runtime is the text after the last comma when that starts with a
// runtime's name (a tool's command may hold commas too), else the reference.
std::unique_ptr<Runtime> transform(const std::string& arg, const RuntimeOptions& options) {
  std::string tool = arg, runtime = "reference";
  if (const auto comma = arg.rfind(','); comma != std::string::npos) {
    const std::string rest = arg.substr(comma + 1);
    const std::string name = rest.substr(0, rest.find('='));
    for (const auto& known : known_runtimes())
      if (known.substr(0, known.find_first_of("=[")) == name && name != "transform") {
        tool = arg.substr(0, comma);
        runtime = rest;
      }
  }
  if (tool.empty())
    throw Error(ErrorCode::invalid_argument,
                "runtime 'transform' needs a tool: transform=TOOL[,RUNTIME]");
  RuntimeOptions inner = options;
  inner.keep_models_dir.clear();
  TransformOptions t;
  if (options.timeout_ms > 0) t.timeout_ms = options.timeout_ms;
  t.keep_dir = options.keep_models_dir;
  // The runtime after the tool is isolated as it would be on its own.
  IsolationOptions isolation;
  if (options.timeout_ms > 0) isolation.timeout_ms = options.timeout_ms;
  return make_transform_runtime(
      tool, isolate_unless_told(make_runtime(runtime, inner), std::nullopt, isolation),
      std::move(t));
}

}  // namespace

std::unique_ptr<Runtime> make_runtime(const std::string& spec, const RuntimeOptions& options) {
  const auto eq = spec.find('=');
  const std::string name = spec.substr(0, eq);
  const std::string arg = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
  if (name == "transform") return transform(arg, options);
  if (options.ort_graph_optimization && name != "onnxruntime")
    throw Error(ErrorCode::invalid_argument,
                "a graph optimization level is for runtime 'onnxruntime', not '" + name + "'");
  if (name == "reference") {
    if (!arg.empty())
      throw Error(ErrorCode::invalid_argument,
                  "runtime 'reference' takes no argument, got '" + arg + "'");
    return isolated(std::make_unique<ReferenceRuntime>(options.policy, nullptr, options.host),
                    options);
  }
  if (name == "seeded") {
    if (arg.empty())
      throw Error(ErrorCode::invalid_argument,
                  "runtime 'seeded' needs a defect: seeded=DEFECT (seqconf selftest --list)");
    return isolated(seeded::make_seeded_runtime(seeded::defect(arg), options.host), options);
  }
  ProcessOptions process;
  if (options.timeout_ms > 0) process.timeout_ms = options.timeout_ms;
  if (name == "onnxruntime")
    return isolated(make_onnxruntime_runtime(
                        arg.empty() ? default_onnxruntime_library() : std::filesystem::path(arg),
                        options.ort_graph_optimization.value_or(OrtGraphOptimization::all)),
                    options);
  if (name == "onnxruntime-web") {
    if (!arg.empty())
      throw Error(ErrorCode::invalid_argument,
                  "runtime 'onnxruntime-web' takes no argument (use process=COMMAND)");
    std::string why;
    const std::string command = onnxruntime_web_command(&why);
    if (command.empty())
      throw Error(ErrorCode::not_supported, "runtime 'onnxruntime-web' is unavailable: " + why);
    return make_process_runtime(command, process);
  }
  if (name == "process") {
    if (arg.empty())
      throw Error(ErrorCode::invalid_argument,
                  "runtime 'process' needs a command: process=COMMAND");
    return make_process_runtime(arg, process);
  }
  std::string names;
  for (const auto& n : known_runtimes()) names += (names.empty() ? "" : ", ") + n;
  throw Error(ErrorCode::invalid_argument, "unknown runtime '" + spec + "' (known: " + names + ")");
}

}  // namespace seqconf
