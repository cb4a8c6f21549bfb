// seqconf run: the suite (suite/suite.h) on a runtime named on the command line.
#include <iostream>

#include "reference/error.h"
#include "runtimes/host.h"
#include "runtimes/registry.h"
#include "suite/suite.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct RunArgs {
  std::string runtime = "reference";
  bool no_attribution = false;
  SuiteOptions suite;
};

int run_command(const RunArgs& args) {
  RuntimeOptions ro;
  ro.policy = args.suite.run.strict ? Policy::strict : Policy::lenient;
  ro.timeout_ms = args.suite.timeout_ms;  // a process runtime's answer; isolation is run_suite's
  if (!args.suite.ort_graph_optimization.empty())
    ro.ort_graph_optimization = ort_graph_optimization_from_name(args.suite.ort_graph_optimization);
  // A transform's output models of the cases that did not pass go beside the report:
  // out/report.json -> out/report.models/, named by absolute path so that the HTML report's links
  // hold wherever it is opened from.
  for (const auto& report : {args.suite.json_report, args.suite.html_report})
    if (ro.keep_models_dir.empty() && !report.empty())
      ro.keep_models_dir =
          std::filesystem::absolute(std::filesystem::path(report).replace_extension(".models"));
  SuiteOptions options = args.suite;
  options.runtime_spec = args.runtime;
  // The reference's host (runtimes/host.h), made once: the reference under test runs with the
  // same one as the reference that gives exported models' meaning.
  if (!options.no_host && (options.source == "exported" || options.source == "all")) {
    std::string why;
    options.run.host = make_host(options.host, &why);
    if (!options.run.host && !options.host.empty()) {
      std::cerr << "seqconf run: --host " << options.host << ": " << why << "\n";
      return kExitUsage;
    }
    ro.host = options.run.host;
  }
  // ONNX Runtime's departures are attributed to its kernels, its graph optimizers or its loader.
  if (args.runtime.substr(0, args.runtime.find('=')) == "onnxruntime" && !args.no_attribution) {
    const auto eq = args.runtime.find('=');
    const std::string library = eq == std::string::npos ? default_onnxruntime_library().string()
                                                        : args.runtime.substr(eq + 1);
    options.attribution = onnxruntime_attribution(
        library, ro.ort_graph_optimization.value_or(OrtGraphOptimization::all),
        args.suite.timeout_ms, ro.keep_models_dir);
  }
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
                  "process=COMMAND, transform=TOOL[,RUNTIME] (see seqconf runtimes)")
      ->capture_default_str();
  add_suite_options(*cmd, args->suite);
  cmd->add_option("--ort-graph-optimization", args->suite.ort_graph_optimization,
                  "ONNX Runtime's graph optimization level (onnxruntime only): disabled, basic, "
                  "extended or all (ONNX Runtime's default); the report's runtime name says any "
                  "level but all")
      ->check(CLI::IsMember({"disabled", "basic", "extended", "all"}));
  cmd->add_flag("--no-attribution", args->no_attribution,
                "onnxruntime: do not attribute departures to a kernel, a graph optimizer or the "
                "loader (by default the smallest case of each departure runs again with graph "
                "optimizations disabled, and as ONNX Runtime's own models on the reference)");
  cmd->callback([args] { set_exit_code(run_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
