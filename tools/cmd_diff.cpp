// seqconf diff: what changed, case by case, between two JSON reports (one of them may be shards
// merged with seqconf merge): regressions, progressions, changed failures, cases that appeared
// or disappeared, grouped by departure.
//
//   seqconf diff base.json new.json [--json diff.json] [--html diff.html]
//
// Exit code: 1 when the gate fails (reports/diff.h, gate_failures: a case regressed, new is
// incomplete, a case that passed in base is absent from new, or the runs selected their cases
// differently; --allow-incomplete and --allow-missing accept the last three), else 0; 2 when a
// report is missing, unreadable or not a report. The first line says why.
#include <iostream>

#include "harness/outcome.h"
#include "reports/diff.h"
#include "reports/json_report.h"
#include "reports/output.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct DiffOptions {
  std::string base;
  std::string next;
  std::string json;
  std::string html;
  reports::DiffGate gate;
};

int run_diff(const DiffOptions& o) {
  const reports::Report base = reports::load_report(o.base);
  const reports::Report next = reports::load_report(o.next);
  reports::ReportDiff diff = reports::diff_reports(base, next, o.base, o.next);
  diff.gate = o.gate;
  if (!o.json.empty())
    reports::write_file_atomic(
        o.json,
        reports::diff_to_json(diff).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
            "\n");
  if (!o.html.empty()) reports::write_file_atomic(o.html, reports::diff_to_html(diff));
  std::cout << terminal_safe(reports::diff_to_text(diff), true);
  return reports::gate_failures(diff).empty() ? kExitOk : kExitUnexpected;
}

const CommandRegistrar kDiff(61, [](CLI::App& app) {
  auto opts = std::make_shared<DiffOptions>();
  auto* cmd = app.add_subcommand(
      "diff",
      "Compare two reports case by case: regressed (pass -> not pass), progressed, changed "
      "failure, appeared, disappeared; exit 1 when a case regressed, or new is incomplete, lost a "
      "case that passed or selected its cases otherwise");
  cmd->add_option("base", opts->base, "The earlier JSON report (seqconf run --report or merge)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("new", opts->next, "The later JSON report")->required()->check(CLI::ExistingFile);
  cmd->add_option("--json", opts->json, "Write the changes as JSON here");
  cmd->add_option("--html", opts->html, "Write the changes as an HTML page here");
  cmd->add_flag("--allow-incomplete", opts->gate.allow_incomplete,
                "Accept a new report of an interrupted run (complete: false)");
  cmd->add_flag("--allow-missing", opts->gate.allow_missing,
                "Accept cases that passed in base and are absent from new, and runs that "
                "selected their cases differently (source, filters, shard, strict)");
  cmd->callback([opts] { set_exit_code(run_diff(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
