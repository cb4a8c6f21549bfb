// seqconf generate: write the generated corpus in ONNX backend layout.
//   DIR/<folder>/model.onnx, DIR/<folder>/test_data_set_0/input_K.pb, output_K.pb, case.json
// Output is byte-for-byte deterministic; fixtures/corpus holds the committed copy.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "generators/catalog/catalog.h"
#include "tools/command.h"

namespace seqconf::cli {
namespace {

namespace fs = std::filesystem;

struct GenerateOptions {
  std::string out;
  bool force = false;
  bool quiet = false;
  bool no_checks = false;
};

int run_generate(const GenerateOptions& o) {
  const fs::path out(o.out);
  const auto& cases = catalog::all_cases();
  if (fs::exists(out)) {
    if (!fs::is_directory(out)) {
      std::cerr << "seqconf generate: " << out << " exists and is not a directory\n";
      return kExitUsage;
    }
    // Only folders that hold a case.json are ours to replace.
    std::vector<fs::path> stale;
    bool foreign = false;
    for (const auto& e : fs::directory_iterator(out)) {
      if (e.is_directory() && fs::exists(e.path() / "case.json"))
        stale.push_back(e.path());
      else
        foreign = true;
    }
    if (!stale.empty() && !o.force) {
      std::cerr << "seqconf generate: " << out
                << " already holds cases; pass --force to replace them\n";
      return kExitUsage;
    }
    if (foreign && !o.force) {
      std::cerr << "seqconf generate: " << out << " holds other files; choose an empty directory\n";
      return kExitUsage;
    }
    for (const auto& p : stale) fs::remove_all(p);
  }
  size_t must_reject = 0, ambiguous = 0, files = 0;
  for (const auto& c : cases) {
    const auto case_files = catalog::case_files(c);
    write_case_folder(out / c.folder(), case_files);
    files += case_files.size();
    must_reject += c.must_reject();
    ambiguous += c.ambiguous;
  }
  if (o.quiet) return kExitOk;
  std::cout << "wrote " << cases.size() << " cases (" << cases.size() - must_reject
            << " with outputs, " << must_reject << " must-reject, " << ambiguous << " ambiguous), "
            << files << " files, to " << out.string() << "\n";
  if (!o.no_checks) {
    const auto findings = catalog::static_findings();
    std::cout << "static checks (onnx::checker::check_model, onnx::shape_inference::InferShapes): "
              << findings.size() << " findings\n";
    for (const auto& f : findings) std::cout << "  " << f << "\n";
  }
  return kExitOk;
}

const CommandRegistrar kGenerate(20, [](CLI::App& app) {
  auto opts = std::make_shared<GenerateOptions>();
  auto* cmd = app.add_subcommand("generate",
                                 "Write the generated conformance corpus in ONNX backend layout");
  cmd->add_option("--out", opts->out, "Directory to write (one folder per case)")->required();
  cmd->add_flag("--force", opts->force, "Replace the cases already in --out");
  cmd->add_flag("--quiet", opts->quiet, "Print nothing (and skip the static checks)");
  cmd->add_flag("--no-checks", opts->no_checks, "Skip the checker and shape-inference findings");
  cmd->callback([opts] { set_exit_code(run_generate(*opts)); });
});

}  // namespace
}  // namespace seqconf::cli
