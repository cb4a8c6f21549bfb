// A small ONNX graph interpreter: runs a ModelProto (or a GraphProto as a subgraph reading
// outer-scope values by name) over the five sequence operators and their four companions
// (reference/ops) and the supporting operators of reference/support. Models are validated once
// (opsets, operator versions, names, topological order, subgraphs) by
// InterpretedModel::prepare, then run many times.
//
// An empty name means "absent" wherever a node names an input or output (an omitted optional
// input or output); a graph's own inputs, initializers and outputs must have names.
//
// Errors: a malformed model (cycle, dangling name, missing subgraph, duplicate output name,
// a node with too many inputs) is ErrorCode::invalid_model; a required node input that is
// missing or given as "" is ErrorCode::missing_input naming op, version and input index; an
// operator, domain or version the reference does not implement is ErrorCode::not_supported
// naming op and version. Every node's values are checked against its operator's type
// constraints at the version it runs (type_constraints.h): a violation is
// ErrorCode::invalid_model naming the constraint. Typing is static: prepare() checks the input
// types of every node of every graph and subgraph that it can derive before any data set, so a
// branch or body that never runs makes the model invalid all the same. Operator errors keep their
// codes. Spec ambiguities met while running are recorded in the Context.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/context.h"
#include "reference/value.h"

namespace seqconf::interp {

// A node as a replacement kernel sees it. reference(inputs) runs the reference's own kernel of
// the node on the given inputs (the node's, or changed ones).
struct NodeCall {
  const onnx::NodeProto& node;
  int64_t since;
  const std::vector<std::optional<Value>>& inputs;
  Context& ctx;
  std::function<std::vector<Value>(const std::vector<std::optional<Value>>&)> reference;
};

// Context::kernel_override: the node's outputs, or nullopt to run the reference's kernel. The
// interpreter still checks the types of what it returns.
struct KernelOverride {
  std::function<std::optional<std::vector<Value>>(const NodeCall&)> run;
};

// A host runtime that runs, node by node, the operators the reference does not implement
// (Context::host). The interpreter keeps running the graph (Loop, If, Scan and SequenceMap
// bodies included) and every operator it implements; a node it lacks is run alone on the host
// and its outputs flow on.
struct HostKernel {
  std::string name;  // the host runtime and its version: "onnxruntime 1.30.0"
  // Where the host runtime comes from (Runtime::location: a library's path, a command), which
  // tells whether it is the runtime under test (runtimes/host.h: is_same_runtime).
  std::string location;
  // How another process (an isolated worker) makes the same host again: the --host spec that
  // made it ("" for ONNX Runtime's default library); none when it was made from a runtime object.
  std::optional<std::string> spec;
  // The name once the host is opened, for a host opened when a node is first delegated (its
  // name above is then a placeholder); none: name is the host's.
  std::function<std::string()> opened_name;
  std::string name_now() const { return opened_name ? opened_name() : name; }
  // The outputs of `node` run alone on the host, under the model's opset imports. Throws
  // Error(host_rejected) when the host refuses or fails the node.
  std::function<std::vector<Value>(const onnx::NodeProto& node,
                                   const std::map<std::string, int64_t>& opsets,
                                   const std::vector<std::optional<Value>>& inputs)>
      run;
};

// Operators whose outputs are random draws: the spec determines no outputs for them, so a model
// that runs one is not judged, whoever could run it. Dropout draws only in training mode.
bool is_random_operator(const std::string& op_type);

// How the static type check (InterpretedModel::prepare) begins its message: the model is invalid
// on every data set. Readers of the message (the exporter verdict) test for it.
inline constexpr std::string_view kInvalidWhateverInputs =
    "the model is invalid under the spec, whatever its inputs";

// Highest opset of the default domain the reference knows.
inline constexpr int64_t kMaxOpset = 24;

struct PreparedGraph;  // opaque: nodes in execution order with resolved kernels

// Maps a name to a value visible from an enclosing graph.
class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  const Value* find(const std::string& name) const;
  void set(const std::string& name, Value v) { values_[name] = std::move(v); }

 private:
  const Scope* parent_;
  std::unordered_map<std::string, Value> values_;
};

// A graph ready to run. Subgraphs are GraphPrograms too.
class GraphProgram {
 public:
  // outer_names: names the graph may read from enclosing graphs; domain -> opset version.
  static std::shared_ptr<const GraphProgram> prepare(const onnx::GraphProto& graph,
                                                     const std::map<std::string, int64_t>& opsets,
                                                     const std::vector<std::string>& outer_names);
  // Runs with values bound to the graph's formal inputs (all of them, in order, including any
  // that also have an initializer); outer supplies outer-scope names.
  std::vector<Value> run(const std::vector<Value>& inputs, const Scope* outer, Context& ctx) const;

  const onnx::GraphProto& graph() const;
  // Names the graph reads from enclosing graphs (its free variables).
  const std::vector<std::string>& free_names() const;
  // Its nodes as prepared (opaque outside the interpreter).
  const PreparedGraph& prepared() const;

  ~GraphProgram();
  explicit GraphProgram(std::unique_ptr<PreparedGraph> g);

 private:
  std::unique_ptr<PreparedGraph> g_;
};

// A validated model. Inputs are the graph inputs that have no initializer, in graph order.
class InterpretedModel {
 public:
  // delegate: a node whose operator (or version, or domain) the reference does not implement is
  // kept for a host runtime (Context::host) instead of making the model not_supported; it is
  // not_supported when it runs without a host. A node with a graph attribute is never delegated.
  static InterpretedModel prepare(const onnx::ModelProto& model,
                                  bool delegate = false);  // keeps a copy of the model
  static InterpretedModel prepare(std::shared_ptr<const onnx::ModelProto> model,
                                  bool delegate = false);  // keeps this one

  const std::vector<std::string>& input_names() const { return input_names_; }
  const std::vector<onnx::TypeProto>& input_types() const { return input_types_; }
  std::vector<std::string> output_names() const;
  // Default-domain opset version the model imports.
  int64_t opset() const { return opset_; }

  std::vector<Value> run(const std::vector<Value>& inputs, Context& ctx) const;

 private:
  std::shared_ptr<const onnx::ModelProto> model_;
  std::shared_ptr<const GraphProgram> program_;
  std::vector<std::string> input_names_;
  std::vector<onnx::TypeProto> input_types_;
  std::vector<size_t> input_slots_;  // graph input index of each non-initializer input
  int64_t opset_ = 0;
};

// Prepare and run once.
std::vector<Value> run_model(const onnx::ModelProto& model, const std::vector<Value>& inputs,
                             Context& ctx);

// The opset imports of a model as domain -> version ("ai.onnx" folded into ""); throws
// invalid_model on duplicates, not_supported for a default-domain opset above kMaxOpset.
std::map<std::string, int64_t> model_opsets(const onnx::ModelProto& model);

// Every op_type a graph uses, subgraphs included.
std::vector<std::string> ops_used(const onnx::GraphProto& graph);
// Per graph output, every op_type its value passes through: the nodes it depends on (through
// their inputs, and through the values their bodies read from the enclosing graph), each with
// the operators of its bodies.
std::vector<std::vector<std::string>> ops_used_by_outputs(const onnx::GraphProto& graph);

// Every (op, since_version) the interpreter runs, sorted: each has a row in the type table.
std::vector<std::pair<std::string, int64_t>> implemented_operator_versions();

// Adapts a value to a declared type where ONNX does so implicitly: a tensor or sequence bound
// to an optional-typed graph input is wrapped in an optional. what() names the value in an error.
Value coerce_to_declared(const Value& v, const onnx::TypeProto& declared,
                         const std::function<std::string()>& what);

}  // namespace seqconf::interp
