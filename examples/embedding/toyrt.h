// toyrt: a small runtime of its own, run through the seqconf suite. It executes graphs made of
// SequenceAt and SequenceLength nodes (default domain, opset 11 or later) with its own kernels,
// and declines every other operator with RunError::Kind::not_supported, which the suite
// reports as not_supported rather than as a failure.
#pragma once

#include "runtimes/runtime.h"

namespace toyrt {

class ToyRuntime : public seqconf::Runtime {
 public:
  std::string name() const override { return "toyrt"; }
  std::string version() const override { return "0.1"; }
  std::unique_ptr<seqconf::PreparedModel> prepare(const std::filesystem::path& model_path,
                                                  const onnx::ModelProto& model,
                                                  seqconf::RunError* error) override;
};

}  // namespace toyrt
