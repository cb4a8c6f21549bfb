// How the reference resolves places where the spec and practice disagree, and the record of
// every such place an evaluation passed through.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/limits.h"

namespace seqconf {

namespace interp {
struct KernelOverride;  // reference/interpreter/interpreter.h
struct HostKernel;      // reference/interpreter/interpreter.h
}  // namespace interp

// lenient: accept what ONNX's own fixtures and major runtimes accept where the spec is
// ambiguous (recording an Ambiguity each time); strict: reject it with the strict error code.
enum class Policy { lenient, strict };

// One ambiguity met during evaluation. `id` is stable (see README "Ambiguities").
struct Ambiguity {
  std::string id;             // e.g. "position_shape_1"
  std::string op;             // e.g. "SequenceInsert"
  std::string spec_sentence;  // the sentence the behaviour depends on
  std::string detail;         // what was met and what was decided
  bool operator==(const Ambiguity& o) const { return id == o.id && detail == o.detail; }
};

struct Context {
  Policy policy = Policy::lenient;
  std::vector<Ambiguity> ambiguities;
  // Subgraph runs (Loop iterations, SequenceMap samples) in this evaluation, nested ones
  // included; the interpreter bounds it (limit_exceeded) so that no model runs unboundedly.
  size_t body_runs = 0;
  // Work done in this evaluation, in bytes: every node run and subgraph run counts
  // kNodeRunWork, plus the bytes of the tensors each node reads and writes (a tensor handle,
  // sizeof(Tensor), for each element of a sequence). The interpreter stops the evaluation with
  // limit_exceeded past work_budget, or past 16 x max_tensor_bytes (at least 1 MiB) when it is
  // 0, so that no model (a Loop of cheap nodes, a loop re-reading a large tensor) runs
  // unboundedly.
  static constexpr size_t kNodeRunWork = 256;
  size_t work = 0;
  size_t work_budget = 0;
  // The largest tensor, in bytes, this evaluation may read or compute (--max-tensor-bytes): by
  // default the limit in force on the thread that made the Context (reference/limits.h). The
  // interpreter installs it on its thread for the evaluation.
  size_t max_tensor_bytes = seqconf::max_tensor_bytes();
  // Replaces the reference's kernel of some nodes: set only by a seeded-defect runtime
  // (runtimes/seeded/), which is the reference with one deliberate defect. Empty: the reference.
  std::shared_ptr<const interp::KernelOverride> kernel_override;
  // Runs the nodes the reference does not implement (a model prepared with delegate = true);
  // none: such a node is not_supported.
  std::shared_ptr<const interp::HostKernel> host;
  // The nodes this evaluation ran on the host: "MatMul-13" -> how many times.
  std::map<std::string, size_t> delegated;

  void note(Ambiguity a) {
    for (const auto& x : ambiguities)
      if (x == a) return;
    ambiguities.push_back(std::move(a));
  }
};

}  // namespace seqconf
