// A suite run judged against the expectations file it ran with (expectations/<runtime>.json, the
// file the main job reads): every non-pass is listed with its status, a listed case passes only
// where its entry accepts pass, and every entry matches a case (no stale entries).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "reports/expectations.h"
#include "suite/suite.h"

namespace seqconf::testing {

inline void expect_every_outcome_listed(const SuiteResult& result,
                                        const reports::Expectations& expectations) {
  ASSERT_FALSE(result.report.cases.empty());
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
    if (!c.expectation) {
      ADD_FAILURE() << o.case_id << ": " << status_name(o.status) << " not listed: " << o.message;
      continue;
    }
    EXPECT_TRUE(c.expectation->accepts(o.status))
        << o.case_id << ": " << status_name(o.status) << " but '" << c.expectation->id
        << "' expects " << status_name(c.expectation->status) << ": " << o.message;
  }
  for (const auto& e : expectations.entries()) {
    // Entries for seqconf fuzz findings (corpus/fuzz/...) are checked by the fuzz campaign.
    if (e.id.rfind("corpus/fuzz/", 0) == 0) continue;
    EXPECT_GT(used[e.id], 0u) << "entry '" << e.id << "' matches no case";
  }
}

}  // namespace seqconf::testing
