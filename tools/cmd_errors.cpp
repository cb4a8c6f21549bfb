// seqconf errors: the stable error codes of the reference.
#include <iostream>

#include "reference/error.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

const CommandRegistrar kErrors(90, [](CLI::App& app) {
  auto* cmd = app.add_subcommand("errors", "List the stable error codes of the reference");
  cmd->callback([] {
    for (int i = 0; i <= static_cast<int>(ErrorCode::io_error); ++i) {
      const auto c = static_cast<ErrorCode>(i);
      std::cout << error_code_name(c) << "\t" << error_code_summary(c) << "\n";
    }
  });
});

}  // namespace
}  // namespace seqconf::cli
