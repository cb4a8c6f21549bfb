// seqconf history: the departures of several runs side by side, typically one JSON report per
// release of a runtime (tools/history.sh makes them), with the release in which each departure
// first appeared and the first in which it was gone.
//
//   seqconf history r1.json r2.json ... [--json F] [--html F] [--markdown F]
//
// Exit code: 0; 2 when a report is missing, unreadable or not a report, or two reports are
// runs of the same runtime and version.
#include <iostream>

#include "harness/outcome.h"
#include "reports/history.h"
#include "reports/json_report.h"
#include "reports/output.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct HistoryOptions {
  std::vector<std::string> reports;
  std::string json;
  std::string html;
  std::string markdown;
};

int run_history(const HistoryOptions& o) {
  std::vector<std::pair<std::string, reports::Report>> loaded;
  for (const std::string& file : o.reports) loaded.emplace_back(file, reports::load_report(file));
  const reports::History history = reports::history_of(loaded);
  if (!o.json.empty())
    reports::write_file_atomic(
        o.json, reports::history_to_json(history).dump(1, ' ', false,
                                                       nlohmann::json::error_handler_t::replace) +
                    "\n");
  if (!o.html.empty()) reports::write_file_atomic(o.html, reports::history_to_html(history));
  if (!o.markdown.empty())
    reports::write_file_atomic(o.markdown, reports::history_to_markdown(history));
  std::cout << terminal_safe(reports::history_to_text(history), true);
  return kExitOk;
}

const CommandRegistrar kHistory(62, [](CLI::App& app) {
  auto opts = std::make_shared<HistoryOptions>();
  auto* cmd = app.add_subcommand(
      "history",
      "Departures x runs: the departures of several reports (one per release) side by side, "
      "sorted by release, with the first release that shows each and the first that no longer "
      "does");
  cmd->add_option("reports", opts->reports, "JSON reports (seqconf run --report or merge)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--json", opts->json, "Write the table as JSON here");
  cmd->add_option("--html", opts->html, "Write the table as an HTML page here");
  cmd->add_option("--markdown", opts->markdown,
                  "Write the table as Markdown here (a README, a CI job summary)");
  cmd->callback([opts] { set_exit_code(run_history(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
