#include "cases/data_dir.h"

#include <cstdlib>

#ifndef SEQCONF_DEFAULT_CORPUS
#define SEQCONF_DEFAULT_CORPUS "fixtures/corpus"
#endif
#ifndef SEQCONF_DEFAULT_EXPORTED
#define SEQCONF_DEFAULT_EXPORTED "fixtures/exported"
#endif
#ifndef SEQCONF_DEFAULT_EXPORTER_EXPECTATIONS
#define SEQCONF_DEFAULT_EXPORTER_EXPECTATIONS "expectations/torch-onnx.json"
#endif

namespace seqconf {

namespace fs = std::filesystem;

namespace {
fs::path& registered_package_data_dir() {
  static fs::path dir;
  return dir;
}
}  // namespace

bool set_package_data_dir(const fs::path& dir) {
  registered_package_data_dir() = dir;
  return true;
}

fs::path package_data_dir() {
  if (const auto& dir = registered_package_data_dir(); !dir.empty()) return dir;
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const auto dir = exe.parent_path().parent_path() / "share" / "seqconf";
  return fs::is_directory(dir / "corpus", ec) ? dir : fs::path();
}

fs::path default_corpus_root() {
  if (const char* env = std::getenv("SEQCONF_CORPUS"); env && *env) return env;
  if (auto dir = package_data_dir(); !dir.empty()) return dir / "corpus";
  return SEQCONF_DEFAULT_CORPUS;
}

fs::path default_exported_root() {
  if (const char* env = std::getenv("SEQCONF_EXPORTED"); env && *env) return env;
  if (auto dir = package_data_dir(); !dir.empty()) return dir / "exported";
  return SEQCONF_DEFAULT_EXPORTED;
}

fs::path default_exporter_expectations() {
  if (auto dir = package_data_dir(); !dir.empty()) return dir / "expectations" / "torch-onnx.json";
  return SEQCONF_DEFAULT_EXPORTER_EXPECTATIONS;
}

fs::path default_onnx_testdata_root() {
  if (const char* env = std::getenv("SEQCONF_ONNX_TESTDATA"); env && *env) return env;
  return "/usr/share/libonnx-testdata/data";
}

}  // namespace seqconf
