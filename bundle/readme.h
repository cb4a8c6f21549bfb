// README.md of a bundle folder: the issue a runtime's team would want to read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "bundle/expected.h"
#include "bundle/source.h"

namespace seqconf::bundle {

// One line of a message, at most n characters.
std::string clipped(std::string s, size_t n = 600);

// What was written in a folder, as its README tells it.
struct Written {
  const reports::Departure* departure;
  const Case* c;
  std::filesystem::path dir;
  std::string data_set;  // the case's data set bundled
  std::string what_it_did;
  bool rerun = false, reproduced = false;
  int fit = 2;
  std::string package;
  Expected expected;
  int time_limit_s = 60;
  std::optional<MemoryError> memory_error;  // what memcheck reported of the case, if it ran so
  std::string control;                      // the control's case id; empty when there is none
  std::string no_control;                   // ... and why
};

// The README's text: what happens, the spec sentence, the layer, the memory error, how to
// reproduce (npm install, node repro.js, the seqconf command), the runtime, the other cases and
// the files.
std::string readme(const Source& s, const Written& w);

}  // namespace seqconf::bundle
