// seqconf fuzz: differential fuzzing of a runtime against the reference; every disagreement is
// shrunk and written as a corpus fixture.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <thread>

#include "cases/data_dir.h"
#include "difffuzz/campaign.h"
#include "difffuzz/campaign_report.h"
#include "difffuzz/encoding.h"
#include "harness/outcome.h"
#include "reference/error.h"
#include "reports/expectations.h"
#include "reports/html_report.h"
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
  std::string html;
  std::string expectations;
  bool no_expectations = false;
  bool no_shrink_listed = false;
  bool verbose = false;
  int max_steps = 8;
  std::optional<bool> isolate;  // unset: isolated unless the runtime is the reference
  size_t jobs = default_jobs();
  size_t batch = difffuzz::kDefaultBatch;
  size_t input_sets = difffuzz::kDefaultInputSets;
  size_t first_iteration = 0;
  std::string replay;  // a libFuzzer input of fuzz/fuzz_diff.cpp: run the one program it names
  std::string ort_graph_optimization;         // the runtime under test's level (onnxruntime)
  std::string oracle;                         // the other side; empty: the reference
  std::string oracle_ort_graph_optimization;  // the oracle's level (onnxruntime)
};

std::optional<OrtGraphOptimization> level_of(const std::string& name) {
  if (name.empty()) return std::nullopt;
  return ort_graph_optimization_from_name(name);
}

// A runtime spec up to its '=', with any other character than [A-Za-z0-9_.-] as '_'.
std::string spec_stem(const std::string& spec) {
  std::string stem = spec.substr(0, spec.find('='));
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  return stem;
}

// The campaign's own expectations file, as ./run.sh applies a runtime's: expectations/<stem>.json
// (the runtime's spec_stem; against an oracle, <runtime stem>-vs-<oracle id>), in the working
// folder, else in the installed package's data; empty when there is none.
std::string default_expectations(const std::string& stem) {
  const std::filesystem::path name = std::filesystem::path("expectations") / (stem + ".json");
  std::error_code ec;
  if (std::filesystem::is_regular_file(name, ec)) return name.string();
  const std::filesystem::path installed = package_data_dir();
  if (!installed.empty() && std::filesystem::is_regular_file(installed / name, ec))
    return (installed / name).string();
  return {};
}

// The oracle's ID in finding IDs: its spec_stem and its graph optimization level.
std::string oracle_id(const FuzzArgs& args) {
  return spec_stem(args.oracle) + (args.oracle_ort_graph_optimization.empty()
                                       ? ""
                                       : "_" + args.oracle_ort_graph_optimization);
}

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
  if (!args.ort_graph_optimization.empty())
    o.runtime_args += " --ort-graph-optimization " + args.ort_graph_optimization;
  if (!args.oracle.empty()) o.runtime_args += " --oracle " + args.oracle;
  if (!args.oracle_ort_graph_optimization.empty())
    o.runtime_args += " --oracle-ort-graph-optimization " + args.oracle_ort_graph_optimization;
  if (args.verbose)
    o.log = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
  o.jobs = args.jobs;
  o.batch = args.batch;
  o.input_sets = args.input_sets;
  std::unique_ptr<Runtime> runtime;
  std::optional<reports::Expectations> expectations;
  const std::string expectations_file =
      args.no_expectations ? std::string()
      : !args.expectations.empty()
          ? args.expectations
          : default_expectations(spec_stem(args.runtime) +
                                 (args.oracle.empty() ? std::string() : "-vs-" + oracle_id(args)));
  try {
    // One instance per thread for --jobs (each isolated one has its own worker).
    RuntimeOptions under_test;
    under_test.ort_graph_optimization = level_of(args.ort_graph_optimization);
    o.make_runtime = [spec = args.runtime, under_test, isolate = args.isolate] {
      return isolate_unless_told(make_runtime(spec, under_test), isolate);
    };
    runtime = o.make_runtime();
    if (!args.oracle.empty()) {
      RuntimeOptions oracle;
      oracle.ort_graph_optimization = level_of(args.oracle_ort_graph_optimization);
      o.make_oracle = [spec = args.oracle, oracle, isolate = args.isolate] {
        return isolate_unless_told(make_runtime(spec, oracle), isolate);
      };
      o.oracle_name = o.make_oracle()->name();
      o.oracle_id = oracle_id(args);
      std::cout << "oracle: " << terminal_safe(o.oracle_name) << "\n";
    } else if (!args.oracle_ort_graph_optimization.empty()) {
      std::cerr << "seqconf fuzz: --oracle-ort-graph-optimization needs --oracle\n";
      return kExitUsage;
    }
    if (!expectations_file.empty()) {
      expectations = reports::Expectations::load(expectations_file);
      std::cout << "expectations: " << terminal_safe(expectations_file) << "\n";
      if (args.no_shrink_listed)
        o.listed = [&expectations](const difffuzz::FuzzFinding& f) {
          const reports::Expectation* e = expectations->match("corpus/" + f.id);
          return e && e->accepts(f.status);
        };
    }
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
  const std::string runtime_name =
      args.oracle.empty() ? runtime->name() : runtime->name() + " against " + o.oracle_name;
  const reports::Report findings =
      difffuzz::findings_report(r, o, runtime_name, runtime->version(),
                                expectations ? &*expectations : nullptr, expectations_file);
  std::cout << terminal_safe(difffuzz::departures_text(findings, r, o), true);
  std::cout << r.programs << " programs in " << r.seconds << " s ("
            << (r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0.0)
            << " programs/s): " << r.agree_outputs << " same outputs, " << r.agree_rejected
            << " rejected by both, " << r.not_supported << " not supported, ";
  if (r.not_judged) std::cout << r.not_judged << " not judged (a gap of the reference), ";
  std::cout << r.disagreements << " disagreements in " << r.findings.size() << " finding(s), "
            << findings.departures.size() << " departure(s)";
  if (expectations)
    std::cout << ", " << findings.summary.unexpected_failures << " finding(s) not in "
              << expectations_file;
  else
    std::cout << ", no expectations applied";
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
  std::cout << "\nrejected by both sides: " << r.agree_rejected << " of " << r.programs
            << " executions";
  if (r.programs > 0) std::cout << " (" << 100 * r.agree_rejected / r.programs << "%); by op:";
  for (const auto& [op, n] : r.programs_by_op) {
    const auto it = r.agree_rejected_by_op.find(op);
    std::cout << " " << op << " " << 100 * (it == r.agree_rejected_by_op.end() ? 0 : it->second) / n
              << "%";
  }
  std::cout << "\nshrinking: " << r.shrink_seconds << " s of " << r.seconds << " s; " << r.shrinks
            << " program(s) shrunk for " << r.findings.size() - r.unshrunk_departures
            << " departure(s)";
  std::cout << "\nreproduce: " << difffuzz::reproduce_command(o, r.programs) << "\n";
  try {
    if (!args.report.empty())
      reports::write_file_atomic(args.report,
                                 difffuzz::campaign_report_json(r, o, findings).dump(2) + "\n");
    if (!args.html.empty())
      reports::write_file_atomic(args.html, reports::report_to_html(findings));
  } catch (const Error& e) {
    std::cerr << "seqconf fuzz: " << e.what() << "\n";
    return kExitUsage;
  }
  return findings.summary.has_unexpected() ? kExitUnexpected : kExitOk;
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
  cmd->add_option("--html", args->html,
                  "Write an HTML page of the findings and their departures here");
  auto* exp = cmd->add_option("--expectations", args->expectations,
                              "Expectations file: findings it lists (as corpus/<id>) are "
                              "expected (default: expectations/<runtime>.json when it exists)");
  cmd->add_flag("--no-shrink-listed", args->no_shrink_listed,
                "Do not shrink a departure the expectations list: keep its first program as "
                "found (each departure is shrunk at most once either way)");
  cmd->add_flag("--no-expectations", args->no_expectations,
                "Apply no expectations file: every finding is new")
      ->excludes(exp);
  cmd->add_flag("--verbose", args->verbose, "Print each finding as it is found");
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
  cmd->add_option("--input-sets", args->input_sets,
                  "Input sets per structure, at most: a program whose values are graph inputs is "
                  "prepared once and run with up to this many sets of values, more while they "
                  "give new verdicts (default " +
                      std::to_string(difffuzz::kDefaultInputSets) + "; 1: one set per program)")
      ->check(CLI::Range(1, 1024));
  const auto levels = CLI::IsMember({"disabled", "basic", "extended", "all"});
  cmd->add_option("--ort-graph-optimization", args->ort_graph_optimization,
                  "ONNX Runtime's graph optimization level for the runtime under test "
                  "(onnxruntime only; default all, ONNX Runtime's own)")
      ->check(levels);
  cmd->add_option("--oracle", args->oracle,
                  "Compare with this runtime instead of the reference (same spelling as "
                  "--runtime): a disagreement is then between the two runtimes, whatever the "
                  "spec says. With --runtime onnxruntime and --oracle-ort-graph-optimization "
                  "disabled, a finding is a difference between ONNX Runtime's graph optimization "
                  "levels, or outputs that change from run to run (kind nondeterministic)");
  cmd->add_option("--oracle-ort-graph-optimization", args->oracle_ort_graph_optimization,
                  "ONNX Runtime's graph optimization level for the oracle (onnxruntime only)")
      ->check(levels);
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
