#include "runtimes/host.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <list>
#include <mutex>
#include <set>
#include <unordered_map>

#include "reference/error.h"
#include "reference/interpreter/schema_types.h"
#include "reference/proto.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/registry.h"

namespace seqconf {

namespace {

// The type ONNX's schema fixes for an output (its element type; the shape is the host's), as a
// graph output declares it.
onnx::TypeProto declared_type(const Value& t) {
  onnx::TypeProto p;
  if (t.is_tensor())
    p.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(t.tensor().dtype()));
  else if (t.is_sequence())
    p.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
        static_cast<int32_t>(t.sequence().elem_type()));
  return p;
}

std::string type_text(const Value& t) {
  if (t.is_tensor()) return "tensor(" + std::string(dtype_name(t.tensor().dtype())) + ")";
  if (t.is_sequence())
    return "seq(tensor(" + std::string(dtype_name(t.sequence().elem_type())) + "))";
  return "optional";
}

// The output types ONNX's schema of the node fixes for these inputs (interp::schema_types):
// nullopt where it fixes none, or where the linked ONNX library has no schema for the node.
std::vector<std::optional<Value>> schema_output_types(
    const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
    const std::vector<std::optional<Value>>& inputs) {
  std::vector<std::optional<Value>> none(static_cast<size_t>(node.output_size()));
  const auto opset = opsets.find(node.domain() == "ai.onnx" ? "" : node.domain());
  if (!node.domain().empty() && node.domain() != "ai.onnx") return none;
  if (opset == opsets.end()) return none;
  try {
    if (auto types = interp::schema_types(node, opset->second, inputs)) {
      types->resize(none.size());
      return *types;
    }
  } catch (const Error&) {
    // The static pass has checked the node already; a type it cannot bind fixes nothing here.
  }
  return none;
}

// The model of one node: its inputs typed and shaped as the values given, its outputs typed where
// ONNX's schema of the operator fixes their types (a host that reads declared outputs, as ONNX's
// Python backends do, needs them) and otherwise left to the host, under the model's opset imports.
onnx::ModelProto node_model(const onnx::NodeProto& node,
                            const std::map<std::string, int64_t>& opsets,
                            const std::vector<std::optional<Value>>& inputs,
                            const std::vector<std::optional<Value>>& output_types,
                            std::vector<Value>* graph_inputs) {
  onnx::ModelProto m;
  int64_t default_opset = 0;
  for (const auto& [domain, version] : opsets) {
    auto* o = m.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
    if (domain.empty()) default_opset = version;
  }
  // IR 8 reads every opset up to 18; later opsets need IR 9 (19, 20) or 10 (21 and later).
  m.set_ir_version(default_opset <= 18 ? 8 : default_opset <= 20 ? 9 : 10);
  auto* g = m.mutable_graph();
  g->set_name("host_node");
  *g->add_node() = node;
  std::set<std::string> bound;
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string& name = node.input(i);
    if (name.empty() || !bound.insert(name).second) continue;
    const auto& v = inputs[static_cast<size_t>(i)];
    if (!v) continue;
    auto* vi = g->add_input();
    vi->set_name(name);
    *vi->mutable_type() = type_of(*v);
    graph_inputs->push_back(*v);
  }
  for (int j = 0; j < node.output_size(); ++j) {
    if (node.output(j).empty()) continue;
    auto* out = g->add_output();
    out->set_name(node.output(j));
    if (const auto& t = output_types[static_cast<size_t>(j)])
      *out->mutable_type() = declared_type(*t);
  }
  return m;
}

class Host {
 public:
  explicit Host(std::shared_ptr<Runtime> runtime) : runtime_(std::move(runtime)) {}

  std::vector<Value> run(const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
                         const std::vector<std::optional<Value>>& inputs) {
    std::vector<Value> values;
    const std::vector<std::optional<Value>> types = schema_output_types(node, opsets, inputs);
    const onnx::ModelProto model = node_model(node, opsets, inputs, types, &values);
    std::string key;
    model.SerializeToString(&key);
    const std::string label =
        node.op_type() + (node.name().empty() ? "" : " '" + node.name() + "'");
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = prepared_.find(key);
    if (it == prepared_.end()) {
      RunError error;
      std::unique_ptr<PreparedModel> p = runtime_->prepare({}, model, &error);
      if (!p)
        throw Error(ErrorCode::host_rejected, label + ": the host " + name() +
                                                  " could not prepare the node: " + error.message);
      if (order_.size() >= kMaxPrepared) {
        prepared_.erase(order_.front());
        order_.pop_front();
      }
      order_.push_back(key);
      it = prepared_.emplace(key, std::move(p)).first;
    }
    RunResult r = it->second->run(values);
    if (!r.ok)
      throw Error(ErrorCode::host_rejected,
                  label + ": the host " + name() + " failed on the node: " + r.error.message);
    // The host's answer is checked as any runtime's: an output of another type than ONNX's
    // schema fixes is the host's fault, never the spec's meaning.
    size_t k = 0;
    for (int j = 0; j < node.output_size(); ++j) {
      if (node.output(j).empty()) continue;
      if (k >= r.outputs.size())
        throw Error(ErrorCode::host_rejected,
                    label + ": the host " + name() + " gave " + std::to_string(r.outputs.size()) +
                        " outputs for the node's " + std::to_string(node.output_size()));
      const auto& want = types[static_cast<size_t>(j)];
      if (want && type_text(*want) != type_text(r.outputs[k]))
        throw Error(ErrorCode::host_rejected,
                    label + ": the host " + name() + " gave output " + std::to_string(j) + " as " +
                        type_text(r.outputs[k]) + ", where ONNX's schema of " + node.op_type() +
                        " fixes " + type_text(*want));
      ++k;
    }
    return std::move(r.outputs);
  }

  std::string name() const { return runtime_->name() + " " + runtime_->version(); }

 private:
  // Sessions kept: a model's delegated nodes at the shapes its data sets give.
  static constexpr size_t kMaxPrepared = 512;
  std::shared_ptr<Runtime> runtime_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<PreparedModel>> prepared_;
  std::list<std::string> order_;
};

}  // namespace

std::shared_ptr<const interp::HostKernel> make_host_kernel(std::shared_ptr<Runtime> runtime,
                                                           std::optional<std::string> spec) {
  auto host = std::make_shared<Host>(runtime);
  auto kernel = std::make_shared<interp::HostKernel>();
  kernel->name = host->name();
  kernel->location = runtime->location();
  kernel->spec = std::move(spec);
  kernel->run = [host](const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
                       const std::vector<std::optional<Value>>& inputs) {
    return host->run(node, opsets, inputs);
  };
  return kernel;
}

std::shared_ptr<const interp::HostKernel> make_lazy_host(const std::string& spec) {
  struct Lazy {
    std::once_flag once;
    std::shared_ptr<const interp::HostKernel> host;
    std::string why;
  };
  auto lazy = std::make_shared<Lazy>();
  auto kernel = std::make_shared<interp::HostKernel>();
  kernel->name =
      spec.empty() ? "onnxruntime (" + default_onnxruntime_library().string() + ")" : spec;
  kernel->spec = spec;
  kernel->opened_name = [lazy, placeholder = kernel->name] {
    return lazy->host ? lazy->host->name : placeholder;
  };
  kernel->run = [lazy, spec](const onnx::NodeProto& node,
                             const std::map<std::string, int64_t>& opsets,
                             const std::vector<std::optional<Value>>& inputs) {
    std::call_once(lazy->once, [&] { lazy->host = make_host(spec, &lazy->why); });
    if (!lazy->host)
      throw Error(ErrorCode::host_rejected,
                  node.op_type() + ": no host runtime runs it: " + lazy->why);
    return lazy->host->run(node, opsets, inputs);
  };
  return kernel;
}

std::shared_ptr<const interp::HostKernel> make_host(const std::string& spec, std::string* why) {
  try {
    // The host is contained as any runtime under test: in a worker process of its own, so that
    // its crash or hang fails the node it ran (host_rejected: that data set is not judged) and
    // the run goes on. A process runtime is a process of its own already.
    RuntimeOptions options;
    options.isolate = true;
    std::shared_ptr<Runtime> runtime =
        spec.empty() ? isolate_runtime(make_onnxruntime_runtime(default_onnxruntime_library()))
                     : make_runtime(spec, options);
    return make_host_kernel(std::move(runtime), spec);
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return nullptr;
  }
}

std::optional<std::string> host_argument(const std::shared_ptr<const interp::HostKernel>& host) {
  if (!host) return "no-host";
  if (!host->spec) return std::nullopt;
  return "host=" + *host->spec;
}

std::shared_ptr<const interp::HostKernel> host_from_argument(const std::string& argument) {
  if (argument == "no-host") return nullptr;
  if (argument.rfind("host=", 0) == 0) return make_lazy_host(argument.substr(5));
  throw Error(ErrorCode::invalid_argument,
              "a worker's host is 'no-host' or 'host=SPEC', not '" + argument + "'");
}

bool is_same_runtime(const std::string& host_location, const std::string& runtime_location) {
  if (host_location.empty() || runtime_location.empty()) return false;
  if (host_location == runtime_location) return true;
  // Two paths of one library, or two copies of it: the same bytes.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(host_location, ec) ||
      !std::filesystem::is_regular_file(runtime_location, ec))
    return false;
  if (std::filesystem::equivalent(host_location, runtime_location, ec)) return true;
  if (std::filesystem::file_size(host_location, ec) !=
      std::filesystem::file_size(runtime_location, ec))
    return false;
  std::ifstream a(host_location, std::ios::binary), b(runtime_location, std::ios::binary);
  return a && b &&
         std::equal(std::istreambuf_iterator<char>(a), std::istreambuf_iterator<char>(),
                    std::istreambuf_iterator<char>(b), std::istreambuf_iterator<char>());
}

}  // namespace seqconf
