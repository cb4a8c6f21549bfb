// Deliberately broken variants of the operators (test code only). Each one reproduces a
// mistake a runtime or a reference has made, or could plausibly make, and names the properties
// that must find a counterexample against it: a property no variant breaks could be a property
// that cannot fail.
#pragma once

#include <string>
#include <vector>

#include "properties/op_set.h"

namespace seqconf::properties {

struct Mutant {
  std::string name;                    // identifier, [a-z0-9_]
  std::string description;             // the mistake
  OpSet ops;                           // reference_ops() with the broken member(s) replaced
  std::vector<std::string> caught_by;  // property ids that must fail on it
};

std::vector<Mutant> all_mutants();

}  // namespace seqconf::properties
