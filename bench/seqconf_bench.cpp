// seqconf-bench: each workload on the reference and on ONNX Runtime through the same Runtime
// interface (runtimes/runtime.h), plus memcpy of the same bytes as the physical baseline.
//
// Benchmark names are <op>/<workload>/<runtime>, runtime one of reference, onnxruntime, memcpy
// (Harness/<source>/<runtime> for whole-harness throughput). Models are prepared and inputs
// built and bound once (PreparedModel::bind: OrtValues for ONNX Runtime), outside the timed
// loop; the timed loop is BoundRun::run, which for ONNX Runtime is OrtApi::Run and releasing
// its outputs, and for the reference the operators on its values (outputs are values already).
// bench/ratios.py turns --benchmark_format=json output into the ratio table. Every workload
// checks the outputs of a run before timing and of the last timed run after it; the exit
// status is 1 when a benchmark could not run or gave a wrong answer.
#include <malloc.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/models.h"
#include "cases/data_dir.h"
#include "harness/runner.h"
#include "harness/static_checks.h"
#include "reference/error.h"
#include "reference/value.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/reference_runtime.h"

namespace seqconf::bench {
namespace {

struct Workload {
  std::string name;  // <op>/<workload>
  onnx::ModelProto model;
  std::function<std::vector<Value>()> make_inputs;
  // Checks the outputs of one run; returns what is wrong, empty when they are as the spec says.
  std::function<std::string(const std::vector<Value>&)> check;
  size_t memcpy_bytes = 0;  // bytes of the physical baseline; 0: none
  size_t io_bytes = 0;      // bytes of the inputs plus the outputs (for the memory target)
};

// The inputs of the workload being measured, shared by its runtimes and dropped when the next
// workload starts (benchmarks run in registration order), so that peak memory stays that of
// one workload.
struct LiveInputs {
  std::string name;
  std::shared_ptr<const std::vector<Value>> inputs;
};
LiveInputs& live() {
  static LiveInputs l;
  return l;
}
std::shared_ptr<const std::vector<Value>> inputs_of(const Workload& w) {
  LiveInputs& l = live();
  if (l.name != w.name) {
    l.inputs.reset();
    l.inputs = std::make_shared<const std::vector<Value>>(w.make_inputs());
    l.name = w.name;
  }
  return l.inputs;
}

double peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB on Linux
}

void add_counters(benchmark::State& state, const Workload& w) {
  state.counters["io_bytes"] = static_cast<double>(w.io_bytes);
  state.counters["peak_rss"] = peak_rss_bytes();
}

// Set when a benchmark could not run or gave a wrong answer: the exit status is then 1.
bool g_failed = false;

void fail(benchmark::State& state, const std::string& why) {
  g_failed = true;
  state.SkipWithError(why.c_str());
}

void run_on(benchmark::State& state, const Workload& w, Runtime& runtime) {
  RunError prep_error;
  std::unique_ptr<PreparedModel> prepared = runtime.prepare("", w.model, &prep_error);
  if (!prepared) {
    fail(state, "prepare failed: " + prep_error.message);
    return;
  }
  const auto inputs = inputs_of(w);
  // Inputs in the runtime's own form, built once: the timed loop is the run alone.
  std::unique_ptr<BoundRun> bound = prepared->bind(*inputs);
  // The outputs of the last bound run as the spec says; what is wrong, or empty.
  auto checked = [&]() -> std::string {
    try {
      return w.check(bound->outputs());
    } catch (const std::exception& e) {
      return e.what();
    }
  };
  {
    // One checked run before timing: a benchmark of a wrong answer is worthless.
    RunResult r = bound->run();
    if (!r.ok) {
      fail(state, "run failed: " + r.error.message);
      return;
    }
    if (std::string why = checked(); !why.empty()) {
      fail(state, "wrong output: " + why);
      return;
    }
  }
  for (auto _ : state) {
    RunResult r = bound->run();
    benchmark::DoNotOptimize(r.ok);
    if (!r.ok) {
      fail(state, "run failed: " + r.error.message);
      break;
    }
  }
  // And the last timed run's outputs, checked outside the timing.
  if (std::string why = checked(); !why.empty()) fail(state, "wrong output after timing: " + why);
  add_counters(state, w);
}

void run_memcpy(benchmark::State& state, size_t bytes) {
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  benchmark::DoNotOptimize(dst.data());
}

// ---- inputs -------------------------------------------------------------------------------

Tensor filled(Shape shape, float start) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i % 1000);
  return Tensor::from_values<DataType::float32>(std::move(shape), std::move(v));
}

Tensor scalar_i64(int64_t v) { return Tensor::from_values<DataType::int64>({}, {v}); }

// L tensors of `floats` floats each, every one with its own storage.
Sequence sequence_of(size_t length, int64_t floats) {
  std::vector<Tensor> ts;
  ts.reserve(length);
  for (size_t i = 0; i < length; ++i) ts.push_back(filled({floats}, static_cast<float>(i)));
  return Sequence(DataType::float32, std::move(ts));
}

std::string expect_sequence(const std::vector<Value>& out, size_t length, const Shape& first) {
  if (out.size() != 1 || !out[0].is_sequence()) return "expected one sequence output";
  const Sequence& s = out[0].sequence();
  if (s.size() != length)
    return "expected " + std::to_string(length) + " tensors, got " + std::to_string(s.size());
  if (length && s.at(0).shape() != first)
    return "expected first tensor " + shape_to_string(first) + ", got " +
           shape_to_string(s.at(0).shape());
  return {};
}

// ---- workloads ----------------------------------------------------------------------------

std::vector<Workload> workloads() {
  std::vector<Workload> ws;
  constexpr int64_t kSide = 4096;
  const size_t kSplitBytes = static_cast<size_t>(kSide * kSide) * sizeof(float);
  struct SplitCase {
    const char* name;
    int64_t axis;
    bool with_split;
    size_t chunks;
    Shape first;
  };
  for (const SplitCase& sc : {SplitCase{"axis0_split64", 0, true, 64, {64, kSide}},
                              SplitCase{"axis1_split64", 1, true, 64, {kSide, 64}},
                              SplitCase{"axis0_nosplit", 0, false, 4096, {1, kSide}}}) {
    Workload w;
    w.name = std::string("SplitToSequence/") + sc.name;
    w.model = split_model(kSide, kSide, sc.axis, sc.with_split);
    const bool with_split = sc.with_split;
    w.make_inputs = [with_split] {
      std::vector<Value> in{filled({kSide, kSide}, 0.0f)};
      if (with_split) in.emplace_back(scalar_i64(64));
      return in;
    };
    w.check = [sc](const std::vector<Value>& out) {
      return expect_sequence(out, sc.chunks, sc.first);
    };
    w.memcpy_bytes = kSplitBytes;
    w.io_bytes = 2 * kSplitBytes;
    ws.push_back(std::move(w));
  }

  for (int64_t floats : {int64_t{1024}, int64_t{16384}}) {
    const std::string kib = std::to_string(floats * 4 / 1024) + "KiB";
    for (size_t length : {size_t{1000}, size_t{10000}}) {
      const std::string suffix = "L" + std::to_string(length) + "_" + kib;
      const size_t seq_bytes = length * static_cast<size_t>(floats) * sizeof(float);
      const size_t one = static_cast<size_t>(floats) * sizeof(float);
      {
        // "Inserts a tensor at position" 0: every other tensor moves up by one.
        Workload w;
        w.name = "SequenceInsert/at0_" + suffix;
        w.model = insert_model();
        w.make_inputs = [length, floats] {
          return std::vector<Value>{sequence_of(length, floats), filled({floats}, -1.0f),
                                    scalar_i64(0)};
        };
        w.check = [length, floats](const std::vector<Value>& out) {
          std::string why = expect_sequence(out, length + 1, {floats});
          if (why.empty() && out[0].sequence().at(0).data<float>()[0] != -1.0f)
            why = "the inserted tensor is not at position 0";
          return why;
        };
        w.memcpy_bytes = seq_bytes;
        w.io_bytes = 2 * seq_bytes + 2 * one;
        ws.push_back(std::move(w));
      }
      {
        Workload w;
        w.name = "SequenceErase/at0_" + suffix;
        w.model = erase_model();
        w.make_inputs = [length, floats] {
          return std::vector<Value>{sequence_of(length, floats), scalar_i64(0)};
        };
        w.check = [length, floats](const std::vector<Value>& out) {
          std::string why = expect_sequence(out, length - 1, {floats});
          // Tensor i of the input starts with float(i): position 0 now holds tensor 1.
          if (why.empty() && out[0].sequence().at(0).data<float>()[0] != 1.0f)
            why = "position 0 does not hold the former tensor 1";
          return why;
        };
        w.memcpy_bytes = seq_bytes;
        w.io_bytes = 2 * seq_bytes;
        ws.push_back(std::move(w));
      }
      {
        Workload w;
        w.name = "SequenceAt/half_" + suffix;
        w.model = at_model();
        const auto half = static_cast<int64_t>(length / 2);
        w.make_inputs = [length, floats, half] {
          return std::vector<Value>{sequence_of(length, floats), scalar_i64(half)};
        };
        w.check = [half, floats](const std::vector<Value>& out) -> std::string {
          if (out.size() != 1 || !out[0].is_tensor()) return "expected one tensor output";
          const Tensor& t = out[0].tensor();
          if (t.shape() != Shape{floats} || t.data<float>()[0] != static_cast<float>(half))
            return "not the tensor at position " + std::to_string(half);
          return {};
        };
        w.memcpy_bytes = one;
        w.io_bytes = seq_bytes + one;
        ws.push_back(std::move(w));
      }
    }
  }

  for (bool add : {false, true}) {
    for (size_t length : {size_t{100}, size_t{1000}, size_t{10000}}) {
      constexpr int64_t kFloats = 1024;
      Workload w;
      w.name =
          std::string("SequenceMap/") + (add ? "add_L" : "identity_L") + std::to_string(length);
      w.model = map_model(kFloats, add);
      w.make_inputs = [length, add] {
        std::vector<Value> in{sequence_of(length, kFloats)};
        if (add) in.emplace_back(filled({kFloats}, 0.5f));
        return in;
      };
      w.check = [length, add](const std::vector<Value>& out) {
        std::string why = expect_sequence(out, length, {kFloats});
        // Sample i starts with float(i); the Add body adds 0.5.
        if (why.empty() && length > 1) {
          const float got = out[0].sequence().at(1).data<float>()[0];
          if (got != (add ? 1.5f : 1.0f)) why = "sample 1 has the wrong value";
        }
        return why;
      };
      const size_t seq_bytes = length * kFloats * sizeof(float);
      w.memcpy_bytes = seq_bytes;
      w.io_bytes = 2 * seq_bytes + (add ? kFloats * sizeof(float) : 0);
      ws.push_back(std::move(w));
    }
  }

  {
    // An element-wise operator alone: Add of two tensors of 2^20 floats (4 MiB each), against
    // memcpy of the output's bytes.
    constexpr int64_t kFloats = int64_t{1} << 20;
    Workload w;
    w.name = "Add/n1048576";
    w.model = add_model(kFloats);
    w.make_inputs = [] {
      return std::vector<Value>{filled({kFloats}, 1.5f), filled({kFloats}, 0.25f)};
    };
    w.check = [](const std::vector<Value>& out) -> std::string {
      if (out.size() != 1 || !out[0].is_tensor() || out[0].tensor().element_count() != kFloats)
        return "expected one tensor of 2^20 elements";
      // Element i of the inputs is 1.5 + i % 1000 and 0.25 + i % 1000 (filled).
      const float last = (1.5f + 575.0f) + (0.25f + 575.0f);
      if (out[0].tensor().data<float>()[kFloats - 1] != last) return "the last sum is wrong";
      return {};
    };
    w.memcpy_bytes = kFloats * sizeof(float);
    w.io_bytes = 3 * kFloats * sizeof(float);
    ws.push_back(std::move(w));
  }

  {
    // Per-run overhead: SequenceAt on a 3-element sequence of 2 floats.
    Workload w;
    w.name = "SequenceAt/tiny_L3";
    w.model = at_model();
    w.make_inputs = [] { return std::vector<Value>{sequence_of(3, 2), scalar_i64(-1)}; };
    w.check = [](const std::vector<Value>& out) -> std::string {
      if (out.size() != 1 || !out[0].is_tensor() || out[0].tensor().data<float>()[0] != 2.0f)
        return "expected the last tensor (position -1)";
      return {};
    };
    w.memcpy_bytes = 2 * sizeof(float);
    w.io_bytes = 4 * 2 * sizeof(float);
    ws.push_back(std::move(w));
  }
  return ws;
}

// ---- whole-harness throughput -------------------------------------------------------------

void run_harness(benchmark::State& state, const std::vector<Case>& cases, Runtime& runtime,
                 StaticCheckSandbox* sandbox = nullptr) {
  size_t pass = 0;
  for (auto _ : state) {
    pass = 0;
    for (const Case& c : cases)
      pass += run_case(c, runtime, {}, sandbox).status == Status::pass ? 1 : 0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * cases.size()));
  state.counters["cases"] = static_cast<double>(cases.size());
  state.counters["pass"] = static_cast<double>(pass);
}

// The harness's static checks alone, as run_case makes them (check_case_statically): each case
// loaded from its files, then checked in the sandbox (ONNX's checker and shape inference in the
// worker process) where they apply. Harness/<source>/reference over this row is what the rest of
// the harness costs.
void run_static_checks(benchmark::State& state, const std::vector<Case>& cases,
                       StaticCheckSandbox& sandbox) {
  size_t clean = 0;
  for (auto _ : state) {
    clean = 0;
    for (const Case& c : cases) {
      LoadedCase lc;
      try {
        lc = load_case(c);
      } catch (const std::exception&) {
        continue;  // run_case reports it as a load error and checks nothing either
      }
      std::string not_applicable;
      const std::vector<StaticFinding> findings = check_case_statically(
          lc, c.expected_error_for(false).has_value(), &sandbox, &not_applicable);
      clean += not_applicable.empty() && findings.empty() ? 1 : 0;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * cases.size()));
  state.counters["cases"] = static_cast<double>(cases.size());
  state.counters["clean"] = static_cast<double>(clean);
}

}  // namespace
}  // namespace seqconf::bench

int main(int argc, char** argv) {
  using namespace seqconf;
  using namespace seqconf::bench;
  serve_if_worker(argc, argv);  // an isolated runtime's worker process
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  // glibc returns freed memory to the kernel (mmap for big blocks, trimming the heap top), so
  // a run that allocates its outputs anew would pay a page fault per 4 KiB on every run; ONNX
  // Runtime keeps its memory in an arena and does not. Freed memory is kept in the process for
  // every runtime alike, so that the timings compare the runtimes and not the kernel's page
  // faults. SEQCONF_BENCH_RETURN_MEMORY=1 keeps glibc's defaults.
  const char* return_memory = std::getenv("SEQCONF_BENCH_RETURN_MEMORY");
  const bool keep_memory = !(return_memory && std::string(return_memory) == "1");
  if (keep_memory) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest: blocks up to 32 MiB from the heap
    mallopt(M_TRIM_THRESHOLD, 1 << 30);   // the heap top is not trimmed below 1 GiB
  }
  benchmark::AddCustomContext("malloc", keep_memory ? "freed memory kept (M_TRIM_THRESHOLD)"
                                                    : "glibc defaults (freed memory returned)");

  struct Named {
    std::string name;
    std::unique_ptr<Runtime> runtime;
  };
  std::vector<Named> runtimes;
  runtimes.push_back({"reference", std::make_unique<ReferenceRuntime>()});
  try {
    runtimes.push_back({"onnxruntime", make_onnxruntime_runtime(default_onnxruntime_library())});
    benchmark::AddCustomContext("onnxruntime", runtimes.back().runtime->version() + " at " +
                                                   runtimes.back().runtime->location());
  } catch (const std::exception& e) {
    std::cerr << "seqconf-bench: ONNX Runtime benchmarks skipped: " << e.what() << "\n";
    benchmark::AddCustomContext("onnxruntime", std::string("skipped: ") + e.what());
  }

  static const std::vector<Workload> all = workloads();
  for (const Workload& w : all) {
    for (Named& r : runtimes) {
      Runtime* rt = r.runtime.get();
      benchmark::RegisterBenchmark((w.name + "/" + r.name).c_str(), [&w, rt](benchmark::State& s) {
        run_on(s, w, *rt);
      })->Unit(benchmark::kMicrosecond);
    }
    if (w.memcpy_bytes) {
      const size_t bytes = w.memcpy_bytes;
      benchmark::RegisterBenchmark((w.name + "/memcpy").c_str(), [bytes](benchmark::State& s) {
        run_memcpy(s, bytes);
      })->Unit(benchmark::kMicrosecond);
    }
  }

  // Whole-harness throughput (run_case: load, static checks, prepare, run, compare) on the
  // generated corpus ($SEQCONF_CORPUS or fixtures/corpus) when present, and on the ONNX backend
  // sequence fixtures. The pass counter shows whether the cases actually passed.
  static std::map<std::string, std::vector<Case>> sources;
  for (const std::string source : {"corpus", "onnx-backend"}) {
    try {
      CaseSelection sel;
      sel.source = source;
      if (source == "corpus") {
        sel.corpus = default_corpus_root();
        if (!std::filesystem::is_directory(sel.corpus)) continue;
      }
      std::vector<std::string> notes;
      std::vector<Case> cases = select_cases(sel, &notes);
      if (cases.empty()) continue;
      benchmark::AddCustomContext("harness_" + source, std::to_string(cases.size()) + " cases");
      sources[source] = std::move(cases);
    } catch (const std::exception& e) {
      std::cerr << "seqconf-bench: harness benchmark on " << source << " skipped: " << e.what()
                << "\n";
    }
  }
  // The corpus without the cases on which ONNX Runtime 1.30 kills its process (an empty constant
  // position: pshape=0; a constant zero split: split=scalar_0), so that ONNX Runtime in this
  // process and isolated can be compared on the same cases (Harness/corpus_no_crash/...).
  if (const auto it = sources.find("corpus"); it != sources.end()) {
    std::vector<Case> kept;
    for (const Case& c : it->second)
      if (c.id.find("/pshape=0/") == std::string::npos &&
          c.id.find("/split=scalar_0/") == std::string::npos)
        kept.push_back(c);
    benchmark::AddCustomContext("harness_corpus_no_crash", std::to_string(kept.size()) + " cases");
    sources["corpus_no_crash"] = std::move(kept);
  }
  // The harness as `seqconf run` runs it by default: ONNX Runtime in an isolated worker, and the
  // static checks in their sandbox, in every row (in this process, ONNX 1.12's shape inference
  // would kill the benchmark on the corpus's constant zero split).
  std::vector<Named> harness_runtimes;
  for (Named& r : runtimes)
    if (r.name == "onnxruntime")
      harness_runtimes.push_back({"onnxruntime_isolated", isolate_runtime(make_onnxruntime_runtime(
                                                              default_onnxruntime_library()))});
  // Every harness row is timed in real time: the static checks run in the sandbox's process,
  // and an isolated runtime in its worker, where this thread's CPU time does not see them.
  static StaticCheckSandbox sandbox;
  for (const auto& [source, cases] : sources) {
    if (source == "corpus_no_crash") continue;
    const std::vector<Case>* cs = &cases;
    benchmark::RegisterBenchmark(("Harness/" + source + "/static_checks").c_str(),
                                 [cs](benchmark::State& s) { run_static_checks(s, *cs, sandbox); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  for (const auto& [source, cases] : sources)
    for (Named& r : harness_runtimes) {
      Runtime* rt = r.runtime.get();
      const std::vector<Case>* cs = &cases;
      benchmark::RegisterBenchmark(
          ("Harness/" + source + "/" + r.name).c_str(),
          [cs, rt](benchmark::State& s) { run_harness(s, *cs, *rt, &sandbox); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  for (const auto& [source, cases] : sources)
    for (Named& r : runtimes) {
      // In this process ONNX Runtime 1.30 dies on the corpus (SIGSEGV on an empty constant
      // position, SIGFPE on a constant zero split): the corpus runs it isolated only.
      if (source == "corpus" && r.name != "reference") continue;
      if (source == "corpus_no_crash" && r.name == "reference") continue;
      Runtime* rt = r.runtime.get();
      const std::vector<Case>* cs = &cases;
      benchmark::RegisterBenchmark(
          ("Harness/" + source + "/" + r.name).c_str(),
          [cs, rt](benchmark::State& s) { run_harness(s, *cs, *rt, &sandbox); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return g_failed ? 1 : 0;
}
