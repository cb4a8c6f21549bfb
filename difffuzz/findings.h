// Findings of a campaign, one per departure: a disagreement whose departure (operator, what the
// runtime did, spec clause, as a conformance report groups cases; for a crash or a hang, the
// operator it is placed in) has a finding already counts as one more occurrence of it, and
// becomes its reproducer when its program (placed) is smaller and of the same departure; the
// first of a departure is shrunk and made a new finding (FuzzFinding: its ID, fixture folder,
// case.json and fixture files).
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
  // values), evaluated as e: one more occurrence of the finding of its departure, else shrunk
  // from shrinkable() (unless FuzzOptions::listed says the expectations list it) and made a
  // new finding, its fixture written.
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
  // The finding of program q as it is, evaluated as last.
  FuzzFinding make(const Program& q, const Evaluation& last, size_t i, size_t input_set,
                   double found_after_s) const;
  // Writes its fixture (when the campaign writes fixtures) and logs it.
  void write(const FuzzFinding& f, const Program& q, const Evaluation& e) const;
  // "op|what|clauses" of a departure, before and after shrinking -> index in findings
  std::map<std::string, size_t> by_departure_;
};

}  // namespace seqconf::difffuzz
