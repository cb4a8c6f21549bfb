// Two campaigns that must give the same result (batched or not, chunked input sets or not, any
// number of threads): the same programs, verdicts, shrinking and findings.
#pragma once

#include <gtest/gtest.h>

#include "difffuzz/campaign.h"

namespace seqconf::testing {

inline void expect_same_results(const difffuzz::FuzzResult& a, const difffuzz::FuzzResult& b) {
  EXPECT_EQ(b.programs, a.programs);
  EXPECT_EQ(b.structures, a.structures);
  EXPECT_EQ(b.agree_outputs, a.agree_outputs);
  EXPECT_EQ(b.agree_rejected, a.agree_rejected);
  EXPECT_EQ(b.not_supported, a.not_supported);
  EXPECT_EQ(b.disagreements, a.disagreements);
  // Shrinking tries candidates on every thread at once and takes the first that fails, as
  // trying them one at a time does: the same number of evaluations.
  EXPECT_EQ(b.shrink_evaluations, a.shrink_evaluations);
  EXPECT_EQ(b.programs_by_op, a.programs_by_op);
  EXPECT_EQ(b.agree_outputs_by_op, a.agree_outputs_by_op);
  EXPECT_EQ(b.agree_outputs_by_context, a.agree_outputs_by_context);
  ASSERT_EQ(b.findings.size(), a.findings.size());
  for (size_t i = 0; i < a.findings.size(); ++i) {
    EXPECT_EQ(b.findings[i].id, a.findings[i].id);
    EXPECT_EQ(b.findings[i].description, a.findings[i].description);
    EXPECT_EQ(b.findings[i].program, a.findings[i].program);
    EXPECT_EQ(b.findings[i].occurrences, a.findings[i].occurrences);
    EXPECT_EQ(b.findings[i].first_iteration, a.findings[i].first_iteration);
    EXPECT_EQ(b.findings[i].input_set, a.findings[i].input_set);
  }
}

}  // namespace seqconf::testing
