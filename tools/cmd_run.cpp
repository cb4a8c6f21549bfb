// seqconf run: the suite (suite/suite.h) on a runtime named on the command line.
#include <iostream>

#include "reference/error.h"
#include "runtimes/registry.h"
#include "suite/suite.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct RunArgs {
  std::string runtime = "reference";
  SuiteOptions suite;
};

int run_command(const RunArgs& args) {
  RuntimeOptions ro;
  ro.policy = args.suite.run.strict ? Policy::strict : Policy::lenient;
  ro.timeout_ms = args.suite.timeout_ms;  // a process runtime's answer; isolation is run_suite's
  if (!args.suite.ort_graph_optimization.empty())
    ro.ort_graph_optimization = ort_graph_optimization_from_name(args.suite.ort_graph_optimization);
  SuiteOptions options = args.suite;
  options.runtime_spec = args.runtime;
  try {
    return run_suite([&] { return make_runtime(args.runtime, ro); }, options).exit_code;
  } catch (const Error& e) {
    std::cerr << "seqconf run: " << e.what() << "\n";
    return kExitUsage;
  }
}

const CommandRegistrar kRun(10, [](CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  args->suite.embedded = false;
  args->suite.stop_on_signals = true;
  auto* cmd = app.add_subcommand("run", "Run conformance cases on a runtime");
  cmd->add_option("--runtime", args->runtime,
                  "Runtime: reference (default), onnxruntime[=LIBRARY], onnxruntime-web, "
                  "process=COMMAND (see seqconf runtimes)")
      ->capture_default_str();
  add_suite_options(*cmd, args->suite);
  cmd->add_option("--ort-graph-optimization", args->suite.ort_graph_optimization,
                  "ONNX Runtime's graph optimization level (onnxruntime only): disabled, basic, "
                  "extended or all (ONNX Runtime's default); the report's runtime name says any "
                  "level but all")
      ->check(CLI::IsMember({"disabled", "basic", "extended", "all"}));
  cmd->callback([args] { set_exit_code(run_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
