// ONNX Runtime 1.30 through the suite (run_suite) on the ONNX backend fixtures and the generated
// corpus: every non-pass must be listed in expectations/onnxruntime.json (the file the main job
// reads too) with its status, a listed case may pass only where its entry accepts pass, and every
// entry must match a case (no stale entries).
#include <gtest/gtest.h>

#include <map>

#include "cases/data_dir.h"
#include "reports/expectations.h"
#include "runtimes/onnxruntime.h"
#include "suite/suite.h"
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
  ASSERT_FALSE(result.report.cases.empty());

  const auto expectations = reports::Expectations::load(path);
  EXPECT_EQ(expectations.runtime(), "onnxruntime");
  std::map<std::string, size_t> used;
  for (const reports::CaseRecord& c : result.report.cases) {
    const Outcome& o = c.outcome;
    if (c.expectation) ++used[c.expectation->id];
    if (o.status == Status::pass) {
      if (c.expectation) {
        EXPECT_TRUE(c.expectation->accepts(Status::pass))
            << o.case_id << " passes but is listed by '" << c.expectation->id << "'";
      }
      continue;
    }
    ASSERT_TRUE(c.expectation.has_value())
        << o.case_id << ": " << status_name(o.status) << " not listed: " << o.message;
    EXPECT_TRUE(c.expectation->accepts(o.status))
        << o.case_id << ": " << status_name(o.status) << " but '" << c.expectation->id
        << "' expects " << status_name(c.expectation->status) << ": " << o.message;
  }
  for (const auto& e : expectations.entries()) {
    // Entries for seqconf fuzz findings (corpus/fuzz/...) are checked by the fuzz campaign.
    if (e.id.rfind("corpus/fuzz/", 0) == 0) continue;
    EXPECT_GT(used[e.id], 0u) << "entry '" << e.id << "' matches no case";
  }
  std::cout << reports::summary_text(result.report);
}

}  // namespace
}  // namespace seqconf::testing
