// Runs one property through RapidCheck and keeps what a report needs: case and discard counts,
// seed, classification counts, and for a failure the shrunk counterexample and the RC_PARAMS
// string that reproduces it.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/properties.h"

namespace seqconf::properties {

struct PropertyRun {
  std::string id;
  std::string spec;
  enum class Result { passed, failed, gave_up, error } result = Result::passed;
  int cases = 0;     // test cases run (successful and failing)
  int discards = 0;  // cases rejected by RC_PRE
  uint64_t seed = 0;
  int max_success = 0;
  double seconds = 0;
  std::map<std::vector<std::string>, int> classification;  // tags of passing cases -> count
  std::string message;                                     // failure or give-up description
  std::vector<std::pair<std::string, std::string>> counterexample;  // shrunk
  std::string reproduce;  // RC_PARAMS value that replays the shrunk failure
};

// Cases per property when RC_PARAMS does not set max_success (RapidCheck's own default is 100).
inline constexpr int kDefaultMaxSuccess = 1000;
// Adds max_success=kDefaultMaxSuccess to RC_PARAMS unless it sets max_success; call before
// anything reads RapidCheck's configuration (it is read once).
void apply_default_budget();

// The parameters RapidCheck was configured with (RC_PARAMS), the default budget otherwise.
rc::detail::TestParams configured_params();

PropertyRun run_property(const PropertyDef& def, const OpSet& ops,
                         const rc::detail::TestParams& params);

const char* result_name(PropertyRun::Result r);
nlohmann::json to_json(const PropertyRun& run);

}  // namespace seqconf::properties
