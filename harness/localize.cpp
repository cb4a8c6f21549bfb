// The node a departure comes from (harness/localize.h).
#include "harness/localize.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <unistd.h>

#include "cases/case_json.h"
#include "harness/compare.h"
#include "reference/error.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

namespace seqconf {
namespace {

// "node 1 (SplitToSequence-13 'unbind')".
std::string node_label(const onnx::NodeProto& n, int index, int64_t version) {
  return "node " + std::to_string(index) + " (" + n.op_type() + "-" + std::to_string(version) +
         (n.name().empty() ? "" : " '" + n.name() + "'") + ")";
}

// The version the node's operator runs at: the model's import of its domain.
int64_t version_of(const onnx::NodeProto& n, const std::map<std::string, int64_t>& opsets) {
  const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
  const auto it = opsets.find(domain);
  return it == opsets.end() ? 0 : it->second;
}

bool has_body(const onnx::NodeProto& n) {
  for (const auto& a : n.attribute())
    if (a.has_g() || a.graphs_size() > 0) return true;
  return false;
}

// Every name a graph's nodes read, its subgraphs' included.
void names_read(const onnx::GraphProto& g, std::set<std::string>& out) {
  for (const auto& n : g.node()) {
    for (const auto& i : n.input())
      if (!i.empty()) out.insert(i);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) names_read(a.g(), out);
      for (const auto& sub : a.graphs()) names_read(sub, out);
    }
  }
}

// A type that states the kind and element type only, so that a runtime whose values depart in
// shape still returns them.
onnx::TypeProto loose_type(const Value& v) {
  if (v.is_tensor()) return model::tensor_type(v.tensor().dtype());
  return model::declared_type(v, model::SequenceShape::none);
}

std::string summary(const std::vector<std::optional<Value>>& values) {
  std::string s;
  for (const auto& v : values) s += (s.empty() ? "" : ", ") + (v ? v->describe() : "absent");
  return s.empty() ? "no input" : s;
}

// A file for the exposed model: runtimes that read models from disk are given one.
class TempModel {
 public:
  explicit TempModel(const onnx::ModelProto& m) {
    static std::atomic<int> counter{0};
    path_ =
        std::filesystem::temp_directory_path() / ("seqconf-localize-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(counter++) + ".onnx");
    std::ofstream out(path_, std::ios::binary);
    m.SerializeToOstream(&out);
  }
  ~TempModel() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

Context make_context(const LocalizeOptions& options) {
  Context ctx;
  ctx.policy = options.policy;
  ctx.host = options.host;
  return ctx;
}

}  // namespace

Localization localize(const onnx::ModelProto& model, const std::vector<Value>& inputs,
                      Runtime& runtime, const LocalizeOptions& options) {
  Localization loc;
  const onnx::GraphProto& g = model.graph();
  std::map<std::string, int64_t> opsets;
  try {
    opsets = interp::model_opsets(model);
  } catch (const Error& e) {
    loc.kind = "unavailable";
    loc.message = std::string("the model's opset imports: ") + e.what();
    return loc;
  }
  std::set<std::string> outputs;
  for (const auto& o : g.output()) outputs.insert(o.name());
  std::vector<std::string> exposed_names;
  for (const auto& n : g.node())
    for (const auto& o : n.output())
      if (!o.empty() && !outputs.count(o)) exposed_names.push_back(o);

  // The types to declare: those of the spec's own intermediate values (kind and element type
  // only), from the reference on the model with every intermediate value an output.
  onnx::ModelProto exposed = model;
  for (const auto& name : exposed_names) exposed.mutable_graph()->add_output()->set_name(name);
  std::vector<Value> spec_values;
  try {
    Context ctx = make_context(options);
    spec_values = interp::InterpretedModel::prepare(exposed, true).run(inputs, ctx);
  } catch (const Error& e) {
    loc.kind = "unavailable";
    loc.message = std::string(
                      "the reference cannot run the model to type its intermediate "
                      "values: ") +
                  e.what();
    return loc;
  }
  for (size_t k = 0; k < exposed_names.size(); ++k)
    *exposed.mutable_graph()
         ->mutable_output(g.output_size() + static_cast<int>(k))
         ->mutable_type() = loose_type(spec_values[static_cast<size_t>(g.output_size()) + k]);

  // The runtime's own values of every intermediate.
  std::map<std::string, Value> values;
  {
    const TempModel file(exposed);
    RunError error;
    std::unique_ptr<PreparedModel> prepared;
    RunResult r;
    try {
      prepared = runtime.prepare(file.path(), exposed, &error);
      if (prepared) r = prepared->run(inputs);
    } catch (const std::exception& e) {
      error.message = e.what();
    }
    if (!prepared || !r.ok) {
      loc.kind = "unavailable";
      loc.message =
          "the runtime does not run the model with its intermediate values as "
          "outputs: " +
          (prepared ? r.error.message : error.message);
      return loc;
    }
    if (r.outputs.size() != static_cast<size_t>(exposed.graph().output_size())) {
      loc.kind = "unavailable";
      loc.message = "the runtime returned " + std::to_string(r.outputs.size()) + " of the " +
                    std::to_string(exposed.graph().output_size()) + " values asked for";
      return loc;
    }
    for (int k = 0; k < exposed.graph().output_size(); ++k)
      values.insert_or_assign(exposed.graph().output(k).name(), r.outputs[static_cast<size_t>(k)]);
  }
  // The graph's inputs (those without an initializer, in order) and its initializers.
  std::set<std::string> inits;
  for (const auto& i : g.initializer()) {
    inits.insert(i.name());
    try {
      values.emplace(i.name(), Value(tensor_from_proto(i)));
    } catch (const Error&) {
    }
  }
  size_t next = 0;
  for (const auto& in : g.input())
    if (!inits.count(in.name()) && next < inputs.size())
      values.insert_or_assign(in.name(), inputs[next++]);

  // Each node alone on the reference, on the runtime's values.
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    const int64_t version = version_of(n, opsets);
    onnx::GraphProto one;
    one.set_name("node_" + std::to_string(i));
    *one.add_node() = n;
    std::vector<Value> one_inputs;
    std::vector<std::optional<Value>> got;
    std::set<std::string> declared;
    bool known = true;
    const auto declare = [&](const std::string& name) {
      if (name.empty() || declared.count(name)) return;
      const auto it = values.find(name);
      if (it == values.end()) {
        known = false;
        return;
      }
      declared.insert(name);
      *one.add_input() = model::value_info(name, model::declared_type(it->second));
      one_inputs.push_back(it->second);
    };
    for (const auto& name : n.input()) {
      declare(name);
      const auto it = values.find(name);
      got.push_back(name.empty() || it == values.end() ? std::nullopt
                                                       : std::optional<Value>(it->second));
    }
    // What a body reads from the enclosing graph.
    if (has_body(n)) {
      std::set<std::string> read;
      for (const auto& a : n.attribute()) {
        if (a.has_g()) names_read(a.g(), read);
        for (const auto& sub : a.graphs()) names_read(sub, read);
      }
      for (const auto& name : read)
        if (values.count(name)) declare(name);
    }
    if (!known) continue;
    for (const auto& o : n.output())
      if (!o.empty()) one.add_output()->set_name(o);
    onnx::ModelProto m = model;
    *m.mutable_graph() = one;
    // This node is the one at fault: what it got, what the spec gives, what the runtime gave.
    const auto at_fault = [&](std::string spec_text, std::string runtime_text, std::string message,
                              std::vector<Value> spec_outputs) {
      loc.kind = "node";
      loc.index = i;
      loc.name = n.name();
      loc.op = n.op_type();
      loc.version = version;
      loc.label = node_label(n, i, version);
      loc.machinery = has_body(n);
      loc.got = summary(got);
      loc.spec = std::move(spec_text);
      loc.runtime = std::move(runtime_text);
      loc.message = std::move(message);
      // The outputs typed as the spec gives them (kind and element type), for the reproducer.
      for (int k = 0; k < m.graph().output_size() && k < static_cast<int>(spec_outputs.size()); ++k)
        *m.mutable_graph()->mutable_output(k)->mutable_type() =
            loose_type(spec_outputs[static_cast<size_t>(k)]);
      loc.repro = std::make_shared<NodeRepro>(NodeRepro{m, one_inputs, std::move(spec_outputs)});
      return loc;
    };
    std::vector<Value> spec;
    Context ctx = make_context(options);
    try {
      spec = interp::InterpretedModel::prepare(m, true).run(one_inputs, ctx);
    } catch (const Error& e) {
      // The spec rejects what the runtime ran: the node at fault, unless the reference cannot
      // say (an operator it lacks with no host, a limit, a random draw).
      const ErrorCode c = e.code();
      if (c == ErrorCode::not_supported || c == ErrorCode::limit_exceeded ||
          c == ErrorCode::nondeterministic || c == ErrorCode::host_rejected)
        continue;
      return at_fault(
          "rejected: " + std::string(error_code_name(c)), "ran it",
          std::string("the spec rejects the node on the runtime's own inputs: ") + e.what(), {});
    }
    const ComparisonRule rule =
        comparison_rule(options.source, std::vector<std::string>{n.op_type()});
    std::vector<Value> theirs;
    for (const auto& o : n.output())
      if (!o.empty()) theirs.push_back(values.at(o));
    const Comparison cmp = compare_outputs(spec, theirs, rule);
    if (cmp.ok) continue;
    return at_fault(summarize_values(spec), summarize_values(theirs), cmp.message, spec);
  }
  loc.kind = "none";
  loc.message =
      "every node gives, on the runtime's own values, what the spec gives: the departure is in "
      "the values the runtime reads or returns";
  return loc;
}

}  // namespace seqconf
