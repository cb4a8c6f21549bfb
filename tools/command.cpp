#include "tools/command.h"

#include <algorithm>
#include <vector>

namespace seqconf::cli {

namespace {
struct Entry {
  int order;
  AddCommand add;
};
std::vector<Entry>& registry() {
  static std::vector<Entry> r;
  return r;
}
int g_exit_code = kExitOk;
}  // namespace

CommandRegistrar::CommandRegistrar(int order, AddCommand add) {
  registry().push_back({order, std::move(add)});
}

void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }

void add_registered_commands(CLI::App& app) {
  auto& r = registry();
  std::stable_sort(r.begin(), r.end(),
                   [](const Entry& a, const Entry& b) { return a.order < b.order; });
  for (const auto& e : r) e.add(app);
}

}  // namespace seqconf::cli
