// Programs as bytes: the inputs of the libFuzzer differential target (fuzz/fuzz_diff.cpp) that
// its structural mutator (difffuzz/mutate.h) writes, and that `seqconf fuzz --replay` reads.
//
// An encoded program is the marker "seqconf-program/1\n" and a CBOR map: element type, context,
// source, source tensors and steps, every tensor a serialized TensorProto (raw_data, or
// string_data for strings). Bytes without the marker, or that do not decode to a program that
// can be built, stand for a program of a campaign instead (difffuzz::program_key), so every
// input names exactly one program.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "difffuzz/program.h"

namespace seqconf::difffuzz {

inline constexpr std::string_view kProgramMarker = "seqconf-program/1\n";

std::string encode(const Program& p);

// The program the bytes encode, or nullopt when they are not an encoded program or the program
// could not be built: a step without the tensor it needs, a source tensor or a sequence of
// another element type, an unknown kind, more than kMaxEncodedSteps steps or kMaxEncodedTensors
// tensors in a sequence, a tensor over the size limit (reference/limits.h).
std::optional<Program> decode(const uint8_t* data, size_t size);

inline constexpr size_t kMaxEncodedSteps = 32;
inline constexpr size_t kMaxEncodedTensors = 32;

}  // namespace seqconf::difffuzz
