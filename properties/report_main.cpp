// properties_report: runs every property on the reference and writes a JSON report (per
// property: cases, discards, seed, result, shrunk counterexample and reproduce string,
// classification counts). The file is given by --out PATH or SEQCONF_PROPERTIES_REPORT; the
// budget and seed by RC_PARAMS. Exit code: 0 all passed, 1 a property failed, 2 usage or
// output error.
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>

#include "properties/runner.h"

int main(int argc, char** argv) {
  using namespace seqconf::properties;
  std::string out_path;
  if (const char* env = std::getenv("SEQCONF_PROPERTIES_REPORT")) out_path = env;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (arg == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else {
      std::cerr << "usage: properties_report [--out PATH] [--filter SUBSTRING]\n"
                   "  PATH defaults to $SEQCONF_PROPERTIES_REPORT; RC_PARAMS sets seed and "
                   "budget (e.g. RC_PARAMS=\"max_success=10000\").\n";
      return 2;
    }
  }
  if (out_path.empty()) {
    std::cerr << "properties_report: no output file (--out PATH or SEQCONF_PROPERTIES_REPORT)\n";
    return 2;
  }

  apply_default_budget();
  const rc::detail::TestParams params = configured_params();
  const OpSet ops = reference_ops();
  nlohmann::json properties = nlohmann::json::array();
  int passed = 0, failed = 0, total_cases = 0;
  double seconds = 0;
  for (const PropertyDef& def : all_properties()) {
    if (!filter.empty() && def.id.find(filter) == std::string::npos) continue;
    const PropertyRun run = run_property(def, ops, params);
    (run.result == PropertyRun::Result::passed ? passed : failed)++;
    total_cases += run.cases;
    seconds += run.seconds;
    std::cout << result_name(run.result) << "  " << def.id << "  (" << run.cases << " cases, "
              << run.discards << " discards)\n";
    if (run.result != PropertyRun::Result::passed)
      std::cout << "    " << run.message << "\n    reproduce: RC_PARAMS=\"" << run.reproduce
                << "\"\n";
    properties.push_back(to_json(run));
  }

  nlohmann::json report;
  report["report"] = "seqconf properties";
  report["generated_at"] = static_cast<int64_t>(std::time(nullptr));
  report["rapidcheck"] = {{"seed", std::to_string(params.seed)},
                          {"max_success", params.maxSuccess},
                          {"max_size", params.maxSize},
                          {"max_discard_ratio", params.maxDiscardRatio}};
  report["summary"] = {{"properties", passed + failed},
                       {"passed", passed},
                       {"failed", failed},
                       {"cases", total_cases},
                       {"seconds", seconds}};
  report["properties"] = properties;

  std::ofstream f(out_path);
  f << report.dump(2) << "\n";
  if (!f) {
    std::cerr << "properties_report: cannot write " << out_path << ": " << std::strerror(errno)
              << "\n";
    return 2;
  }
  std::cout << passed << " of " << passed + failed << " properties passed, " << total_cases
            << " cases; report in " << out_path << "\n";
  return failed == 0 ? 0 : 1;
}
