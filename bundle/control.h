// The control of a departure: a case that shows the runtime could have done what the spec says.
// A must-reject case's rejection proves nothing when the runtime rejects everything of its kind
// (a package that cannot load the model's opset, a damaged file, a lifted model it cannot run);
// a case of the same operator in the same graph context that passed in the same run, loaded and
// run by repro.js before the departing model, rules that out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bundle/expected.h"
#include "bundle/source.h"
#include "cases/case.h"

namespace seqconf::bundle {

struct Control {
  const Case* c = nullptr;
  LoadedCase lc;
  size_t data_set = 0;  // the data set repro.js runs: one whose outputs the spec gives
  Expected expected;    // its outputs
};

// The control of a departure whose bundled case is `chosen` (javascript_fit `fit`): of the
// report's cases that passed, not of the departure, with the chosen case's operator and graph
// context, one a JavaScript API runs (lifted alike when it can be), with the same element type
// when one has it, then the longest id prefix in common, then the shortest id. nullopt, and
// *why_none says why, when there is none (a fuzz report records no passing cases).
std::optional<Control> choose_control(const Source& s,
                                      const std::map<std::string, const Case*>& by_id,
                                      const reports::Departure& d, const Case& chosen, int fit,
                                      std::string* why_none);

}  // namespace seqconf::bundle
