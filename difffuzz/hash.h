// The 64-bit FNV-1a hash that names programs of libFuzzer inputs (program_key) and findings
// (their ID's h=).
#pragma once

#include <cstdint>
#include <string>

namespace seqconf::difffuzz {

inline uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace seqconf::difffuzz
