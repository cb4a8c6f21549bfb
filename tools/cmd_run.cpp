// seqconf run: run the cases of one or more sources on a runtime and report what departs.
#include <iostream>

#include "harness/runner.h"
#include "reference/error.h"
#include "runtimes/registry.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct RunArgs {
  std::string runtime = "reference";
  CaseSelection selection;
  bool strict = false;
  bool no_static_checks = false;
};

int run_command(const RunArgs& args) {
  std::vector<std::string> notes;
  std::vector<Case> cases;
  std::unique_ptr<Runtime> runtime;
  try {
    RuntimeOptions ro;
    ro.policy = args.strict ? Policy::strict : Policy::lenient;
    runtime = make_runtime(args.runtime, ro);
    cases = select_cases(args.selection, &notes);
  } catch (const Error& e) {
    std::cerr << "seqconf run: " << e.what() << "\n";
    return kExitUsage;
  }
  for (const auto& n : notes) std::cerr << "note: " << n << "\n";
  if (cases.empty()) {
    std::cerr << "seqconf run: no case found (source " << args.selection.source << ")\n";
    return kExitUsage;
  }
  RunOptions options;
  options.strict = args.strict;
  options.static_checks = !args.no_static_checks;
  const auto outcomes = run_cases(cases, *runtime, options, [](const Outcome& o) {
    if (o.status != Status::pass) std::cout << outcome_line(o) << "\n";
  });
  for (const auto& o : outcomes)
    for (const auto& f : o.findings)
      std::cout << "FINDING " << o.case_id << " [" << f.check << "] " << f.message << "\n";
  const Tally t = tally(outcomes);
  std::cout << summary_line(t, runtime->name() + " " + runtime->version()) << "\n";
  return t.pass == t.total ? kExitOk : kExitUnexpected;
}

const CommandRegistrar kRun(10, [](CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  args->selection.corpus = default_corpus_root();
  auto* cmd = app.add_subcommand("run", "Run conformance cases on a runtime");
  cmd->add_option("--runtime", args->runtime, "Runtime: reference (default)")
      ->capture_default_str();
  cmd->add_option("--source", args->selection.source, "Cases: onnx-backend, corpus or all")
      ->check(CLI::IsMember({"onnx-backend", "corpus", "all"}))
      ->capture_default_str();
  cmd->add_option("--onnx-testdata", args->selection.onnx_testdata,
                  "ONNX backend test data root (default $SEQCONF_ONNX_TESTDATA or "
                  "/usr/share/libonnx-testdata/data)");
  cmd->add_option("--corpus", args->selection.corpus, "Generated corpus root")
      ->capture_default_str();
  cmd->add_option("--filter", args->selection.filters,
                  "Case id glob (* and ?; a plain id also selects its subtree); repeatable");
  cmd->add_flag("--strict", args->strict,
                "Strict policy: reject where the spec is ambiguous (reference), and use the "
                "strict expectations of ambiguous cases");
  cmd->add_flag("--no-static-checks", args->no_static_checks,
                "Skip onnx::checker and shape inference on each model");
  cmd->callback([args] { set_exit_code(run_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
