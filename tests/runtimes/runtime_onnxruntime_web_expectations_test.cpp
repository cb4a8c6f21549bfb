// onnxruntime-web 1.30 (the WASM build under Node, adapters/onnxruntime-web, sequences lifted to
// tensors) through the suite on the ONNX backend fixtures and the generated corpus: every non-pass
// must be listed in expectations/onnxruntime-web.json (the file the main job reads too) with its
// status, a listed case may pass only where its entry accepts pass, and every entry must match a
// case (no stale entries). Skipped when node or the onnxruntime-web package is missing.
#include <gtest/gtest.h>

#include "cases/data_dir.h"
#include "reports/expectations.h"
#include "runtimes/process.h"
#include "suite/suite.h"
#include "tests/support/expectations_test_util.h"
#include "tests/support/runtime_test_util.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kSource = SEQCONF_SOURCE_DIR;

TEST(OrtWebExpectations, EveryNonPassIsListedWithItsStatus) {
  std::string why;
  const std::string command = onnxruntime_web_1_30_command(&why);
  if (command.empty()) GTEST_SKIP() << why;
  SuiteOptions options;
  options.source = "all";
  options.corpus = default_corpus_root();
  options.quiet = true;
  // Outcomes only: the static checks (ONNX's checker and shape inference) do not depend on the
  // runtime, and two adapter processes halve the run (about 25 s instead of 45 s).
  options.run.static_checks = false;
  options.jobs = 2;
  const auto path = kSource / "expectations" / "onnxruntime-web.json";
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  options.expectations = path;
  const SuiteResult result =
      run_suite([&command] { return make_process_runtime(command); }, options);
  for (const auto& n : result.notes) std::cout << "note: " << n << "\n";

  const auto expectations = reports::Expectations::load(path);
  EXPECT_EQ(expectations.runtime(), "onnxruntime-web");
  expect_every_outcome_listed(result, expectations);
  std::cout << reports::summary_text(result.report);
}

}  // namespace
}  // namespace seqconf::testing
