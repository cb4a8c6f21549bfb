// Differential fuzzing on libFuzzer: each input stands for one program of the differential
// fuzzer, run on the reference and on the runtime under test; a disagreement traps, so libFuzzer
// keeps the input as a crash. `seqconf fuzz --replay FILE --runtime SPEC --out DIR` turns that
// input into a shrunk corpus fixture.
//
// Inputs: a program encoded by difffuzz/encoding.h, or any other bytes, which name a program of
// a campaign (difffuzz::program_key). The custom mutator turns either into an encoded program
// and changes it structurally (difffuzz/mutate.h: a step more or less, a position, a type, a
// split, a context, ...), so that the reference's coverage guides the search; the custom
// cross-over joins the steps of two programs.
//
// The runtime under test: $SEQCONF_FUZZ_RUNTIME, a --runtime spec (a seeded defect
// "seeded=insert.at_length_goes_front", or "onnxruntime"), run in this process; unset, the
// build's SEQCONF_FUZZ_DIFF_RUNTIME (CMake), and when that is empty the reference itself (which
// must agree with itself). libFuzzer's -fork=N and -jobs=N, and ClusterFuzzLite or OSS-Fuzz, run
// it on more cores or machines unchanged.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "difffuzz/campaign.h"
#include "difffuzz/encoding.h"
#include "difffuzz/mutate.h"
#include "difffuzz/support.h"
#include "fuzz/fuzz_common.h"
#include "runtimes/registry.h"

#ifndef SEQCONF_FUZZ_DIFF_RUNTIME
#define SEQCONF_FUZZ_DIFF_RUNTIME ""
#endif

using namespace seqconf;

// libFuzzer's own byte mutator; absent when linked without libFuzzer (replay_diff).
extern "C" __attribute__((weak)) size_t LLVMFuzzerMutate(uint8_t* data, size_t size,
                                                         size_t max_size);

namespace {

Runtime& runtime_under_test() {
  static const std::unique_ptr<Runtime> runtime = [] {
    const char* spec = std::getenv("SEQCONF_FUZZ_RUNTIME");
    const std::string built_in = SEQCONF_FUZZ_DIFF_RUNTIME;
    return make_runtime(spec && *spec       ? std::string(spec)
                        : !built_in.empty() ? built_in
                                            : std::string("reference"));
  }();
  return *runtime;
}

// Probed once: what the runtime supports decides which programs the inputs stand for, as it does
// for seqconf fuzz --replay (which probes the same runtime again).
const std::shared_ptr<const difffuzz::Support>& support() {
  static const auto s =
      std::make_shared<const difffuzz::Support>(difffuzz::probe_support(runtime_under_test()));
  return s;
}

const int kMaxSteps = difffuzz::FuzzOptions{}.max_steps;

// The encoded program in data when it fits, else data unchanged (its old size).
size_t put(const difffuzz::Program& p, uint8_t* data, size_t size, size_t max_size) {
  const std::string bytes = difffuzz::encode(p);
  if (bytes.size() > max_size) return size;
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  difffuzz::FuzzOptions o;
  o.iterations = 1;
  o.max_shrink_evaluations = 0;  // seqconf fuzz --replay shrinks
  o.support = support();
  if (!(o.program = difffuzz::decode(data, size))) {
    const difffuzz::ProgramKey key = difffuzz::program_key(data, size);
    o.seed = key.seed;
    o.first_iteration = key.iteration;
  }
  const difffuzz::FuzzResult r = difffuzz::run_campaign(runtime_under_test(), o);
  if (!r.findings.empty()) {
    const auto& f = r.findings.front();
    std::cerr << "seqconf fuzz_diff: " << runtime_under_test().name() << " disagrees with the "
              << "reference (" << f.kind << " in " << f.op << "): " << f.description << "\n"
              << "program: " << f.program << "\n";
    std::abort();
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  difffuzz::Program p = difffuzz::input_program(data, size, kMaxSteps, *support());
  difffuzz::MutateOptions o;
  o.support = *support();
  if (LLVMFuzzerMutate) o.mutate_bytes = LLVMFuzzerMutate;
  difffuzz::mutate(p, seed, o);
  return put(p, data, size, max_size);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t max_out_size, unsigned int seed) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  const difffuzz::Program a = difffuzz::input_program(data1, size1, kMaxSteps, *support());
  const difffuzz::Program b = difffuzz::input_program(data2, size2, kMaxSteps, *support());
  difffuzz::Program c = difffuzz::cross_over(a, b, seed);
  if (!difffuzz::supported(c, *support())) c = a;
  const std::string bytes = difffuzz::encode(c);
  if (bytes.size() > max_out_size) return 0;
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}
