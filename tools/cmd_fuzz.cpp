// seqconf fuzz: differential fuzzing of a runtime against the reference; every disagreement is
// shrunk and written as a corpus fixture.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <thread>

#include "difffuzz/campaign.h"
#include "difffuzz/encoding.h"
#include "harness/outcome.h"
#include "reference/error.h"
#include "reports/expectations.h"
#include "reports/output.h"
#include "reports/report.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

// One thread per core, each with its own runtime (and, isolated, its own worker process).
size_t default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

struct FuzzArgs {
  std::string runtime;
  size_t iterations = 0;
  double time_budget = 0;
  uint64_t seed = 1;
  std::string out;
  std::string report;
  std::string expectations;
  int max_steps = 8;
  std::optional<bool> isolate;  // unset: isolated unless the runtime is the reference
  size_t jobs = default_jobs();
  size_t batch = difffuzz::kDefaultBatch;
  size_t first_iteration = 0;
  std::string replay;  // a libFuzzer input of fuzz/fuzz_diff.cpp: run the one program it names
};

int fuzz_command(const FuzzArgs& args) {
  difffuzz::FuzzOptions o;
  o.seed = args.seed;
  o.first_iteration = args.first_iteration;
  o.iterations = args.iterations;
  o.time_budget_s = args.time_budget;
  if (o.iterations == 0 && o.time_budget_s <= 0) o.iterations = 1000;
  if (!args.replay.empty()) {
    std::ifstream in(args.replay, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::cerr << "seqconf fuzz: cannot read " << args.replay << "\n";
      return kExitUsage;
    }
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    o.iterations = 1;
    o.time_budget_s = 0;
    // An input of the structural mutator encodes its program; any other names one of a campaign.
    if ((o.program = difffuzz::decode(data, bytes.size()))) {
      o.replay = args.replay;
      std::cout << "replaying " << terminal_safe(args.replay) << ": "
                << terminal_safe(difffuzz::describe(*o.program)) << "\n";
    } else {
      const auto key = difffuzz::program_key(data, bytes.size());
      o.seed = key.seed;
      o.first_iteration = key.iteration;
      std::cout << "replaying " << terminal_safe(args.replay) << ": program " << key.iteration
                << " of seed " << key.seed << "\n";
    }
  }
  o.max_steps = args.max_steps;
  o.out = args.out;
  o.runtime_spec = args.runtime;
  o.log = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
  o.jobs = args.jobs;
  o.batch = args.batch;
  std::unique_ptr<Runtime> runtime;
  std::optional<reports::Expectations> expectations;
  try {
    // One instance per thread for --jobs (each isolated one has its own worker).
    o.make_runtime = [spec = args.runtime, isolate = args.isolate] {
      return isolate_unless_told(make_runtime(spec), isolate);
    };
    runtime = o.make_runtime();
    if (!args.expectations.empty()) expectations = reports::Expectations::load(args.expectations);
    if (!o.out.empty()) std::filesystem::create_directories(o.out);
  } catch (const std::exception& e) {
    std::cerr << "seqconf fuzz: " << e.what() << "\n";
    return kExitUsage;
  }
  difffuzz::FuzzResult r;
  try {
    r = difffuzz::run_campaign(*runtime, o);
  } catch (const std::exception& e) {
    std::cerr << "seqconf fuzz: " << e.what() << "\n";
    return kExitUsage;
  }
  auto j = difffuzz::report_json(r, o, runtime->name(), runtime->version());
  size_t unexpected = 0;
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const auto& f = r.findings[i];
    const std::optional<Status> status = reports::status_from_key(difffuzz::status_of_kind(f.kind));
    const reports::Expectation* e = expectations ? expectations->match("corpus/" + f.id) : nullptr;
    const bool expected = e && status && e->accepts(*status);
    if (!expected) ++unexpected;
    if (expectations) j["findings"][i]["expected"] = expected;
    std::cout << terminal_safe((expected ? "EXPECTED " : "FINDING ") + f.folder + " [" + f.op +
                               " " + f.kind + "] " + f.description)
              << "\n";
  }
  std::cout << r.programs << " programs in " << r.seconds << " s ("
            << (r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0.0)
            << " programs/s): " << r.agree_outputs << " same outputs, " << r.agree_rejected
            << " rejected by both, " << r.not_supported << " not supported, " << r.disagreements
            << " disagreements in " << r.findings.size() << " finding(s)";
  if (expectations) std::cout << ", " << unexpected << " not in " << args.expectations;
  const auto counts = [](const char* title, const std::map<std::string, size_t>& all,
                         const std::map<std::string, size_t>& same) {
    std::cout << "\nprograms by " << title << " (of which both sides gave the same outputs):";
    for (const auto& [key, n] : all) {
      const auto ran = same.find(key);
      std::cout << " " << key << " " << n << " (" << (ran == same.end() ? 0 : ran->second) << ")";
    }
  };
  counts("op", r.programs_by_op, r.agree_outputs_by_op);
  counts("context", r.programs_by_context, r.agree_outputs_by_context);
  std::cout << "\nreproduce: " << difffuzz::reproduce_command(o, r.programs) << "\n";
  if (!args.report.empty()) {
    try {
      reports::write_file_atomic(args.report, j.dump(2) + "\n");
    } catch (const Error& e) {
      std::cerr << "seqconf fuzz: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  return unexpected ? kExitUnexpected : kExitOk;
}

const CommandRegistrar kFuzz(35, [](CLI::App& app) {
  auto args = std::make_shared<FuzzArgs>();
  auto* cmd = app.add_subcommand(
      "fuzz", "Differential fuzzing against the reference; disagreements become fixtures");
  cmd->add_option("--runtime", args->runtime, "Runtime under test (see seqconf runtimes)")
      ->required();
  auto* it = cmd->add_option("--iterations", args->iterations, "Programs to run (default 1000)");
  cmd->add_option("--time-budget", args->time_budget, "Run programs for this many seconds")
      ->excludes(it);
  auto* seed =
      cmd->add_option("--seed", args->seed, "Random seed (same seed and iterations, same run)");
  cmd->add_option("--first-iteration", args->first_iteration,
                  "Index of the first program (default 0): one program of a campaign alone");
  cmd->add_option(
         "--replay", args->replay,
         "Run the one program a libFuzzer input of fuzz_diff encodes or names (fuzz/run.sh "
         "diff), "
         "shrink its disagreement and write it to --out as a fixture")
      ->excludes(seed)
      ->excludes(it);
  cmd->add_option("--out", args->out, "Folder for the fixtures of the findings")->required();
  cmd->add_option("--report", args->report, "Write the JSON report here");
  cmd->add_option("--expectations", args->expectations,
                  "Expectations file: findings it lists (as corpus/<id>) are expected");
  cmd->add_option("--max-steps", args->max_steps, "Steps per program (default 8)")
      ->check(CLI::Range(1, 16));
  auto* in_process = cmd->add_flag_function(
      "--in-process", [args](int64_t) { args->isolate = false; },
      "Run the runtime in this process: faster, but a runtime that aborts or hangs ends the "
      "campaign without a report");
  cmd->add_flag_function(
         "--isolate", [args](int64_t) { args->isolate = true; },
         "Run the runtime in a worker process, started again after a crash or a hang (the "
         "default for every runtime but the reference)")
      ->excludes(in_process);
  cmd->add_option("--jobs,-j", args->jobs,
                  "Threads evaluating programs, each with its own runtime instance (the result "
                  "does not depend on it; default: one per core)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--batch", args->batch,
                  "Programs packed into one model for the runtime under test (the result does "
                  "not depend on it; default " +
                      std::to_string(difffuzz::kDefaultBatch) + "; 1: one model per program)")
      ->check(CLI::Range(1, 1024));
  cmd->callback([args, seed] {
    if (seed->count() == 0 && args->replay.empty()) {
      std::cerr << "seqconf fuzz: --seed or --replay is required\n";
      set_exit_code(kExitUsage);
      return;
    }
    set_exit_code(fuzz_command(*args));
  });
});

}  // namespace
}  // namespace seqconf::cli
