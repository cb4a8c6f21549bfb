// Folders of the fuzz tests: the source tree, and an empty folder for a campaign's fixtures.
#pragma once

#include <filesystem>
#include <string>

namespace seqconf::testing {

inline const std::filesystem::path kFuzzSource = SEQCONF_SOURCE_DIR;

// <temp>/seqconf-<name>, emptied.
inline std::filesystem::path fresh_fuzz_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("seqconf-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace seqconf::testing
