// Runs a runtime in a persistent worker process: the runtime's side of the worker
// (serve_runtime) and the runtime that sends it its models and inputs; see isolated.h.
#include "runtimes/isolated.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/error.h"
#include "runtimes/worker_protocol.h"

namespace seqconf {

using namespace worker_protocol;

// The runtime's side of the worker: prepares and runs models on request.
// Requests: "P" id path model -> RunResult (ok: prepared); "R" id inputs -> RunResult;
// "M" id count inputs... -> count, then each input set's RunResult (PreparedModel::run_many);
// "D" id -> no answer (the prepared model is dropped).
WorkerProcess::Handler serve_runtime(std::shared_ptr<Runtime> inner) {
  auto models = std::make_shared<std::map<std::string, std::unique_ptr<PreparedModel>>>();
  return [inner, models](const std::string& request) -> std::optional<std::string> {
    RunResult r;
    try {
      Reader in(request);
      const std::string command = in.get();
      const std::string id = in.get();
      if (command == "D") {
        models->erase(id);
        return std::nullopt;
      } else if (command == "P") {
        const std::string path = in.get();
        onnx::ModelProto model;
        if (!model.ParseFromString(in.get()))
          throw Error(ErrorCode::invalid_proto, "the model did not reach the worker intact");
        auto prepared = inner->prepare(path, model, &r.error);
        r.ok = prepared != nullptr;
        if (prepared) (*models)[id] = std::move(prepared);
      } else if (command == "R" || command == "M") {
        auto it = models->find(id);
        if (it == models->end())
          throw Error(ErrorCode::invalid_argument, "no prepared model " + id + " in the worker");
        if (command == "R") {
          r = it->second->run(get_values(in, "input"));
        } else {
          const size_t n = std::stoul(in.get());
          std::string answer;
          put(answer, std::to_string(n));
          for (size_t k = 0; k < n; ++k) {
            const std::vector<Value> inputs = get_values(in, "input");
            put(answer, encode(it->second->run(inputs)));
          }
          return answer;
        }
      } else {
        throw Error(ErrorCode::invalid_proto, "unknown request '" + command + "'");
      }
    } catch (const Error& e) {
      r = failure(RunError::Kind::internal, e.what());
      r.error.code = std::string(error_code_name(e.code()));
    } catch (const std::exception& e) {
      r = failure(RunError::Kind::internal, e.what());
    }
    try {
      return encode(r);
    } catch (const std::exception& e) {
      return encode(failure(RunError::Kind::internal, e.what()));
    }
  };
}

namespace {

// A request of the runtime's worker and its answer, decoded.
RunResult call_runtime(WorkerProcess& worker, const std::string& what, const std::string& payload) {
  WorkerProcess::Answer a = worker.call(what, payload);
  if (!a.ok) return failure(a.error.kind, a.error.message);
  try {
    return decode(a.bytes);
  } catch (const std::exception& e) {
    return failure(RunError::Kind::internal, what + ": unreadable answer (" + e.what() + ")");
  }
}

std::string prepare_request(const std::string& id, const std::filesystem::path& path,
                            const std::string& model_bytes) {
  std::string p;
  put(p, "P");
  put(p, id);
  put(p, path.string());
  put(p, model_bytes);
  return p;
}

std::string drop_request(const std::string& id) {
  std::string p;
  put(p, "D");
  put(p, id);
  return p;
}

class IsolatedModel : public PreparedModel {
 public:
  IsolatedModel(std::shared_ptr<WorkerProcess> worker, std::string name, std::filesystem::path path,
                std::string model_bytes, std::string id, uint64_t generation)
      : worker_(std::move(worker)),
        name_(std::move(name)),
        path_(std::move(path)),
        model_bytes_(std::move(model_bytes)),
        id_(std::move(id)),
        generation_(generation) {}
  ~IsolatedModel() override { worker_->tell(generation_, drop_request(id_)); }

  RunResult run(const std::vector<Value>& inputs) override {
    std::string values;
    put_values(values, inputs);
    // A crash is confirmed on a new worker that has prepared only this model, so that a crash
    // finding does not depend on what the worker ran before; a crash on such a worker already
    // is the confirmation.
    bool fresh = false;
    RunResult r = run_once(values, &fresh);
    if (!r.ok && r.error.kind == RunError::Kind::crash && !fresh) r = run_once(values, &fresh);
    return r;
  }

  std::vector<RunResult> run_many(const std::vector<std::vector<Value>>& input_sets) override {
    if (input_sets.size() <= 1) return PreparedModel::run_many(input_sets);
    std::vector<RunResult> results;
    if (ensure_prepared(&results)) {
      std::string request;
      put(request, "M");
      put(request, id_);
      put(request, std::to_string(input_sets.size()));
      for (const auto& inputs : input_sets) put_values(request, inputs);
      WorkerProcess::Answer a = worker_->call(name_ + " run", request);
      if (a.ok) {
        try {
          Reader in(a.bytes);
          const size_t n = std::stoul(in.get());
          for (size_t k = 0; k < n; ++k) results.push_back(decode(in.get()));
          if (results.size() == input_sets.size()) return results;
        } catch (const std::exception&) {
        }
      }
    }
    // The worker died or hung (or could not prepare the model again): each input set alone.
    return PreparedModel::run_many(input_sets);
  }

 private:
  // Prepares the model again when the worker it was prepared in is gone; false (with the
  // failure as the one result) when that fails.
  bool ensure_prepared(std::vector<RunResult>* failed) {
    if (worker_->alive() && worker_->generation() == generation_) return true;
    std::string id = worker_->new_id();
    RunResult p =
        call_runtime(*worker_, name_ + " prepare", prepare_request(id, path_, model_bytes_));
    if (!p.ok) {
      failed->push_back(std::move(p));
      return false;
    }
    id_ = std::move(id);
    generation_ = worker_->generation();
    return true;
  }

  // *fresh: the run was the worker's first request after preparing this model.
  RunResult run_once(const std::string& values, bool* fresh) {
    // The worker this model was prepared in is gone: prepare it again in the new one.
    std::vector<RunResult> failed;
    if (!ensure_prepared(&failed)) return std::move(failed.front());
    std::string request;
    put(request, "R");
    put(request, id_);
    request += values;
    *fresh = worker_->alive() && worker_->generation() == generation_ && worker_->requests() == 1;
    return call_runtime(*worker_, name_ + " run", request);
  }

  std::shared_ptr<WorkerProcess> worker_;
  std::string name_;
  std::filesystem::path path_;
  std::string model_bytes_;
  std::string id_;
  uint64_t generation_;
};

WorkerRecipe recipe_of(const Runtime& inner, const IsolationOptions& options) {
  if (auto r = inner.recipe()) return *r;
  if (options.recipe) return *options.recipe;
  throw Error(ErrorCode::invalid_argument,
              "runtime '" + inner.name() +
                  "' cannot run isolated: it has no recipe for a worker process to make it "
                  "again (Runtime::recipe, or IsolationOptions::recipe)");
}

class RuntimeInWorker : public IsolatedRuntime {
 public:
  RuntimeInWorker(std::shared_ptr<Runtime> inner, IsolationOptions options)
      : inner_(inner),
        worker_(std::make_shared<WorkerProcess>(recipe_of(*inner, options), options)) {
    worker_->start();
  }

  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  std::string location() const override { return inner_->location(); }
  bool out_of_process() const override { return true; }
  std::optional<MemoryError> take_memory_error() override { return worker_->take_memory_error(); }
  std::vector<WorkerMemoryError> take_worker_memory_errors() override {
    return worker_->take_worker_memory_errors();
  }

  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& model_path,
                                         const onnx::ModelProto& model, RunError* error) override {
    std::string bytes = model.SerializeAsString();
    RunResult r;
    // A crash is confirmed on a new worker, unless it happened on one (the first request of
    // its worker).
    for (int attempt = 0; attempt < 2; ++attempt) {
      const std::string id = worker_->new_id();
      const bool fresh = !worker_->alive() || worker_->requests() == 0;
      r = call_runtime(*worker_, inner_->name() + " prepare",
                       prepare_request(id, model_path, bytes));
      if (r.ok)
        return std::make_unique<IsolatedModel>(worker_, inner_->name(), model_path,
                                               std::move(bytes), id, worker_->generation());
      if (r.error.kind != RunError::Kind::crash || fresh) break;
    }
    if (error) *error = r.error;
    return nullptr;
  }

 private:
  std::shared_ptr<Runtime> inner_;
  std::shared_ptr<WorkerProcess> worker_;
};

}  // namespace

IsolatedRuntime* as_isolated(Runtime& runtime) { return dynamic_cast<IsolatedRuntime*>(&runtime); }

std::optional<MemoryError> take_memory_error(Runtime& runtime) {
  IsolatedRuntime* isolated = as_isolated(runtime);
  return isolated ? isolated->take_memory_error() : std::nullopt;
}

std::unique_ptr<IsolatedRuntime> make_isolated_runtime(std::shared_ptr<Runtime> inner,
                                                       IsolationOptions options) {
  return std::make_unique<RuntimeInWorker>(std::move(inner), options);
}

std::unique_ptr<Runtime> isolate_runtime(std::unique_ptr<Runtime> runtime,
                                         IsolationOptions options) {
  if (runtime->out_of_process()) return runtime;
  return make_isolated_runtime(std::shared_ptr<Runtime>(std::move(runtime)), options);
}

std::unique_ptr<Runtime> isolate_unless_told(std::unique_ptr<Runtime> runtime,
                                             std::optional<bool> isolate,
                                             IsolationOptions options) {
  if (!isolate.value_or(runtime->isolated_by_default())) return runtime;
  return isolate_runtime(std::move(runtime), options);
}

}  // namespace seqconf
