// Findings of a campaign: a disagreement counts as one more occurrence of the finding of its
// signature (kind, op, element type and context, before and after shrinking), or is shrunk and
// made a new finding (FuzzFinding: its ID, fixture folder, case.json and fixture files).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "difffuzz/campaign.h"
#include "difffuzz/shrink.h"

namespace seqconf::difffuzz {

// Groups a campaign's disagreements into result.findings, in order of discovery, and writes
// each new finding's fixture under options.out.
class FindingBook {
 public:
  // oracle_side and runtime: thread 0's other side and runtime under test, run again to tell
  // outputs that change from run to run; oracle: how messages name the other side; elapsed:
  // seconds since the campaign's start.
  FindingBook(const FuzzOptions& options, FuzzResult& result, Finder& finder, Runtime& oracle_side,
              Runtime& runtime, std::string oracle, std::function<double()> elapsed);

  // A disagreement of program p (input set `input_set` of structure i; input_set 0 is its own
  // values), evaluated as e: one more occurrence of the finding of its signature, else shrunk
  // from shrinkable() and made a new finding, its fixture written.
  void add(size_t i, size_t input_set, const std::function<rc::Shrinkable<Program>()>& shrinkable,
           const Program& p, const Evaluation& e);

 private:
  const FuzzOptions& options_;
  FuzzResult& result_;
  Finder& finder_;
  Runtime& oracle_side_;
  Runtime& runtime_;
  std::string oracle_;
  std::function<double()> elapsed_;
  // "kind|op|dtype|context" before and after shrinking -> index in findings
  std::map<std::string, size_t> by_signature_;
};

}  // namespace seqconf::difffuzz
