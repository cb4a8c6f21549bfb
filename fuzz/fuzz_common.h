// Shared by the fuzz targets: a byte reader over the fuzzer's input, the size limits every
// target runs under, and a check that stops the fuzzer when an invariant breaks.
//
// Framed inputs (fuzz_model, and the seeds fuzz_make_seeds writes) are a sequence of chunks,
// each a 4-byte little-endian length followed by that many bytes; a length running past the end
// takes what is left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "reference/value.h"

namespace seqconf::fuzz {

// The limit the targets run under: small enough that any allocation far above it means a size
// was not checked before allocating (the fuzzers run with -malloc_limit_mb). Each target installs
// it for one input: `const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);`.
inline constexpr size_t kFuzzMaxTensorBytes = size_t{1} << 20;

// The work budget (Context::work_budget) of one fuzzed model evaluation: 16384 node runs, or
// fewer with larger tensors, which an instrumented build runs in about a second (the fuzzers
// time out after 10 s).
inline constexpr size_t kFuzzWorkBudget = size_t{4} << 20;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ == end_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  uint8_t byte() { return p_ == end_ ? 0 : *p_++; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(byte()) << (8 * i);
    return v;
  }
  int64_t i64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(byte()) << (8 * i);
    return static_cast<int64_t>(v);
  }
  std::string bytes(size_t n) {
    n = n < left() ? n : left();
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  std::string chunk() { return bytes(u32()); }
  std::string rest() { return bytes(left()); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

inline void append_chunk(std::string& out, const std::string& bytes) {
  const auto n = static_cast<uint32_t>(bytes.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  out += bytes;
}

// An invariant of the reference broke: report and abort so that the fuzzer keeps the input.
[[noreturn]] inline void invariant_failed(const char* what, const std::string& detail) {
  std::fprintf(stderr, "invariant broken: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace seqconf::fuzz
