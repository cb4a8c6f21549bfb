// Throughput of differential fuzzing (seqconf fuzz): one fixed-seed campaign of kPrograms
// programs per iteration, counted as programs per second of wall-clock time.
//
//   Fuzz/reference              the reference against itself: the baseline (the campaign's own
//                               cost: generation, model building, the reference, comparison)
//   Fuzz/onnxruntime            ONNX Runtime in-process (C API through dlopen)
//   Fuzz/onnxruntime_isolated   ONNX Runtime in a forked worker process (--isolate)
//   Fuzz/*_jobs2                the same on two threads (--jobs 2), one runtime per thread
//
// Every campaign is checked before it counts: it ran kPrograms programs, every program has a
// verdict, programs of both kinds (same outputs, rejected by both) occurred, the reference
// found nothing against itself, and the isolated and two-thread campaigns gave the same
// verdicts as the in-process one. A campaign that fails a check is reported as an error, not timed.
#include <sys/resource.h>

#include <memory>
#include <optional>
#include <string>

#include <benchmark/benchmark.h>

#include "difffuzz/campaign.h"
#include "runtimes/registry.h"

namespace seqconf::bench {
namespace {

constexpr uint64_t kSeed = 1;
constexpr size_t kPrograms = 1000;

// The in-process ONNX Runtime campaign's verdict counts, for the isolated one to match.
std::optional<difffuzz::FuzzResult>& in_process_result() {
  static std::optional<difffuzz::FuzzResult> r;
  return r;
}

// CPU seconds used so far by this process (all threads) and its reaped children.
double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    total += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  }
  return total;
}

std::string check(const difffuzz::FuzzResult& r, bool self) {
  if (r.programs != kPrograms)
    return "the campaign ran " + std::to_string(r.programs) + " programs, not " +
           std::to_string(kPrograms);
  if (r.agree_outputs + r.agree_rejected + r.not_supported + r.disagreements != r.programs)
    return "verdicts do not add up to the programs run";
  if (r.agree_outputs == 0 || r.agree_rejected == 0)
    return "the campaign lacks programs that run or programs that are rejected";
  if (self && (r.disagreements != 0 || r.not_supported != 0))
    return "the reference disagrees with itself: " +
           (r.findings.empty() ? std::string("?") : r.findings.front().description);
  return {};
}

std::string same_verdicts(const difffuzz::FuzzResult& a, const difffuzz::FuzzResult& b) {
  if (a.agree_outputs == b.agree_outputs && a.agree_rejected == b.agree_rejected &&
      a.not_supported == b.not_supported && a.disagreements == b.disagreements &&
      a.findings.size() == b.findings.size())
    return {};
  return "isolated and in-process campaigns differ: same outputs " +
         std::to_string(a.agree_outputs) + " vs " + std::to_string(b.agree_outputs) +
         ", rejected by both " + std::to_string(a.agree_rejected) + " vs " +
         std::to_string(b.agree_rejected) + ", disagreements " + std::to_string(a.disagreements) +
         " vs " + std::to_string(b.disagreements);
}

void run_fuzz(benchmark::State& state, const std::string& spec, bool isolate, size_t jobs) {
  std::unique_ptr<Runtime> runtime;
  try {
    RuntimeOptions options;
    options.isolate = isolate;
    runtime = make_runtime(spec, options);
  } catch (const std::exception& e) {
    state.SkipWithError((spec + " is not available: " + e.what()).c_str());
    return;
  }
  difffuzz::FuzzOptions options;
  options.seed = kSeed;
  options.iterations = kPrograms;
  options.runtime_spec = spec;
  options.jobs = jobs;
  options.make_runtime = [spec, isolate] {
    RuntimeOptions o;
    o.isolate = isolate;
    return make_runtime(spec, o);
  };
  difffuzz::FuzzResult last;
  size_t programs = 0;
  const double cpu_before = cpu_seconds();
  for (auto _ : state) {
    last = difffuzz::run_campaign(*runtime, options);
    programs += last.programs;
    if (const std::string why = check(last, spec == "reference"); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  // Worker processes count once reaped: when the runtimes are destroyed.
  const std::string runtime_label = runtime->name() + " " + runtime->version();
  runtime.reset();
  const double cpu = cpu_seconds() - cpu_before;
  if (spec == "onnxruntime" && !isolate && jobs == 1) in_process_result() = last;
  if (spec == "onnxruntime" && (isolate || jobs > 1) && in_process_result())
    if (const std::string why = same_verdicts(last, *in_process_result()); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  state.counters["programs_per_s"] =
      benchmark::Counter(static_cast<double>(programs), benchmark::Counter::kIsRate);
  // Programs per CPU second of this process and its worker processes: what one idle core
  // would give, less dependent on the machine's load than the wall-clock rate.
  if (cpu > 0) state.counters["programs_per_cpu_s"] = static_cast<double>(programs) / cpu;
  const double n = static_cast<double>(last.programs);
  state.counters["same_outputs"] = static_cast<double>(last.agree_outputs) / n;
  state.counters["rejected_by_both"] = static_cast<double>(last.agree_rejected) / n;
  state.counters["findings"] = static_cast<double>(last.findings.size());
  state.SetLabel(runtime_label + ", seed " + std::to_string(kSeed) + ", " +
                 std::to_string(kPrograms) + " programs, " + std::to_string(jobs) +
                 (jobs == 1 ? " thread" : " threads"));
}

// Wall-clock time: the isolated runtime's work happens in another process. The _jobs2 forms
// evaluate programs on two threads (seqconf fuzz --jobs 2), each with its own runtime.
void register_fuzz(const char* name, const char* spec, bool isolate, size_t jobs) {
  benchmark::RegisterBenchmark(name, [=](benchmark::State& s) { run_fuzz(s, spec, isolate, jobs); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

[[maybe_unused]] const bool kRegistered = [] {
  register_fuzz("Fuzz/reference", "reference", false, 1);
  register_fuzz("Fuzz/onnxruntime", "onnxruntime", false, 1);
  register_fuzz("Fuzz/onnxruntime_isolated", "onnxruntime", true, 1);
  register_fuzz("Fuzz/onnxruntime_jobs2", "onnxruntime", false, 2);
  register_fuzz("Fuzz/onnxruntime_isolated_jobs2", "onnxruntime", true, 2);
  return true;
}();

}  // namespace
}  // namespace seqconf::bench
