// Differential fuzzing: random programs (difffuzz/program.h) run on the reference and on a
// runtime under test, each preparing the same model proto. A disagreement (outputs that differ
// in value, shape, type or length; a rejection on one side only; a crash) is shrunk to a
// minimal program and written as a corpus fixture (ONNX backend layout plus case.json).
//
// Deterministic: program i of a campaign with seed S is generated from rc::Random key
// {S, i, 0, 0} at size i % 100, so a seed and an iteration count reproduce the campaign.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case_json.h"
#include "difffuzz/program.h"
#include "harness/outcome.h"
#include "runtimes/runtime.h"

namespace seqconf::difffuzz {

// How messages name the side a runtime is compared with, when it is the reference.
inline constexpr std::string_view kReferenceOracle = "the reference";

// What one program gave on the two runtimes.
enum class Verdict {
  agree_outputs,   // both ran, outputs equal (harness comparison)
  agree_rejected,  // both rejected the program
  not_supported,   // the runtime lacks an op, version or type: counted, not a finding
  // The reference could not judge the program (harness/oracle.h, reference_gap: an operator it
  // lacks, a limit, a random draw): counted, not a finding, as the runner leaves such a data set
  // not judged.
  not_judged,
  disagree,  // a finding
};

struct Evaluation {
  Verdict verdict = Verdict::agree_outputs;
  // For disagree: value_mismatch | shape_mismatch | dtype_mismatch | length_mismatch |
  // kind_mismatch | output_count_mismatch | accepted_invalid | rejected_valid | crash | timeout.
  std::string kind;
  std::string op;       // the operator the disagreement is attributed to
  std::string message;  // one line
  RunResult reference;  // the reference's result (prepare failures folded in)
  RunResult found;      // the runtime's result
};

Evaluation evaluate(const Program& p, Runtime& reference, Runtime& runtime);

// A built program's model prepared on a runtime, or why it was not (an exception becomes an
// internal error).
struct Prepared {
  std::unique_ptr<PreparedModel> model;
  RunError error;
};
Prepared prepare_on(Runtime& runtime, const BuiltProgram& b);
// Runs inputs on a prepared model: the preparation's error when there is no model; an
// exception becomes an internal error.
RunResult run_prepared(const Prepared& prepared, const std::vector<Value>& inputs);

// Prepares and runs a built program (or packed programs): run_prepared(prepare_on(...)).
RunResult run_on(Runtime& runtime, const BuiltProgram& b);

// The verdict of the runtime's result `found` against the reference's for one built program
// (evaluate() is run_on on both, then this).
// `oracle` names the other side in the messages ("the reference runs it ...").
Evaluation judge(const BuiltProgram& b, RunResult reference, RunResult found,
                 std::string_view oracle = kReferenceOracle);

// One model per program: on ONNX Runtime 1.30 and on the reference a packed model costs as much
// per program as separate ones, or more (seqconf-bench Batch/*), so batching pays only on a
// runtime whose cost is per session (a compiler, a process that starts per model).
inline constexpr size_t kDefaultBatch = 1;
inline constexpr size_t kDefaultBatchNodes = 256;

// seqconf fuzz's input sets per structure, at most (FuzzOptions::input_sets).
inline constexpr size_t kDefaultInputSets = 8;

struct FuzzFinding;

struct FuzzOptions {
  uint64_t seed = 1;
  size_t iterations = 1000;  // 0: until the time budget is spent
  double time_budget_s = 0;  // 0: no time limit
  int max_steps = 8;
  size_t max_shrink_evaluations = 3000;  // per finding
  // Whether the runtime's expectations list a finding (its fixture's case id and status); set
  // with --no-shrink-listed, a listed departure is kept as found rather than shrunk.
  std::function<bool(const FuzzFinding&)> listed;
  std::filesystem::path out;  // fixtures; empty: none written
  std::string runtime_spec;   // for the reproduce command
  // Options of `seqconf fuzz` that select the runtimes beyond --runtime (" --oracle ...",
  // " --ort-graph-optimization ..."), for the reproduce command; empty: none.
  std::string runtime_args;
  // The other side of every comparison, one instance per thread: the reference when null.
  // Another runtime makes it a campaign of the runtime under test against that one, for
  // example ONNX Runtime at graph optimization `all` against itself at `disabled`: a
  // disagreement is then between the two levels, whatever the spec says (the reference may
  // reject the program), unless a side's outputs change from run to run (kind
  // nondeterministic). Its findings' IDs carry oracle=<oracle_id>, their fixtures the oracle's
  // outputs as the expected ones, and their case.json the oracle's name.
  std::function<std::unique_ptr<Runtime>()> make_oracle;
  std::string oracle_id;    // [A-Za-z0-9_.-]+, for finding IDs; needed with make_oracle
  std::string oracle_name;  // as messages and reports name it ("onnxruntime (graph ...)")
  std::function<void(const std::string&)> log;  // progress lines, may be empty
  // Programs are evaluated by this many threads, each with its own reference and its own
  // instance of the runtime under test (from make_runtime); findings are processed in program
  // order, so the result does not depend on jobs.
  size_t jobs = 1;
  std::function<std::unique_ptr<Runtime>()> make_runtime;  // needed when jobs > 1
  // Stop once this many findings are made (seqconf selftest: the time to the first); 0: never.
  size_t stop_after_findings = 0;
  // The index of the first program: programs first_iteration, first_iteration + 1, ... (one
  // program of a campaign, or of a libFuzzer input, can be run again alone).
  size_t first_iteration = 0;
  // Programs the reference accepts are run on the runtime under test packed into one model
  // (difffuzz/batch.h), at most this many programs and top-level nodes to a model; 1: every
  // program in a model of its own. Findings and verdicts do not depend on it.
  size_t batch = kDefaultBatch;
  size_t batch_nodes = kDefaultBatchNodes;
  // Input sets per structure, at most (difffuzz/input_sets.h): a program that takes other input
  // sets is prepared once on each side and run with its own values, then with further input
  // sets drawn from key {seed, i, j, 0} (j = 1, 2, ...) in chunks of 3, 4, 8 and 16 (so 8 is
  // its own values and two chunks), a chunk drawn only while the one before it gave a verdict
  // the structure had not given yet. 1: every
  // program alone, as before input sets; with batch > 1, too. Each input set counts as a
  // program; findings, verdicts and fixtures do not depend on jobs.
  size_t input_sets = 1;
  // The runtime's support (difffuzz/support.h); null: probed at the campaign's start.
  std::shared_ptr<const Support> support;
  // Set: the campaign runs this one program (an encoded libFuzzer input, difffuzz/encoding.h)
  // instead of generated ones; iterations is then 1, and shrinking removes steps and tensors.
  std::optional<Program> program;
  std::string replay;  // the file program or first_iteration came from, for the reproduce command
};

// Program i of the campaign with this seed, gen being program_gen(max_steps, support).
rc::Shrinkable<Program> campaign_program(const rc::Gen<Program>& gen, uint64_t seed, size_t i);

// The program a libFuzzer input stands for (fuzz/fuzz_diff.cpp, seqconf fuzz --replay): program
// `iteration` of the campaign with this seed. The seed is a hash of the bytes and the iteration
// (which sets the program's size, iteration % 100) is the first byte, so each input names one
// program and the same bytes always the same one.
struct ProgramKey {
  uint64_t seed = 0;
  size_t iteration = 0;
};
ProgramKey program_key(const uint8_t* data, size_t size);

// Program i of the campaign with this seed, gen being program_gen(max_steps, support).
rc::Shrinkable<Program> campaign_program(const rc::Gen<Program>& gen, uint64_t seed, size_t i);

// The program a libFuzzer input stands for: the program it encodes (difffuzz/encoding.h), else
// the campaign program its program_key names, drawn with max_steps and support as a campaign
// with these options draws it.
Program input_program(const uint8_t* data, size_t size, int max_steps, const Support& support);

struct FuzzFinding {
  std::string id;      // case.json id: fuzz/<op>/kind=<kind>/dtype=<d>/.../context=<c>/h=<hash>
  std::string folder;  // fixture folder name under out
  std::string op;
  std::string kind;
  std::string dtype;
  std::string description;  // one line: what differs
  std::string program;      // the shrunk program, one line
  size_t nodes = 0;         // top-level nodes of the shrunk program
  size_t occurrences = 0;   // programs whose disagreement had this signature
  size_t first_iteration = 0;
  size_t input_set = 0;       // of structure first_iteration: 0 its own values, j the j-th drawn
  double found_after_s = 0;   // from the campaign's start to the program that found it
  double shrink_seconds = 0;  // spent shrinking it (0 when kept as found)
  std::string context;        // placement_name of the shrunk program
  // What `seqconf run` gives the finding's fixture (harness/runner.h), and the spec clause the
  // finding is about (its case.json "clauses" and "spec"): a finding's departure is the one
  // its fixture has in a conformance report.
  Status status = Status::fail;
  Reason reason = Reason::value_mismatch;
  std::vector<std::string> clauses;
  std::string spec;
  CaseJson case_json;
};

struct FuzzResult {
  uint64_t seed = 0;
  size_t programs = 0;    // executions: input sets run on both sides and compared
  size_t structures = 0;  // models generated (each prepared once on each side)
  size_t agree_outputs = 0, agree_rejected = 0, not_supported = 0, not_judged = 0,
         disagreements = 0;
  size_t shrink_evaluations = 0;
  double seconds = 0;
  double shrink_seconds = 0;          // of seconds, spent shrinking findings
  std::vector<FuzzFinding> findings;  // in order of discovery, one per departure
  // Findings kept as found, not shrunk (so at most findings.size()): a side's outputs changed
  // from run to run, or the expectations list them (FuzzOptions::listed).
  size_t unshrunk_departures = 0;
  // Programs shrunk: the first of each departure, and one whose departure as found was new
  // but turned out known once shrunk.
  size_t shrinks = 0;
  std::map<std::string, size_t> not_supported_by_op;
  // Programs that hold at least one node of each op type (the source's SequenceEmpty or
  // SequenceConstruct, and every step's op), and of those, the ones both sides ran to the end
  // with equal outputs: how much of each operator the campaign exercised.
  std::map<std::string, size_t> programs_by_op;
  std::map<std::string, size_t> agree_outputs_by_op;
  // ... and the ones both sides rejected (agree_rejected by op).
  std::map<std::string, size_t> agree_rejected_by_op;
  // The same by graph context: tensor arguments as graph inputs or as initializers (Placement).
  std::map<std::string, size_t> programs_by_context;
  std::map<std::string, size_t> agree_outputs_by_context;
  // Evaluation on the runtime under test (shrinking not counted): models prepared, of those
  // packed models of several programs, the programs whose verdict such a model gave, and
  // packed models split in halves because they failed.
  size_t sessions = 0, batches = 0, batched_programs = 0, batch_splits = 0;
  // The nodes no program held because the runtime does not support them.
  Support support;
};

FuzzResult run_campaign(Runtime& runtime, const FuzzOptions& options);

// The shrunk program of a finding as fixture files (relative path -> bytes).
std::map<std::string, std::string> fixture_files(const Program& p, const Evaluation& e,
                                                 const CaseJson& case_json);

// The run status a finding's kind gives in `seqconf run` (fail, error, crash, timeout).
std::string status_of_kind(const std::string& kind);

std::string reproduce_command(const FuzzOptions& options, size_t iterations);
nlohmann::ordered_json report_json(const FuzzResult& r, const FuzzOptions& options,
                                   const std::string& runtime_name,
                                   const std::string& runtime_version);

}  // namespace seqconf::difffuzz
