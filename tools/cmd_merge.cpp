// seqconf merge: merges the JSON reports of the shards of one run into one report, and/or
// writes an index page comparing the reports of several runtimes side by side.
//
//   seqconf merge shard1.json shard2.json --report all.json [--junit all.xml] [--html all.html]
//   seqconf merge reference.json onnxruntime.json --index index.html
//
// Exit code: 2 on unreadable or inconsistent reports; with --report/--junit/--html, 1 iff the
// merged report has unexpected outcomes; otherwise 0.
#include <filesystem>
#include <iostream>

#include "harness/outcome.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string report;
  std::string junit;
  std::string html;
  std::string index;
  std::string ambiguities;  // seqconf ambiguities' page, linked from the index
};

// A link from the index page to another file, relative to the index's directory.
std::string relative_link(const std::filesystem::path& target, const std::string& index) {
  std::error_code ec;
  if (!std::filesystem::exists(target, ec)) return {};
  const auto base = std::filesystem::absolute(index).parent_path();
  const auto rel = std::filesystem::relative(std::filesystem::absolute(target), base, ec);
  return ec ? std::string() : rel.generic_string();
}

int run_merge(const MergeOptions& o) {
  std::vector<reports::Report> parts;
  for (const auto& path : o.inputs) parts.push_back(reports::load_report(path));

  int code = kExitOk;
  if (!o.report.empty() || !o.junit.empty() || !o.html.empty()) {
    const reports::Report merged = reports::merge(parts, o.inputs);
    if (!o.report.empty())
      reports::write_file_atomic(o.report, reports::report_to_json_text(merged));
    if (!o.junit.empty()) reports::write_file_atomic(o.junit, reports::report_to_junit(merged));
    if (!o.html.empty()) reports::write_file_atomic(o.html, reports::report_to_html(merged));
    std::cout << terminal_safe("merged " + std::to_string(o.inputs.size()) + " report(s) of " +
                                   merged.info.runtime_name + ": " +
                                   std::to_string(merged.summary.total) + " cases" +
                                   (merged.info.complete ? "" : " (incomplete)") + "\n" +
                                   reports::summary_text(merged) + reports::departures_text(merged),
                               true);
    code = reports::exit_code(merged);
  }
  if (!o.index.empty()) {
    std::vector<reports::IndexEntry> entries;
    for (size_t k = 0; k < parts.size(); ++k) {
      std::filesystem::path json = o.inputs[k];
      std::filesystem::path html = json;
      html.replace_extension(".html");
      entries.push_back(
          {std::move(parts[k]), relative_link(html, o.index), relative_link(json, o.index)});
    }
    std::vector<std::pair<std::string, std::string>> links;
    if (!o.ambiguities.empty()) {
      const std::string href = relative_link(o.ambiguities, o.index);
      if (href.empty()) {
        std::cerr << "seqconf merge: --ambiguities " << o.ambiguities << ": no such file\n";
        return kExitUsage;
      }
      links.push_back(
          {"What the spec leaves open: the open questions and every runtime's answers", href});
    }
    reports::write_file_atomic(o.index, reports::index_to_html(entries, links));
    std::cout << "index of " << entries.size() << " runtime(s): " << o.index << "\n";
  }
  return code;
}

const CommandRegistrar kMerge(60, [](CLI::App& app) {
  auto opts = std::make_shared<MergeOptions>();
  auto* cmd =
      app.add_subcommand("merge",
                         "Merge shard reports of one run (--report/--junit/--html), or compare the "
                         "reports of several runtimes on one page (--index)");
  cmd->add_option("reports", opts->inputs, "JSON reports written by seqconf run --report")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--report", opts->report, "Write the merged JSON report here");
  cmd->add_option("--junit", opts->junit, "Write the merged report as JUnit XML here");
  cmd->add_option("--html", opts->html, "Write the merged report as an HTML page here");
  cmd->add_option("--index", opts->index,
                  "Write an HTML page comparing the given reports (one per runtime) here");
  cmd->add_option("--ambiguities", opts->ambiguities,
                  "With --index: link this page (seqconf ambiguities' ambiguities.html) from it");
  cmd->callback([opts] {
    if (opts->report.empty() && opts->junit.empty() && opts->html.empty() && opts->index.empty())
      throw CLI::ValidationError("merge", "give --report, --junit, --html and/or --index");
    set_exit_code(run_merge(*opts));
  });
});

}  // namespace
}  // namespace seqconf::cli
