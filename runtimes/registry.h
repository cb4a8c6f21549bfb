// Runtimes by name, as the CLI's --runtime option spells them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reference/context.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct RuntimeOptions {
  Policy policy = Policy::lenient;  // for the reference
};

// spec: "reference", or "<name>=<argument>" for runtimes that need a library path or a
// command. Throws Error(invalid_argument) naming the known runtimes for an unknown name.
std::unique_ptr<Runtime> make_runtime(const std::string& spec, const RuntimeOptions& options = {});

// The names make_runtime accepts (for --help and error messages).
std::vector<std::string> known_runtimes();

}  // namespace seqconf
