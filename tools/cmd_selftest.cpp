// seqconf selftest: the suite checked against its seeded defects (runtimes/seeded/).
#include <iomanip>
#include <iostream>

#include "harness/outcome.h"
#include "reports/output.h"
#include "runtimes/seeded/seeded.h"
#include "selftest/selftest.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct SelftestArgs {
  selftest::Options options;
  std::filesystem::path report;
  size_t seeds = 5;
  bool list = false;
};

int selftest_command(SelftestArgs& args) {
  if (args.list) {
    for (const seeded::Defect& d : seeded::defects())
      std::cout << terminal_safe(d.id + "\t" + d.op + "\t" + d.description + " (" + d.copies + ")")
                << "\n";
    return kExitOk;
  }
  args.options.fuzz_seeds.clear();
  for (size_t s = 1; s <= args.seeds; ++s) args.options.fuzz_seeds.push_back(s);
  args.options.log = [](const std::string& line) {
    std::cout << terminal_safe(line) << "\n" << std::flush;
  };
  selftest::Result r;
  try {
    r = selftest::run(args.options);
  } catch (const std::exception& e) {
    std::cerr << "seqconf selftest: " << e.what() << "\n";
    return kExitUsage;
  }
  const auto j = selftest::report_json(r, args.options);
  if (!args.report.empty()) {
    try {
      reports::write_file_atomic(args.report, j.dump(2) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "seqconf selftest: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  std::cout << r.defects.size() << " seeded defects on " << r.reference_cases << " cases ("
            << r.reference_failures << " not passed by the reference): " << r.caught_by_no_case
            << " caught by no case";
  if (!args.options.fuzz_seeds.empty())
    std::cout << ", " << r.not_found << " not found by fuzzing within "
              << args.options.fuzz_budget_s << " s (median of " << args.options.fuzz_seeds.size()
              << " seeds)";
  std::cout << "\n";
  if (!args.report.empty()) std::cout << "report: " << args.report.string() << "\n";
  return r.caught_by_no_case > 0 || r.not_found > 0 || r.reference_failures > 0 ? kExitUnexpected
                                                                                : kExitOk;
}

const CommandRegistrar kSelftest(37, [](CLI::App& app) {
  auto args = std::make_shared<SelftestArgs>();
  auto* cmd = app.add_subcommand(
      "selftest",
      "Check the suite against its seeded defects (the reference with one realistic defect "
      "each): which cases catch each one, and how fast fuzzing finds it. Exit 1 when a defect "
      "is caught by no case or not found by fuzzing within the budget");
  cmd->add_flag("--list", args->list, "List the seeded defects and exit");
  cmd->add_option("--report", args->report, "Write the JSON report here");
  cmd->add_option("--defects", args->options.defects,
                  "Only the defects whose id matches one of these globs");
  cmd->add_option("--source", args->options.source, "Cases: onnx-backend | corpus | all")
      ->capture_default_str();
  cmd->add_option("--corpus", args->options.corpus, "The generated corpus (default: installed)");
  cmd->add_option("--onnx-testdata", args->options.onnx_testdata,
                  "ONNX's backend test data (default: Debian's libonnx-testdata)");
  cmd->add_option("--fuzz-seeds", args->seeds, "Fuzzing campaigns per defect, seeds 1..N (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cmd->add_option("--fuzz-budget", args->options.fuzz_budget_s,
                  "Seconds each campaign may take to find its defect")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--fuzz-input-sets", args->options.fuzz_input_sets,
                  "Input sets per structure in each campaign (seqconf fuzz --input-sets)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--jobs,-j", args->options.jobs, "Worker threads for the case runs")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->callback([args] { set_exit_code(selftest_command(*args)); });
});

}  // namespace
}  // namespace seqconf::cli
