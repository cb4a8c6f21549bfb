// Batched evaluation: several programs packed into one model, so that one session of the runtime
// under test serves them all (creating a session is most of what a runtime spends on a small
// program).
//
// Packing: program k's graph keeps its nodes, inputs, initializers and outputs, every value name
// prefixed "p<k>_" in the graph and in its subgraphs alike (the same renaming everywhere, so a
// subgraph still reads the outer value it read before). The programs share no value: the packed
// model computes each program's outputs exactly as the program's own model does.
//
// A batch counts only where it agrees: a program whose outputs in the batch equal the
// reference's is "same outputs"; every other verdict (a difference, a rejection, a crash, a hang)
// comes from the program run alone, exactly as an unbatched campaign runs it. A batch that the
// runtime rejects, or that crashes or hangs, is split in halves down to single programs.
#pragma once

#include <cstddef>
#include <vector>

#include "difffuzz/campaign.h"
#include "difffuzz/program.h"

namespace seqconf::difffuzz {

// The programs as one model; output_offset[k] .. output_offset[k + 1] are program k's outputs.
struct PackedPrograms {
  BuiltProgram built;
  std::vector<size_t> output_offset;
};
PackedPrograms pack(const std::vector<const BuiltProgram*>& programs);

// One program of a campaign on its way to a verdict: built once, run on the reference once.
struct Slot {
  Program program;
  BuiltProgram built;
  RunResult reference;
  Evaluation evaluation;
};

// What batched evaluation cost: runtime sessions prepared and programs they served.
struct BatchCounts {
  size_t sessions = 0;          // models prepared on the runtime under test
  size_t batches = 0;           // of those, packed models of two or more programs
  size_t batched_programs = 0;  // programs whose verdict a batch gave
  size_t splits = 0;            // batches split in halves (rejected, crashed or hung)
};

// The slots (in program order, each run on the reference) in groups to evaluate together:
// programs the reference accepts, in order, at most max_batch programs and max_batch_nodes
// top-level nodes to a group; every program the reference rejects alone, since the runtime
// is expected to reject it too, which would fail any batch it is in. max_batch <= 1: every
// program alone.
std::vector<std::vector<Slot*>> batch_groups(const std::vector<Slot*>& slots, size_t max_batch,
                                             size_t max_batch_nodes);

// Gives every slot of the group its evaluation on `runtime`: a group of one as an unbatched
// campaign does; a larger group packed, and split in halves when the packed model fails.
// `oracle` names the side the slots ran on in the messages (judge).
void evaluate_group(const std::vector<Slot*>& group, Runtime& runtime, BatchCounts* counts,
                    std::string_view oracle = kReferenceOracle);

}  // namespace seqconf::difffuzz
