#include "runtimes/reference_runtime.h"

#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/limits.h"
#include "runtimes/host.h"
#include "runtimes/isolated.h"

#ifndef SEQCONF_VERSION
#define SEQCONF_VERSION "unknown"
#endif

namespace seqconf {

namespace {

class ReferencePrepared : public PreparedModel {
 public:
  ReferencePrepared(std::shared_ptr<const interp::InterpretedModel> model, Policy policy,
                    std::shared_ptr<const interp::KernelOverride> kernel,
                    std::shared_ptr<const interp::HostKernel> host)
      : model_(std::move(model)),
        policy_(policy),
        kernel_(std::move(kernel)),
        host_(std::move(host)) {}

  RunResult run(const std::vector<Value>& inputs) override {
    RunResult r;
    Context ctx;
    ctx.policy = policy_;
    ctx.kernel_override = kernel_;
    ctx.host = host_;
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
    r.delegated = std::move(ctx.delegated);
    if (!r.delegated.empty() && host_) r.host = host_->name_now();
    return r;
  }

 private:
  std::shared_ptr<const interp::InterpretedModel> model_;
  Policy policy_;
  std::shared_ptr<const interp::KernelOverride> kernel_;
  std::shared_ptr<const interp::HostKernel> host_;
};

// The last model this thread prepared, and what came of it. Preparing is the same for every
// ReferenceRuntime (its policy and kernel override act when the model runs), so a second one
// that prepares the same shared model on this thread, under the same size limit, takes this
// rather than preparing it again: fuzzing prepares each program on the reference and then, on
// the same thread, on the runtime under test, which is the reference itself or a seeded defect.
struct LastPrepared {
  std::weak_ptr<const onnx::ModelProto> model;
  size_t max_tensor_bytes = 0;
  bool delegate = false;                                     // prepared with nodes kept for a host
  std::shared_ptr<const interp::InterpretedModel> prepared;  // null: rejected with `error`
  RunError error;
};
thread_local LastPrepared last_prepared;

}  // namespace

RunError run_error_from(const Error& e) {
  RunError r;
  // What the reference lacks (an operator, a host's answer, a determined result) is not a
  // rejection of the model.
  r.kind = e.code() == ErrorCode::not_supported || e.code() == ErrorCode::nondeterministic ||
                   e.code() == ErrorCode::host_rejected
               ? RunError::Kind::not_supported
               : RunError::Kind::invalid_input;
  r.message = e.what();
  r.code = std::string(error_code_name(e.code()));
  r.fault_op = e.fault_op();
  r.fault_node = e.fault_node();
  return r;
}

std::string ReferenceRuntime::version() const { return SEQCONF_VERSION; }

std::optional<WorkerRecipe> ReferenceRuntime::recipe() const {
  // The policy, then the host (runtimes/host.h: host_argument), which the worker makes again for
  // itself: the same reference in every process.
  const std::optional<std::string> host = host_argument(host_);
  if (kernel_ || !host) return std::nullopt;
  return WorkerRecipe{"reference", (policy_ == Policy::strict ? "strict " : "lenient ") + *host};
}

namespace {
const WorkerKind kReferenceWorker("reference", [](const std::string& argument) {
  const auto space = argument.find(' ');
  const std::string policy = argument.substr(0, space);
  return serve_runtime(std::make_shared<ReferenceRuntime>(
      policy == "strict" ? Policy::strict : Policy::lenient, nullptr,
      host_from_argument(space == std::string::npos ? "no-host" : argument.substr(space + 1))));
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
  const bool delegate = host_ != nullptr;
  if (last.model.lock() == model && last.max_tensor_bytes == max_tensor_bytes() &&
      last.delegate == delegate) {
    if (last.prepared)
      return std::make_unique<ReferencePrepared>(last.prepared, policy_, kernel_, host_);
    if (error) *error = last.error;
    return nullptr;
  }
  last = LastPrepared{model, max_tensor_bytes(), delegate, nullptr, {}};
  try {
    last.prepared = std::make_shared<const interp::InterpretedModel>(
        interp::InterpretedModel::prepare(model, delegate));
    return std::make_unique<ReferencePrepared>(last.prepared, policy_, kernel_, host_);
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
