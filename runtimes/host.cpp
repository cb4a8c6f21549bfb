#include "runtimes/host.h"

#include <list>
#include <mutex>
#include <set>
#include <unordered_map>

#include "reference/error.h"
#include "reference/proto.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/registry.h"

namespace seqconf {

namespace {

// The model of one node: its inputs typed and shaped as the values given, its outputs untyped
// (the host infers them), under the model's opset imports.
onnx::ModelProto node_model(const onnx::NodeProto& node,
                            const std::map<std::string, int64_t>& opsets,
                            const std::vector<std::optional<Value>>& inputs,
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
  for (const auto& out : node.output())
    if (!out.empty()) g->add_output()->set_name(out);
  return m;
}

class Host {
 public:
  explicit Host(std::shared_ptr<Runtime> runtime) : runtime_(std::move(runtime)) {}

  std::vector<Value> run(const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
                         const std::vector<std::optional<Value>>& inputs) {
    std::vector<Value> values;
    const onnx::ModelProto model = node_model(node, opsets, inputs, &values);
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

std::shared_ptr<const interp::HostKernel> make_host_kernel(std::shared_ptr<Runtime> runtime) {
  auto host = std::make_shared<Host>(std::move(runtime));
  auto kernel = std::make_shared<interp::HostKernel>();
  kernel->name = host->name();
  kernel->run = [host](const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
                       const std::vector<std::optional<Value>>& inputs) {
    return host->run(node, opsets, inputs);
  };
  return kernel;
}

std::shared_ptr<const interp::HostKernel> make_lazy_default_host() {
  struct Lazy {
    std::once_flag once;
    std::shared_ptr<const interp::HostKernel> host;
    std::string why;
  };
  auto lazy = std::make_shared<Lazy>();
  auto kernel = std::make_shared<interp::HostKernel>();
  kernel->name = "onnxruntime (" + default_onnxruntime_library().string() + ")";
  kernel->run = [lazy](const onnx::NodeProto& node, const std::map<std::string, int64_t>& opsets,
                       const std::vector<std::optional<Value>>& inputs) {
    std::call_once(lazy->once, [&] { lazy->host = make_host("", &lazy->why); });
    if (!lazy->host)
      throw Error(ErrorCode::host_rejected,
                  node.op_type() + ": no host runtime runs it: " + lazy->why);
    return lazy->host->run(node, opsets, inputs);
  };
  return kernel;
}

std::shared_ptr<const interp::HostKernel> make_host(const std::string& spec, std::string* why) {
  try {
    std::shared_ptr<Runtime> runtime = spec.empty()
                                           ? make_onnxruntime_runtime(default_onnxruntime_library())
                                           : make_runtime(spec, RuntimeOptions{});
    return make_host_kernel(std::move(runtime));
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return nullptr;
  }
}

}  // namespace seqconf
