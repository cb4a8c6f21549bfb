// ONNX Runtime 1.30 through the suite (run_suite) on the ONNX backend fixtures and the generated
// corpus: every non-pass must be listed in expectations/onnxruntime.json (the file the main job
// reads too) with its status, a listed case may pass only where its entry accepts pass, and every
// entry must match a case (no stale entries).
#include <gtest/gtest.h>

#include "cases/data_dir.h"
#include "reports/expectations.h"
#include "runtimes/onnxruntime.h"
#include "suite/suite.h"
#include "tests/support/expectations_test_util.h"
#include "tests/support/runtime_test_util.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kSource = SEQCONF_SOURCE_DIR;

TEST(OrtExpectations, EveryNonPassIsListedWithItsStatus) {
  std::string why;
  std::unique_ptr<Runtime> rt = ort_1_30(&why);
  if (!rt) GTEST_SKIP() << why;
  SuiteOptions options;
  options.source = "all";
  options.corpus = default_corpus_root();
  options.quiet = true;
  const auto path = kSource / "expectations" / "onnxruntime.json";
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  options.expectations = path;
  const SuiteResult result = run_suite(*rt, options);
  for (const auto& n : result.notes) std::cout << "note: " << n << "\n";

  const auto expectations = reports::Expectations::load(path);
  EXPECT_EQ(expectations.runtime(), "onnxruntime");
  expect_every_outcome_listed(result, expectations);
  std::cout << reports::summary_text(result.report);
}

}  // namespace
}  // namespace seqconf::testing
