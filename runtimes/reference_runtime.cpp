#include "runtimes/reference_runtime.h"

#include "reference/error.h"
#include "reference/interpreter/interpreter.h"

#ifndef SEQCONF_VERSION
#define SEQCONF_VERSION "unknown"
#endif

namespace seqconf {

namespace {

class ReferencePrepared : public PreparedModel {
 public:
  ReferencePrepared(interp::InterpretedModel model, Policy policy,
                    std::shared_ptr<const interp::KernelOverride> kernel)
      : model_(std::move(model)), policy_(policy), kernel_(std::move(kernel)) {}

  RunResult run(const std::vector<Value>& inputs) override {
    RunResult r;
    Context ctx;
    ctx.policy = policy_;
    ctx.kernel_override = kernel_;
    try {
      r.outputs = model_.run(inputs, ctx);
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
  interp::InterpretedModel model_;
  Policy policy_;
  std::shared_ptr<const interp::KernelOverride> kernel_;
};

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

std::unique_ptr<PreparedModel> ReferenceRuntime::prepare(const std::filesystem::path& model_path,
                                                         const onnx::ModelProto& model,
                                                         RunError* error) {
  return prepare_shared(model_path, std::make_shared<const onnx::ModelProto>(model), error);
}

std::unique_ptr<PreparedModel> ReferenceRuntime::prepare_shared(
    const std::filesystem::path&, std::shared_ptr<const onnx::ModelProto> model, RunError* error) {
  try {
    return std::make_unique<ReferencePrepared>(interp::InterpretedModel::prepare(std::move(model)),
                                               policy_, kernel_);
  } catch (const Error& e) {
    if (error) *error = run_error_from(e);
  } catch (const std::exception& e) {
    if (error) {
      error->kind = RunError::Kind::internal;
      error->message = e.what();
    }
  }
  return nullptr;
}

}  // namespace seqconf
