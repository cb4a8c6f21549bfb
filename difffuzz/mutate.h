// Structural mutation of programs: the custom mutator of the libFuzzer differential target
// (fuzz/fuzz_diff.cpp). Each mutation changes one thing a runtime may get wrong, so that
// coverage of the reference guides the search through programs rather than through bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "difffuzz/program.h"

namespace seqconf::difffuzz {

enum class Mutation {
  insert_step,  // a new step (program_gen's step generator) at any place in the chain
  remove_step,  // one step less (never the last one)
  move_step,    // two neighbouring steps swapped, or a step repeated
  position,     // a position: another valid one, out of range, an extreme, absent, not a
                // scalar, int32 / int64 / another type
  type,         // the element type of the whole program, or of one tensor argument
  split,        // SplitToSequence: split (valid, invalid, absent), axis, keepdims, input shape
  context,      // inputs, initializers, If branch, Loop body
  source,       // the source (graph input, SequenceEmpty, SequenceConstruct), a tensor more or
                // less in it
  values,       // the bytes of one tensor (or one string of it)
  concat,       // ConcatFromSequence: axis, new_axis
  map,          // SequenceMap: body, the additional input
};
inline constexpr int kMutations = 11;
const char* mutation_name(Mutation m);

struct MutateOptions {
  // The nodes the runtime supports: no mutation adds another.
  Support support;
  // Mutates size bytes in place (at most max_size) and returns the new size: libFuzzer's
  // LLVMFuzzerMutate for `values`; empty: one byte changed.
  std::function<size_t(uint8_t* data, size_t size, size_t max_size)> mutate_bytes;
};

// Applies mutation m drawn from seed; false (p unchanged) when it does not apply to p (no step
// with a position, a step more than encoding allows, a node the runtime does not support...).
bool mutate(Program& p, Mutation m, uint64_t seed, const MutateOptions& options);

// Applies one applicable mutation chosen from seed and returns it; nullopt when none applies.
std::optional<Mutation> mutate(Program& p, uint64_t seed, const MutateOptions& options);

// The steps of a up to a point, then those of b from a point (b's element type differing, its
// steps take a's); a's source and context.
Program cross_over(const Program& a, const Program& b, uint64_t seed);

// Whether every node of p is one the runtime supports.
bool supported(const Program& p, const Support& support);

}  // namespace seqconf::difffuzz
