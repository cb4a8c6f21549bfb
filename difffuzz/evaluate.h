// Evaluation of a program on both sides (difffuzz/campaign.h declares prepare_on, run_prepared,
// run_on, judge and evaluate): the small functions that judging, shrinking and findings share.
#pragma once

#include <cstddef>
#include <string>

#include "cases/case_json.h"
#include "difffuzz/campaign.h"

namespace seqconf::difffuzz {

// How a program's outputs compare (cases/case_json.h's table, by the operators it uses).
ComparisonRule comparison_rule_of(const BuiltProgram& b);

// The top-level node a message names ("n<k>_<Op>"), else the first op type it names, else the
// last node. Returns the node index.
size_t node_named_in(const std::string& message, const BuiltProgram& b);

// The text on one line (line breaks become spaces), cut to max characters.
std::string one_line(std::string s, size_t max = 300);

// The op type of a top-level node, "model" past the last one.
std::string op_of(const BuiltProgram& b, size_t node);

}  // namespace seqconf::difffuzz
