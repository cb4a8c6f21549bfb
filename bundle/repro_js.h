// The text of bundle/repro.js, the script every bundle folder carries (compiled in by
// bundle/embed.cmake).
#pragma once

namespace seqconf::bundle {
extern const char* const kReproJs;
}  // namespace seqconf::bundle
