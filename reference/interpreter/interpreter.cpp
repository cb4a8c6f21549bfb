// The graph program and its running: a model's graphs prepared (opsets, operator versions, names,
// topological order, subgraphs), nodes run with their kernels or on the host; see interpreter.h.
#include "reference/interpreter/interpreter.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "reference/interpreter/interpreter_internal.h"
#include "reference/interpreter/type_constraints.h"
#include "reference/proto.h"

namespace seqconf::interp {

using namespace detail;

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

namespace detail {
// "node 4 (Identity-13 '/Identity') of graph 'torch_jit'": the node at fault in an error.
std::string fault_label(const PreparedNode& pn, const onnx::GraphProto& graph) {
  return node_label(*pn.node, pn.index, pn.op ? pn.since : 0) + " of graph '" + graph.name() + "'";
}
}  // namespace detail

namespace {
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

}  // namespace seqconf::interp
