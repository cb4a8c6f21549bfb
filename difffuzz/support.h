// What the runtime under test supports, probed before a campaign: each node a program can hold
// (the source's SequenceEmpty or SequenceConstruct, each step, each SequenceMap body) with each
// element type, as a minimal valid program run alone. A pair the runtime answers "not
// supported" for is drawn by no program of the campaign: such programs only ever count as not
// supported, and on ONNX Runtime 1.30 they were a third of all programs (SplitToSequence
// registers 7 of the 15 types there). The pairs left out are listed in the campaign's report.
//
// The probe is a function of the runtime alone, so a seed and an iteration count still give the
// same campaign on the same runtime; on the reference every pair is supported and the programs
// are those drawn without a probe.
#pragma once

#include <vector>

#include "difffuzz/program.h"
#include "runtimes/runtime.h"

namespace seqconf::difffuzz {

// Runs the probe programs on the runtime, alone each.
Support probe_support(Runtime& runtime);
// The same on several instances of the runtime at once, one thread each.
Support probe_support(const std::vector<Runtime*>& runtimes);

}  // namespace seqconf::difffuzz
