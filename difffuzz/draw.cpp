// Drawing programs: program i of a campaign from its seed, and the program a libFuzzer input
// stands for (difffuzz/campaign.h declares these).
#include <string>

#include "difffuzz/campaign.h"
#include "difffuzz/encoding.h"
#include "difffuzz/hash.h"

namespace seqconf::difffuzz {

rc::Shrinkable<Program> campaign_program(const rc::Gen<Program>& gen, uint64_t seed, size_t i) {
  return gen(rc::Random(rc::Random::Key{seed, i, 0, 0}), static_cast<int>(i % 100));
}

Program input_program(const uint8_t* data, size_t size, int max_steps, const Support& support) {
  if (auto p = decode(data, size)) return std::move(*p);
  const ProgramKey key = program_key(data, size);
  return campaign_program(program_gen(max_steps, support), key.seed, key.iteration).value();
}

ProgramKey program_key(const uint8_t* data, size_t size) {
  // A hash of the bytes: libFuzzer's mutations of the input are new draws of the generator.
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  return {fnv1a(bytes), size > 0 ? static_cast<size_t>(data[0] % 100) : 0};
}

}  // namespace seqconf::difffuzz
