// ONNX Runtime through its C API, opened with dlopen. See onnxruntime.h.
#include "runtimes/onnxruntime.h"

#include <string.h>  // strverscmp (GNU)

#include <algorithm>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "reference/error.h"
#include "reference/model_builder.h"
#include "reference/proto.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime_errors.h"

#if SEQCONF_HAVE_ORT

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <onnxruntime_c_api.h>

#endif

namespace seqconf {

std::filesystem::path default_onnxruntime_library() {
  if (const char* env = std::getenv("SEQCONF_ORT_LIB"); env && *env) return env;
#ifdef SEQCONF_ORT_DEFAULT_LIB
  return SEQCONF_ORT_DEFAULT_LIB;
#else
  return "libonnxruntime.so.1";
#endif
}

std::vector<std::filesystem::path> onnxruntime_release_libraries() {
  namespace fs = std::filesystem;
  fs::path root;
  if (const char* env = std::getenv("SEQCONF_ORT_RELEASES"); env && *env) {
    root = env;
  } else {
#ifdef SEQCONF_SOURCE_DIR
    root = fs::path(SEQCONF_SOURCE_DIR) / "third_party" / "onnxruntime-releases";
#else
    return {};
#endif
  }
  std::vector<fs::path> libs;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path lib = it->path() / "libonnxruntime.so.1";
    if (fs::is_regular_file(lib, ec)) libs.push_back(lib);
  }
  // By release number: strverscmp orders the digit runs as numbers (1.9.0 before 1.10.0).
  std::sort(libs.begin(), libs.end(), [](const fs::path& a, const fs::path& b) {
    return ::strverscmp(a.parent_path().filename().c_str(), b.parent_path().filename().c_str()) < 0;
  });
  return libs;
}

const char* ort_graph_optimization_name(OrtGraphOptimization level) {
  switch (level) {
    case OrtGraphOptimization::disabled:
      return "disabled";
    case OrtGraphOptimization::basic:
      return "basic";
    case OrtGraphOptimization::extended:
      return "extended";
    case OrtGraphOptimization::all:
      return "all";
  }
  return "all";
}

std::optional<OrtGraphOptimization> ort_graph_optimization_from_name(std::string_view name) {
  for (auto level : {OrtGraphOptimization::disabled, OrtGraphOptimization::basic,
                     OrtGraphOptimization::extended, OrtGraphOptimization::all})
    if (name == ort_graph_optimization_name(level)) return level;
  return std::nullopt;
}

#if !SEQCONF_HAVE_ORT

bool onnxruntime_compiled_in() { return false; }

std::unique_ptr<Runtime> make_onnxruntime_runtime(const std::filesystem::path&,
                                                  OrtGraphOptimization) {
  throw Error(ErrorCode::not_supported,
              "this build has no ONNX Runtime support: onnxruntime_c_api.h was not found "
              "(run tools/setup-runtimes.sh, then reconfigure)");
}

OrtOptimize make_onnxruntime_optimizer(const std::filesystem::path& library,
                                       OrtGraphOptimization level, std::string*) {
  make_onnxruntime_runtime(library, level);  // throws not_supported
  return {};
}

#else

bool onnxruntime_compiled_in() { return true; }

namespace {

// The library, its API table and the process-wide environment; shared by the runtime and
// every session it prepares, so the library stays loaded while any of them lives.
struct OrtLibrary {
  void* handle = nullptr;
  const OrtApi* api = nullptr;
  OrtEnv* env = nullptr;
  std::string version;
  std::string path;
  OrtGraphOptimization graph_optimization = OrtGraphOptimization::all;  // of every session

  ~OrtLibrary() {
    if (env) api->ReleaseEnv(env);
    // The handle is not closed: ORT registers process-wide state (thread pools, loggers)
    // that must outlive static destructors.
  }
};

// Owning pointer for ORT objects released through the API table.
template <class T>
using OrtPtr = std::unique_ptr<T, std::function<void(T*)> >;

struct StatusError {
  OrtErrorCode code;
  std::string message;
};

// Turns an OrtStatus into a StatusError (and releases it); null means success.
void check(const OrtApi* api, OrtStatus* status) {
  if (!status) return;
  StatusError e{api->GetErrorCode(status), api->GetErrorMessage(status)};
  api->ReleaseStatus(status);
  throw e;
}

// The kind of an ORT error, by the rules of runtimes/onnxruntime_errors.json (the table the
// onnxruntime-web adapter and repro.js apply too): a missing kernel, type or version is
// not_supported; a check of the model or the inputs that fails (ORT_ENFORCE and ORT_RETURN_IF
// in the kernels, graph resolution, ONNX's inference) is invalid_input; a fault of ORT's own
// code (an exception, a SafeInt overflow, a framework invariant) and anything else is internal.
RunError run_error(const StatusError& e) {
  RunError r;
  r.message = e.message;
  r.kind = onnxruntime_error_kind(e.message, static_cast<int>(e.code), OrtBuild::native);
  return r;
}

// ONNXTensorElementDataType uses the numbering of onnx::TensorProto_DataType, as DataType does.
ONNXTensorElementDataType ort_type(DataType d) {
  return static_cast<ONNXTensorElementDataType>(static_cast<int32_t>(d));
}

// Builds OrtValues for the inputs and keeps everything they point into alive until Run
// returns: CreateTensorWithDataAsOrtValue does not copy.
class InputBuilder {
 public:
  explicit InputBuilder(const OrtLibrary& lib) : api_(lib.api) {
    OrtMemoryInfo* info = nullptr;
    check(api_, api_->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &info));
    info_ =
        OrtPtr<OrtMemoryInfo>(info, [api = api_](OrtMemoryInfo* p) { api->ReleaseMemoryInfo(p); });
    check(api_, api_->GetAllocatorWithDefaultOptions(&allocator_));
  }

  OrtValue* tensor(const Tensor& t) {
    std::vector<int64_t> dims(t.shape().begin(), t.shape().end());
    OrtValue* out = nullptr;
    if (t.dtype() == DataType::string) {
      check(api_, api_->CreateTensorAsOrtValue(allocator_, dims.data(), dims.size(),
                                               ort_type(t.dtype()), &out));
      own(out);
      std::vector<const char*> strings;
      for (size_t i = 0; i < t.element_count(); ++i) strings.push_back(t.string_at(i).c_str());
      if (!strings.empty())
        check(api_, api_->FillStringTensor(out, strings.data(), strings.size()));
      return out;
    }
    kept_.push_back(t);
    // An empty tensor still needs a valid data pointer.
    void* data = t.byte_size() ? const_cast<std::byte*>(t.bytes()) : static_cast<void*>(&empty_);
    check(api_, api_->CreateTensorWithDataAsOrtValue(info_.get(), data, t.byte_size(), dims.data(),
                                                     dims.size(), ort_type(t.dtype()), &out));
    own(out);
    return out;
  }

  OrtValue* sequence(const Sequence& s) {
    // CreateValue needs at least one tensor; empty sequences are fed by the graph instead
    // (see OrtPreparedModel::session_for).
    if (s.empty()) return nullptr;
    std::vector<OrtValue*> items;
    for (const Tensor& t : s.tensors()) items.push_back(tensor(t));
    OrtValue* out = nullptr;
    check(api_, api_->CreateValue(items.data(), items.size(), ONNX_TYPE_SEQUENCE, &out));
    own(out);
    return out;
  }

  // An empty optional is left out of the feed (ORT treats an absent optional input as None);
  // a present one is fed as the value it holds.
  OrtValue* value(const Value& v) {
    if (v.is_tensor()) return tensor(v.tensor());
    if (v.is_sequence()) return sequence(v.sequence());
    const Optional& o = v.optional();
    if (!o.element) return nullptr;
    return value(*o.element);
  }

 private:
  void own(OrtValue* v) {
    owned_.emplace_back(v, [api = api_](OrtValue* p) { api->ReleaseValue(p); });
  }

  const OrtApi* api_;
  OrtPtr<OrtMemoryInfo> info_;
  OrtAllocator* allocator_ = nullptr;
  std::vector<Tensor> kept_;
  std::vector<OrtPtr<OrtValue> > owned_;
  int64_t empty_ = 0;
};

class OutputReader {
 public:
  explicit OutputReader(const OrtApi* api) : api_(api) {
    check(api_, api_->GetAllocatorWithDefaultOptions(&allocator_));
  }

  Tensor tensor(const OrtValue* v) {
    OrtTensorTypeAndShapeInfo* info = nullptr;
    check(api_, api_->GetTensorTypeAndShape(v, &info));
    OrtPtr<OrtTensorTypeAndShapeInfo> hold(info, [api = api_](OrtTensorTypeAndShapeInfo* p) {
      api->ReleaseTensorTypeAndShapeInfo(p);
    });
    ONNXTensorElementDataType et{};
    check(api_, api_->GetTensorElementType(info, &et));
    size_t rank = 0;
    check(api_, api_->GetDimensionsCount(info, &rank));
    Shape shape(rank);
    if (rank) check(api_, api_->GetDimensions(info, shape.data(), rank));
    size_t count = 0;
    check(api_, api_->GetTensorShapeElementCount(info, &count));
    const auto dtype = static_cast<DataType>(static_cast<int32_t>(et));
    if (!is_supported(dtype))
      throw Error(ErrorCode::unsupported_type, "ONNX Runtime returned a tensor of type " +
                                                   dtype_name_any(static_cast<int32_t>(et)));
    if (dtype == DataType::string) {
      size_t total = 0;
      check(api_, api_->GetStringTensorDataLength(v, &total));
      std::string buffer(total, '\0');
      std::vector<size_t> offsets(count);
      if (count)
        check(api_, api_->GetStringTensorContent(v, buffer.data(), total, offsets.data(), count));
      std::vector<std::string> strings;
      for (size_t i = 0; i < count; ++i) {
        const size_t end = i + 1 < count ? offsets[i + 1] : total;
        strings.push_back(buffer.substr(offsets[i], end - offsets[i]));
      }
      return Tensor::from_strings(std::move(shape), std::move(strings));
    }
    std::vector<std::byte> bytes(count * element_size(dtype));
    if (!bytes.empty()) {
      void* data = nullptr;
      check(api_, api_->GetTensorMutableData(const_cast<OrtValue*>(v), &data));
      std::memcpy(bytes.data(), data, bytes.size());
    }
    return Tensor::from_bytes(dtype, std::move(shape), std::move(bytes));
  }

  Sequence sequence(const OrtValue* v, const onnx::TypeProto& declared) {
    size_t n = 0;
    check(api_, api_->GetValueCount(v, &n));
    std::vector<Tensor> items;
    for (size_t i = 0; i < n; ++i) {
      OrtValue* item = nullptr;
      check(api_, api_->GetValue(v, static_cast<int>(i), allocator_, &item));
      OrtPtr<OrtValue> hold(item, [api = api_](OrtValue* p) { api->ReleaseValue(p); });
      items.push_back(tensor(item));
    }
    DataType elem = DataType::float32;
    if (!items.empty())
      elem = items.front().dtype();
    else if (declared.has_sequence_type() && declared.sequence_type().elem_type().has_tensor_type())
      elem = dtype_from_onnx(declared.sequence_type().elem_type().tensor_type().elem_type(),
                             "declared sequence element type");
    return Sequence(elem, std::move(items));
  }

  Value value(const OrtValue* v, const onnx::TypeProto& declared) {
    ONNXType type{};
    check(api_, api_->GetValueType(v, &type));
    if (declared.has_optional_type() || type == ONNX_TYPE_OPTIONAL) {
      int has = 0;
      check(api_, api_->HasValue(v, &has));
      const onnx::TypeProto inner =
          declared.has_optional_type() ? declared.optional_type().elem_type() : onnx::TypeProto();
      Optional o;
      o.holds_sequence = inner.has_sequence_type();
      if (o.holds_sequence && inner.sequence_type().elem_type().has_tensor_type())
        o.elem_type = dtype_from_onnx(inner.sequence_type().elem_type().tensor_type().elem_type(),
                                      "declared optional element type");
      else if (inner.has_tensor_type())
        o.elem_type = dtype_from_onnx(inner.tensor_type().elem_type(), "declared optional type");
      if (!has) return o;
      // A present optional is read as the value it holds.
      if (type == ONNX_TYPE_SEQUENCE || (type == ONNX_TYPE_OPTIONAL && o.holds_sequence))
        return make_optional(Value(sequence(v, inner)));
      return make_optional(Value(tensor(v)));
    }
    if (type == ONNX_TYPE_TENSOR) return tensor(v);
    if (type == ONNX_TYPE_SEQUENCE) return sequence(v, declared);
    throw Error(ErrorCode::not_supported, "ONNX Runtime returned a value of ONNXType " +
                                              std::to_string(type) +
                                              " (neither a tensor, a sequence nor an optional)");
  }

 private:
  const OrtApi* api_;
  OrtAllocator* allocator_ = nullptr;
};

struct Port {
  std::string name;
  onnx::TypeProto type;
};

GraphOptimizationLevel ort_level(OrtGraphOptimization level) {
  switch (level) {
    case OrtGraphOptimization::disabled:
      return ORT_DISABLE_ALL;
    case OrtGraphOptimization::basic:
      return ORT_ENABLE_BASIC;
    case OrtGraphOptimization::extended:
      return ORT_ENABLE_EXTENDED;
    case OrtGraphOptimization::all:
      return ORT_ENABLE_ALL;
  }
  return ORT_ENABLE_ALL;
}

// Options of a session with one intra-op thread at the library's graph optimization level.
OrtPtr<OrtSessionOptions> session_options(const OrtLibrary& lib) {
  const OrtApi* api = lib.api;
  OrtSessionOptions* raw_options = nullptr;
  check(api, api->CreateSessionOptions(&raw_options));
  OrtPtr<OrtSessionOptions> options(raw_options,
                                    [api](OrtSessionOptions* p) { api->ReleaseSessionOptions(p); });
  check(api, api->SetIntraOpNumThreads(options.get(), 1));
  check(api, api->SetInterOpNumThreads(options.get(), 1));
  check(api, api->SetSessionExecutionMode(options.get(), ORT_SEQUENTIAL));
  // At all, ONNX Runtime's default, the level is left as ONNX Runtime sets it.
  if (lib.graph_optimization != OrtGraphOptimization::all)
    check(api,
          api->SetSessionGraphOptimizationLevel(options.get(), ort_level(lib.graph_optimization)));
  return options;
}

OrtPtr<OrtSession> session_from(const OrtLibrary& lib, const std::string& bytes,
                                const OrtSessionOptions* options) {
  const OrtApi* api = lib.api;
  OrtSession* session = nullptr;
  check(api, api->CreateSessionFromArray(lib.env, bytes.data(), bytes.size(), options, &session));
  return OrtPtr<OrtSession>(session, [api](OrtSession* p) { api->ReleaseSession(p); });
}

// A session for the model as given (the harness may have rewritten it), not the file on disk.
OrtPtr<OrtSession> create_session(const OrtLibrary& lib, const onnx::ModelProto& model) {
  return session_from(lib, model.SerializeAsString(), session_options(lib).get());
}

bool is_empty_sequence(const Value& v) {
  if (v.is_sequence()) return v.sequence().empty();
  if (v.is_optional() && v.optional().element) return is_empty_sequence(*v.optional().element);
  return false;
}

// The model with the marked sequence inputs replaced by SequenceEmpty nodes of their declared
// element type (clause SequenceEmpty.summary).
onnx::ModelProto with_empty_sequences(
    const onnx::ModelProto& model, const std::vector<std::pair<std::string, DataType> >& empties) {
  onnx::ModelProto m = model;
  auto* g = m.mutable_graph();
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const auto& in : g->input()) {
    bool drop = false;
    for (const auto& e : empties) drop |= e.first == in.name();
    if (!drop) *kept.Add() = in;
  }
  g->mutable_input()->Swap(&kept);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (const auto& [name, dtype] : empties) {
    auto* n = nodes.Add();
    *n = model::node("SequenceEmpty", {}, {name}, "seqconf_empty_" + name);
    *n->add_attribute() = model::int_attribute("dtype", static_cast<int64_t>(dtype));
  }
  for (const auto& n : g->node()) *nodes.Add() = n;
  g->mutable_node()->Swap(&nodes);
  return m;
}

class OrtPreparedModel : public PreparedModel {
 public:
  OrtPreparedModel(std::shared_ptr<OrtLibrary> lib, const onnx::ModelProto& model,
                   OrtPtr<OrtSession> session, std::vector<Port> inputs, std::vector<Port> outputs)
      : lib_(std::move(lib)),
        model_(model),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)) {
    for (const Port& p : outputs_) out_names_.push_back(p.name.c_str());
    sessions_.emplace(std::vector<bool>(inputs_.size(), false), std::move(session));
  }

  RunResult run(const std::vector<Value>& inputs) override {
    RunResult result;
    try {
      Feed feed(*lib_);
      make_feed(inputs, feed);
      std::vector<OrtPtr<OrtValue> > outputs = run_feed(feed);
      OutputReader reader(lib_->api);
      for (size_t i = 0; i < outputs_.size(); ++i)
        result.outputs.push_back(reader.value(outputs[i].get(), outputs_[i].type));
      result.ok = true;
    } catch (...) {
      result.error = current_run_error();
    }
    if (!result.ok) result.outputs.clear();
    return result;
  }

  std::unique_ptr<BoundRun> bind(const std::vector<Value>& inputs) override;

  // The inputs as OrtValues with the session that takes them; the builder keeps alive what
  // the OrtValues point into (so a Feed stays where it was built).
  struct Feed {
    explicit Feed(const OrtLibrary& lib) : builder(lib) {}
    InputBuilder builder;
    OrtSession* session = nullptr;
    std::vector<const char*> in_names;
    std::vector<const OrtValue*> in_values;
  };

  void make_feed(const std::vector<Value>& inputs, Feed& feed) {
    if (inputs.size() != inputs_.size())
      throw Error(ErrorCode::missing_input, "the model has " + std::to_string(inputs_.size()) +
                                                " inputs, " + std::to_string(inputs.size()) +
                                                " values were given");
    std::vector<bool> empty(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) empty[i] = is_empty_sequence(inputs[i]);
    feed.session = session_for(empty);
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (empty[i]) continue;
      OrtValue* v = feed.builder.value(inputs[i]);
      if (!v) continue;
      feed.in_names.push_back(inputs_[i].name.c_str());
      feed.in_values.push_back(v);
    }
  }

  // OrtApi::Run on a feed; the outputs in graph order, owned.
  std::vector<OrtPtr<OrtValue> > run_feed(const Feed& feed) {
    const OrtApi* api = lib_->api;
    std::vector<OrtValue*> out_values(outputs_.size(), nullptr);
    OrtStatus* status =
        api->Run(feed.session, nullptr, feed.in_names.data(), feed.in_values.data(),
                 feed.in_values.size(), out_names_.data(), out_names_.size(), out_values.data());
    std::vector<OrtPtr<OrtValue> > hold;
    hold.reserve(out_values.size());
    for (OrtValue* v : out_values)
      hold.emplace_back(v, [api](OrtValue* p) {
        if (p) api->ReleaseValue(p);
      });
    check(api, status);
    return hold;
  }

  // The RunError for the exception being handled (call only from a catch block).
  static RunError current_run_error() {
    try {
      throw;
    } catch (const StatusError& e) {
      return run_error(e);
    } catch (const RunError& e) {
      return e;
    } catch (const Error& e) {
      return {RunError::Kind::internal, e.what(), std::string(error_code_name(e.code())), {}, {}};
    }
  }

  const std::vector<Port>& output_ports() const { return outputs_; }
  const OrtApi* api() const { return lib_->api; }
  const std::shared_ptr<OrtLibrary>& library() const { return lib_; }

 private:
  // CreateValue cannot build an empty sequence, so a run whose sequence inputs are empty uses
  // a session of the model in which SequenceEmpty produces them; one session per pattern.
  OrtSession* session_for(const std::vector<bool>& empty) {
    auto it = sessions_.find(empty);
    if (it != sessions_.end()) return it->second.get();
    std::vector<std::pair<std::string, DataType> > empties;
    for (size_t i = 0; i < empty.size(); ++i) {
      if (!empty[i]) continue;
      onnx::TypeProto t = inputs_[i].type;
      if (t.has_optional_type()) t = onnx::TypeProto(t.optional_type().elem_type());
      empties.emplace_back(inputs_[i].name,
                           dtype_from_onnx(t.sequence_type().elem_type().tensor_type().elem_type(),
                                           "declared element type of input " + inputs_[i].name));
    }
    auto session = create_session(*lib_, with_empty_sequences(model_, empties));
    OrtSession* raw = session.get();
    sessions_.emplace(empty, std::move(session));
    return raw;
  }

  std::shared_ptr<OrtLibrary> lib_;
  onnx::ModelProto model_;
  std::map<std::vector<bool>, OrtPtr<OrtSession> > sessions_;
  std::vector<Port> inputs_;
  std::vector<Port> outputs_;
  std::vector<const char*> out_names_;  // point into outputs_
};

// Inputs converted once by bind; run() is OrtApi::Run alone (plus releasing the previous
// run's outputs), so timings of a bound run are ONNX Runtime's own.
class OrtBoundRun : public BoundRun {
 public:
  OrtBoundRun(OrtPreparedModel& model, const std::vector<Value>& inputs) : model_(model) {
    try {
      feed_ = std::make_unique<OrtPreparedModel::Feed>(*model.library());
      model.make_feed(inputs, *feed_);
    } catch (...) {
      feed_.reset();
      bind_error_ = OrtPreparedModel::current_run_error();
    }
  }

  RunResult run() override {
    RunResult result;
    outputs_.clear();
    if (!feed_) {
      result.error = bind_error_;
      return result;
    }
    try {
      outputs_ = model_.run_feed(*feed_);
      result.ok = true;
    } catch (...) {
      outputs_.clear();
      result.error = OrtPreparedModel::current_run_error();
    }
    return result;
  }

  std::vector<Value> outputs() override {
    std::vector<Value> values;
    OutputReader reader(model_.api());
    for (size_t i = 0; i < outputs_.size(); ++i)
      values.push_back(reader.value(outputs_[i].get(), model_.output_ports()[i].type));
    return values;
  }

 private:
  OrtPreparedModel& model_;
  std::unique_ptr<OrtPreparedModel::Feed> feed_;
  RunError bind_error_;
  std::vector<OrtPtr<OrtValue> > outputs_;
};

std::unique_ptr<BoundRun> OrtPreparedModel::bind(const std::vector<Value>& inputs) {
  return std::make_unique<OrtBoundRun>(*this, inputs);
}

class OrtRuntime : public Runtime {
 public:
  explicit OrtRuntime(std::shared_ptr<OrtLibrary> lib) : lib_(std::move(lib)) {}

  std::string name() const override {
    if (lib_->graph_optimization == OrtGraphOptimization::all) return "onnxruntime";
    return std::string("onnxruntime (graph optimization: ") +
           ort_graph_optimization_name(lib_->graph_optimization) + ")";
  }
  std::string version() const override { return lib_->version; }
  std::string location() const override { return lib_->path; }
  // The worker's argument: the level, a colon, the library path.
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{
        "onnxruntime",
        std::string(ort_graph_optimization_name(lib_->graph_optimization)) + ":" + lib_->path};
  }

  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path&,
                                         const onnx::ModelProto& model, RunError* error) override {
    try {
      auto session = create_session(*lib_, model);
      std::vector<Port> inputs, outputs;
      std::vector<std::string> initializers;
      for (const auto& init : model.graph().initializer()) initializers.push_back(init.name());
      for (const auto& in : model.graph().input()) {
        if (std::find(initializers.begin(), initializers.end(), in.name()) != initializers.end())
          continue;
        inputs.push_back({in.name(), in.type()});
      }
      for (const auto& out : model.graph().output()) outputs.push_back({out.name(), out.type()});
      return std::make_unique<OrtPreparedModel>(lib_, model, std::move(session), std::move(inputs),
                                                std::move(outputs));
    } catch (const StatusError& e) {
      if (error) *error = run_error(e);
    }
    return nullptr;
  }

 private:
  std::shared_ptr<OrtLibrary> lib_;
};

}  // namespace

namespace {

std::shared_ptr<OrtLibrary> open_library(const std::filesystem::path& library,
                                         OrtGraphOptimization level) {
  // ONNX Runtime 1.30 on Linux starts a telemetry system when its environment is created,
  // unless ORT_DISABLE_TELEMETRY is set: it writes an empty /tmp/mat-debug-<pid>.log per process
  // and a database under ~/.cache/Microsoft/DeveloperTools/.onnxruntime.
  // Set before the library is loaded; a value the user gave is kept. Worker processes inherit it.
  ::setenv("ORT_DISABLE_TELEMETRY", "1", /*overwrite=*/0);
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw Error(ErrorCode::io_error, "cannot load ONNX Runtime from " + library.string() + ": " +
                                         (why ? why : "dlopen failed"));
  }
  using GetApiBase = const OrtApiBase* (*)();
  auto get_base = reinterpret_cast<GetApiBase>(dlsym(handle, "OrtGetApiBase"));
  if (!get_base)
    throw Error(ErrorCode::not_supported, library.string() + " does not export OrtGetApiBase");
  const OrtApiBase* base = get_base();
  auto lib = std::make_shared<OrtLibrary>();
  lib->handle = handle;
  lib->path = library.string();
  lib->version = base->GetVersionString ? base->GetVersionString() : "unknown";
  lib->graph_optimization = level;
  lib->api = base->GetApi(kOrtApiVersion);
  if (!lib->api)
    throw Error(ErrorCode::not_supported, "ONNX Runtime " + lib->version + " at " +
                                              library.string() + " does not offer C API version " +
                                              std::to_string(kOrtApiVersion) +
                                              " (ORT 1.10 or later is needed)");
  try {
    check(lib->api, lib->api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "seqconf", &lib->env));
  } catch (const StatusError& e) {
    throw Error(ErrorCode::not_supported, "ONNX Runtime CreateEnv failed: " + e.message);
  }
  // The C API's own switch (a no-op in most releases); its status does not matter.
  if (OrtStatus* status = lib->api->DisableTelemetryEvents(lib->env))
    lib->api->ReleaseStatus(status);
  return lib;
}

}  // namespace

std::unique_ptr<Runtime> make_onnxruntime_runtime(const std::filesystem::path& library,
                                                  OrtGraphOptimization level) {
  return std::make_unique<OrtRuntime>(open_library(library, level));
}

OrtOptimize make_onnxruntime_optimizer(const std::filesystem::path& library,
                                       OrtGraphOptimization level, std::string* version) {
  std::shared_ptr<OrtLibrary> lib = open_library(library, level);
  if (version) *version = lib->version;
  return [lib](const std::string& bytes, std::string* optimized, RunError* error) {
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/seqconf-ort-optimized-XXXXXX";
    if (!::mkdtemp(dir.data())) {
      *error = {
          RunError::Kind::internal, std::string("mkdtemp: ") + std::strerror(errno), "", {}, {}};
      return false;
    }
    const std::filesystem::path path = std::filesystem::path(dir) / "optimized.onnx";
    bool ok = false;
    try {
      OrtPtr<OrtSessionOptions> options = session_options(*lib);
      check(lib->api, lib->api->SetOptimizedModelFilePath(options.get(), path.c_str()));
      session_from(*lib, bytes, options.get());
      std::ifstream f(path, std::ios::binary);
      std::ostringstream text;
      text << f.rdbuf();
      *optimized = text.str();
      ok = !optimized->empty();
      if (!ok)
        *error = {RunError::Kind::internal, "ONNX Runtime wrote no optimized model", "", {}, {}};
    } catch (const StatusError& e) {
      *error = run_error(e);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return ok;
  };
}

namespace {
// The argument is OrtRuntime::recipe's: LEVEL:LIBRARY.
const WorkerKind kOnnxRuntimeWorker("onnxruntime", [](const std::string& argument) {
  const auto colon = argument.find(':');
  const auto level = ort_graph_optimization_from_name(argument.substr(0, colon));
  if (colon == std::string::npos || !level)
    throw Error(ErrorCode::invalid_argument,
                "onnxruntime worker: the argument is not LEVEL:LIBRARY: " + argument);
  return serve_runtime(make_onnxruntime_runtime(argument.substr(colon + 1), *level));
});
}  // namespace

#endif

}  // namespace seqconf
