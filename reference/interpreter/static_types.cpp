// Static types. ONNX types its values statically: a node that takes a value its operator's type
// constraints do not allow makes the model invalid whatever the inputs, also when the node sits
// in a branch or a body that a data set never runs. Before any data set, prepare() derives the
// type of every value it can (declared graph inputs, initializers, what each node's row and
// attributes make of its inputs' types, the graph's value_info where nothing else says) and
// checks every node of every graph against its row with the check a running node gets
// (check_input_types); a node kept for the host is checked against ONNX's schema of its operator
// (schema_types.h). A value whose type cannot be derived is left to the run-time check.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/interpreter/interpreter_internal.h"
#include "reference/interpreter/schema_types.h"
#include "reference/interpreter/type_constraints.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"

namespace seqconf::interp {

using namespace detail;

namespace detail {

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

}  // namespace detail

namespace {

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

}  // namespace

namespace detail {

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

}  // namespace detail

}  // namespace seqconf::interp
