// Subcommands of the seqconf CLI register themselves: one file per subcommand (cmd_*.cpp)
// holding a static CommandRegistrar.
//
// Exit codes of every subcommand: 0 no unexpected outcome, 1 unexpected outcomes,
// 2 usage or input error.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace seqconf::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUnexpected = 1;
inline constexpr int kExitUsage = 2;

using AddCommand = std::function<void(CLI::App& app)>;

struct CommandRegistrar {
  // order: position in --help (lower first).
  CommandRegistrar(int order, AddCommand add);
};

// The subcommand's callback sets the process exit code here.
void set_exit_code(int code);
int exit_code();

void add_registered_commands(CLI::App& app);

}  // namespace seqconf::cli
