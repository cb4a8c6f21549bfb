// seqconf diff: what changed, case by case, between two JSON reports (one of them may be shards
// merged with seqconf merge): regressions, progressions, changed failures, cases that appeared
// or disappeared, grouped by departure.
//
//   seqconf diff base.json new.json [--json diff.json] [--html diff.html]
//
// Exit code: 1 iff a case regressed (pass in base, anything else in new), else 0; 2 when a
// report is missing, unreadable or not a report.
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
};

int run_diff(const DiffOptions& o) {
  const reports::Report base = reports::load_report(o.base);
  const reports::Report next = reports::load_report(o.next);
  const reports::ReportDiff diff = reports::diff_reports(base, next, o.base, o.next);
  if (!o.json.empty())
    reports::write_file_atomic(
        o.json,
        reports::diff_to_json(diff).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
            "\n");
  if (!o.html.empty()) reports::write_file_atomic(o.html, reports::diff_to_html(diff));
  std::cout << terminal_safe(reports::diff_to_text(diff), true);
  return diff.has_regressions() ? kExitUnexpected : kExitOk;
}

const CommandRegistrar kDiff(61, [](CLI::App& app) {
  auto opts = std::make_shared<DiffOptions>();
  auto* cmd = app.add_subcommand(
      "diff",
      "Compare two reports case by case: regressed (pass -> not pass), progressed, changed "
      "failure, appeared, disappeared; exit 1 iff a case regressed");
  cmd->add_option("base", opts->base, "The earlier JSON report (seqconf run --report or merge)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("new", opts->next, "The later JSON report")->required()->check(CLI::ExistingFile);
  cmd->add_option("--json", opts->json, "Write the changes as JSON here");
  cmd->add_option("--html", opts->html, "Write the changes as an HTML page here");
  cmd->callback([opts] { set_exit_code(run_diff(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
