// seqconf bundle: a standalone reproducer per departure of a report (bundle/bundle.h).
//
//   seqconf bundle REPORT --out DIR [--runtime SPEC|none] [--fixtures DIR] [--departure GLOB]
//
// Exit code: 0 when every departure got its folder and reproduced when run again (or was not run
// again, as told: --runtime none), 1 when one did not reproduce, could not be bundled or could not
// be run again (the runtime could not be started: how many is said), 2 when the report cannot be
// read or DIR written.
#include <algorithm>
#include <iostream>

#include "bundle/bundle.h"
#include "harness/outcome.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

int run_bundle(const bundle::BundleOptions& o) {
  const auto written = bundle::write_bundles(o, std::cout);
  size_t reproduced = 0, scripts = 0, missing = 0, unchecked = 0;
  std::string why_unchecked;
  for (const auto& b : written) {
    reproduced += b.reproduced;
    scripts += b.repro_js;
    missing += b.case_id.empty();
    if (!b.case_id.empty() && !b.rerun && !b.declined) {
      if (!unchecked++) why_unchecked = b.note;
    }
  }
  std::cout << terminal_safe(std::to_string(written.size()) + " departure folder(s) in " +
                             o.out.string() + ": " + std::to_string(reproduced) +
                             " reproduced when run again, " + std::to_string(scripts) +
                             " with repro.js" +
                             (missing ? ", " + std::to_string(missing) + " without a case" : "")) +
                   "\n";
  if (unchecked)
    std::cout << terminal_safe(std::to_string(unchecked) +
                               " departure(s) could not be re-checked (" + why_unchecked + ")")
              << "\n";
  const bool all = std::all_of(written.begin(), written.end(), [&](const auto& b) {
    return !b.case_id.empty() && (b.reproduced || (!b.rerun && b.declined));
  });
  return all ? kExitOk : kExitUnexpected;
}

const CommandRegistrar kBundle(63, [](CLI::App& app) {
  auto opts = std::make_shared<bundle::BundleOptions>();
  auto* cmd = app.add_subcommand(
      "bundle",
      "Write a standalone reproducer for each departure of a report: the smallest case, its "
      "values, what the runtime gives, README.md and a Node script (repro.js) on the runtime's "
      "own JavaScript API that exits 1 while the departure holds");
  cmd->add_option("report", opts->report,
                  "A JSON report: seqconf run --report, or seqconf fuzz --report")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", opts->out, "The folder to write, one folder per departure in it")
      ->required();
  cmd->add_option("--runtime", opts->runtime,
                  "Run the cases again on this runtime for its actual values (default: the "
                  "report's; none: do not run them)");
  cmd->add_option("--fixtures", opts->fixtures,
                  "A fuzz report's fixtures (the campaign's --out; default: the one it names)");
  cmd->add_option("--departure", opts->departures,
                  "Only the departures whose id matches this glob (repeatable)");
  cmd->add_option("--timeout", opts->timeout_ms,
                  "Time limit in ms per prepare and run, here and in repro.js")
      ->capture_default_str();
  cmd->callback([opts] { set_exit_code(run_bundle(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
