// The reference as a Runtime: the graph interpreter of reference/interpreter under a policy.
#pragma once

#include <memory>

#include "reference/context.h"
#include "runtimes/runtime.h"

namespace seqconf {

class ReferenceRuntime : public Runtime {
 public:
  // kernel: replaces the kernel of some nodes in every evaluation (Context::kernel_override);
  // only a seeded-defect runtime (runtimes/seeded/) gives one.
  // host: runs the nodes the reference does not implement (Context::host); none: such a model
  // is not_supported.
  explicit ReferenceRuntime(Policy policy = Policy::lenient,
                            std::shared_ptr<const interp::KernelOverride> kernel = nullptr,
                            std::shared_ptr<const interp::HostKernel> host = nullptr)
      : policy_(policy), kernel_(std::move(kernel)), host_(std::move(host)) {}
  std::string name() const override { return "reference"; }
  std::string version() const override;  // the project version
  std::string location() const override {
    return policy_ == Policy::strict ? "policy=strict" : "policy=lenient";
  }
  Policy policy() const { return policy_; }
  const std::shared_ptr<const interp::HostKernel>& host() const { return host_; }
  bool isolated_by_default() const override { return false; }
  // Worker kind "reference", argument the policy; none with a kernel override (a seeded
  // runtime has its own).
  std::optional<WorkerRecipe> recipe() const override;
  // A rejected model fills *error with kind not_supported (ErrorCode::not_supported) or
  // invalid_input, and code = the reference's stable error code name.
  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& model_path,
                                         const onnx::ModelProto& model, RunError* error) override;
  std::unique_ptr<PreparedModel> prepare_shared(const std::filesystem::path& model_path,
                                                std::shared_ptr<const onnx::ModelProto> model,
                                                RunError* error) override;

 private:
  Policy policy_;
  std::shared_ptr<const interp::KernelOverride> kernel_;
  std::shared_ptr<const interp::HostKernel> host_;
};

// The RunError a reference Error maps to (kind from the code, code name kept).
RunError run_error_from(const class Error& e);

}  // namespace seqconf
