#include "generators/catalog/context.h"

#include <algorithm>
#include <stdexcept>

#include "reference/proto.h"

namespace seqconf::catalog {

namespace {

const std::vector<std::string> kContexts = {"inputs", "initializers", "constant_nodes",
                                            "all_constant", "if_branch", "loop_body",
                                            "sequence_map_body", "chained",
                                            // Exporter patterns (patterns.cpp).
                                            "list_append", "loop_counter_position", "loop_carried",
                                            "scan_of_sequences", "split_then_gather",
                                            // Machinery probes (machinery.cpp).
                                            "machinery"};

bool has_tensor_operand(const CatalogCase& c) {
  for (const auto& in : c.inputs)
    if (in.value.is_tensor()) return true;
  return false;
}

bool is_node_input(const CatalogCase& c, const std::string& name) {
  for (const auto& i : c.node.input())
    if (i == name) return true;
  return false;
}

bool has_sequence_operand(const CatalogCase& c) {
  for (const auto& in : c.inputs)
    if (in.value.is_sequence()) return true;
  return false;
}

bool is_sequence_type(const onnx::TypeProto& t) { return t.has_sequence_type(); }

DataType sequence_elem(const onnx::TypeProto& t) {
  return static_cast<DataType>(t.sequence_type().elem_type().tensor_type().elem_type());
}

// The type a graph output (or a subgraph output) of the case declares: a valid tensor output its
// exact shape, as ONNX's backend tests do (check_model requires a shape on tensor types),
// anything else its element type only. In sequence_map_body the node's tensor output becomes
// the sequence of SequenceMap.
onnx::TypeProto output_type(const CatalogCase& c, size_t i) {
  if (c.context == "sequence_map_body") return model::sequence_of(c.output_types[i]);
  return i < c.outputs.size() && c.outputs[i].is_tensor() ? declared_type(c.outputs[i])
                                                          : c.output_types[i];
}

// The type the node's own output declares inside a subgraph.
onnx::TypeProto node_output_type(const CatalogCase& c, size_t i) {
  return i < c.outputs.size() && c.outputs[i].is_tensor() && c.context == "if_branch"
             ? declared_type(c.outputs[i])
             : c.output_types[i];
}

// Sequence outputs of the node whose input 0 is a sequence of the same element type: the
// operator maps a sequence to a sequence (SequenceErase, SequenceInsert).
bool maps_sequence_to_sequence(const CatalogCase& c) {
  if (c.node.input_size() == 0 || c.output_types.size() != 1 ||
      !is_sequence_type(c.output_types[0]))
    return false;
  for (const auto& in : c.inputs)
    if (in.name == c.node.input(0))
      return in.value.is_sequence() &&
             in.value.sequence().elem_type() == sequence_elem(c.output_types[0]);
  return false;
}

bool one_tensor_output(const CatalogCase& c) {
  return c.output_types.size() == 1 && c.output_types[0].has_tensor_type();
}

// `tensor` stacked `k` times along a new leading axis (what a Loop's scan output concatenates).
Tensor stacked(const Tensor& t, size_t k) {
  Shape shape = t.shape();
  shape.insert(shape.begin(), static_cast<int64_t>(k));
  if (t.dtype() == DataType::string) {
    std::vector<std::string> v;
    for (size_t r = 0; r < k; ++r)
      for (size_t i = 0; i < t.element_count(); ++i) v.push_back(t.string_at(i));
    return Tensor::from_strings(std::move(shape), std::move(v));
  }
  std::vector<std::byte> bytes;
  for (size_t r = 0; r < k; ++r) bytes.insert(bytes.end(), t.bytes(), t.bytes() + t.byte_size());
  return Tensor::from_bytes(t.dtype(), std::move(shape), std::move(bytes));
}

onnx::NodeProto renamed(onnx::NodeProto n, const std::map<std::string, std::string>& inputs,
                        const std::map<std::string, std::string>& outputs) {
  for (auto& i : *n.mutable_input())
    if (auto it = inputs.find(i); it != inputs.end()) i = it->second;
  for (auto& o : *n.mutable_output())
    if (auto it = outputs.find(o); it != outputs.end()) o = it->second;
  return n;
}

void add_initializer(onnx::GraphProto& g, const std::string& name, const Tensor& t,
                     TensorEncoding encoding = TensorEncoding::raw_data) {
  *g.add_initializer() = tensor_to_proto(t, encoding, name);
}

// The pad of the chained context: one element of type d with a key no element uses.
Tensor pad_tensor(DataType d) { return materialize(d, key_tensor({1}, 126)); }

const Tensor& last_position() {
  static const Tensor t = int_scalar(DataType::int64, -1);
  return t;
}

// SequenceInsert(s, pad) then SequenceErase(at -1): the sequence s again, as `out`.
void add_round_trip(onnx::GraphProto& g, const std::string& s, const std::string& out,
                    DataType elem) {
  const std::string pad = out + "_pad", padded = out + "_padded";
  add_initializer(g, pad, pad_tensor(elem));
  *g.add_node() = model::node("SequenceInsert", {s, pad}, {padded});
  *g.add_node() = model::node("SequenceErase", {padded, "ctx_last"}, {out});
}

// Operands of the node as the outer graph holds them: graph inputs, initializers, Constant
// nodes or SequenceConstruct/SequenceEmpty of initializers, per context.
void add_operands(onnx::GraphProto& g, const CatalogCase& c) {
  const bool tensors_initialized = c.context == "initializers" || c.context == "all_constant";
  for (const auto& in : c.inputs) {
    if (in.value.is_tensor() && tensors_initialized) {
      add_initializer(g, in.name, in.value.tensor(), c.encoding);
    } else if (in.value.is_tensor() && c.context == "constant_nodes") {
      onnx::NodeProto n = model::node("Constant", {}, {in.name});
      *n.add_attribute() =
          model::tensor_attribute("value", tensor_to_proto(in.value.tensor(), c.encoding));
      *g.add_node() = std::move(n);
    } else if (in.value.is_sequence() && c.context == "all_constant") {
      const Sequence& s = in.value.sequence();
      if (s.size() == 0) {
        onnx::NodeProto n = model::node("SequenceEmpty", {}, {in.name});
        *n.add_attribute() = model::int_attribute("dtype", static_cast<int64_t>(s.elem_type()));
        *g.add_node() = std::move(n);
      } else {
        std::vector<std::string> names;
        for (size_t i = 0; i < s.size(); ++i) {
          names.push_back(in.name + "_element_" + std::to_string(i));
          add_initializer(g, names.back(), s.at(i), c.encoding);
        }
        *g.add_node() = model::node("SequenceConstruct", names, {in.name});
      }
    } else {
      *g.add_input() = model::value_info(in.name, declared_type(in.value));
    }
  }
  for (const auto& in : c.context_inputs)
    *g.add_input() = model::value_info(in.name, declared_type(in.value));
}

// The If of if_branch: then_branch holds the node, else_branch a copy.
void add_if(onnx::GraphProto& g, const CatalogCase& c) {
  onnx::NodeProto n = model::node("If", {"ctx_cond"}, c.output_names);
  for (const std::string branch : {"then", "else"}) {
    onnx::GraphProto b;
    b.set_name(branch + "_branch");
    std::map<std::string, std::string> outs;
    for (size_t i = 0; i < c.output_names.size(); ++i) {
      outs[c.output_names[i]] = branch + "_" + c.output_names[i];
      *b.add_output() = model::value_info(outs[c.output_names[i]], node_output_type(c, i));
    }
    *b.add_node() = renamed(c.node, {}, outs);
    *n.add_attribute() = model::graph_attribute(branch + "_branch", std::move(b));
  }
  *g.add_node() = std::move(n);
}

// The Loop of loop_body.
void add_loop(onnx::GraphProto& g, const CatalogCase& c) {
  onnx::GraphProto body;
  body.set_name("loop_body");
  *body.add_input() = model::value_info("ctx_iteration", tensor_type(DataType::int64, {}));
  *body.add_input() = model::value_info("ctx_cond_in", tensor_type(DataType::bool_, {}));
  *body.add_node() = model::node("Identity", {"ctx_cond_in"}, {"ctx_cond_out"});
  *body.add_output() = model::value_info("ctx_cond_out", tensor_type(DataType::bool_, {}));
  std::vector<std::string> loop_inputs = {"ctx_trip_count", ""};
  std::map<std::string, std::string> ins, outs;
  if (c.trips == 1 && maps_sequence_to_sequence(c)) {
    // The sequence operand is the loop-carried value, replaced by the node's output.
    const std::string& s = c.node.input(0);
    loop_inputs.push_back(s);
    ins[s] = "ctx_carried";
    outs[c.output_names[0]] = "ctx_carried_out";
    *body.add_input() =
        model::value_info("ctx_carried", sequence_type(sequence_elem(c.output_types[0])));
    *body.add_output() = model::value_info("ctx_carried_out", node_output_type(c, 0));
  } else {
    // Sequence outputs loop-carried (overwritten each iteration), then tensor outputs as scan
    // outputs.
    for (size_t i = 0; i < c.output_names.size(); ++i) {
      if (!is_sequence_type(c.output_types[i])) continue;
      const std::string initial = "ctx_initial_" + std::to_string(i);
      onnx::NodeProto e = model::node("SequenceEmpty", {}, {initial});
      *e.add_attribute() =
          model::int_attribute("dtype", static_cast<int64_t>(sequence_elem(c.output_types[i])));
      *g.add_node() = std::move(e);
      loop_inputs.push_back(initial);
      *body.add_input() = model::value_info("ctx_state_" + std::to_string(i), c.output_types[i]);
      outs[c.output_names[i]] = "body_" + c.output_names[i];
      *body.add_output() = model::value_info(outs[c.output_names[i]], c.output_types[i]);
    }
    for (size_t i = 0; i < c.output_names.size(); ++i) {
      if (is_sequence_type(c.output_types[i])) continue;
      outs[c.output_names[i]] = "body_" + c.output_names[i];
      *body.add_output() = model::value_info(outs[c.output_names[i]], c.output_types[i]);
    }
  }
  *body.add_node() = renamed(c.node, ins, outs);
  onnx::NodeProto loop = model::node("Loop", loop_inputs, {});
  for (size_t i = 0; i < c.output_names.size(); ++i)
    if (is_sequence_type(c.output_types[i])) loop.add_output(c.output_names[i]);
  for (size_t i = 0; i < c.output_names.size(); ++i)
    if (!is_sequence_type(c.output_types[i])) loop.add_output(c.output_names[i]);
  *loop.add_attribute() = model::graph_attribute("body", std::move(body));
  *g.add_node() = std::move(loop);
}

// The SequenceMap of sequence_map_body: one sample; the node's tensor operands are SequenceMap
// inputs (whole in every iteration), its sequences outer-scope reads.
void add_sequence_map(onnx::GraphProto& g, const CatalogCase& c) {
  add_initializer(g, "ctx_sample_element", int_scalar(DataType::int64, 0));
  *g.add_node() = model::node("SequenceConstruct", {"ctx_sample_element"}, {"ctx_samples"});
  onnx::GraphProto body;
  body.set_name("sequence_map_body");
  *body.add_input() = model::value_info("ctx_sample", tensor_type(DataType::int64, {}));
  std::vector<std::string> map_inputs = {"ctx_samples"};
  std::map<std::string, std::string> ins;
  for (const auto& in : c.inputs) {
    if (!in.value.is_tensor() || !is_node_input(c, in.name)) continue;
    map_inputs.push_back(in.name);
    ins[in.name] = "body_" + in.name;
    *body.add_input() = model::value_info(ins[in.name], declared_type(in.value));
  }
  std::map<std::string, std::string> outs = {{c.output_names[0], "body_" + c.output_names[0]}};
  *body.add_output() = model::value_info(outs.begin()->second, c.output_types[0]);
  *body.add_node() = renamed(c.node, ins, outs);
  onnx::NodeProto m = model::node("SequenceMap", map_inputs, c.output_names);
  *m.add_attribute() = model::graph_attribute("body", std::move(body));
  *g.add_node() = std::move(m);
}

// chained: sequence operands and sequence outputs each through SequenceInsert + SequenceErase.
void add_chained(onnx::GraphProto& g, const CatalogCase& c) {
  add_initializer(g, "ctx_last", last_position());
  std::map<std::string, std::string> ins, outs;
  for (const auto& in : c.inputs) {
    if (!in.value.is_sequence() || !is_node_input(c, in.name)) continue;
    ins[in.name] = in.name + "_chained";
    add_round_trip(g, in.name, ins[in.name], in.value.sequence().elem_type());
  }
  for (size_t i = 0; i < c.output_names.size(); ++i)
    if (is_sequence_type(c.output_types[i])) outs[c.output_names[i]] = c.output_names[i] + "_raw";
  *g.add_node() = renamed(c.node, ins, outs);
  for (size_t i = 0; i < c.output_names.size(); ++i)
    if (is_sequence_type(c.output_types[i]))
      add_round_trip(g, outs[c.output_names[i]], c.output_names[i],
                     sequence_elem(c.output_types[i]));
}

}  // namespace

const std::vector<std::string>& context_names() { return kContexts; }

std::string ContextVariant::label() const {
  return trips ? context + "/trips=" + std::to_string(trips) : context;
}

std::vector<ContextVariant> applicable_contexts(const CatalogCase& c) {
  // all_constant, loop_body and chained build or pass the case's sequences through
  // SequenceConstruct, SequenceEmpty, SequenceInsert and SequenceErase, whose type constraints
  // list the 15 types only: not for bfloat16.
  const bool any_tensor_type = is_any_tensor_type(c.dtype);
  std::vector<ContextVariant> v;
  if (has_tensor_operand(c)) {
    v.push_back({"initializers"});
    v.push_back({"constant_nodes"});
  }
  if (has_sequence_operand(c) && any_tensor_type) v.push_back({"all_constant"});
  v.push_back({"if_branch"});
  if (any_tensor_type) {
    v.push_back({"loop_body", 1});
    v.push_back({"loop_body", 3});
  }
  if (one_tensor_output(c)) v.push_back({"sequence_map_body"});
  if (any_tensor_type) v.push_back({"chained"});
  return v;
}

std::vector<CatalogCase> in_sampled_contexts(const std::vector<CatalogCase>& base) {
  // Groups: the cases that differ only in their element type, in ID order.
  std::map<std::string, std::vector<const CatalogCase*>> groups;
  for (const auto& c : base) {
    std::string key = c.op;
    for (const auto& p : c.params)
      if (p.key != "dtype") key += "/" + p.key + "=" + p.value;
    groups[key].push_back(&c);
  }
  std::vector<CatalogCase> out;
  // Each stage turns a rotation of its own (CatalogCase::stage).
  std::map<int, size_t> rotations;
  for (const auto& [key, members] : groups) {
    int stage = members.front()->stage;
    for (const CatalogCase* c : members) stage = std::min(stage, c->stage);
    size_t& rotation = rotations[stage];
    std::vector<const CatalogCase*> valid;
    for (const CatalogCase* c : members) {
      out.push_back(in_context(*c, {"inputs"}));
      if (!c->must_reject()) {
        valid.push_back(c);
        continue;
      }
      // Must-reject: initializers and all_constant where they apply, filled to two contexts.
      const auto applicable = applicable_contexts(*c);
      std::vector<ContextVariant> chosen;
      for (const auto& v : applicable)
        if (v.context == "initializers" || v.context == "all_constant") chosen.push_back(v);
      for (size_t k = 0; k < applicable.size() && chosen.size() < 2; ++k) {
        const ContextVariant& v = applicable[(rotation + k) % applicable.size()];
        bool taken = false;
        for (const auto& t : chosen) taken = taken || t.label() == v.label();
        if (!taken) chosen.push_back(v);
      }
      for (const auto& v : chosen) out.push_back(in_context(*c, v));
    }
    // Valid: every context that applies to one of them, each with up to three of the group's
    // element types it applies to, taken in turn.
    if (!valid.empty()) {
      std::vector<ContextVariant> applicable;
      for (const CatalogCase* c : valid)
        for (const auto& v : applicable_contexts(*c)) {
          bool listed = false;
          for (const auto& a : applicable) listed = listed || a.label() == v.label();
          if (!listed) applicable.push_back(v);
        }
      const size_t m = valid.size(), per = std::min<size_t>(m, 3);
      for (size_t j = 0; j < applicable.size(); ++j) {
        size_t taken = 0;
        for (size_t r = 0; r < m && taken < per; ++r) {
          const CatalogCase& c = *valid[(rotation + j * per + r) % m];
          bool applies = false;
          for (const auto& v : applicable_contexts(c))
            applies = applies || v.label() == applicable[j].label();
          if (!applies) continue;
          out.push_back(in_context(c, applicable[j]));
          ++taken;
        }
      }
    }
    ++rotation;
  }
  return out;
}

CatalogCase in_context(const CatalogCase& base, const ContextVariant& v) {
  CatalogCase c = base;
  c.context = v.context;
  c.trips = v.trips;
  c.params.push_back({"context", v.context});
  if (v.trips) c.params.push_back({"trips", std::to_string(v.trips)});
  bool carries_sequences = false;
  for (const auto& t : c.output_types) carries_sequences = carries_sequences || is_sequence_type(t);
  if (v.context == "if_branch") {
    c.context_inputs.push_back({"ctx_cond", Tensor::from_values<DataType::bool_>({}, {1})});
    // If-11's V holds tensor types only; If-13 adds seq(tensor).
    if (carries_sequences) c.opset = std::max(c.opset, 13);
  } else if (v.context == "loop_body") {
    c.context_inputs.push_back(
        {"ctx_trip_count", Tensor::from_values<DataType::int64>({}, {v.trips})});
    if (carries_sequences) c.opset = std::max(c.opset, 13);  // Loop-13's V adds seq(tensor)
    // Tensor outputs are scan outputs: one slice per iteration.
    for (auto& o : c.outputs)
      if (o.is_tensor()) o = Value(stacked(o.tensor(), static_cast<size_t>(v.trips)));
  } else if (v.context == "sequence_map_body") {
    c.opset = std::max(c.opset, 17);  // SequenceMap-17
    // The output: the sequence of the one sample's tensor.
    for (auto& o : c.outputs) o = Value(Sequence(o.tensor().dtype(), {o.tensor()}));
  }
  return c;
}

std::optional<CatalogCase> with_empty_name(const CatalogCase& base) {
  const int given = base.node.input_size();
  const bool omits = (base.op == "SequenceErase" && given == 1) ||
                     (base.op == "SequenceInsert" && given == 2) ||
                     (base.op == "SplitToSequence" && given == 1);
  // One element type per class: float, integer, string.
  const bool sampled = base.dtype == DataType::float32 || base.dtype == DataType::int64 ||
                       base.dtype == DataType::string;
  if (!omits || !sampled) return std::nullopt;
  CatalogCase c = base;
  c.node.add_input("");
  c.params.push_back({"absent", "empty_name"});
  c.details["absent"] =
      "the optional input is named \"\" (ONNX IR: an empty name in place of an input name "
      "leaves an optional input unspecified), with the expectation of the omitted input";
  return c;
}

onnx::ModelProto build_context_model(const CatalogCase& c) {
  onnx::GraphProto g;
  if (c.pattern) {
    g = *c.pattern;  // the pattern's own graph, inputs and nodes
  } else {
    add_operands(g, c);
    if (c.context == "if_branch")
      add_if(g, c);
    else if (c.context == "loop_body")
      add_loop(g, c);
    else if (c.context == "sequence_map_body")
      add_sequence_map(g, c);
    else if (c.context == "chained")
      add_chained(g, c);
    else
      *g.add_node() = c.node;
  }
  g.set_name(c.folder());
  for (size_t i = 0; i < c.output_names.size(); ++i)
    *g.add_output() = model::value_info(c.output_names[i], output_type(c, i));
  return model::make_model(std::move(g), c.opset);
}

std::vector<GraphInput> fed_inputs(const CatalogCase& c) {
  std::vector<GraphInput> v;
  for (const auto& in : c.inputs) {
    const bool initialized =
        in.value.is_tensor() && (c.context == "initializers" || c.context == "all_constant" ||
                                 c.context == "constant_nodes");
    const bool constructed = in.value.is_sequence() && c.context == "all_constant";
    if (!initialized && !constructed) v.push_back(in);
  }
  for (const auto& in : c.context_inputs) v.push_back(in);
  return v;
}

}  // namespace seqconf::catalog
