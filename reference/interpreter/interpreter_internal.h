// The graph interpreter's own types and helpers, shared by its files (not part of its
// interface): nodes and graphs as prepared, what a kernel is called with, the op table
// (op_table.cpp), the work budget, the static pass (static_types.cpp) and the kernels of the
// control-flow operators (control_flow.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/interpreter/interpreter.h"
#include "reference/interpreter/schema_types.h"
#include "reference/interpreter/type_constraints.h"

namespace seqconf::interp {

struct PreparedNode;

namespace detail {

using Inputs = std::vector<std::optional<Value>>;

struct KernelCall {
  const PreparedNode& pn;
  const onnx::NodeProto& node;
  int64_t since;
  const Inputs& in;
  const Scope& scope;
  Context& ctx;

  std::string label() const {
    return node.op_type() + "-" + std::to_string(since) +
           (node.name().empty() ? std::string() : " '" + node.name() + "'");
  }
  bool has(size_t i) const { return i < in.size() && in[i].has_value(); }
  const Value& value(size_t i) const {
    if (!has(i))
      throw Error(ErrorCode::missing_input,
                  label() + ": input " + std::to_string(i) + " is absent");
    return *in[i];
  }
  std::string what(size_t i) const { return label() + " input " + std::to_string(i); }
  // what(i) names the input in the error of a value of another kind: built only then.
  const Tensor& tensor(size_t i) const {
    const Value& v = value(i);
    return v.is_tensor() ? v.tensor() : v.tensor(what(i));
  }
  const Sequence& sequence(size_t i) const {
    const Value& v = value(i);
    return v.is_sequence() ? v.sequence() : v.sequence(what(i));
  }
  std::optional<Tensor> opt_tensor(size_t i) const {
    if (!has(i)) return std::nullopt;
    return tensor(i);
  }
  const onnx::AttributeProto* attr(const std::string& name) const {
    for (const auto& a : node.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  int64_t attr_int(const std::string& name, std::optional<int64_t> dflt) const {
    if (const auto* a = attr(name)) return a->i();
    if (!dflt)
      throw Error(ErrorCode::invalid_model,
                  label() + ": required attribute '" + name + "' is absent");
    return *dflt;
  }
};

using KernelFn = std::function<std::vector<Value>(const KernelCall&)>;

struct OpEntry {
  std::vector<int64_t> since;  // every since_version of the op in the default domain
  int64_t min_impl;            // lowest since_version the reference implements
  std::vector<std::string> graph_attrs;
  KernelFn fn;
};

// Every operator the interpreter runs, by op_type (op_table.cpp).
const std::unordered_map<std::string, OpEntry>& op_table();

// where() names the node or graph for the message; it is only called when the budget is
// exceeded, so a run that stays within it builds no label strings.
template <class Where>
void charge_work(Context& ctx, size_t amount, const Where& where) {
  // 16 x max_tensor_bytes, and at least 1 MiB (4096 node runs) however small that limit.
  const size_t max = std::max(ctx.max_tensor_bytes, size_t{1} << 16);
  const size_t budget = ctx.work_budget       ? ctx.work_budget
                        : max > SIZE_MAX / 16 ? SIZE_MAX
                                              : max * 16;
  ctx.work = amount > budget - std::min(ctx.work, budget) ? budget + 1 : ctx.work + amount;
  if (ctx.work > budget)
    throw Error(ErrorCode::limit_exceeded,
                where() + ": the evaluation exceeds its work budget of " + std::to_string(budget) +
                    " bytes (" + std::to_string(Context::kNodeRunWork) +
                    " per node or subgraph run plus the bytes of the tensors each node reads "
                    "and writes; 16 x --max-tensor-bytes, at least 1 MiB)");
}

// "node 4 (Identity-13 '/Identity') of graph 'torch_jit'": the node at fault in an error.
std::string fault_label(const PreparedNode& pn, const onnx::GraphProto& graph);

// The static pass over a graph (static_types.cpp): the types of its outputs, `given` the types of
// its inputs where it declares none; every node of it and of its subgraphs is checked on the way.
class TypeScope;
std::vector<TypeOf> graph_types(const PreparedGraph& g, const std::vector<TypeOf>& given,
                                const TypeScope* outer);

// The kernels of Loop, Scan, If and SequenceMap (control_flow.cpp).
std::vector<Value> run_loop(const KernelCall& c);
std::vector<Value> run_scan(const KernelCall& c);
std::vector<Value> run_if(const KernelCall& c);
std::vector<Value> run_sequence_map(const KernelCall& c);

}  // namespace detail

struct PreparedNode {
  const onnx::NodeProto* node = nullptr;
  size_t index = 0;  // in its graph's node list, for messages
  int64_t since = 0;
  // Null for a node kept for the host (InterpretedModel::prepare with delegate): `missing` then
  // says what the reference lacks, and `opsets` are the imports the host runs it under.
  const detail::OpEntry* op = nullptr;
  std::string missing;
  const std::map<std::string, int64_t>* opsets = nullptr;
  const OperatorSignature* signature = nullptr;  // its row of the type table
  std::map<std::string, std::shared_ptr<const GraphProgram>> subgraphs;
};

struct PreparedGraph {
  std::shared_ptr<const void> owner;  // keeps the proto that `graph` points into alive
  const onnx::GraphProto* graph = nullptr;
  std::vector<PreparedNode> nodes;  // in execution order
  std::vector<std::pair<std::string, Value>> initializers;
  std::vector<std::string> free_names;
  std::shared_ptr<const std::map<std::string, int64_t>> opsets;  // for delegated nodes
};

}  // namespace seqconf::interp
