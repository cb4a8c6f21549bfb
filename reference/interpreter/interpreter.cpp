#include "reference/interpreter/interpreter.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "reference/interpreter/schema_types.h"
#include "reference/interpreter/type_constraints.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"
#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"
#include "reference/support/support_ops.h"

namespace seqconf::interp {

struct PreparedNode;

namespace {

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

const std::unordered_map<std::string, OpEntry>& op_table();

}  // namespace

struct PreparedNode {
  const onnx::NodeProto* node = nullptr;
  size_t index = 0;  // in its graph's node list, for messages
  int64_t since = 0;
  // Null for a node kept for the host (InterpretedModel::prepare with delegate): `missing` then
  // says what the reference lacks, and `opsets` are the imports the host runs it under.
  const OpEntry* op = nullptr;
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

const Value* Scope::find(const std::string& name) const {
  for (const Scope* s = this; s; s = s->parent_) {
    auto it = s->values_.find(name);
    if (it != s->values_.end()) return &it->second;
  }
  return nullptr;
}

namespace {

// "node 4 (Identity '/Identity')", or with the operator's version "node 4 (Identity-13 ...)".
std::string node_label(const onnx::NodeProto& n, size_t index, int64_t since = 0) {
  return "node " + std::to_string(index) + " (" + n.op_type() +
         (since ? "-" + std::to_string(since) : std::string()) +
         (n.name().empty() ? std::string() : " '" + n.name() + "'") + ")";
}

std::shared_ptr<const GraphProgram> prepare_graph(const onnx::GraphProto* graph,
                                                  std::shared_ptr<const void> owner,
                                                  const std::map<std::string, int64_t>& opsets,
                                                  const std::set<std::string>& outer,
                                                  bool delegate);

PreparedNode resolve_node(const onnx::NodeProto& n, size_t index,
                          const std::map<std::string, int64_t>& opsets, bool delegate) {
  // The label names the node in errors only: built when one is thrown.
  auto label = [&] { return node_label(n, index); };
  // What the reference lacks: with delegate (and no graph attribute, whose body the host could
  // not see the enclosing graph from) the node is kept for the host, else not_supported.
  auto lacks = [&](const std::string& what) {
    bool has_graph = false;
    for (const auto& a : n.attribute()) has_graph = has_graph || a.has_g() || a.graphs_size();
    if (!delegate || has_graph) throw Error(ErrorCode::not_supported, what);
    if (is_random_operator(n.op_type()) && n.op_type() != "Dropout")
      throw Error(ErrorCode::nondeterministic,
                  label() + ": " + n.op_type() +
                      " draws random values; the spec determines no outputs for it");
    PreparedNode pn;
    pn.node = &n;
    pn.index = index;
    pn.missing = what;
    return pn;
  };
  const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
  auto imp = opsets.find(domain);
  if (imp == opsets.end())
    throw Error(ErrorCode::invalid_model,
                label() + ": domain '" + n.domain() + "' is not among the model's opset imports");
  if (!domain.empty())
    return lacks(label() + ": domain '" + domain + "' (version " + std::to_string(imp->second) +
                 ") is not implemented by the reference");
  const int64_t v = imp->second;
  auto it = op_table().find(n.op_type());
  if (it == op_table().end())
    return lacks(label() + ": operator " + n.op_type() + " (opset " + std::to_string(v) +
                 ") is not implemented by the reference");
  const OpEntry& e = it->second;
  int64_t since = 0;
  for (int64_t s : e.since)
    if (s <= v) since = std::max(since, s);
  if (since == 0)
    throw Error(ErrorCode::invalid_model, label() + ": operator " + n.op_type() +
                                              " does not exist in opset " + std::to_string(v) +
                                              " (it appears in opset " +
                                              std::to_string(e.since.front()) + ")");
  if (since < e.min_impl)
    return lacks(label() + ": " + n.op_type() + "-" + std::to_string(since) + " (opset " +
                 std::to_string(v) + ") is not implemented by the reference (only from " +
                 n.op_type() + "-" + std::to_string(e.min_impl) + ")");
  PreparedNode pn;
  pn.node = &n;
  pn.index = index;
  pn.since = since;
  pn.op = &e;
  pn.signature = find_signature(n.op_type(), since);
  if (!pn.signature)
    return lacks(label() + ": " + n.op_type() + "-" + std::to_string(since) +
                 " has no row in the type table (reference/interpreter/type_constraints.cpp)");
  check_node_arity(*pn.signature, {n.input().begin(), n.input().end()},
                   static_cast<size_t>(n.output_size()), label);
  for (const auto& ga : e.graph_attrs) {
    const onnx::AttributeProto* found = nullptr;
    for (const auto& a : n.attribute())
      if (a.name() == ga) found = &a;
    if (!found || !found->has_g())
      throw Error(ErrorCode::invalid_model, label() + ": graph attribute '" + ga + "' is missing");
  }
  return pn;
}

std::shared_ptr<const GraphProgram> prepare_graph(const onnx::GraphProto* graph,
                                                  std::shared_ptr<const void> owner,
                                                  const std::map<std::string, int64_t>& opsets,
                                                  const std::set<std::string>& outer,
                                                  bool delegate) {
  auto g = std::make_unique<PreparedGraph>();
  g->owner = owner;
  g->graph = graph;
  g->opsets = std::make_shared<const std::map<std::string, int64_t>>(opsets);
  auto gname = [&] { return "graph '" + graph->name() + "'"; };
  // Names defined in this graph, and by whom (-1: input or initializer). The names live in the
  // proto.
  std::unordered_map<std::string_view, int> producer;
  // by() names the definer in the error only.
  auto define = [&](const std::string& name, int who, const auto& by) {
    if (name.empty()) return;
    if (!producer.emplace(name, who).second && who >= 0)
      throw Error(ErrorCode::invalid_model,
                  gname() + ": '" + name + "' is defined twice (again by " + by() + ")");
  };
  // An empty name means "absent" (an omitted optional input or output of a node); a graph's own
  // inputs, initializers and outputs are values and need names.
  auto require_name = [&](const std::string& name, const char* what, int index) {
    if (name.empty())
      throw Error(ErrorCode::invalid_model,
                  gname() + ": " + what + " " + std::to_string(index) + " has the empty name \"\"");
  };
  for (int i = 0; i < graph->input_size(); ++i) {
    require_name(graph->input(i).name(), "input", i);
    define(graph->input(i).name(), -1, [] { return "an input"; });
  }
  for (int i = 0; i < graph->output_size(); ++i) require_name(graph->output(i).name(), "output", i);
  for (int i = 0; i < graph->initializer_size(); ++i) {
    const auto& init = graph->initializer(i);
    require_name(init.name(), "initializer", i);
    define(init.name(), -1, [] { return "an initializer"; });
    g->initializers.emplace_back(init.name(), Value(tensor_from_proto(init)));
  }
  if (graph->sparse_initializer_size())
    throw Error(ErrorCode::not_supported, gname() + ": sparse initializers are not supported");
  const int n = graph->node_size();
  for (int i = 0; i < n; ++i)
    for (const auto& o : graph->node(i).output())
      define(o, i, [&] { return node_label(graph->node(i), static_cast<size_t>(i)); });

  // The names a subgraph may read: the enclosing graphs' and this one's (built for the first
  // subgraph).
  std::optional<std::set<std::string>> visible;

  std::vector<PreparedNode> nodes;
  std::set<std::string> free;
  std::vector<std::vector<int>> deps(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto& node = graph->node(i);
    auto label = [&] { return node_label(node, static_cast<size_t>(i)); };
    PreparedNode pn = resolve_node(node, static_cast<size_t>(i), opsets, delegate);
    pn.opsets = g->opsets.get();
    std::vector<std::string_view> reads(node.input().begin(), node.input().end());
    for (const auto& a : node.attribute()) {
      if (a.has_g()) {
        if (!visible) {
          visible = outer;
          for (const auto& [name, who] : producer) visible->emplace(name);
        }
        auto sub = prepare_graph(&a.g(), owner, opsets, *visible, delegate);
        for (const auto& f : sub->free_names()) reads.push_back(f);
        pn.subgraphs[a.name()] = sub;
      } else if (a.graphs_size()) {
        throw Error(ErrorCode::not_supported, label() + ": attribute '" + a.name() +
                                                  "' holds a list of graphs, not supported");
      }
    }
    for (const auto& r : reads) {
      if (r.empty()) continue;
      auto it = producer.find(r);
      if (it != producer.end()) {
        if (it->second >= 0) deps[static_cast<size_t>(i)].push_back(it->second);
      } else if (outer.count(std::string(r))) {
        free.emplace(r);
      } else {
        throw Error(ErrorCode::invalid_model,
                    gname() + ": " + label() + " reads '" + std::string(r) +
                        "', which no node, input, initializer or enclosing graph defines");
      }
    }
    nodes.push_back(std::move(pn));
  }
  for (const auto& out : graph->output()) {
    if (producer.count(out.name())) continue;
    if (outer.count(out.name())) {
      free.insert(out.name());
      continue;
    }
    throw Error(ErrorCode::invalid_model,
                gname() + ": output '" + out.name() + "' is not defined by any node or input");
  }
  // Topological order, keeping the file order among ready nodes.
  std::vector<int> pending(static_cast<size_t>(n), 0);
  std::vector<std::vector<int>> users(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int d : deps[static_cast<size_t>(i)]) {
      ++pending[static_cast<size_t>(i)];
      users[static_cast<size_t>(d)].push_back(i);
    }
  std::set<int> ready;
  for (int i = 0; i < n; ++i)
    if (!pending[static_cast<size_t>(i)]) ready.insert(i);
  while (!ready.empty()) {
    const int i = *ready.begin();
    ready.erase(ready.begin());
    g->nodes.push_back(std::move(nodes[static_cast<size_t>(i)]));
    for (int u : users[static_cast<size_t>(i)])
      if (--pending[static_cast<size_t>(u)] == 0) ready.insert(u);
  }
  if (static_cast<int>(g->nodes.size()) != n) {
    std::string stuck;
    for (int i = 0; i < n; ++i)
      if (pending[static_cast<size_t>(i)])
        stuck += (stuck.empty() ? "" : ", ") + node_label(graph->node(i), static_cast<size_t>(i));
    throw Error(ErrorCode::invalid_model, gname() + ": the nodes form a cycle: " + stuck);
  }
  g->free_names.assign(free.begin(), free.end());
  return std::make_shared<const GraphProgram>(std::move(g));
}

}  // namespace

GraphProgram::GraphProgram(std::unique_ptr<PreparedGraph> g) : g_(std::move(g)) {}
const PreparedGraph& GraphProgram::prepared() const { return *g_; }
GraphProgram::~GraphProgram() = default;
const onnx::GraphProto& GraphProgram::graph() const { return *g_->graph; }
const std::vector<std::string>& GraphProgram::free_names() const { return g_->free_names; }

std::shared_ptr<const GraphProgram> GraphProgram::prepare(
    const onnx::GraphProto& graph, const std::map<std::string, int64_t>& opsets,
    const std::vector<std::string>& outer_names) {
  auto copy = std::make_shared<const onnx::GraphProto>(graph);
  return prepare_graph(copy.get(), copy, opsets,
                       std::set<std::string>(outer_names.begin(), outer_names.end()), false);
}

Value coerce_to_declared(const Value& v, const onnx::TypeProto& declared,
                         const std::function<std::string()>& what) {
  if (declared.has_optional_type()) {
    if (v.is_optional()) return v;
    return make_optional(v);
  }
  if (declared.has_tensor_type()) {
    const Tensor& t = v.is_tensor() ? v.tensor() : v.tensor(what());
    const int32_t e = declared.tensor_type().elem_type();
    if (e != 0 && e != static_cast<int32_t>(t.dtype()))
      throw Error(ErrorCode::element_type_mismatch, what() + " is " + t.describe() +
                                                        " but the graph declares tensor(" +
                                                        dtype_name_any(e) + ")");
    return v;
  }
  if (declared.has_sequence_type()) {
    const Sequence& s = v.is_sequence() ? v.sequence() : v.sequence(what());
    const auto& et = declared.sequence_type().elem_type();
    if (et.has_tensor_type() && et.tensor_type().elem_type() != 0 &&
        et.tensor_type().elem_type() != static_cast<int32_t>(s.elem_type()))
      throw Error(ErrorCode::element_type_mismatch,
                  what() + " is " + s.describe() + " but the graph declares seq(tensor(" +
                      dtype_name_any(et.tensor_type().elem_type()) + "))");
    return v;
  }
  return v;
}

namespace {

// Work a value stands for when a node reads or writes it (see Context::work).
size_t value_work(const Value& v) {
  if (v.is_tensor()) return v.tensor().byte_size();
  if (v.is_sequence()) return v.sequence().size() * sizeof(Tensor);
  const Optional& o = v.optional();
  return o.element ? value_work(*o.element) : 0;
}

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

// Binds a node's outputs to its output names.
template <class Label>
void set_outputs(const onnx::NodeProto& node, std::vector<Value> out, Scope& scope,
                 const Label& label) {
  for (int j = 0; j < node.output_size(); ++j) {
    const std::string& name = node.output(j);
    if (name.empty()) continue;
    if (static_cast<size_t>(j) >= out.size())
      throw Error(ErrorCode::invalid_model, label() + " has no output " + std::to_string(j));
    scope.set(name, std::move(out[static_cast<size_t>(j)]));
  }
}

// A node the reference lacks, run alone on the host (Context::host), counted in
// Context::delegated under its operator and the opset it runs at.
std::vector<Value> run_on_host(const PreparedNode& pn, const Inputs& in, Context& ctx) {
  const onnx::NodeProto& node = *pn.node;
  if (!ctx.host)
    throw Error(ErrorCode::not_supported, pn.missing + " (and no host runtime runs it)");
  // Dropout: "training_mode ... If set to true then it indicates dropout is being used for
  // training", when it draws its mask.
  if (node.op_type() == "Dropout" && in.size() > 2 && in[2] && in[2]->is_tensor() &&
      in[2]->tensor().dtype() == DataType::bool_ && in[2]->tensor().element_count() == 1 &&
      in[2]->tensor().data<uint8_t>()[0] != 0)
    throw Error(ErrorCode::nondeterministic,
                node.op_type() +
                    " in training mode draws random values; the spec determines no "
                    "outputs for it");
  const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  const auto opset = pn.opsets->find(domain);
  const std::string key = (domain.empty() ? "" : domain + ".") + node.op_type() + "-" +
                          std::to_string(opset == pn.opsets->end() ? 0 : opset->second);
  std::vector<Value> out = ctx.host->run(node, *pn.opsets, in);
  ++ctx.delegated[key];
  return out;
}

}  // namespace

namespace {
// "node 4 (Identity-13 '/Identity') of graph 'torch_jit'": the node at fault in an error.
std::string fault_label(const PreparedNode& pn, const onnx::GraphProto& graph) {
  return node_label(*pn.node, pn.index, pn.op ? pn.since : 0) + " of graph '" + graph.name() + "'";
}

// Runs one node of a graph: reads its inputs from the scope, checks their types, runs its
// kernel (or the host), checks and sets its outputs.
void run_node(const PreparedNode& pn, Scope& scope, Context& ctx) {
  const onnx::NodeProto& node = *pn.node;
  Inputs in;
  in.reserve(static_cast<size_t>(node.input_size()));
  for (const auto& name : node.input()) {
    if (name.empty()) {
      in.emplace_back();
      continue;
    }
    const Value* v = scope.find(name);
    if (!v)
      throw Error(ErrorCode::invalid_model, "value '" + name + "' read by " + node.op_type() +
                                                " is not defined when the node runs");
    in.emplace_back(*v);
  }
  KernelCall call{pn, node, pn.since, in, scope, ctx};
  size_t in_work = Context::kNodeRunWork;
  for (const auto& v : in)
    if (v) in_work += value_work(*v);
  charge_work(ctx, in_work, [&] { return call.label(); });
  if (!pn.op) {
    set_outputs(node, run_on_host(pn, in, ctx), scope, [&] { return call.label(); });
    return;
  }
  // The operator's type constraints at the version it runs: kinds and element types of every
  // value, each type parameter bound to one type.
  TypeBindings bindings;
  check_input_types(*pn.signature, node.name(), in, bindings);
  std::vector<Value> out;
  std::optional<std::vector<Value>> replaced;
  if (ctx.kernel_override)
    replaced = ctx.kernel_override->run(
        NodeCall{node, pn.since, in, ctx, [&](const Inputs& alt) {
                   return pn.op->fn(KernelCall{pn, node, pn.since, alt, scope, ctx});
                 }});
  out = replaced ? std::move(*replaced) : pn.op->fn(call);
  check_output_types(*pn.signature, node.name(), out, bindings);
  size_t out_work = 0;
  for (const auto& v : out) out_work += value_work(v);
  charge_work(ctx, out_work, [&] { return call.label(); });
  set_outputs(node, std::move(out), scope, [&] { return call.label(); });
}
}  // namespace

std::vector<Value> GraphProgram::run(const std::vector<Value>& inputs, const Scope* outer,
                                     Context& ctx) const {
  const onnx::GraphProto& graph = *g_->graph;
  if (inputs.size() != static_cast<size_t>(graph.input_size()))
    throw Error(ErrorCode::missing_input, "graph '" + graph.name() + "' has " +
                                              std::to_string(graph.input_size()) + " inputs, got " +
                                              std::to_string(inputs.size()));
  Scope scope(outer);
  for (const auto& [name, v] : g_->initializers) scope.set(name, v);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& decl = graph.input(static_cast<int>(i));
    auto what = [&] { return "graph '" + graph.name() + "' input '" + decl.name() + "'"; };
    scope.set(decl.name(),
              decl.has_type() ? coerce_to_declared(inputs[i], decl.type(), what) : inputs[i]);
  }
  for (const PreparedNode& pn : g_->nodes) {
    try {
      run_node(pn, scope, ctx);
    } catch (const Error& e) {
      // The innermost node names the fault (a node of a Loop body, not the Loop).
      if (!e.fault_node().empty()) throw;
      throw e.at_node(pn.node->op_type(), fault_label(pn, graph));
    }
  }
  std::vector<Value> result;
  for (const auto& o : graph.output()) {
    const Value* v = scope.find(o.name());
    if (!v) throw Error(ErrorCode::invalid_model, "graph output '" + o.name() + "' is undefined");
    result.push_back(*v);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Static types. ONNX types its values statically: a node that takes a value its operator's type
// constraints do not allow makes the model invalid whatever the inputs, also when the node sits
// in a branch or a body that a data set never runs. Before any data set, prepare() derives the
// type of every value it can (declared graph inputs, initializers, what each node's row and
// attributes make of its inputs' types, the graph's value_info where nothing else says) and
// checks every node of every graph against its row with the check a running node gets
// (check_input_types); a node kept for the host is checked against ONNX's schema of its operator
// (schema_types.h). A value whose type cannot be derived is left to the run-time check.
namespace {

class TypeScope {
 public:
  explicit TypeScope(const TypeScope* parent) : parent_(parent) {}
  // The name's type, or nullptr when no graph in scope defines the name.
  const TypeOf* find(const std::string& name) const {
    for (const TypeScope* s = this; s; s = s->parent_) {
      auto it = s->types_.find(name);
      if (it != s->types_.end()) return &it->second;
    }
    return nullptr;
  }
  void set(const std::string& name, TypeOf t) {
    if (!name.empty()) types_[name] = std::move(t);
  }

 private:
  const TypeScope* parent_;
  std::unordered_map<std::string, TypeOf> types_;
};

DataType elem_of(const Value& v) {
  if (v.is_tensor()) return v.tensor().dtype();
  if (v.is_sequence()) return v.sequence().elem_type();
  return v.optional().elem_type;
}
TypeOf tensor_type(DataType e) { return Value(Tensor::zeros(e, Shape{0})); }
// tensor(E) of a tensor(E) or seq(tensor(E)): an element, a slice or a concatenation.
TypeOf tensor_of(const TypeOf& t) {
  if (!t || t->is_optional()) return std::nullopt;
  return tensor_type(elem_of(*t));
}
// seq(tensor(E)) of tensor(E).
TypeOf sequence_of(const TypeOf& t) {
  if (!t || !t->is_tensor()) return std::nullopt;
  return Value(Sequence(elem_of(*t)));
}
TypeOf type_from_onnx(int32_t elem_type) {
  if (elem_type == 0) return std::nullopt;
  try {
    return tensor_type(dtype_from_onnx(elem_type, "a declared type"));
  } catch (const Error&) {
    return std::nullopt;  // an element type the reference does not carry: not derived
  }
}
TypeOf declared(const onnx::TypeProto& t) {
  if (t.has_tensor_type()) return type_from_onnx(t.tensor_type().elem_type());
  if (t.has_sequence_type() && t.sequence_type().elem_type().has_tensor_type())
    return sequence_of(type_from_onnx(t.sequence_type().elem_type().tensor_type().elem_type()));
  if (t.has_optional_type()) {
    const auto& e = t.optional_type().elem_type();
    const bool seq = e.has_sequence_type();
    const TypeOf inner = declared(e);
    if (!inner) return std::nullopt;
    return Value(Optional{seq, elem_of(*inner), nullptr});
  }
  return std::nullopt;
}
const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}
// Constant's output: the type of whichever value attribute it has.
TypeOf constant_type(const onnx::NodeProto& n) {
  for (const auto& a : n.attribute()) {
    if (a.name() == "value") return type_from_onnx(a.t().data_type());
    if (a.name() == "value_float" || a.name() == "value_floats")
      return tensor_type(DataType::float32);
    if (a.name() == "value_int" || a.name() == "value_ints") return tensor_type(DataType::int64);
    if (a.name() == "value_string" || a.name() == "value_strings")
      return tensor_type(DataType::string);
  }
  return std::nullopt;
}

std::vector<TypeOf> graph_types(const PreparedGraph& g, const std::vector<TypeOf>& given,
                                const TypeScope* outer);

const PreparedGraph& prepared(const PreparedNode& pn, const std::string& name);

// The output types of a node whose input types are `in` (bindings: its row's type parameters as
// check_input_types bound them); subgraphs are checked on the way.
std::vector<TypeOf> node_types(const PreparedNode& pn, const std::vector<TypeOf>& in,
                               const TypeBindings& bindings, const TypeScope& scope) {
  const onnx::NodeProto& n = *pn.node;
  const std::string& op = n.op_type();
  std::vector<TypeOf> out(static_cast<size_t>(n.output_size()));
  auto input = [&](size_t i) -> TypeOf { return i < in.size() ? in[i] : std::nullopt; };
  auto body = [&](const std::string& name, const std::vector<TypeOf>& inputs) {
    return graph_types(prepared(pn, name), inputs, &scope);
  };
  auto all = [&](const TypeOf& t) { std::fill(out.begin(), out.end(), t); };
  if (op == "SequenceAt" || op == "ConcatFromSequence") {
    all(input(0) && input(0)->is_sequence() ? tensor_of(input(0)) : std::nullopt);
  } else if (op == "SequenceInsert" || op == "SequenceErase") {
    all(input(0) && input(0)->is_sequence() ? input(0) : std::nullopt);
  } else if (op == "SplitToSequence" || op == "SequenceConstruct") {
    all(sequence_of(input(0)));
  } else if (op == "SequenceEmpty") {
    const auto* dtype = attribute(n, "dtype");
    all(sequence_of(dtype ? type_from_onnx(static_cast<int32_t>(dtype->i()))
                          : tensor_type(DataType::float32)));
  } else if (op == "Cast") {
    if (const auto* to = attribute(n, "to")) all(type_from_onnx(static_cast<int32_t>(to->i())));
  } else if (op == "CastLike") {
    all(tensor_of(input(1)));
  } else if (op == "Constant") {
    all(constant_type(n));
  } else if (op == "ConstantOfShape") {
    const auto* value = attribute(n, "value");
    all(value ? type_from_onnx(value->t().data_type()) : tensor_type(DataType::float32));
  } else if (op == "If") {
    out = body("then_branch", {});
    body("else_branch", {});
  } else if (op == "Loop") {
    // Body inputs: the iteration number, the condition, the loop-carried values.
    std::vector<TypeOf> b = {tensor_type(DataType::int64), tensor_type(DataType::bool_)};
    for (size_t i = 2; i < in.size(); ++i) b.push_back(in[i]);
    const std::vector<TypeOf> r = body("body", b);
    const size_t carried = in.size() > 2 ? in.size() - 2 : 0;
    for (size_t j = 0; j < out.size() && j + 1 < r.size(); ++j)
      out[j] = j < carried ? r[j + 1] : tensor_of(r[j + 1]);  // scan outputs are tensors
  } else if (op == "Scan") {
    const auto* m = attribute(n, "num_scan_inputs");
    const size_t scanned = m ? static_cast<size_t>(m->i()) : 0;
    const size_t state = in.size() > scanned ? in.size() - scanned : 0;
    std::vector<TypeOf> b;
    for (size_t i = 0; i < in.size(); ++i) b.push_back(i < state ? in[i] : tensor_of(in[i]));
    const std::vector<TypeOf> r = body("body", b);
    for (size_t j = 0; j < out.size() && j < r.size(); ++j)
      out[j] = j < state ? r[j] : tensor_of(r[j]);
  } else if (op == "SequenceMap") {
    // The body takes an element of each sequence input and each tensor input whole.
    std::vector<TypeOf> b;
    for (const auto& t : in) b.push_back(t && t->is_sequence() ? tensor_of(t) : t);
    const std::vector<TypeOf> r = body("body", b);
    for (size_t j = 0; j < out.size() && j < r.size(); ++j) out[j] = sequence_of(r[j]);
  } else if (pn.signature && !pn.signature->checked_by_operator) {
    // A parameter bound by an input, or a constraint that allows one type only.
    for (size_t j = 0; j < out.size(); ++j) {
      const FormalParameter* f = pn.signature->output_formal(j);
      if (!f) continue;
      if (const TypeBindings::Bound* b = bindings.find(f->type)) {
        if (b->kind == kTensor) out[j] = tensor_type(b->elem_type);
        if (b->kind == kSequence) out[j] = Value(Sequence(b->elem_type));
        continue;
      }
      const TypeConstraint& c = pn.signature->constraint(f->type);
      const ElemTypeSet e = c.allowed(kTensor);
      if (c.kinds == kTensor && e && !(e & (e - 1)))
        for (int d = 0; d < 32; ++d)
          if (e == (ElemTypeSet{1} << d)) out[j] = tensor_type(static_cast<DataType>(d));
    }
  }
  return out;
}

const PreparedGraph& prepared(const PreparedNode& pn, const std::string& name) {
  return pn.subgraphs.at(name)->prepared();
}

// The rules of the five operators' types that hold whatever the values (reference/ops/ops.h),
// on the types the static pass knows; an unknown type is not checked.
void operator_types(const onnx::NodeProto& n, const std::vector<TypeOf>& in) {
  const std::string& op = n.op_type();
  auto tensor = [&](size_t i) -> const Tensor* {
    return i < in.size() && in[i] && in[i]->is_tensor() ? &in[i]->tensor() : nullptr;
  };
  auto sequence = [&](size_t i) -> const Sequence* {
    return i < in.size() && in[i] && in[i]->is_sequence() ? &in[i]->sequence() : nullptr;
  };
  auto type_text = [](DataType d) { return "tensor(" + std::string(dtype_name(d)) + ")"; };
  const size_t position = op == "SequenceInsert" ? 2 : 1;
  if (op == "SequenceAt" || op == "SequenceErase" || op == "SequenceInsert")
    if (const Tensor* p = tensor(position))
      ops::check_position_type(op.c_str(), p->dtype(), [&] { return type_text(p->dtype()); });
  if (op == "SequenceInsert")
    if (const Sequence* s = sequence(0))
      if (const Tensor* t = tensor(1))
        ops::check_insert_same_type(s->elem_type(), t->dtype(), [&] {
          return "tensor is " + type_text(t->dtype()) + " but input_sequence is seq(" +
                 type_text(s->elem_type()) + ")";
        });
  if (op == "SplitToSequence")
    if (const Tensor* split = tensor(1))
      ops::check_split_type(split->dtype(), [&] { return type_text(split->dtype()); });
}

std::vector<TypeOf> graph_types(const PreparedGraph& g, const std::vector<TypeOf>& given,
                                const TypeScope* outer) {
  const onnx::GraphProto& graph = *g.graph;
  TypeScope scope(outer);
  std::unordered_map<std::string, const onnx::TypeProto*> value_info;
  for (const auto& vi : graph.value_info())
    if (vi.has_type()) value_info.emplace(vi.name(), &vi.type());
  for (int i = 0; i < graph.input_size(); ++i) {
    const auto& decl = graph.input(i);
    TypeOf t = decl.has_type() ? declared(decl.type()) : std::nullopt;
    if (!t && static_cast<size_t>(i) < given.size()) t = given[static_cast<size_t>(i)];
    scope.set(decl.name(), std::move(t));
  }
  for (const auto& [name, v] : g.initializers) scope.set(name, tensor_of(v));
  for (const PreparedNode& pn : g.nodes) {
    const onnx::NodeProto& n = *pn.node;
    std::vector<TypeOf> in;
    for (const auto& name : n.input()) {
      const TypeOf* t = name.empty() ? nullptr : scope.find(name);
      in.push_back(t ? *t : std::nullopt);
    }
    TypeBindings bindings;
    std::vector<TypeOf> out(static_cast<size_t>(n.output_size()));
    bool operator_rule = false;  // the error is one of the five operators' own type rules
    try {
      if (pn.signature) check_input_types(*pn.signature, n.name(), in, bindings);
      if (pn.signature && pn.signature->checked_by_operator) {
        operator_rule = true;
        operator_types(n, in);
        operator_rule = false;
      }
      if (pn.op) {
        out = node_types(pn, in, bindings, scope);
      } else if (auto delegated = schema_types(n, pn.opsets->at(""), in)) {
        out = std::move(*delegated);  // a node for the host: ONNX's schema of its operator
      }
    } catch (const Error& e) {
      // A type violation, or one of the five operators' rules on types: it keeps its code (the
      // one the operator raises when it runs), and the message says it holds whatever the inputs.
      const std::string what = e.what();
      // A subgraph's violation is already named by its own node.
      if (what.rfind(kInvalidWhateverInputs, 0) == 0) throw;
      if (e.code() == ErrorCode::invalid_model || operator_rule) {
        throw Error(e.code(), std::string(kInvalidWhateverInputs) + ": " + fault_label(pn, graph) +
                                  ": " + what)
            .at_node(n.op_type(), fault_label(pn, graph));
      }
      // Anything but a type violation (a type the table cannot name) leaves the outputs unknown.
      out.assign(out.size(), std::nullopt);
    }
    for (size_t j = 0; j < out.size(); ++j) {
      const std::string& name = n.output(static_cast<int>(j));
      if (!out[j]) {
        auto it = value_info.find(name);
        if (it != value_info.end()) out[j] = declared(*it->second);
      }
      scope.set(name, std::move(out[j]));
    }
  }
  std::vector<TypeOf> result;
  for (const auto& o : graph.output()) {
    const TypeOf* t = scope.find(o.name());
    result.push_back(t && *t ? *t : (o.has_type() ? declared(o.type()) : std::nullopt));
  }
  return result;
}

}  // namespace

std::map<std::string, int64_t> model_opsets(const onnx::ModelProto& model) {
  std::map<std::string, int64_t> m;
  for (const auto& op : model.opset_import()) {
    const std::string domain = op.domain() == "ai.onnx" ? "" : op.domain();
    if (!m.emplace(domain, op.version()).second)
      throw Error(ErrorCode::invalid_model,
                  "opset of domain '" + op.domain() + "' is imported twice");
  }
  auto it = m.find("");
  if (it == m.end())
    throw Error(ErrorCode::invalid_model, "the model imports no opset of the default domain");
  if (it->second > kMaxOpset || it->second < 1)
    throw Error(ErrorCode::not_supported, "default-domain opset " + std::to_string(it->second) +
                                              " is outside what the reference knows (1.." +
                                              std::to_string(kMaxOpset) + ")");
  return m;
}

InterpretedModel InterpretedModel::prepare(const onnx::ModelProto& model, bool delegate) {
  return prepare(std::make_shared<const onnx::ModelProto>(model), delegate);
}

InterpretedModel InterpretedModel::prepare(std::shared_ptr<const onnx::ModelProto> model,
                                           bool delegate) {
  InterpretedModel m;
  m.model_ = model;
  const auto opsets = model_opsets(*model);
  m.opset_ = opsets.at("");
  m.program_ = prepare_graph(&model->graph(), model, opsets, {}, delegate);
  graph_types(m.program_->prepared(), {}, nullptr);
  std::set<std::string> inits;
  for (const auto& i : model->graph().initializer()) inits.insert(i.name());
  for (int i = 0; i < model->graph().input_size(); ++i) {
    const auto& in = model->graph().input(i);
    if (inits.count(in.name())) continue;
    m.input_names_.push_back(in.name());
    m.input_types_.push_back(in.type());
    m.input_slots_.push_back(static_cast<size_t>(i));
  }
  return m;
}

std::vector<std::string> InterpretedModel::output_names() const {
  std::vector<std::string> v;
  for (const auto& o : model_->graph().output()) v.push_back(o.name());
  return v;
}

std::vector<Value> InterpretedModel::run(const std::vector<Value>& inputs, Context& ctx) const {
  const TensorLimit limit(ctx.max_tensor_bytes);
  const auto& graph = model_->graph();
  if (inputs.size() != input_names_.size())
    throw Error(ErrorCode::missing_input, "the model has " + std::to_string(input_names_.size()) +
                                              " inputs, got " + std::to_string(inputs.size()));
  // Inputs that also have an initializer take the initializer's value.
  std::vector<Value> all(static_cast<size_t>(graph.input_size()));
  std::vector<bool> given(all.size(), false);
  for (size_t k = 0; k < inputs.size(); ++k) {
    all[input_slots_[k]] = inputs[k];
    given[input_slots_[k]] = true;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    if (given[i]) continue;
    for (const auto& init : graph.initializer())
      if (init.name() == graph.input(static_cast<int>(i)).name()) all[i] = tensor_from_proto(init);
  }
  return program_->run(all, nullptr, ctx);
}

std::vector<Value> run_model(const onnx::ModelProto& model, const std::vector<Value>& inputs,
                             Context& ctx) {
  return InterpretedModel::prepare(model).run(inputs, ctx);
}

namespace {
void collect_ops(const onnx::GraphProto& g, std::set<std::string>& out) {
  for (const auto& n : g.node()) {
    out.insert(n.op_type());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_ops(a.g(), out);
      for (const auto& sg : a.graphs()) collect_ops(sg, out);
    }
  }
}
}  // namespace

bool is_random_operator(const std::string& op_type) {
  static const std::set<std::string> random = {
      "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
      "Bernoulli",    "Multinomial",   "Dropout"};
  return random.count(op_type) > 0;
}

std::vector<std::string> ops_used(const onnx::GraphProto& graph) {
  std::set<std::string> s;
  collect_ops(graph, s);
  return {s.begin(), s.end()};
}

namespace {
// Every value name a graph reads, its subgraphs included (the names it defines among them too:
// reading more than the free names only widens what an output is counted to pass through).
void collect_reads(const onnx::GraphProto& g, std::set<std::string>& out) {
  for (const auto& n : g.node()) {
    out.insert(n.input().begin(), n.input().end());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_reads(a.g(), out);
      for (const auto& sg : a.graphs()) collect_reads(sg, out);
    }
  }
  for (const auto& o : g.output()) out.insert(o.name());
}
}  // namespace

std::vector<std::vector<std::string>> ops_used_by_outputs(const onnx::GraphProto& graph) {
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const auto& o : graph.node(i).output())
      if (!o.empty()) producer.emplace(o, i);
  std::vector<std::vector<std::string>> result;
  for (const auto& out : graph.output()) {
    std::set<std::string> ops;
    std::set<int> seen;
    std::vector<std::string> pending = {out.name()};
    while (!pending.empty()) {
      const std::string name = std::move(pending.back());
      pending.pop_back();
      const auto it = producer.find(name);
      if (it == producer.end() || !seen.insert(it->second).second) continue;
      const onnx::NodeProto& n = graph.node(it->second);
      ops.insert(n.op_type());
      pending.insert(pending.end(), n.input().begin(), n.input().end());
      // A body's operators act on what the node outputs, and a body reads the enclosing graph.
      std::set<std::string> reads;
      for (const auto& a : n.attribute()) {
        if (a.has_g()) collect_ops(a.g(), ops), collect_reads(a.g(), reads);
        for (const auto& sg : a.graphs()) collect_ops(sg, ops), collect_reads(sg, reads);
      }
      pending.insert(pending.end(), reads.begin(), reads.end());
    }
    result.emplace_back(ops.begin(), ops.end());
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Kernels: argument plumbing from nodes to the operator functions.
namespace {

const GraphProgram& subgraph(const KernelCall& c, const std::string& name) {
  return *c.pn.subgraphs.at(name);
}

bool read_bool_scalar(const Tensor& t, const std::string& what) {
  if (t.dtype() != DataType::bool_ || t.element_count() != 1)
    throw Error(ErrorCode::invalid_argument, what + " must be a single bool, got " + t.describe());
  return t.data<uint8_t>()[0] != 0;
}

std::vector<Value> values_of(std::vector<Value> v) { return v; }

// Every Loop iteration and SequenceMap sample counts against one budget per evaluation, as
// large as the number of tensor handles Context::max_tensor_bytes holds (2^24 for 1 GiB):
// nested loops cannot multiply into an unbounded run.
void count_body_run(const KernelCall& c) {
  const size_t budget = c.ctx.max_tensor_bytes / sizeof(Tensor);
  if (++c.ctx.body_runs > budget)
    throw Error(ErrorCode::limit_exceeded,
                c.label() + ": more than " + std::to_string(budget) +
                    " subgraph runs (Loop iterations and SequenceMap samples) in one evaluation");
  charge_work(c.ctx, Context::kNodeRunWork, [&] { return c.label(); });
}

std::vector<Value> run_loop(const KernelCall& c) {
  // Loop: "Generic Looping construct ... input ("", cond) // Note this is analogous to a while
  //  loop ... input (trip_count, "") // Note this is analogous to a for loop".
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  const size_t n_carried = c.in.size() > 2 ? c.in.size() - 2 : 0;
  if (static_cast<size_t>(bg.input_size()) != 2 + n_carried)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.input_size()) +
                    " inputs, expected 2 + " + std::to_string(n_carried) + " loop-carried");
  if (static_cast<size_t>(bg.output_size()) < 1 + n_carried)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.output_size()) +
                    " outputs, expected at least 1 + " + std::to_string(n_carried));
  const size_t n_scan = static_cast<size_t>(bg.output_size()) - 1 - n_carried;
  std::optional<int64_t> trip;
  if (c.has(0)) {
    const Tensor& m = c.tensor(0);
    if (m.dtype() != DataType::int64 || m.element_count() != 1)
      throw Error(ErrorCode::invalid_argument,
                  c.label() + ": M must be a single int64, got " + m.describe());
    trip = m.int_at(0);
  }
  bool cond = c.has(1) ? read_bool_scalar(c.tensor(1), c.label() + ": cond") : true;
  std::vector<Value> carried;
  for (size_t k = 0; k < n_carried; ++k) carried.push_back(c.value(2 + k));
  std::vector<std::vector<Tensor>> scans(n_scan);
  for (int64_t i = 0; cond && (!trip || i < *trip); ++i) {
    count_body_run(c);
    std::vector<Value> args;
    args.emplace_back(Tensor::from_values<DataType::int64>({}, {i}));
    args.emplace_back(Tensor::from_values<DataType::bool_>({}, {static_cast<uint8_t>(cond)}));
    for (auto& v : carried) args.push_back(v);
    std::vector<Value> out = body.run(args, &c.scope, c.ctx);
    cond = read_bool_scalar(out[0].tensor(c.label() + ": body output cond"),
                            c.label() + ": body output cond");
    for (size_t k = 0; k < n_carried; ++k) carried[k] = out[1 + k];
    for (size_t k = 0; k < n_scan; ++k) {
      const Value& v = out[1 + n_carried + k];
      auto what = [&] {
        return c.label() + ": scan output " + std::to_string(k) + " (body output " +
               std::to_string(1 + n_carried + k) + ") in iteration " + std::to_string(i);
      };
      // Loop-13 v_final_and_scan_outputs: "Scan outputs must be Tensors."
      if (!v.is_tensor())
        throw Error(ErrorCode::invalid_model,
                    what() + " is " + type_text(v) + "; \"Scan outputs must be Tensors.\"");
      const Tensor& t = v.tensor();
      // body: "It is an error if the dimensions or data type of these scan_outputs change
      //  across loop iterations."
      if (!scans[k].empty() &&
          (t.dtype() != scans[k][0].dtype() || t.shape() != scans[k][0].shape()))
        throw Error(
            t.dtype() != scans[k][0].dtype() ? ErrorCode::invalid_model : ErrorCode::shape_mismatch,
            what() + " is " + t.describe() + " but was " + scans[k][0].describe() +
                " in iteration 0; \"It is an error if the dimensions or data type of these "
                "scan_outputs change across loop iterations.\"");
      scans[k].push_back(t);
    }
  }
  std::vector<Value> result = std::move(carried);
  for (size_t k = 0; k < n_scan; ++k) {
    // "Scan outputs ... the values ... are concatenated"; each iteration adds one slice along
    // a new leading axis.
    const auto& decl = bg.output(static_cast<int>(1 + n_carried + k)).type();
    if (scans[k].empty()) {
      DataType d = DataType::float32;
      Shape shape{0};
      if (decl.has_tensor_type()) {
        d = dtype_from_onnx(decl.tensor_type().elem_type(), c.label() + ": scan output type");
        bool known = decl.tensor_type().has_shape();
        for (const auto& dim : decl.tensor_type().shape().dim())
          known = known && dim.has_dim_value();
        if (known)
          for (const auto& dim : decl.tensor_type().shape().dim()) shape.push_back(dim.dim_value());
      }
      result.emplace_back(Tensor::zeros(d, shape));
    } else {
      const DataType d = scans[k][0].dtype();
      result.emplace_back(ops::ConcatFromSequence(Sequence(d, scans[k]), 0, 1));
    }
  }
  return result;
}

// The list attribute `name` of a Scan: absent gives `count` copies of dflt; a list of another
// length makes the model invalid.
std::vector<int64_t> scan_flags(const KernelCall& c, const std::string& name, size_t count,
                                int64_t dflt) {
  const auto* a = c.attr(name);
  if (!a) return std::vector<int64_t>(count, dflt);
  if (static_cast<size_t>(a->ints_size()) != count)
    throw Error(ErrorCode::invalid_model, c.label() + ": " + name + " has " +
                                              std::to_string(a->ints_size()) +
                                              " entries, expected " + std::to_string(count));
  return {a->ints().begin(), a->ints().end()};
}

// axis in [-r, r-1] (scan_input_axes, scan_output_axes: "Accepted range is [-r, r-1]"), made
// non-negative.
int64_t scan_axis(const KernelCall& c, const std::string& what, int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw Error(ErrorCode::axis_out_of_range, c.label() + ": " + what + " " + std::to_string(axis) +
                                                  " is outside [-" + std::to_string(r) + ", " +
                                                  std::to_string(r - 1) + "]");
  return axis < 0 ? axis + r : axis;
}

std::vector<Value> run_scan(const KernelCall& c) {
  // Scan-9: "It takes as input the current values of the state_variables and the current
  //  iterated element of the scan_inputs. It must return the (updated) values of the
  //  state_variables and zero or more scan_output_element tensors."
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  const auto m = static_cast<size_t>(c.attr_int("num_scan_inputs", std::nullopt));
  if (m > c.in.size())
    throw Error(ErrorCode::invalid_model, c.label() + ": num_scan_inputs " + std::to_string(m) +
                                              " exceeds its " + std::to_string(c.in.size()) +
                                              " inputs");
  const size_t n = c.in.size() - m;
  if (static_cast<size_t>(bg.input_size()) != n + m)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.input_size()) +
                    " inputs, expected " + std::to_string(n) + " state variables + " +
                    std::to_string(m) + " scan inputs");
  if (static_cast<size_t>(bg.output_size()) < n)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.output_size()) +
                    " outputs, fewer than its " + std::to_string(n) + " state variables");
  const size_t k_out = static_cast<size_t>(bg.output_size()) - n;
  const auto in_axes = scan_flags(c, "scan_input_axes", m, 0);
  const auto in_dirs = scan_flags(c, "scan_input_directions", m, 0);
  const auto out_axes = scan_flags(c, "scan_output_axes", k_out, 0);
  const auto out_dirs = scan_flags(c, "scan_output_directions", k_out, 0);

  std::vector<Value> state;
  for (size_t i = 0; i < n; ++i) state.push_back(Value(c.tensor(i)));
  std::vector<int64_t> axes(m);
  std::optional<int64_t> length;
  for (size_t j = 0; j < m; ++j) {
    const Tensor& x = c.tensor(n + j);
    axes[j] = scan_axis(c, "scan_input_axes entry", in_axes[j], x.shape().size());
    const int64_t l = x.shape()[static_cast<size_t>(axes[j])];
    // Scan's pseudo-code: "scan_i.shape[axis_i] is required to be equal to scan_j.shape[axis_j]
    //  for all i,j."
    if (length && *length != l)
      throw Error(ErrorCode::shape_mismatch,
                  c.label() + ": scan input " + std::to_string(j) + " has " + std::to_string(l) +
                      " elements on its scan axis, scan input 0 has " + std::to_string(*length));
    length = l;
  }
  const int64_t iterations = length.value_or(0);
  std::vector<std::vector<Tensor>> scans(k_out);
  for (int64_t i = 0; i < iterations; ++i) {
    count_body_run(c);
    std::vector<Value> args = state;
    for (size_t j = 0; j < m; ++j) {
      // scan_input_directions: "0 indicates forward direction and 1 indicates reverse
      //  direction". "the iterated element passed to the body subgraph does not have a sequence
      //  axis".
      const int64_t at = in_dirs[j] == 1 ? iterations - 1 - i : i;
      args.emplace_back(support::Gather(c.tensor(n + j),
                                        Tensor::from_values<DataType::int64>({}, {at}), axes[j]));
    }
    std::vector<Value> out = body.run(args, &c.scope, c.ctx);
    for (size_t s = 0; s < n; ++s) state[s] = out[s];
    for (size_t k = 0; k < k_out; ++k) {
      const Tensor& t = out[n + k].tensor(c.label() + ": scan output " + std::to_string(k));
      // body: "It is an error if the dimensions of these values change across loop iterations."
      if (!scans[k].empty() && t.shape() != scans[k][0].shape())
        throw Error(ErrorCode::shape_mismatch, c.label() + ": scan output " + std::to_string(k) +
                                                   " is " + t.describe() + " in iteration " +
                                                   std::to_string(i) + " but was " +
                                                   scans[k][0].describe() + " in iteration 0");
      scans[k].push_back(t);
    }
  }
  std::vector<Value> result = std::move(state);
  for (size_t k = 0; k < k_out; ++k) {
    if (scans[k].empty())
      throw Error(ErrorCode::not_supported,
                  c.label() + ": a Scan of no iteration: the shape of scan output " +
                      std::to_string(k) + " is not derived by the reference");
    // scan_output_directions: "0 indicates appending and 1 indicates prepending"; the elements
    // are accumulated along scan_output_axes (a new axis of the output, of rank r + 1).
    if (out_dirs[k] == 1) std::reverse(scans[k].begin(), scans[k].end());
    const int64_t axis =
        scan_axis(c, "scan_output_axes entry", out_axes[k], scans[k][0].shape().size() + 1);
    const DataType d = scans[k][0].dtype();
    result.emplace_back(ops::ConcatFromSequence(Sequence(d, scans[k]), axis, 1));
  }
  return result;
}

std::vector<Value> run_if(const KernelCall& c) {
  const bool cond = read_bool_scalar(c.tensor(0), c.label() + ": cond");
  const GraphProgram& branch = subgraph(c, cond ? "then_branch" : "else_branch");
  if (branch.graph().input_size() != 0)
    throw Error(ErrorCode::invalid_model, c.label() + ": a branch graph has inputs");
  std::vector<Value> out = branch.run({}, &c.scope, c.ctx);
  if (out.size() != static_cast<size_t>(c.node.output_size()))
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the branch has " + std::to_string(out.size()) +
                    " outputs, the node " + std::to_string(c.node.output_size()));
  return out;
}

std::vector<Value> run_sequence_map(const KernelCall& c) {
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  // Clause SequenceMap.arity.
  if (bg.output_size() != c.node.output_size())
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the node has " + std::to_string(c.node.output_size()) +
                    " outputs but the body has " + std::to_string(bg.output_size()));
  ops::SequenceMapBody fn;
  fn.num_inputs = static_cast<size_t>(bg.input_size());
  for (const auto& o : bg.output()) {
    if (!o.type().has_tensor_type())
      throw Error(ErrorCode::body_output_type,
                  c.label() + ": body output '" + o.name() + "' is not declared as a tensor");
    fn.output_elem_types.push_back(dtype_from_onnx(o.type().tensor_type().elem_type(),
                                                   c.label() + ": body output '" + o.name() + "'"));
  }
  fn.run = [&](const std::vector<Value>& sample) {
    count_body_run(c);
    return body.run(sample, &c.scope, c.ctx);
  };
  std::vector<Value> additional;
  for (size_t i = 1; i < c.in.size(); ++i) additional.push_back(c.value(i));
  std::vector<Sequence> seqs = ops::SequenceMap(c.sequence(0), additional, fn, c.ctx);
  return {seqs.begin(), seqs.end()};
}

std::vector<Value> one(Value v) { return values_of({std::move(v)}); }

// Cast: "The 'to' argument must be one of the data types specified in the 'DataType' enum field in
//  the TensorProto message." A type T2 does not allow (complex; string before Cast-9; a value of
// no DataType; bfloat16 before Cast-13) makes the model invalid; a type T2 allows that the suite
// does not carry (float8, int4, ...) is not_supported.
// The types T2 allows that the suite does not carry: float8e4m3fn, float8e4m3fnuz, float8e5m2,
// float8e5m2fnuz (17-20) from Cast-19, uint4 and int4 (21, 22) from Cast-21, float4e2m1 (23)
// from Cast-23, float8e8m0 (24) from Cast-24.
bool uncarried_cast_target(int64_t to, int64_t since) {
  return (to >= 17 && to <= 20 && since >= 19) || ((to == 21 || to == 22) && since >= 21) ||
         (to == 23 && since >= 23) || (to == 24 && since >= 24);
}

std::vector<Value> run_cast(const KernelCall& c) {
  int64_t to = 0;
  if (c.since < 6) {
    // Cast-1's `to` is a string: "Strictly must be one of the types from DataType enum in
    // TensorProto", by its name ("FLOAT", "INT64", ...).
    const auto* a = c.attr("to");
    if (!a)
      throw Error(ErrorCode::invalid_model, c.label() + ": required attribute 'to' is absent");
    onnx::TensorProto_DataType d{};
    if (!onnx::TensorProto_DataType_Parse(a->s(), &d))
      throw Error(ErrorCode::invalid_model,
                  c.label() + ": to = \"" + a->s() +
                      "\" is not the name of a type of the DataType enum in TensorProto");
    to = d;
  } else {
    to = c.attr_int("to", std::nullopt);
  }
  const bool carried = to > 0 && to <= INT32_MAX && is_supported(static_cast<DataType>(to));
  const bool complex = to == static_cast<int64_t>(DataType::complex64) ||
                       to == static_cast<int64_t>(DataType::complex128);
  const bool string_before_9 = to == static_cast<int64_t>(DataType::string) && c.since < 9;
  const bool bfloat16_before_13 = to == static_cast<int64_t>(DataType::bfloat16) && c.since < 13;
  if (!carried || complex || string_before_9 || bfloat16_before_13) {
    if (carried || !uncarried_cast_target(to, c.since))
      type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute to)", "T2",
                     "tensor(" +
                         (to <= 0 || to > INT32_MAX ? "type " + std::to_string(to)
                                                    : dtype_name_any(static_cast<int32_t>(to))) +
                         ")");
    throw Error(ErrorCode::not_supported,
                c.label() + ": to = " + dtype_name_any(static_cast<int32_t>(to)) +
                    " is not one of the 16 tensor types the reference carries");
  }
  return one(support::Cast(c.tensor(0), static_cast<DataType>(to), c.since));
}

// Add, Sub, Mul, Div before version 7 and Equal, Less, Greater before 7 take B through the
// limited broadcasting of their attributes `broadcast` and `axis`; later versions broadcast
// both ways (broadcast.h).
template <class Fn>
std::vector<Value> elementwise(const KernelCall& c, Fn fn) {
  const Tensor& a = c.tensor(0);
  if (c.since >= 7) return one(fn(a, c.tensor(1)));
  std::optional<int64_t> axis;
  if (const auto* at = c.attr("axis")) axis = at->i();
  return one(fn(a, support::legacy_broadcast_operand(c.node.op_type(), a, c.tensor(1),
                                                     c.attr_int("broadcast", 0), axis, c.ctx)));
}

const std::unordered_map<std::string, OpEntry>& op_table() {
  static const std::unordered_map<std::string, OpEntry> table = {
      {"SequenceAt",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceAt(c.sequence(0), c.tensor(1), c.ctx));
        }}},
      {"SequenceErase",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceErase(c.sequence(0), c.opt_tensor(1), c.ctx));
        }}},
      {"SequenceInsert",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceInsert(c.sequence(0), c.tensor(1), c.opt_tensor(2), c.ctx));
        }}},
      {"SplitToSequence",
       {{11, 24},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SplitToSequence(c.tensor(0), c.opt_tensor(1), c.attr_int("axis", 0),
                                          c.attr_int("keepdims", 1), c.ctx, c.since));
        }}},
      {"SequenceMap", {{17}, 17, {"body"}, run_sequence_map}},
      {"SequenceConstruct",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          std::vector<Tensor> ts;
          for (size_t i = 0; i < c.in.size(); ++i) ts.push_back(c.tensor(i));
          return one(ops::SequenceConstruct(ts));
        }}},
      {"SequenceEmpty",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          // "(Optional) The data type of the tensors in the output sequence. The default type
          //  is 'float'." The output's type constraint S limits it to the 15 types (not
          //  bfloat16).
          const int64_t d = c.attr_int("dtype", 1);
          const ElemTypeSet allowed = c.pn.signature->constraint("S").allowed(kSequence);
          if (d < 0 || d > INT32_MAX || !is_supported(static_cast<DataType>(d)) ||
              !(allowed & (ElemTypeSet{1} << d)))
            type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute dtype)",
                           "S",
                           "seq(tensor(" +
                               (d < 0 || d > INT32_MAX ? "type " + std::to_string(d)
                                                       : dtype_name_any(static_cast<int32_t>(d))) +
                               "))");
          return one(ops::SequenceEmpty(static_cast<DataType>(d)));
        }}},
      {"SequenceLength",
       {{11}, 11, {}, [](const KernelCall& c) { return one(ops::SequenceLength(c.sequence(0))); }}},
      {"ConcatFromSequence",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::ConcatFromSequence(c.sequence(0), c.attr_int("axis", std::nullopt),
                                             c.attr_int("new_axis", 0)));
        }}},
      {"Identity",
       {{1, 13, 14, 16, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) { return one(support::Identity(c.value(0))); }}},
      {"Add",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Add); }}},
      {"Shape",
       {{1, 13, 15, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::optional<int64_t> start, end;
          if (c.since >= 15) {
            if (const auto* a = c.attr("start")) start = a->i();
            if (const auto* a = c.attr("end")) end = a->i();
          }
          return one(support::Shape(c.tensor(0), start, end));
        }}},
      {"Constant",
       {{1, 9, 11, 12, 13, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          if (c.node.attribute_size() != 1)
            throw Error(ErrorCode::invalid_model,
                        c.label() + ": exactly one value attribute is required, got " +
                            std::to_string(c.node.attribute_size()));
          return one(support::Constant(c.node.attribute(0)));
        }}},
      {"Slice",
       {{1, 10, 11, 13},
        10,
        {},
        [](const KernelCall& c) {
          return one(support::Slice(c.tensor(0), c.tensor(1), c.tensor(2), c.opt_tensor(3),
                                    c.opt_tensor(4)));
        }}},
      {"Unsqueeze",
       {{1, 11, 13, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::vector<int64_t> axes;
          if (c.since < 13) {
            const auto* a = c.attr("axes");
            if (!a)
              throw Error(ErrorCode::invalid_model, c.label() + ": attribute 'axes' is required");
            axes.assign(a->ints().begin(), a->ints().end());
          } else {
            axes = support::read_ints(c.tensor(1), "Unsqueeze: axes");
          }
          return one(support::Unsqueeze(c.tensor(0), axes));
        }}},
      {"Not", {{1}, 1, {}, [](const KernelCall& c) { return one(support::Not(c.tensor(0))); }}},
      {"Optional",
       {{15},
        15,
        {},
        [](const KernelCall& c) {
          const auto* t = c.attr("type");
          return one(support::MakeOptional(c.has(0) ? c.in[0] : std::nullopt,
                                           t && t->has_tp() ? &t->tp() : nullptr));
        }}},
      {"OptionalHasElement",
       {{15, 18},
        15,
        {},
        [](const KernelCall& c) {
          return one(support::OptionalHasElement(c.has(0) ? c.in[0] : std::nullopt, c.since));
        }}},
      {"OptionalGetElement",
       {{15, 18},
        15,
        {},
        [](const KernelCall& c) { return one(support::OptionalGetElement(c.value(0), c.since)); }}},
      // Operators of SequenceMap bodies and loops (reference/support/body_ops.h). Versions 1
      // and 6 of the element-wise ones (legacy broadcast/axis attributes) are not implemented.
      {"Concat",
       {{1, 4, 11, 13},
        1,
        {},
        [](const KernelCall& c) {
          std::vector<Tensor> ts;
          for (size_t i = 0; i < c.in.size(); ++i) ts.push_back(c.tensor(i));
          // Concat-1: "Which axis to concat on.  Default value is 1."; required from Concat-4.
          const int64_t axis =
              c.attr_int("axis", c.since < 4 ? std::optional<int64_t>(1) : std::nullopt);
          return one(support::Concat(ts, axis, c.since));
        }}},
      {"Cast", {{1, 6, 9, 13, 19, 21, 23, 24}, 1, {}, run_cast}},
      {"Gather",
       {{1, 11, 13},
        1,
        {},
        [](const KernelCall& c) {
          return one(support::Gather(c.tensor(0), c.tensor(1), c.attr_int("axis", 0), c.since));
        }}},
      {"Sub",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Sub); }}},
      {"Mul",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Mul); }}},
      {"Div",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Div); }}},
      {"Equal",
       {{1, 7, 11, 13, 19},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Equal); }}},
      {"Less",
       {{1, 7, 9, 13}, 1, {}, [](const KernelCall& c) { return elementwise(c, support::Less); }}},
      {"Greater",
       {{1, 7, 9, 13},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Greater); }}},
      {"Where",
       {{9, 16},
        9,
        {},
        [](const KernelCall& c) {
          return one(support::Where(c.tensor(0), c.tensor(1), c.tensor(2)));
        }}},
      {"Squeeze",
       {{1, 11, 13, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::optional<std::vector<int64_t>> axes;
          if (c.since < 13) {
            if (const auto* a = c.attr("axes")) axes.emplace(a->ints().begin(), a->ints().end());
          } else if (c.has(1)) {
            axes = support::read_ints(c.tensor(1), "Squeeze: axes");
          }
          return one(support::Squeeze(c.tensor(0), axes, c.since));
        }}},
      {"Reshape",
       {{1, 5, 13, 14, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          if (c.since < 5) {
            // Reshape-1: "It takes a tensor as input and an argument `shape`."
            const auto* a = c.attr("shape");
            if (!a)
              throw Error(ErrorCode::invalid_model,
                          c.label() +
                              ": the attribute 'shape' is absent (Reshape-1 takes the "
                              "new shape as an argument)");
            const std::vector<int64_t> dims(a->ints().begin(), a->ints().end());
            const Shape len = {static_cast<int64_t>(dims.size())};
            return one(
                support::Reshape(c.tensor(0), Tensor::from_values<DataType::int64>(len, dims), 0));
          }
          // allowzero exists from Reshape-14.
          const int64_t allowzero = c.since >= 14 ? c.attr_int("allowzero", 0) : 0;
          return one(support::Reshape(c.tensor(0), c.tensor(1), allowzero));
        }}},
      {"Expand",
       {{8, 13},
        8,
        {},
        [](const KernelCall& c) { return one(support::Expand(c.tensor(0), c.tensor(1))); }}},
      {"Size",
       {{1, 13, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) { return one(support::Size(c.tensor(0))); }}},
      {"ConstantOfShape",
       {{9, 20, 21, 23, 24},
        9,
        {},
        [](const KernelCall& c) {
          std::optional<Tensor> value;
          if (const auto* a = c.attr("value")) {
            value = tensor_from_proto(a->t());
            // The output takes value's type: T2 must allow it.
            const DataType d = value->dtype();
            if (d == DataType::string || d == DataType::complex64 || d == DataType::complex128)
              type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute value)",
                             "T2", "tensor(" + std::string(dtype_name(d)) + ")");
          }
          return one(support::ConstantOfShape(c.tensor(0), value));
        }}},
      {"Range",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(support::Range(c.tensor(0), c.tensor(1), c.tensor(2)));
        }}},
      {"Loop", {{1, 11, 13, 16, 19, 21, 23, 24}, 1, {"body"}, run_loop}},
      {"If", {{1, 11, 13, 16, 19, 21, 23, 24}, 1, {"then_branch", "else_branch"}, run_if}},
      // Scan-8 scans a batch axis of its own; from Scan-9 the scan axes are attributes.
      {"Scan", {{8, 9, 11, 16, 19, 21, 23, 24}, 9, {"body"}, run_scan}},
  };
  return table;
}

}  // namespace

std::vector<std::pair<std::string, int64_t>> implemented_operator_versions() {
  std::vector<std::pair<std::string, int64_t>> v;
  for (const auto& [op, e] : op_table())
    for (int64_t s : e.since)
      if (s >= e.min_impl) v.emplace_back(op, s);
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace seqconf::interp
