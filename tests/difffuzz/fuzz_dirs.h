// Folders of the fuzz tests: the source tree, an empty folder for a campaign's fixtures, and
// the fixtures a campaign wrote there as cases.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cases/case.h"

namespace seqconf::testing {

inline const std::filesystem::path kFuzzSource = SEQCONF_SOURCE_DIR;

// <temp>/seqconf-<name>, emptied.
inline std::filesystem::path fresh_fuzz_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("seqconf-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The fixtures in `corpus` as the corpus runner selects them.
inline std::vector<Case> fixture_cases(const std::filesystem::path& corpus) {
  CaseSelection sel;
  sel.source = "corpus";
  sel.corpus = corpus;
  std::vector<std::string> notes;
  return select_cases(sel, &notes);
}

}  // namespace seqconf::testing
