#include "selftest/selftest.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "cases/case.h"
#include "difffuzz/campaign.h"
#include "reference/error.h"
#include "runtimes/host.h"
#include "runtimes/isolated.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/seeded/seeded.h"
#include "suite/suite.h"

namespace seqconf::selftest {

namespace {

SuiteOptions suite_options(const Options& o) {
  SuiteOptions s;
  s.source = o.source;
  if (!o.corpus.empty()) s.corpus = o.corpus;
  s.onnx_testdata = o.onnx_testdata;
  s.jobs = o.jobs;
  s.quiet = true;
  // Only the statuses tell whether a case catches a defect; the static checks (ONNX's checker
  // and shape inference, independent of the runtime) would give every run the same findings.
  s.run.static_checks = false;
  return s;
}

bool selected(const Options& o, const std::string& id) {
  if (o.defects.empty()) return true;
  for (const std::string& g : o.defects)
    if (id_matches(g, id)) return true;
  return false;
}

FuzzTry fuzz_once(const seeded::Defect& d, uint64_t seed, double budget_s, size_t input_sets) {
  std::unique_ptr<Runtime> rt = isolate_unless_told(seeded::make_seeded_runtime(d), std::nullopt);
  difffuzz::FuzzOptions fo;
  fo.seed = seed;
  fo.iterations = 0;
  fo.time_budget_s = budget_s;
  fo.stop_after_findings = 1;
  fo.input_sets = input_sets;
  fo.max_shrink_evaluations = 50;  // the time to find it is measured before shrinking
  const difffuzz::FuzzResult r = difffuzz::run_campaign(*rt, fo);
  FuzzTry t;
  t.seed = seed;
  t.found = !r.findings.empty();
  t.seconds = t.found ? r.findings.front().found_after_s : r.seconds;
  t.programs = t.found ? r.findings.front().first_iteration + 1 : r.programs;
  if (t.found) t.finding = r.findings.front().kind + " in " + r.findings.front().op;
  return t;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

Result run(const Options& options) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<const seeded::Defect*> chosen;
  for (const seeded::Defect& d : seeded::defects())
    if (selected(options, d.id)) chosen.push_back(&d);
  if (chosen.empty())
    throw Error(ErrorCode::invalid_argument, "no seeded defect matches the --defects given");

  Result result;
  SuiteOptions so = suite_options(options);
  // The host that runs the operators the reference lacks (exported models), for the reference
  // and for each seeded runtime alike.
  so.run.host = make_host("", nullptr);
  // The cases the reference passes: only those can tell a defect.
  std::set<std::string> reference_passes;
  {
    const SuiteResult ref = run_suite(
        [&] { return std::make_unique<ReferenceRuntime>(Policy::lenient, nullptr, so.run.host); },
        so);
    result.reference_cases = ref.report.cases.size();
    for (const auto& c : ref.report.cases)
      if (c.outcome.status == Status::pass) reference_passes.insert(c.outcome.case_id);
    result.reference_failures = result.reference_cases - reference_passes.size();
  }
  for (const seeded::Defect* d : chosen) {
    DefectResult r;
    r.id = d->id;
    r.op = d->op;
    r.description = d->description;
    r.copies = d->copies;
    const SuiteResult run =
        run_suite([d, &so] { return seeded::make_seeded_runtime(*d, so.run.host); }, so);
    r.cases = run.report.cases.size();
    // The report's cases are sorted by id: the first of the shortest ids is the smallest case,
    // as a report's departures choose it.
    for (const auto& c : run.report.cases) {
      if (c.outcome.status == Status::pass || !reference_passes.count(c.outcome.case_id)) continue;
      ++r.caught;
      if (r.smallest.empty() || c.outcome.case_id.size() < r.smallest.size())
        r.smallest = c.outcome.case_id;
    }
    r.departures = run.report.departures.size();
    std::vector<double> times;
    for (uint64_t seed : options.fuzz_seeds) {
      r.fuzz.push_back(fuzz_once(*d, seed, options.fuzz_budget_s, options.fuzz_input_sets));
      times.push_back(r.fuzz.back().found ? r.fuzz.back().seconds : options.fuzz_budget_s);
      r.fuzz_found += r.fuzz.back().found;
    }
    r.fuzz_median_s = median(times);
    result.caught_by_no_case += r.caught == 0;
    result.not_found += !r.fuzz.empty() && r.fuzz_median_s >= options.fuzz_budget_s;
    if (options.log) {
      std::string line = d->id + ": " + std::to_string(r.caught) + " cases catch it";
      if (!r.smallest.empty()) line += " (smallest " + r.smallest + ")";
      if (!options.fuzz_seeds.empty())
        line += "; fuzzing found it with " + std::to_string(r.fuzz_found) + " of " +
                std::to_string(options.fuzz_seeds.size()) + " seeds";
      options.log(line);
    }
    result.defects.push_back(std::move(r));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

nlohmann::ordered_json report_json(const Result& r, const Options& options) {
  nlohmann::ordered_json j;
  j["kind"] = "seqconf-selftest";
  j["options"] = {{"source", options.source},
                  {"corpus", options.corpus.string()},
                  {"defects", options.defects},
                  {"fuzz_seeds", options.fuzz_seeds},
                  {"fuzz_budget_s", options.fuzz_budget_s},
                  {"fuzz_input_sets", options.fuzz_input_sets},
                  {"jobs", options.jobs}};
  j["reference"] = {{"cases", r.reference_cases}, {"failures", r.reference_failures}};
  nlohmann::ordered_json defects = nlohmann::ordered_json::array();
  for (const DefectResult& d : r.defects) {
    nlohmann::ordered_json fuzz = nlohmann::ordered_json::array();
    for (const FuzzTry& t : d.fuzz)
      fuzz.push_back({{"seed", t.seed},
                      {"found", t.found},
                      {"seconds", t.seconds},
                      {"programs", t.programs},
                      {"finding", t.finding}});
    defects.push_back({{"id", d.id},
                       {"op", d.op},
                       {"description", d.description},
                       {"copies", d.copies},
                       {"cases", d.cases},
                       {"caught_by", d.caught},
                       {"smallest", d.smallest},
                       {"departures", d.departures},
                       {"fuzz", fuzz},
                       {"fuzz_found", d.fuzz_found},
                       {"fuzz_median_s", d.fuzz_median_s}});
  }
  j["defects"] = defects;
  j["summary"] = {{"defects", r.defects.size()},
                  {"caught_by_corpus", r.defects.size() - r.caught_by_no_case},
                  {"found_by_fuzzing_within_budget_median",
                   options.fuzz_seeds.empty() ? 0 : r.defects.size() - r.not_found},
                  {"seconds", r.seconds}};
  return j;
}

}  // namespace seqconf::selftest
