// What happened when one case ran on one runtime. Cases -> runtime -> Outcome -> report.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/context.h"
#include "runtimes/memory_error.h"

namespace seqconf {

enum class Status {
  pass,
  fail,           // wrong result, or accepted an input that must be rejected
  error,          // rejected a valid case
  not_supported,  // the runtime lacks the op, version or type
  crash,          // the runtime died (signal) while running the case
  timeout,        // the runtime did not answer in time
  // The spec's meaning of the case is unknown: the reference, whose meaning an exported model's
  // verdicts rest on, could not run it (an operator it lacks with no host to run it, a limit, a
  // random draw). Neither a pass nor a departure, whatever the runtime did.
  not_judged,
  skipped,  // not run (filtered, or the runtime is unavailable)
};
std::string_view status_name(Status s);

// Why a case did not pass. The names are those of "reason" in reports (the report schema lists
// the same set).
#define SEQCONF_REASONS(X)                                                                \
  /* fail: the outputs differ from the expected ones */                                   \
  X(value_mismatch, "an element differs (beyond the tolerance for floating types)")       \
  X(shape_mismatch, "a tensor's shape differs")                                           \
  X(dtype_mismatch, "an element type differs")                                            \
  X(length_mismatch, "a sequence's length differs")                                       \
  X(kind_mismatch, "a tensor, sequence or optional where another kind was expected")      \
  X(output_count_mismatch, "the number of outputs differs")                               \
  /* fail: a copied value's bits differ (exact comparison, harness/compare.h) */          \
  X(zero_sign_changed, "a copied zero's sign changed (-0.0 as +0.0, or back)")            \
  X(nan_changed, "a copied NaN's sign or payload changed")                                \
  X(nan_quieted, "a copied signalling NaN became quiet")                                  \
  X(subnormal_flushed, "a copied subnormal was flushed to zero")                          \
  X(bits_changed, "a copied value changed within ONNX's tolerance (rounded, narrowed)")   \
  /* fail: a must-reject case */                                                          \
  X(accepted_invalid, "accepted an input that must be rejected")                          \
  /* fail: valgrind memcheck saw the runtime misuse memory (seqconf run --memcheck) */    \
  X(memory_error, "the runtime read uninitialised memory or memory it does not own")      \
  X(wrong_error_code, "the reference rejected with another error code than the case's")   \
  X(rejected_internally, "a must-reject case rejected by an internal error, not a check") \
  /* error, not_supported, crash, timeout: the runtime's error kind (RunError::Kind) */   \
  X(not_supported, "the runtime lacks the op, version or type")                           \
  X(invalid_input, "the runtime rejected the model or inputs as invalid")                 \
  X(internal, "the runtime failed otherwise")                                             \
  X(crash, "the runtime's process died")                                                  \
  X(timeout, "the runtime did not answer within the time limit")                          \
  X(limit_exceeded, "the runtime's output is larger than the suite's size limit")         \
  /* error: the case itself */                                                            \
  X(load_error, "the case's files could not be loaded")                                   \
  /* not_judged: what stopped the reference */                                            \
  X(reference_not_supported, "the reference lacks an operator and no host runs it")       \
  X(reference_limit, "the reference stopped at a size or work limit")                     \
  X(nondeterministic, "the model draws random values: the spec determines no outputs")    \
  X(host_rejected, "the host runtime refused or failed a node the reference delegated")   \
  /* a model-to-model tool in front of the runtime (runtimes/transform.h) */              \
  X(tool_failed, "the model-to-model tool refused or failed on a valid model")            \
  X(tool_crash, "the model-to-model tool's process died")                                 \
  X(tool_timeout, "the model-to-model tool did not finish within the time limit")         \
  X(tool_invalid_model, "the tool's output model fails ONNX's checks, its input passed")  \
  X(tool_lost_type, "the tool's output model lacks or changes a type its input declared")

enum class Reason {
  none,  // pass (and skipped): written as an empty reason
#define SEQCONF_ENUM(name, summary) name,
  SEQCONF_REASONS(SEQCONF_ENUM)
#undef SEQCONF_ENUM
};

inline constexpr Reason kAllReasons[] = {
#define SEQCONF_ENUM(name, summary) Reason::name,
    Reason::none, SEQCONF_REASONS(SEQCONF_ENUM)
#undef SEQCONF_ENUM
};

// "" for none, else the enumerator's name.
std::string_view reason_name(Reason r);
// The inverse of reason_name; nullopt for a name that is none of them.
std::optional<Reason> reason_from_name(std::string_view name);

// A static check's disagreement with a case: onnx::checker rejecting the model, ONNX shape
// inference inferring an output type/shape that the expected output contradicts, or ONNX's
// library crashing or hanging on the model.
struct StaticFinding {
  // "checker" | "shape_inference" | "checker_crash" | "checker_timeout" |
  // "shape_inference_crash" | "shape_inference_timeout"
  std::string check;
  std::string message;  // names the output and both types/shapes
};

// Which layer of a runtime a departure comes from, found by running the departure's smallest case
// again in other configurations (suite/attribution.h): ONNX Runtime with its graph optimizations
// disabled, and the models ONNX Runtime builds evaluated by the reference.
struct Attribution {
  // "kernel" | "graph optimizer" | "loader" (the loader or its shape inference) | "undetermined";
  // an exported model's end-to-end departure: "exporter" | "runtime" | "runtime and exporter"
  // (ExportedVerdicts::end_to_end_layer)
  std::string layer;
  std::string why;  // one sentence, from the runs below
  struct Run {
    std::string configuration;  // what was run: "graph optimizations disabled", ...
    std::string runtime;        // the runtime's name
    Status status = Status::skipped;
    Reason reason = Reason::none;
    std::string message;
    std::string kept_model;  // the model run, when a tool made it
  };
  std::vector<Run> runs;
};

// One verdict on an exported case besides the runtime's own (Outcome::exported).
struct Judgement {
  Status status = Status::skipped;
  Reason reason = Reason::none;
  std::string message;  // one line, as Outcome::message
};

// An exported model (Case::exported) is judged three ways. The outcome's own status is the
// runtime verdict: the runtime against the spec, whose meaning of the model is the reference's
// (its outputs, or its rejection). The other two:
//   exporter     the spec's meaning of the model against the producing framework: a difference
//                is the exporter's departure (its model does not mean the program);
//   end_to_end   the runtime against the framework: what the model's user sees.
// A runtime departure on which the program's end-to-end result depends: the runtime verdict is
// not a pass while the end-to-end verdict is (depends_on_departure).
// Who an end-to-end departure is due to (end_to_end_layer): "exporter" when the runtime gives
// the spec's meaning of the model and that meaning is not the framework's (the exported model
// already departs from the framework on the reference); "runtime" when the model means what the
// framework computes and the runtime departs from the spec; "runtime and exporter" when both
// depart; empty when the end-to-end verdict is a pass.
struct ExportedVerdicts {
  std::string producer;  // "torch.onnx 1.13.1 (pytorch 1.13.1)"; empty when unknown
  std::string program;   // the framework program's name; the case's folder when unknown
  Judgement exporter;
  Judgement end_to_end;
  std::string end_to_end_layer;
  // Where the spec (reference) rejects the model or its inputs: the node at fault, its operator
  // ("Identity") and label ("node 4 (Identity-13 '/Identity') of graph 'torch_jit'"); empty when
  // the spec rejects nothing or the rejection is no node's.
  std::string fault_op;
  std::string fault_node;
};
// The end_to_end_layer of an exported case from its three verdicts (runtime: the outcome's).
std::string end_to_end_layer(Status runtime, const Judgement& exporter,
                             const Judgement& end_to_end);

struct NodeRepro;  // harness/localize.h

// Where on a model a runtime's departure comes from (harness/localize.h), found on the runtime's
// own intermediate values.
struct Localization {
  // "node": the node at fault below; "none": every node gives, on the runtime's own values,
  // what the spec gives (the departure is in the values the runtime reads or returns);
  // "unavailable": the runtime could not return its intermediate values (why says so).
  std::string kind;
  int index = -1;          // the node's index in the main graph
  std::string name;        // the node's name (may be empty)
  std::string op;          // its operator
  int64_t version = 0;     // the operator version it runs at
  std::string label;       // "node 1 (SplitToSequence-13 'unbind')"
  bool machinery = false;  // a node with a body (Loop, If, Scan, SequenceMap): its machinery's
  std::string got;         // what the runtime gave the node (its inputs)
  std::string spec;        // what the spec gives for those inputs
  std::string runtime;     // what the runtime's node gave
  std::string message;     // how they differ, or why there is no node
  // kind node: the node alone as a model, with the runtime's values as its inputs (not in the
  // JSON report: a bundle writes it as the smallest reproducer).
  std::shared_ptr<const NodeRepro> repro;
};

struct Outcome {
  std::string case_id;
  std::string source;  // onnx-backend | corpus | exported | fuzz
  std::string op;      // the operator the case is about ("model" for multi-op fixtures)
  std::string dtype;   // element type the case is about, or empty
  // The graph context the op runs in (Case::context); empty counts as "inputs".
  std::string context;
  // What the case checks: the spec sentence and the ids of its clauses, when the case says.
  std::string spec;
  std::vector<std::string> clauses;
  // The case's ambiguity, when the spec is unclear on it (Case::ambiguity: the sentences, what
  // the lenient and the strict policy expect); empty for a normative case.
  std::string ambiguity;
  Status status = Status::skipped;
  Reason reason = Reason::none;
  std::string message;  // one line, names the output, element, expected and actual
  // How the outputs were compared (ComparisonRule::name: "exact", "tolerance rtol=.. atol=..");
  // empty when the case was not compared (not run, or could not be loaded).
  std::string comparison;
  std::string expected;  // short summary of the expectation
  std::string actual;    // short summary of what the runtime gave
  double duration_ms = 0;
  std::vector<Ambiguity> ambiguities;   // spec ambiguities the case passed through
  std::vector<StaticFinding> findings;  // static checks (independent of the runtime)
  // Why the static checks were not applied (the model is newer than the ONNX library the suite
  // was built with); empty when they were, or were turned off.
  std::string static_checks_not_applicable;
  // The model the runtime ran in place of the case's own (a model-to-model tool's output,
  // Runtime::kept_model), kept for a case that did not pass; empty otherwise.
  std::string kept_model;
  // The smallest case of a departure, in a run that attributes departures: which layer of the
  // runtime the departure comes from.
  std::optional<Attribution> attribution;
  // An exported case's exporter and end-to-end verdicts (ExportedVerdicts).
  std::optional<ExportedVerdicts> exported;
  // A model on which the runtime departs: the node its departure comes from, on its own values
  // (RunOptions::localize).
  std::optional<Localization> localization;
  // The first memory error valgrind memcheck saw while the runtime prepared and ran the case
  // (seqconf run --memcheck); the outcome is then fail, memory_error.
  std::optional<MemoryError> memory_error;
  // The nodes the reference ran on its host runtime for this case (the reference's meaning of an
  // exported model, or the reference as the runtime under test): "MatMul-13" -> runs, and the
  // host's name and version. Empty when nothing was delegated.
  std::map<std::string, size_t> delegated;
  std::string host;
  // An exported case: its data sets, and how many of them the spec's meaning was found for
  // (harness/oracle.h); the others are not judged, and the case is not_judged when none was.
  size_t data_sets = 0;
  size_t data_sets_judged = 0;
  // The runtime matches the framework only because it departs from the spec.
  bool depends_on_departure() const {
    return exported && status != Status::pass && status != Status::skipped &&
           status != Status::not_judged && exported->end_to_end.status == Status::pass;
  }
};

// Counts of outcomes by status, with the static findings and spec ambiguities they carry.
// The one tally of the suite: the console summary line, the report's summary and its per-op
// table all count with it.
struct Tally {
  int total = 0, passed = 0, failed = 0, errored = 0, not_supported = 0, crashed = 0, timed_out = 0,
      not_judged = 0, skipped = 0;
  int findings = 0, ambiguities = 0;
  void add(const Outcome& o);
  Tally& operator+=(const Tally& other);
};
Tally tally(const std::vector<Outcome>& outcomes);
// "<runtime>: 26 cases: 26 pass, 0 fail, ..." in one line.
std::string summary_line(const Tally& t, const std::string& runtime);
// One line for a non-passing outcome: "FAIL <id> [reason] message", terminal_safe.
std::string outcome_line(const Outcome& o);
// Text a terminal shows as it is: a runtime's message or a folder name cannot move the cursor,
// recolour or retitle the terminal, or hide what follows. Control characters other than tab
// (C0, DEL, and C1 as UTF-8 U+0080..U+009F, which some terminals obey like ESC) become visible
// escapes ("\x1b", "\u009b"); a newline becomes "\n", keeping one outcome per line, unless
// keep_newlines (a table of several lines).
std::string terminal_safe(std::string_view s, bool keep_newlines = false);

}  // namespace seqconf
