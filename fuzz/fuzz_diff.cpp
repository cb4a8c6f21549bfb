// Differential fuzzing on libFuzzer: each input stands for one program of the differential
// fuzzer (difffuzz::program_key: a seed hashed from the bytes, the program's index from the first
// byte), run on the reference and on the runtime under test; a disagreement traps, so libFuzzer
// keeps the input as a crash. `seqconf fuzz --replay FILE --runtime SPEC --out DIR` turns that
// input into a shrunk corpus fixture.
//
// The runtime under test: $SEQCONF_FUZZ_RUNTIME, a --runtime spec (a seeded defect
// "seeded=insert.at_length_goes_front", or "onnxruntime"), run in this process; unset, the
// build's SEQCONF_FUZZ_DIFF_RUNTIME (CMake), and when that is empty the reference itself (which
// must agree with itself). libFuzzer's -fork=N and -jobs=N, and ClusterFuzzLite or OSS-Fuzz, run
// it on more cores or machines unchanged.
#include <cstdlib>
#include <iostream>
#include <string>

#include "difffuzz/campaign.h"
#include "difffuzz/support.h"
#include "fuzz/fuzz_common.h"
#include "runtimes/registry.h"

#ifndef SEQCONF_FUZZ_DIFF_RUNTIME
#define SEQCONF_FUZZ_DIFF_RUNTIME ""
#endif

using namespace seqconf;

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  const difffuzz::ProgramKey key = difffuzz::program_key(data, size);
  difffuzz::FuzzOptions o;
  o.seed = key.seed;
  o.first_iteration = key.iteration;
  o.iterations = 1;
  o.max_shrink_evaluations = 0;  // seqconf fuzz --replay shrinks
  o.support = support();
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
