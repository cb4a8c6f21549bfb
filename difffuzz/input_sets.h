// Input sets: the same model run with other values for its graph inputs. A program's structure
// (its operators, attributes, element types, and the shapes its graph inputs declare) makes
// the model; its values (the sequences' tensors and lengths, positions, splits, tensor
// contents with the generators' edge values) are one input set of it. A campaign prepares a
// structure once on each side and runs it with several input sets (difffuzz/campaign.h), which
// costs a runtime one session instead of one per input set.
//
// Only a program that reads every value from graph inputs has other input sets: with
// Placement::initializers the values are in the model, where a runtime may fold them while it
// prepares, so such programs stay one input set each, as do the constants (axes, keepdims,
// new_axis, SequenceMap bodies) that are attributes in every placement.
#pragma once

#include <rapidcheck.h>

#include "difffuzz/program.h"

namespace seqconf::difffuzz {

// Whether other input sets of p run on p's model.
bool takes_input_sets(const Program& p);

// Another input set of p: p with new values for its graph inputs, each tensor argument keeping
// its element type and shape (a graph input declares both), and the input sequences (which
// declare only their element type) new lengths and element shapes some of the time. The result
// builds the same model as p (test InputSets.BuildTheSameModel).
// keep_valid: for a structure the reference runs, input sets it runs too, as far as the
// generator can tell (positions in range, splits that sum to the axis, sequences of the same
// lengths and shapes), so that a campaign's executions go to behaviour rather than to
// rejections both sides agree on; must-reject behaviour comes from the structures drawn to be
// invalid (program_gen) and their input sets, which may be invalid in every way.
rc::Gen<Program> input_set_gen(const Program& p, bool keep_valid = false);

}  // namespace seqconf::difffuzz
