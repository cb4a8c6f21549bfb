// seqconf ambiguities: what the spec leaves open, measured on the reference under each policy
// and on the runtimes given (suite/ambiguities.h), written as DIR/ambiguities.{json,md,html}.
#include <iostream>

#include "reference/error.h"
#include "runtimes/registry.h"
#include "suite/ambiguities.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct AmbiguitiesArgs {
  std::vector<std::string> runtimes;
  std::string out = ".";
  AmbiguityOptions options;
};

int ambiguities_command(const AmbiguitiesArgs& args) {
  std::vector<std::string> specs = args.runtimes;
  // ONNX Runtime by default, when this build can drive it.
  if (specs.empty()) {
    try {
      make_runtime("onnxruntime");
      specs.push_back("onnxruntime");
    } catch (const std::exception& e) {
      std::cerr << "seqconf ambiguities: note: no --runtime given and ONNX Runtime is not "
                   "available ("
                << e.what() << "): the reference only\n";
    }
  }
  std::vector<AmbiguityRuntime> runtimes;
  for (const std::string& spec : specs) {
    RuntimeOptions ro;
    ro.timeout_ms = args.options.timeout_ms;
    // A runtime asked for by name must exist: a clear error rather than an empty row.
    try {
      make_runtime(spec, ro);
    } catch (const std::exception& e) {
      std::cerr << "seqconf ambiguities: --runtime " << spec << ": " << e.what() << "\n";
      return kExitUsage;
    }
    runtimes.push_back({spec, [spec, ro] { return make_runtime(spec, ro); }});
  }
  try {
    const reports::AmbiguitiesReport r = measure_ambiguities(runtimes, args.options);
    reports::write_ambiguities(r, args.out);
    for (const auto& n : r.notes) std::cerr << "note: " << n << "\n";
    for (const auto& e : r.entries) {
      std::cout << e.question.id << " (" << e.question.status << "): " << e.cases.size()
                << " case(s)\n";
      for (const auto& impl : r.implementations) {
        if (!impl.note.empty()) continue;
        const std::string s = reports::reading_summary(e, impl.id);
        if (!s.empty()) std::cout << "  " << impl.name << ": " << s << "\n";
      }
    }
    for (const auto& impl : r.implementations)
      if (!impl.note.empty())
        std::cerr << "seqconf ambiguities: " << impl.id << " did not answer: " << impl.note << "\n";
    const std::filesystem::path dir(args.out);
    std::cout << "wrote " << (dir / "ambiguities.json").string() << ", .md, .html\n";
  } catch (const Error& e) {
    std::cerr << "seqconf ambiguities: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

const CommandRegistrar kAmbiguities(45, [](CLI::App& app) {
  auto args = std::make_shared<AmbiguitiesArgs>();
  auto* cmd = app.add_subcommand(
      "ambiguities",
      "What the spec leaves open: each question with its sentence, its readings, the smallest "
      "cases that tell them apart and what the reference (under each policy) and each runtime "
      "does on them; writes DIR/ambiguities.json, .md (ready to file) and .html");
  cmd->add_option("--runtime", args->runtimes,
                  "A runtime to ask, as `seqconf run --runtime` spells it; repeatable (default: "
                  "onnxruntime when available)");
  cmd->add_option("--out", args->out, "Directory of the three files")->capture_default_str();
  cmd->add_option("--question", args->options.questions, "Only this question (its id); repeatable");
  cmd->add_option("--corpus", args->options.corpus, "The generated corpus (default: the build's)");
  cmd->add_option("--exported", args->options.exported, "Models an exporter wrote");
  cmd->add_option("--onnx-testdata", args->options.onnx_testdata, "ONNX's backend test data");
  cmd->add_option("--cases-per-group", args->options.cases_per_group,
                  "Corpus cases kept per question and operator (the smallest)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->add_option("--jobs", args->options.jobs, "Worker threads")->check(CLI::Range(1, 64));
  cmd->add_option("--timeout-ms", args->options.timeout_ms,
                  "Per isolated prepare and run (0: 60 s)");
  cmd->callback([args] { set_exit_code(ambiguities_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
