#include "runtimes/reference_runtime.h"

#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/limits.h"
#include "runtimes/isolated.h"

#ifndef SEQCONF_VERSION
#define SEQCONF_VERSION "unknown"
#endif

namespace seqconf {

namespace {

class ReferencePrepared : public PreparedModel {
 public:
  ReferencePrepared(std::shared_ptr<const interp::InterpretedModel> model, Policy policy,
                    std::shared_ptr<const interp::KernelOverride> kernel)
      : model_(std::move(model)), policy_(policy), kernel_(std::move(kernel)) {}

  RunResult run(const std::vector<Value>& inputs) override {
    RunResult r;
    Context ctx;
    ctx.policy = policy_;
    ctx.kernel_override = kernel_;
    try {
      r.outputs = model_->run(inputs, ctx);
      r.ok = true;
    } catch (const Error& e) {
      r.error = run_error_from(e);
    } catch (const std::exception& e) {
      r.error.kind = RunError::Kind::internal;
      r.error.message = e.what();
    }
    r.ambiguities = std::move(ctx.ambiguities);
    return r;
  }

 private:
  std::shared_ptr<const interp::InterpretedModel> model_;
  Policy policy_;
  std::shared_ptr<const interp::KernelOverride> kernel_;
};

// The last model this thread prepared, and what came of it. Preparing is the same for every
// ReferenceRuntime (its policy and kernel override act when the model runs), so a second one
// that prepares the same shared model on this thread, under the same size limit, takes this
// rather than preparing it again: fuzzing prepares each program on the reference and then, on
// the same thread, on the runtime under test, which is the reference itself or a seeded defect.
struct LastPrepared {
  std::weak_ptr<const onnx::ModelProto> model;
  size_t max_tensor_bytes = 0;
  std::shared_ptr<const interp::InterpretedModel> prepared;  // null: rejected with `error`
  RunError error;
};
thread_local LastPrepared last_prepared;

}  // namespace

RunError run_error_from(const Error& e) {
  RunError r;
  r.kind = e.code() == ErrorCode::not_supported ? RunError::Kind::not_supported
                                                : RunError::Kind::invalid_input;
  r.message = e.what();
  r.code = std::string(error_code_name(e.code()));
  return r;
}

std::string ReferenceRuntime::version() const { return SEQCONF_VERSION; }

std::optional<WorkerRecipe> ReferenceRuntime::recipe() const {
  if (kernel_) return std::nullopt;
  return WorkerRecipe{"reference", policy_ == Policy::strict ? "strict" : "lenient"};
}

namespace {
const WorkerKind kReferenceWorker("reference", [](const std::string& policy) {
  return serve_runtime(
      std::make_shared<ReferenceRuntime>(policy == "strict" ? Policy::strict : Policy::lenient));
});
}  // namespace

std::unique_ptr<PreparedModel> ReferenceRuntime::prepare(const std::filesystem::path& model_path,
                                                         const onnx::ModelProto& model,
                                                         RunError* error) {
  return prepare_shared(model_path, std::make_shared<const onnx::ModelProto>(model), error);
}

std::unique_ptr<PreparedModel> ReferenceRuntime::prepare_shared(
    const std::filesystem::path&, std::shared_ptr<const onnx::ModelProto> model, RunError* error) {
  LastPrepared& last = last_prepared;
  if (last.model.lock() == model && last.max_tensor_bytes == max_tensor_bytes()) {
    if (last.prepared) return std::make_unique<ReferencePrepared>(last.prepared, policy_, kernel_);
    if (error) *error = last.error;
    return nullptr;
  }
  last = LastPrepared{model, max_tensor_bytes(), nullptr, {}};
  try {
    last.prepared =
        std::make_shared<const interp::InterpretedModel>(interp::InterpretedModel::prepare(model));
    return std::make_unique<ReferencePrepared>(last.prepared, policy_, kernel_);
  } catch (const Error& e) {
    last.error = run_error_from(e);
    if (error) *error = last.error;
  } catch (const std::exception& e) {
    last = LastPrepared{};  // not kept: an internal error need not recur
    if (error) {
      error->kind = RunError::Kind::internal;
      error->message = e.what();
    }
  }
  return nullptr;
}

}  // namespace seqconf
