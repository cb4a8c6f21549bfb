// How the reference resolves places where the spec and practice disagree, and the record of
// every such place an evaluation passed through.
#pragma once

#include <string>
#include <vector>

namespace seqconf {

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

  void note(Ambiguity a) {
    for (const auto& x : ambiguities)
      if (x == a) return;
    ambiguities.push_back(std::move(a));
  }
};

}  // namespace seqconf
