// A runtime under test: prepares an ONNX model once, then runs it on input values.
// The reference is one implementation; ONNX Runtime (C API, dlopen) and external processes
// are others. A runtime knows nothing about cases or reports.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/context.h"
#include "reference/value.h"

namespace seqconf {

struct RunError {
  enum class Kind {
    not_supported,   // the runtime lacks the op, version or type
    invalid_input,   // the runtime rejected the model or inputs as invalid
    internal,        // anything else
    crash,           // the runtime's process died (isolation only)
    timeout,         // no answer within the time limit (isolation only)
    limit_exceeded,  // an output larger than the suite's size limit (--max-tensor-bytes)
    // A model-to-model tool in front of the runtime (runtimes/transform.h):
    tool_failed,         // the tool refused or failed on the model
    tool_crash,          // the tool's process died
    tool_timeout,        // the tool did not finish within the time limit
    tool_invalid_model,  // its output model fails ONNX's checks, its input model passed them
    tool_lost_type,      // its output model lacks or changes a type its input model declared
    // The runtime ran the model, but its answer could not be read (its adapter failed after the
    // runtime ran, outputs of another count or that cannot be decoded): it accepted the model.
    answer_unreadable,
  };
  Kind kind = Kind::internal;
  std::string message;  // the runtime's own words
  std::string code;     // the reference's stable error code, when the runtime is the reference
  // The reference only: the node at fault, its operator ("Identity") and its label ("node 4
  // (Identity-13 '/Identity') of graph 'torch_jit'"); empty when the error is no node's.
  std::string fault_op;
  std::string fault_node;
};
std::string_view run_error_kind_name(RunError::Kind kind);

struct RunResult {
  bool ok = false;
  std::vector<Value> outputs;  // in the order of the graph's outputs
  RunError error;
  std::vector<Ambiguity> ambiguities;  // spec ambiguities met (the reference reports them)
  // The nodes the reference ran on its host runtime (Context::delegated): "MatMul-13" -> count.
  std::map<std::string, size_t> delegated;
  std::string host;  // the host runtime that ran them (HostKernel::name); empty when none did
};

// A prepared model with its inputs already in the runtime's own form (for ONNX Runtime:
// OrtValues built once), so that run() measures the runtime and not the conversion of the
// suite's values. Outputs stay in the runtime's form; outputs() converts those of the last
// run on request. A BoundRun is used by one thread and must not outlive its PreparedModel.
class BoundRun {
 public:
  virtual ~BoundRun() = default;
  // Runs on the bound inputs: ok with no outputs, or the error. The outputs are kept in the
  // runtime's form until the next run(), which releases them first (see outputs()).
  virtual RunResult run() = 0;
  // The outputs of the last successful run() converted to Values (empty before any); throws
  // Error when the runtime returned something the suite cannot represent.
  virtual std::vector<Value> outputs() = 0;
};

class PreparedModel {
 public:
  virtual ~PreparedModel() = default;
  // inputs are in the order of the graph's (non-initializer) inputs.
  virtual RunResult run(const std::vector<Value>& inputs) = 0;
  // Binds inputs once for repeated runs. The default keeps the values and calls run(inputs)
  // on each BoundRun::run(); runtimes with their own value form override it. The inputs are
  // copied (values share their storage, so that is cheap).
  virtual std::unique_ptr<BoundRun> bind(const std::vector<Value>& inputs);
  // Runs several input sets in order, one result each, as run() on each would. The default
  // calls run(); a model in a worker process sends them in one request, and when the worker
  // dies or hangs during it, runs them again one at a time, so that a crash or a hang is the
  // input set's that causes it.
  virtual std::vector<RunResult> run_many(const std::vector<std::vector<Value>>& input_sets);
};

// Waiting for another process's answer (an isolated worker, a process runtime) ends early, as a
// timeout whose process is killed, once this check says the run is being stopped (SIGINT,
// SIGTERM): the run pipeline installs its stop check here, so that a hung runtime does not hold
// a stop request until its time limit.
void set_interrupt_check(bool (*check)());
bool interrupt_requested();

// How another process makes a runtime again: a worker kind registered in that program
// (runtimes/isolated.h, WorkerKind) and the argument its factory takes. Isolated workers are
// started by exec of the program itself, so they rebuild their runtime from this rather than
// inherit the parent's object.
struct WorkerRecipe {
  std::string kind;
  std::string argument;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual std::string name() const = 0;
  virtual std::string version() const = 0;
  virtual std::string location() const { return {}; }  // library path or command
  // True when models are prepared and run in another process (a process runtime, an isolated
  // one): a crash or a hang there cannot take the suite with it, so isolation is not stacked
  // on it.
  virtual bool out_of_process() const { return false; }
  // Whether a run should put this runtime in an isolated worker unless told otherwise: a crash
  // or a hang of a runtime under test must not take the suite with it. False only for the
  // suite's own reference, which stays in-process.
  virtual bool isolated_by_default() const { return true; }
  // How an isolated worker makes this runtime in its own process; none for a runtime that
  // cannot be rebuilt from a description (it then runs isolated only under a recipe the
  // caller gives, IsolationOptions::recipe).
  virtual std::optional<WorkerRecipe> recipe() const { return std::nullopt; }
  // Prepares a model. On failure returns null and fills *error (a rejected model is an
  // outcome, not an exception).
  virtual std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& model_path,
                                                 const onnx::ModelProto& model,
                                                 RunError* error) = 0;
  // The same for a model the caller shares: a runtime that keeps its model while the prepared
  // one lives (the reference) keeps this one rather than a copy.
  virtual std::unique_ptr<PreparedModel> prepare_shared(
      const std::filesystem::path& model_path, std::shared_ptr<const onnx::ModelProto> model,
      RunError* error) {
    return prepare(model_path, *model, error);
  }
  // Called once a case whose model is at model_path has its outcome: keep says it did not pass.
  // A runtime that ran a model of its own making in place of that one (a model-to-model tool's
  // output, runtimes/transform.h) keeps that model for the reader and returns its path when
  // keep is true, and deletes it otherwise. Others have nothing to keep: empty.
  virtual std::string kept_model(const std::filesystem::path& model_path, bool keep) {
    (void)model_path;
    (void)keep;
    return {};
  }
};

}  // namespace seqconf
