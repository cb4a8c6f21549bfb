// seqconf runtimes: the runtimes this build can drive, with version and location.
#include <iostream>

#include <nlohmann/json.hpp>

#include "runtimes/onnxruntime.h"
#include "runtimes/process.h"
#include "runtimes/registry.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

struct Row {
  std::string spec;  // what --runtime takes
  bool available = false;
  std::string name, version, location, note;
  bool release = false;  // one of the ORT_VERSIONS releases (history), not a default runtime
};

Row probe(const std::string& spec) {
  Row row;
  row.spec = spec;
  try {
    auto rt = make_runtime(spec);
    row.available = true;
    row.name = rt->name();
    row.version = rt->version();
    row.location = rt->location();
  } catch (const std::exception& e) {
    row.note = e.what();
  }
  return row;
}

const CommandRegistrar kRuntimes(80, [](CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "runtimes",
      "List the runtimes this build can drive (name, version, library or command), then the "
      "further ONNX Runtime releases installed with ORT_VERSIONS=... tools/setup-runtimes.sh");
  static bool as_json = false;
  cmd->add_flag("--json", as_json, "Write the list as JSON");
  cmd->callback([] {
    std::vector<Row> rows = {probe("reference"), probe("onnxruntime")};
    std::string why;
    if (onnxruntime_web_command(&why).empty()) {
      rows.push_back({"onnxruntime-web", false, "", "", "", why});
    } else {
      rows.push_back(probe("onnxruntime-web"));
    }
    for (const auto& lib : onnxruntime_release_libraries()) {
      rows.push_back(probe("onnxruntime=" + lib.string()));
      rows.back().release = true;
    }
    if (as_json) {
      nlohmann::json j = nlohmann::json::array();
      for (const Row& r : rows)
        j.push_back({{"spec", r.spec},
                     {"available", r.available},
                     {"name", r.name},
                     {"version", r.version},
                     {"location", r.location},
                     {"note", r.note},
                     {"release", r.release}});
      std::cout << j.dump(2) << "\n";
      return;
    }
    for (const Row& r : rows) {
      if (r.available)
        std::cout << r.spec << "\t" << r.name << " " << r.version << "\t" << r.location
                  << (r.release ? "\t(release, for tools/history.sh)" : "") << "\n";
      else
        std::cout << r.spec << "\tunavailable\t" << r.note << "\n";
    }
    std::cout << "Any other runtime: --runtime 'process=COMMAND' (protocol seqconf-runtime/1), "
                 "or 'onnxruntime=PATH' for another ONNX Runtime library.\n";
  });
});

}  // namespace
}  // namespace seqconf::cli
