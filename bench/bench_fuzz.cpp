// Throughput of differential fuzzing (seqconf fuzz): one fixed-seed campaign of kPrograms
// structures per iteration, counted as executions (input sets run on both sides and compared,
// programs_per_s and executions_per_s) and structures per second of wall-clock time.
//
//   Fuzz/reference                the reference against itself with seqconf fuzz's defaults: up
//                                 to kDefaultInputSets input sets per structure, one model per
//                                 structure, one evaluation thread per core
//   Fuzz/*_one_input_set          the same with one input set per structure (a model per
//                                 execution)
//   Fuzz/reference_1thread        the same on one evaluation thread: the baseline
//   Fuzz/reference_batched        the defaults with --batch 32 (difffuzz/batch.h)
//   Fuzz/onnxruntime              ONNX Runtime with seqconf fuzz's defaults: isolated in a worker
//                                 process per thread, one thread per core
//   Fuzz/onnxruntime_batched      the same with --batch 32
//   Batch/<runtime>/K             preparing and running one model that packs K programs, in
//                                 this process, per program: what a batch saves the runtime
//
// ONNX Runtime is not run in this process by the campaigns: some programs kill its process (a
// zero scalar split as an initializer divides by zero in session creation, SIGFPE).
//
// Every campaign is checked before it counts: it ran kPrograms programs, every program has a
// verdict, programs of both kinds (same outputs, rejected by both) occurred, the reference
// found nothing against itself, and the campaign gave the verdicts and findings of the same
// runtime's campaign run one program at a time (isolated, one thread, run once beforehand and
// not timed). A campaign that fails a check is reported as an error, not timed.
#include <sys/resource.h>

#include <algorithm>
#include <map>
#include <thread>

#include <memory>
#include <optional>
#include <string>

#include <benchmark/benchmark.h>

#include "difffuzz/batch.h"
#include "difffuzz/campaign.h"
#include "difffuzz/support.h"
#include "runtimes/registry.h"

namespace seqconf::bench {
namespace {

constexpr uint64_t kSeed = 1;
constexpr size_t kPrograms = 1000;

difffuzz::FuzzOptions campaign_options(const std::string& spec, bool isolate, size_t jobs,
                                       size_t batch, size_t input_sets) {
  difffuzz::FuzzOptions options;
  options.seed = kSeed;
  options.iterations = kPrograms;
  options.runtime_spec = spec;
  options.jobs = jobs;
  options.batch = batch;
  options.input_sets = input_sets;
  options.make_runtime = [spec, isolate] {
    RuntimeOptions o;
    o.isolate = isolate;
    return make_runtime(spec, o);
  };
  return options;
}

// The runtime's campaign one program at a time (one model each, one thread; isolated but for
// the reference), run once and not timed: every timed campaign must give its verdicts and
// findings.
const difffuzz::FuzzResult& unbatched_result(const std::string& spec, size_t input_sets) {
  static std::map<std::pair<std::string, size_t>, difffuzz::FuzzResult> results;
  auto it = results.find({spec, input_sets});
  if (it == results.end()) {
    const auto options = campaign_options(spec, spec != "reference", 1, 1, input_sets);
    it = results
             .emplace(std::pair(spec, input_sets),
                      difffuzz::run_campaign(*options.make_runtime(), options))
             .first;
  }
  return it->second;
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
  if (r.structures != kPrograms)
    return "the campaign ran " + std::to_string(r.structures) + " structures, not " +
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
  return "the campaign differs from the unbatched one: same outputs " +
         std::to_string(a.agree_outputs) + " vs " + std::to_string(b.agree_outputs) +
         ", rejected by both " + std::to_string(a.agree_rejected) + " vs " +
         std::to_string(b.agree_rejected) + ", disagreements " + std::to_string(a.disagreements) +
         " vs " + std::to_string(b.disagreements);
}

void run_fuzz(benchmark::State& state, const std::string& spec, bool isolate, size_t jobs,
              size_t batch, size_t input_sets) {
  std::unique_ptr<Runtime> runtime;
  try {
    RuntimeOptions options;
    options.isolate = isolate;
    runtime = make_runtime(spec, options);
  } catch (const std::exception& e) {
    state.SkipWithError((spec + " is not available: " + e.what()).c_str());
    return;
  }
  const difffuzz::FuzzOptions options = campaign_options(spec, isolate, jobs, batch, input_sets);
  const difffuzz::FuzzResult& unbatched = unbatched_result(spec, batch > 1 ? 1 : input_sets);
  difffuzz::FuzzResult last;
  size_t programs = 0, structures = 0;
  const double cpu_before = cpu_seconds();
  for (auto _ : state) {
    last = difffuzz::run_campaign(*runtime, options);
    programs += last.programs;
    structures += last.structures;
    if (const std::string why = check(last, spec == "reference"); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  // Worker processes count once reaped: when the runtimes are destroyed.
  const std::string runtime_label = runtime->name() + " " + runtime->version();
  runtime.reset();
  const double cpu = cpu_seconds() - cpu_before;
  if (const std::string why = same_verdicts(last, unbatched); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  // An execution is one input set run on both sides and compared (a program); a structure
  // is one model, prepared once on each side.
  state.counters["programs_per_s"] =
      benchmark::Counter(static_cast<double>(programs), benchmark::Counter::kIsRate);
  state.counters["executions_per_s"] =
      benchmark::Counter(static_cast<double>(programs), benchmark::Counter::kIsRate);
  state.counters["structures_per_s"] =
      benchmark::Counter(static_cast<double>(structures), benchmark::Counter::kIsRate);
  state.counters["shrink_share"] = last.seconds > 0 ? last.shrink_seconds / last.seconds : 0.0;
  // Programs per CPU second of this process and its worker processes: what one idle core
  // would give, less dependent on the machine's load than the wall-clock rate.
  if (cpu > 0) state.counters["programs_per_cpu_s"] = static_cast<double>(programs) / cpu;
  const double n = static_cast<double>(last.programs);
  state.counters["same_outputs"] = static_cast<double>(last.agree_outputs) / n;
  state.counters["rejected_by_both"] = static_cast<double>(last.agree_rejected) / n;
  state.counters["findings"] = static_cast<double>(last.findings.size());
  state.counters["sessions"] = static_cast<double>(last.sessions);
  state.counters["programs_per_session"] =
      n / static_cast<double>(std::max<size_t>(last.sessions, 1));
  state.SetLabel(runtime_label + ", seed " + std::to_string(kSeed) + ", " +
                 std::to_string(kPrograms) + " programs, " + std::to_string(jobs) +
                 (jobs == 1 ? " thread" : " threads") + ", batch " + std::to_string(batch));
}

// The cost of a batch: preparing and running one model that packs K programs the reference
// accepts (difffuzz/batch.h), in this process, per program; K = 1 is one session per program.
void run_batch(benchmark::State& state, const std::string& spec) {
  std::unique_ptr<Runtime> runtime;
  try {
    runtime = make_runtime(spec);
  } catch (const std::exception& e) {
    state.SkipWithError((spec + " is not available: " + e.what()).c_str());
    return;
  }
  auto reference = make_runtime("reference");
  const auto k = static_cast<size_t>(state.range(0));
  // The first programs of seed 1 that the reference and the runtime both run.
  const auto gen = difffuzz::program_gen(8, difffuzz::probe_support(*runtime));
  std::vector<difffuzz::BuiltProgram> built;
  for (size_t i = 0; built.size() < 64 && i < 2000; ++i) {
    difffuzz::BuiltProgram b =
        difffuzz::build(gen(rc::Random(rc::Random::Key{kSeed, i, 0, 0}), int(i % 100)).value());
    if (difffuzz::run_on(*reference, b).ok && difffuzz::run_on(*runtime, b).ok)
      built.push_back(std::move(b));
  }
  std::vector<difffuzz::PackedPrograms> batches;
  for (size_t first = 0; first + k <= built.size(); first += k) {
    std::vector<const difffuzz::BuiltProgram*> group;
    for (size_t j = first; j < first + k; ++j) group.push_back(&built[j]);
    batches.push_back(difffuzz::pack(group));
  }
  size_t programs = 0;
  for (auto _ : state)
    for (const auto& b : batches) {
      if (!difffuzz::run_on(*runtime, b.built).ok) {
        state.SkipWithError("a batch failed");
        return;
      }
      programs += k;
    }
  state.counters["programs_per_s"] =
      benchmark::Counter(static_cast<double>(programs), benchmark::Counter::kIsRate);
}

// Wall-clock time: the isolated runtime's work happens in other processes.
void register_fuzz(const char* name, const char* spec, bool isolate, size_t jobs, size_t batch,
                   size_t input_sets = difffuzz::kDefaultInputSets) {
  benchmark::RegisterBenchmark(
      name, [=](benchmark::State& s) { run_fuzz(s, spec, isolate, jobs, batch, input_sets); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

[[maybe_unused]] const bool kRegistered = [] {
  // seqconf fuzz's defaults: one thread per core, one model per program.
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t batch = 32;
  register_fuzz("Fuzz/reference", "reference", false, cores, 1);
  register_fuzz("Fuzz/reference_1thread", "reference", false, 1, 1);
  register_fuzz("Fuzz/reference_batched", "reference", false, cores, batch);
  register_fuzz("Fuzz/onnxruntime", "onnxruntime", true, cores, 1);
  register_fuzz("Fuzz/onnxruntime_batched", "onnxruntime", true, cores, batch);
  // One input set per structure: every execution prepares its own model.
  register_fuzz("Fuzz/reference_one_input_set", "reference", false, cores, 1, 1);
  register_fuzz("Fuzz/onnxruntime_one_input_set", "onnxruntime", true, cores, 1, 1);
  for (const char* spec : {"reference", "onnxruntime"})
    benchmark::RegisterBenchmark((std::string("Batch/") + spec).c_str(),
                                 [spec](benchmark::State& s) { run_batch(s, spec); })
        ->Arg(1)
        ->Arg(4)
        ->Arg(16)
        ->Arg(64)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace seqconf::bench
