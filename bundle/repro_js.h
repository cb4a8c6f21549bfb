// The files every bundle folder of a runtime with a JavaScript API carries, compiled in by
// bundle/embed.cmake: bundle/repro.js, and bundle/repro.supp (memcheck.supp, in the folder of a
// memory error).
#pragma once

namespace seqconf::bundle {
extern const char* const kReproJs;
extern const char* const kReproSupp;
}  // namespace seqconf::bundle
