#include "runtimes/registry.h"

#include "reference/error.h"
#include "runtimes/reference_runtime.h"

namespace seqconf {

std::vector<std::string> known_runtimes() { return {"reference"}; }

std::unique_ptr<Runtime> make_runtime(const std::string& spec, const RuntimeOptions& options) {
  const auto eq = spec.find('=');
  const std::string name = spec.substr(0, eq);
  const std::string arg = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
  if (name == "reference") {
    if (!arg.empty())
      throw Error(ErrorCode::invalid_argument,
                  "runtime 'reference' takes no argument, got '" + arg + "'");
    return std::make_unique<ReferenceRuntime>(options.policy);
  }
  std::string names;
  for (const auto& n : known_runtimes()) names += (names.empty() ? "" : ", ") + n;
  throw Error(ErrorCode::invalid_argument, "unknown runtime '" + spec + "' (known: " + names + ")");
}

}  // namespace seqconf
