#include "difffuzz/program.h"

#include <algorithm>
#include <sstream>

#include "generators/generators.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

namespace seqconf::difffuzz {

const char* step_op(StepKind kind) {
  switch (kind) {
    case StepKind::insert:
      return "SequenceInsert";
    case StepKind::erase:
      return "SequenceErase";
    case StepKind::at:
      return "SequenceAt";
    case StepKind::length:
      return "SequenceLength";
    case StepKind::concat:
      return "ConcatFromSequence";
    case StepKind::split:
      return "SplitToSequence";
    case StepKind::map:
      return "SequenceMap";
  }
  return "?";
}

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::inputs:
      return "inputs";
    case Placement::initializers:
      return "initializers";
    case Placement::if_branch:
      return "if_branch";
    case Placement::loop_body:
      return "loop_body";
  }
  return "?";
}

namespace {

using model::sequence_type;
using model::tensor_type;

class Builder {
 public:
  BuiltProgram out;
  onnx::ModelProto model;  // out.model once built
  onnx::GraphProto* g = nullptr;
  Placement tensors_as = Placement::inputs;

  std::string input(const std::string& name, Value v) {
    if (tensors_as == Placement::initializers && v.is_tensor()) {
      *g->add_initializer() =
          tensor_to_proto(v.tensor("initializer"), TensorEncoding::raw_data, name);
      return name;
    }
    // Graph inputs carry their exact type (tensors with their shape, sequences their element
    // type).
    *g->add_input() = model::value_info(name, model::declared_type(v, model::SequenceShape::none));
    out.input_names.push_back(name);
    out.inputs.push_back(std::move(v));
    return name;
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs) {
    onnx::NodeProto& n = *g->add_node();
    n = model::node(op, inputs, outputs, "n" + std::to_string(out.node_count) + "_" + op);
    ++out.node_count;
    out.node_ops.push_back(op);
    return n;
  }
  void output(const std::string& name, onnx::TypeProto type, const std::string& op) {
    *g->add_output() = model::value_info(name, std::move(type));
    out.output_names.push_back(name);
    out.output_ops.push_back(op);
  }
};

}  // namespace

// Moves every node into the then_branch of an If (a copy in else_branch) whose condition is a
// new graph input fed true; the branches read the graph inputs from the outer scope. Names
// stay unique across scopes: the graph's outputs become the If's outputs "if_<name>".
void in_if_branch(Builder& b) {
  onnx::GraphProto& g = *b.g;
  onnx::GraphProto then_branch;
  then_branch.set_name("then_branch");
  *then_branch.mutable_node() = g.node();
  *then_branch.mutable_output() = g.output();
  onnx::GraphProto else_branch = then_branch;
  else_branch.set_name("else_branch");
  g.clear_node();
  const std::string cond = b.input("cond", Tensor::from_values<DataType::bool_>({}, {1}));
  std::vector<std::string> outs;
  for (auto& o : *g.mutable_output()) {
    o.set_name("if_" + o.name());
    outs.push_back(o.name());
  }
  onnx::NodeProto& n = *g.add_node();
  n = model::node("If", {cond}, outs, "if");
  *n.add_attribute() = model::graph_attribute("then_branch", std::move(then_branch));
  *n.add_attribute() = model::graph_attribute("else_branch", std::move(else_branch));
  b.out.output_names = outs;
}

// Moves every node into the body of a Loop that runs once: trip count and condition are new
// graph inputs fed 1 and true; each graph output becomes a loop-carried value (the body's output
// of that name), its initial value a new graph input holding an empty value of its type, and
// the Loop's final value "loop_<name>" is the graph's output. The body reads the graph inputs
// from the outer scope.
void in_loop_body(Builder& b, const std::vector<Value>& initial) {
  onnx::GraphProto& g = *b.g;
  onnx::GraphProto body;
  body.set_name("loop_body");
  *body.add_input() = model::value_info("iteration", tensor_type(DataType::int64, {}));
  *body.add_input() = model::value_info("cond_in", tensor_type(DataType::bool_, {}));
  for (const auto& o : g.output())
    *body.add_input() = model::value_info("carried_" + o.name(), o.type());
  *body.add_output() = model::value_info("cond_out", tensor_type(DataType::bool_, {}));
  *body.mutable_node() = g.node();
  *body.add_node() = model::node("Identity", {"cond_in"}, {"cond_out"}, "loop_cond");
  for (const auto& o : g.output()) *body.add_output() = o;
  g.clear_node();
  const std::string trip = b.input("trip", Tensor::from_values<DataType::int64>({}, {1}));
  const std::string cond = b.input("cond", Tensor::from_values<DataType::bool_>({}, {1}));
  std::vector<std::string> ins = {trip, cond}, outs;
  for (size_t k = 0; k < initial.size(); ++k)
    ins.push_back(b.input("initial_" + g.output(static_cast<int>(k)).name(), initial[k]));
  for (auto& o : *g.mutable_output()) {
    o.set_name("loop_" + o.name());
    outs.push_back(o.name());
  }
  onnx::NodeProto& n = *g.add_node();
  n = model::node("Loop", ins, outs, "loop");
  *n.add_attribute() = model::graph_attribute("body", std::move(body));
  b.out.output_names = outs;
}

BuiltProgram build(const Program& p) {
  Builder b;
  b.model = model::make_model(onnx::GraphProto(), 17, "seqconf-fuzz");
  b.g = b.model.mutable_graph();
  b.g->set_name("fuzz");
  b.tensors_as = p.tensors_as;

  std::string cur;
  std::string cur_op;  // the op that produced the current sequence ("" for the graph input)
  switch (p.source) {
    case SourceKind::input:
      cur = b.input("seq_in", Sequence(p.elem, p.tensors));
      break;
    case SourceKind::empty: {
      // float: the attribute left to its default ("The default type is 'float'.").
      auto& n = b.node("SequenceEmpty", {}, {"seq_empty"});
      if (p.elem != DataType::float32)
        *n.add_attribute() = model::int_attribute("dtype", static_cast<int64_t>(p.elem));
      cur = "seq_empty";
      cur_op = "SequenceEmpty";
      break;
    }
    case SourceKind::construct: {
      std::vector<std::string> names;
      for (size_t i = 0; i < p.tensors.size(); ++i)
        names.push_back(b.input("t" + std::to_string(i), p.tensors[i]));
      b.node("SequenceConstruct", names, {"seq_construct"});
      cur = "seq_construct";
      cur_op = "SequenceConstruct";
      break;
    }
  }

  for (size_t k = 0; k < p.steps.size(); ++k) {
    const Step& s = p.steps[k];
    const std::string id = std::to_string(k);
    const std::string op = step_op(s.kind);
    switch (s.kind) {
      case StepKind::insert:
      case StepKind::erase: {
        std::vector<std::string> ins = {cur};
        if (s.kind == StepKind::insert) ins.push_back(b.input("x" + id, *s.tensor));
        if (s.position) ins.push_back(b.input("pos" + id, *s.position));
        cur = "seq" + id;
        b.node(op, ins, {cur});
        cur_op = op;
        b.output(cur, sequence_type(p.elem), op);
        break;
      }
      case StepKind::at:
        b.node(op, {cur, b.input("pos" + id, *s.position)}, {"at" + id});
        b.output("at" + id, tensor_type(p.elem), op);
        break;
      case StepKind::length:
        b.node(op, {cur}, {"len" + id});
        b.output("len" + id, tensor_type(DataType::int64), op);
        break;
      case StepKind::concat: {
        auto& n = b.node(op, {cur}, {"concat" + id});
        *n.add_attribute() = model::int_attribute("axis", s.axis.value_or(0));
        if (s.new_axis) *n.add_attribute() = model::int_attribute("new_axis", s.new_axis);
        b.output("concat" + id, tensor_type(p.elem), op);
        break;
      }
      case StepKind::split: {
        std::vector<std::string> ins = {b.input("x" + id, *s.tensor)};
        if (s.split) ins.push_back(b.input("split" + id, *s.split));
        // The output is not named "split<k>": that is the name of its split input.
        auto& n = b.node(op, ins, {"parts" + id});
        if (s.axis) *n.add_attribute() = model::int_attribute("axis", *s.axis);
        if (s.keepdims) *n.add_attribute() = model::int_attribute("keepdims", *s.keepdims);
        b.output("parts" + id, sequence_type(s.tensor->dtype()), op);
        break;
      }
      case StepKind::map: {
        std::vector<std::string> ins = {cur};
        if (s.extra) ins.push_back(b.input("extra" + id, *s.extra));
        const auto types = gens::body_output_types(s.body, p.elem);
        std::vector<std::string> outs;
        for (size_t j = 0; j < types.size(); ++j)
          outs.push_back("map" + id + "_" + std::to_string(j));
        auto& n = b.node(op, ins, outs);
        *n.add_attribute() = model::graph_attribute("body", gens::body_graph(s.body, p.elem));
        for (size_t j = 0; j < types.size(); ++j) b.output(outs[j], sequence_type(types[j]), op);
        break;
      }
    }
  }
  // Every sequence SequenceInsert / SequenceErase make is an output, in node order, so the first
  // output that differs names the first node that went wrong; the source is an output only
  // when no step replaced it.
  if (cur_op == "SequenceEmpty" || cur_op == "SequenceConstruct")
    b.output(cur, sequence_type(p.elem), cur_op);
  if (p.tensors_as == Placement::if_branch) in_if_branch(b);
  if (p.tensors_as == Placement::loop_body) {
    // An empty value of each output's type: a sequence without tensors, a tensor of shape [0].
    std::vector<Value> initial;
    for (const auto& o : b.g->output()) {
      const auto& t = o.type();
      if (t.has_sequence_type())
        initial.emplace_back(Sequence(
            static_cast<DataType>(t.sequence_type().elem_type().tensor_type().elem_type())));
      else
        initial.emplace_back(
            Tensor::zeros(static_cast<DataType>(t.tensor_type().elem_type()), {0}));
    }
    in_loop_body(b, initial);
  }
  b.out.model = std::make_shared<const onnx::ModelProto>(std::move(b.model));
  return std::move(b.out);
}

std::string model_and_input_bytes(const BuiltProgram& b) {
  std::string bytes = b.model->SerializeAsString();
  for (const Value& v : b.inputs) bytes += value_to_bytes(v, TensorEncoding::raw_data);
  return bytes;
}

std::string describe(const Program& p) {
  std::ostringstream os;
  os << "elem=" << dtype_name(p.elem) << "; ";
  if (p.tensors_as == Placement::initializers) os << "tensors as initializers; ";
  if (p.tensors_as == Placement::if_branch) os << "in an If's branch; ";
  if (p.tensors_as == Placement::loop_body) os << "in a Loop's body; ";
  switch (p.source) {
    case SourceKind::input:
      os << "input sequence[" << p.tensors.size() << "]";
      break;
    case SourceKind::empty:
      os << "SequenceEmpty";
      break;
    case SourceKind::construct:
      os << "SequenceConstruct[" << p.tensors.size() << "]";
      break;
  }
  for (const Step& s : p.steps) {
    os << "; " << step_op(s.kind) << "(";
    const char* sep = "";
    auto arg = [&](const std::string& text) {
      os << sep << text;
      sep = ", ";
    };
    if (s.tensor) arg((s.kind == StepKind::split ? "input=" : "tensor=") + s.tensor->describe());
    if (s.position) arg("position=" + format_tensor(*s.position));
    if (s.kind == StepKind::split)
      arg(s.split ? "split=" + format_tensor(*s.split) : std::string("split absent"));
    if (s.axis) arg("axis=" + std::to_string(*s.axis));
    if (s.keepdims) arg("keepdims=" + std::to_string(*s.keepdims));
    if (s.kind == StepKind::concat) arg("new_axis=" + std::to_string(s.new_axis));
    if (s.kind == StepKind::map) {
      arg(std::string("body=") + gens::body_kind_name(s.body));
      if (s.extra) arg("extra=" + s.extra->describe());
    }
    os << ")";
  }
  return os.str();
}

namespace {

using gens::uniform;

// Most positions are valid for the length the chain has at that point (as far as the
// generator can tell); the rest are out of range on purpose (clauses position.range, [-n, n]
// for insert, and position.out_of_bounds) or, one in four of those, a valid value in a tensor
// that is not a scalar (clause position.scalar).
// may_be_invalid false: always a valid position (the caller makes sure one exists).
std::optional<Tensor> gen_position(size_t len, bool accept_n, bool may_be_absent,
                                   bool may_be_invalid, bool* valid) {
  if (may_be_absent && *rc::gen::weightedElement<bool>({{1, true}, {3, false}})) {
    *valid = accept_n || len > 0;
    return std::nullopt;
  }
  *valid = !may_be_invalid || *rc::gen::weightedElement<bool>({{5, true}, {1, false}});
  if (*valid && !accept_n && len == 0) *valid = false;
  if (!*valid && (accept_n || len > 0) && *rc::gen::weightedElement<bool>({{1, true}, {3, false}}))
    return (*gens::non_scalar_position(len, accept_n)).tensor;
  const auto pos =
      *valid ? *gens::valid_position(len, accept_n) : *gens::invalid_position(len, accept_n);
  return pos.tensor;
}

Tensor gen_element(DataType elem, const Shape& elem_shape, bool same_shape) {
  return same_shape ? *gens::tensor_of(elem, elem_shape) : *gens::tensor_of_type(elem, 0, 3, 16);
}

}  // namespace

std::vector<gens::BodyKind> map_bodies(DataType elem) {
  using gens::BodyKind;
  if (elem == DataType::float32 || elem == DataType::float64 || elem == DataType::int32 ||
      elem == DataType::int64)
    return {BodyKind::identity, BodyKind::add_tensor, BodyKind::add_sequence, BodyKind::shape,
            BodyKind::two_node};
  return {BodyKind::identity, BodyKind::shape, BodyKind::two_node};
}

const char* body_id(gens::BodyKind k) {
  switch (k) {
    case gens::BodyKind::identity:
      return "identity";
    case gens::BodyKind::add_tensor:
      return "add_tensor";
    case gens::BodyKind::add_sequence:
      return "add_sequence";
    case gens::BodyKind::shape:
      return "shape";
    case gens::BodyKind::two_node:
      return "two_node";
  }
  return "?";
}

std::string support_node(StepKind kind, gens::BodyKind body) {
  if (kind == StepKind::map) return std::string("SequenceMap.") + body_id(body);
  return step_op(kind);
}

bool Support::allows(StepKind kind, DataType elem) const {
  if (kind != StepKind::map) return allows(support_node(kind), elem);
  for (gens::BodyKind body : map_bodies(elem))
    if (allows(support_node(kind, body), elem)) return true;
  return false;
}

namespace {

// One step for a chain whose sequence holds *len tensors (as far as the generator can tell;
// *len is updated), or none when the draw gives no step the runtime supports. Draws inside
// rc::gen::exec.
std::optional<Step> draw_step(const Support& support, DataType elem, const Shape& elem_shape,
                              bool may_be_invalid, bool same_shape, size_t* len) {
  const auto weight = [&](size_t w, StepKind kind) {
    return support.allows(kind, elem) ? w : size_t{0};
  };
  Step s;
  s.kind = *rc::gen::weightedElement<StepKind>({{weight(3, StepKind::insert), StepKind::insert},
                                                {weight(2, StepKind::erase), StepKind::erase},
                                                {weight(2, StepKind::at), StepKind::at},
                                                {weight(1, StepKind::length), StepKind::length},
                                                {weight(1, StepKind::concat), StepKind::concat},
                                                {weight(2, StepKind::split), StepKind::split},
                                                {weight(2, StepKind::map), StepKind::map}});
  // A valid program erases from, reads from and concatenates only a non-empty sequence.
  if (!may_be_invalid && *len == 0 &&
      (s.kind == StepKind::erase || s.kind == StepKind::at || s.kind == StepKind::concat)) {
    if (!support.allows(StepKind::insert, elem)) return std::nullopt;
    s.kind = StepKind::insert;
  }
  bool valid = true;
  switch (s.kind) {
    case StepKind::insert: {
      // Clause SequenceInsert.same_type: sometimes another type.
      const bool mismatch =
          may_be_invalid && *rc::gen::weightedElement<bool>({{1, true}, {12, false}});
      const DataType d = mismatch ? *gens::data_type() : elem;
      s.tensor = gen_element(d, elem_shape, same_shape && d == elem);
      s.position = gen_position(*len, true, true, may_be_invalid, &valid);
      if (valid && d == elem) ++*len;
      break;
    }
    case StepKind::erase:
      s.position = gen_position(*len, false, true, may_be_invalid, &valid);
      if (valid && *len > 0) --*len;
      break;
    case StepKind::at:
      s.position = gen_position(*len, false, false, may_be_invalid, &valid);
      break;
    case StepKind::length:
      break;
    case StepKind::concat: {
      s.new_axis = *rc::gen::element<int64_t>(0, 1);
      const auto r = static_cast<int64_t>(elem_shape.size()) + s.new_axis;
      s.axis = *rc::gen::weightedOneOf<int64_t>(
          {{6, uniform<int64_t>(-std::max<int64_t>(r, 1), std::max<int64_t>(r, 1))},
           {may_be_invalid ? 1 : 0,
            gens::invalid_axis(static_cast<size_t>(std::max<int64_t>(r, 1)))}});
      break;
    }
    case StepKind::split: {
      const Shape shape = *gens::shape(1, 3, 16);
      s.tensor = *gens::tensor_of(elem, shape);
      const bool axis_ok =
          !may_be_invalid || *rc::gen::weightedElement<bool>({{8, true}, {1, false}});
      const bool axis_set = *rc::gen::weightedElement<bool>({{3, true}, {1, false}});
      int64_t axis = 0;
      if (axis_set) {
        axis = axis_ok ? *gens::valid_axis(shape.size()) : *gens::invalid_axis(shape.size());
        s.axis = axis;
      }
      const auto r = static_cast<int64_t>(shape.size());
      const int64_t d = axis_ok ? shape[static_cast<size_t>(axis < 0 ? axis + r : axis)] : 1;
      const bool split_ok =
          !may_be_invalid || *rc::gen::weightedElement<bool>({{5, true}, {1, false}});
      const gens::SplitInput in = split_ok ? *gens::valid_split(d) : *gens::invalid_split(d);
      s.split = in.split;
      if (*rc::gen::weightedElement<bool>({{1, true}, {1, false}}))
        s.keepdims = *rc::gen::element<int64_t>(0, 1);
      break;
    }
    case StepKind::map: {
      std::vector<gens::BodyKind> bodies = map_bodies(elem);
      bodies.erase(std::remove_if(bodies.begin(), bodies.end(),
                                  [&](gens::BodyKind b) {
                                    return !support.allows(support_node(StepKind::map, b), elem);
                                  }),
                   bodies.end());
      s.body = *rc::gen::elementOf(bodies);
      if (s.body == gens::BodyKind::add_tensor) {
        s.extra = Value(*gens::tensor_of(elem, {}));
      } else if (s.body == gens::BodyKind::add_sequence) {
        // Clause SequenceMap.same_samples: sometimes one fewer (rejected under both policies:
        // sample i cannot be extracted past its end) or one more (the ambiguity
        // sequence_map_lengths: the lenient policy reads the first samples).
        size_t m = *len;
        if (may_be_invalid && *rc::gen::weightedElement<bool>({{1, true}, {6, false}}))
          m = *len > 0 && *rc::gen::weightedElement<bool>({{2, true}, {1, false}}) ? *len - 1
                                                                                   : *len + 1;
        std::vector<Tensor> v;
        for (size_t i = 0; i < m; ++i) v.push_back(*gens::tensor_of(elem, elem_shape));
        s.extra = Value(Sequence(elem, std::move(v)));
      }
      break;
    }
  }
  return s;
}

}  // namespace

rc::Gen<std::optional<Step>> step_gen(const Support& support, DataType elem,
                                      const Shape& elem_shape, bool may_be_invalid, size_t len) {
  return rc::gen::exec([=] {
    size_t n = len;
    return draw_step(support, elem, elem_shape, may_be_invalid, !may_be_invalid, &n);
  });
}

rc::Gen<Program> program_gen(int max_steps, Support support) {
  return rc::gen::exec([max_steps, support = std::move(support)] {
    Program p;
    // An element type the runtime supports some step with (every type, on the reference).
    const auto weight = [&](size_t w, StepKind kind) {
      return support.allows(kind, p.elem) ? w : size_t{0};
    };
    do {
      p.elem = *gens::data_type();
    } while (weight(1, StepKind::insert) + weight(1, StepKind::erase) + weight(1, StepKind::at) +
                 weight(1, StepKind::length) + weight(1, StepKind::concat) +
                 weight(1, StepKind::split) + weight(1, StepKind::map) ==
             0);
    const Shape elem_shape = *gens::shape(0, 3, 16);
    // Three programs in four are valid throughout, as far as the generator can tell, so that
    // both sides run them to the end; the fourth may draw invalid arguments of every class
    // (positions out of range, another element type, bad axes and splits, samples of different
    // lengths, tensors of different shapes to concatenate), each as often as before.
    const bool may_be_invalid = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    p.tensors_as = *rc::gen::weightedElement<Placement>(
        {{6, Placement::inputs}, {2, Placement::initializers}, {1, Placement::if_branch}});
    // Half the control-flow programs run in a Loop's body instead (an extra draw for them
    // only, so that the other programs stay as they were).
    if (p.tensors_as == Placement::if_branch &&
        *rc::gen::weightedElement<bool>({{1, true}, {1, false}}))
      p.tensors_as = Placement::loop_body;
    // Tensors of one shape make ConcatFromSequence and Add bodies valid more often.
    const bool same_shape =
        !may_be_invalid || *rc::gen::weightedElement<bool>({{3, true}, {1, false}});
    p.source = *rc::gen::weightedElement<SourceKind>(
        {{4, SourceKind::input},
         {support.allows("SequenceEmpty", p.elem) ? 1u : 0u, SourceKind::empty},
         {support.allows("SequenceConstruct", p.elem) ? 2u : 0u, SourceKind::construct}});
    const size_t n = p.source == SourceKind::empty       ? 0
                     : p.source == SourceKind::construct ? *uniform<size_t>(1, 5)
                                                         : *gens::sequence_length(5);
    for (size_t i = 0; i < n; ++i) p.tensors.push_back(gen_element(p.elem, elem_shape, same_shape));
    size_t len = n;

    const int steps = *uniform<int>(1, max_steps + 1);
    for (int k = 0; k < steps; ++k) {
      std::optional<Step> s =
          draw_step(support, p.elem, elem_shape, may_be_invalid, same_shape, &len);
      if (s) p.steps.push_back(std::move(*s));
    }
    return p;
  });
}

}  // namespace seqconf::difffuzz
