// Writes one report of every kind the suite produces from synthetic outcomes, for the schema
// and browser tests: normal, with expectations, merged from two shards, interrupted; each as
// JSON, JUnit XML and HTML, plus an index page comparing two runtimes and the JSON and HTML of
// seqconf diff between two runs (diff.json, diff.html).
//   report_samples OUT_DIR
#include <iostream>

#include "reference/spec_clauses.h"
#include "reports/diff.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "tests/reports/synthetic.h"

using namespace seqconf;
using namespace seqconf::reports;

namespace {
void write_all(const std::filesystem::path& dir, const std::string& stem, const Report& r) {
  write_file_atomic(dir / (stem + ".json"), report_to_json_text(r));
  write_file_atomic(dir / (stem + ".xml"), report_to_junit(r));
  write_file_atomic(dir / (stem + ".html"), report_to_html(r));
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: report_samples OUT_DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const auto outcomes = testing::synthetic_outcomes();
  RunInfo info = describe_run("reference", "0.1.0", "");
  info.options = {{"runtime", "reference"}, {"source", "all"}};
  info.end_time = now_iso8601();

  write_all(dir, "normal", make_report(info, outcomes, nullptr));

  const auto ex = Expectations::from_json(nlohmann::json::parse(R"({
    "runtime": "reference",
    "entries": [
      {"id": "corpus.SplitToSequence.uint16.*", "status": "not_supported", "reason": "no uint16",
       "link": "https://example.org/known/1"},
      {"id": "corpus.SequenceAt.string.*", "status": "fail", "reason": "strings"},
      {"id": "corpus.SequenceInsert.int8.append", "status": "crash", "reason": "segfault"}]})"));
  RunInfo with_ex = info;
  with_ex.expectations_file = "expectations/reference.json";
  std::vector<Outcome> with_spec = outcomes;
  for (auto& o : with_spec)
    if (o.case_id == "corpus.SequenceAt.float.pos_neg") {
      o.spec = std::string(spec_clause("position.negative").sentence);
      o.clauses = {"position.negative"};
    }
  write_all(dir, "expectations", make_report(with_ex, with_spec, &ex));

  std::vector<Outcome> a, b;
  for (size_t k = 0; k < outcomes.size(); ++k) (k % 2 ? b : a).push_back(outcomes[k]);
  RunInfo ia = info, ib = info;
  ia.options["shard"] = "1/2";
  ib.options["shard"] = "2/2";
  const Report merged =
      merge({make_report(ia, a, nullptr), make_report(ib, b, nullptr)}, {"a.json", "b.json"});
  write_all(dir, "merged", merged);

  RunInfo stopped = info;
  stopped.complete = false;
  write_all(
      dir, "interrupted",
      make_report(stopped, std::vector<Outcome>(outcomes.begin(), outcomes.begin() + 3), nullptr));

  // A run under valgrind memcheck: one case with a memory error, and one error its workers made
  // while they started (three of them).
  RunInfo memcheck = info;
  memcheck.options["memcheck"] = true;
  memcheck.worker_memory_errors = {
      {WorkerPhase::startup,
       MemoryError{"InvalidRead", "Invalid read of size 8", {"load_kernels (libx.so.1)"}}, 3}};
  auto with_memory_error = outcomes;
  Outcome& m = with_memory_error.front();
  m.status = Status::fail;
  m.reason = Reason::memory_error;
  m.message =
      "memcheck: UninitCondition: Conditional jump or move depends on uninitialised "
      "value(s), at gather (libx.so.1)";
  m.memory_error = MemoryError{"UninitCondition",
                               "Conditional jump or move depends on uninitialised value(s)",
                               {"gather (libx.so.1)", "main (p.cpp:7)"}};
  write_all(dir, "memcheck", make_report(memcheck, with_memory_error, nullptr));

  RunInfo other = info;
  other.runtime_name = "onnxruntime";
  other.options["runtime"] = "onnxruntime";
  auto ort = outcomes;
  for (auto& o : ort)
    if (o.status == Status::fail) o.status = Status::pass;
  write_file_atomic(dir / "index.html",
                    index_to_html({{make_report(info, outcomes, nullptr), "normal.html", ""},
                                   {make_report(other, ort, nullptr), "", ""}}));
  RunInfo before = other, after = other;
  before.runtime_version = "1.17.0";
  after.runtime_version = "1.17.3";
  const ReportDiff diff = diff_reports(make_report(before, testing::diff_base_outcomes(), nullptr),
                                       make_report(after, testing::diff_new_outcomes(), nullptr),
                                       "base.json", "new.json");
  write_file_atomic(dir / "diff.json", diff_to_json(diff).dump(1) + "\n");
  write_file_atomic(dir / "diff.html", diff_to_html(diff));
  std::cout << "wrote samples to " << dir.string() << "\n";
  return 0;
}
