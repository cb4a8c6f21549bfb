// ONNX Runtime 1.30 through the runner on the ONNX backend fixtures and the generated corpus:
// every non-pass must be listed in expectations/onnxruntime.json (the file the main job reads too)
// with its status, a listed case may pass only where its entry accepts pass, and every entry
// must match a case (no stale entries).
#include <gtest/gtest.h>

#include <map>

#include "harness/runner.h"
#include "reports/expectations.h"
#include "runtimes/onnxruntime.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kSource = SEQCONF_SOURCE_DIR;

TEST(OrtExpectations, EveryNonPassIsListedWithItsStatus) {
  std::unique_ptr<Runtime> rt;
  try {
    rt = make_onnxruntime_runtime(default_onnxruntime_library());
  } catch (const std::exception& e) {
    GTEST_SKIP() << "ONNX Runtime unavailable: " << e.what();
  }
  if (rt->version() != "1.30.0")
    GTEST_SKIP() << "expectations/onnxruntime.json is written for ONNX Runtime 1.30.0, this is "
                 << rt->version();
  CaseSelection selection;
  selection.source = "all";
  selection.corpus = default_corpus_root();
  std::vector<std::string> notes;
  const auto cases = select_cases(selection, &notes);
  for (const auto& n : notes) std::cout << "note: " << n << "\n";
  ASSERT_FALSE(cases.empty());
  const auto outcomes = run_cases(cases, *rt);

  {
    const auto path = kSource / "expectations" / "onnxruntime.json";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const auto expectations = reports::Expectations::load(path);
    EXPECT_EQ(expectations.runtime(), "onnxruntime");
    std::map<std::string, size_t> used;
    for (const Outcome& o : outcomes) {
      const reports::Expectation* e = expectations.match(o.case_id);
      if (e) ++used[e->id];
      if (o.status == Status::pass) {
        if (e) {
          EXPECT_TRUE(e->accepts(Status::pass))
              << o.case_id << " passes but is listed by '" << e->id << "'";
        }
        continue;
      }
      ASSERT_NE(e, nullptr) << o.case_id << ": " << status_name(o.status)
                            << " not listed: " << o.message;
      EXPECT_TRUE(e->accepts(o.status))
          << o.case_id << ": " << status_name(o.status) << " but '" << e->id << "' expects "
          << status_name(e->status) << ": " << o.message;
    }
    for (const auto& e : expectations.entries()) {
      // Entries for seqconf fuzz findings (corpus/fuzz/...) are checked by the fuzz campaign.
      if (e.id.rfind("corpus/fuzz/", 0) == 0) continue;
      EXPECT_GT(used[e.id], 0u) << "entry '" << e.id << "' matches no case";
    }
  }
  const Tally t = tally(outcomes);
  std::cout << summary_line(t, rt->name() + " " + rt->version()) << "\n";
}

}  // namespace
}  // namespace seqconf::testing
