// Shrinking of a disagreement: Finder reduces a program greedily to a smaller one that still
// fails the same way, and unstable_side tells which side's outputs change from run to run.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "difffuzz/campaign.h"

namespace seqconf::difffuzz {

// A cut shrinking makes by hand: a step removed, a first insert folded into the source, a
// source tensor removed. Made in another program (a RapidCheck shrink of the one it was found
// on), it does the same where it can, else nothing.
struct Cut {
  enum class Kind { step, fold, tensor } kind;
  size_t index = 0;
};

// Shrinks a disagreement greedily: of the candidates of each step, the first in order that
// still fails the same way is taken. Candidates are tried in windows of one per thread, in
// parallel, and the first failing one of a window is taken, so the shrunk program, the final
// evaluation and the count of evaluations are those of trying them one at a time.
struct Finder {
  std::vector<Runtime*> references;  // one per thread
  std::vector<Runtime*> runtimes;
  const FuzzOptions& options;
  FuzzResult& result;
  std::string_view oracle;  // how messages name the references' side

  bool same_failure(const Program& p, const std::string& kind, const std::string& op, size_t w,
                    Evaluation* out);

  // The index of the first candidate that fails the same way (its evaluation in *last), or
  // candidates.size(); *evals counts the candidates up to that one, as trying them one at a
  // time would.
  size_t first_failing(const std::vector<Program>& candidates, const std::string& kind,
                       const std::string& op, Evaluation* last, size_t* evals);

  // A crash or a hang names no node. It happens in the last step of the shortest prefix of
  // p's steps that still fails that way (p itself when none shorter does): that prefix, in *op
  // the op of its last step, and in *last its evaluation (left as it is when p is the prefix).
  // Prefixes are tried shortest first, in windows as shrinking tries candidates.
  Program failing_prefix(const Program& p, const std::string& kind, std::string* op,
                         Evaluation* last);

  // Removal of single steps, folding of a first insert into the source, and removal of
  // source tensors, greedily (the first candidate that still fails the same way), until none
  // fails: the program it ends with, and in *cuts (when not null) the cuts made, in order.
  Program cut_down(Program best, const std::string& kind, const std::string& op, Evaluation* last,
                   size_t* evals, std::vector<Cut>* cuts);

  // RapidCheck shrinking (greedy: the first shrink that still fails the same way), then
  // cut_down. A crash or a hang is cut down first, and RapidCheck's shrinks go on with those
  // cuts made.
  Program shrink(const rc::Shrinkable<Program>& start, const std::string& kind,
                 const std::string& op, Evaluation* last);
};

// Of a disagreement between two runtimes that both gave outputs: the side (named as messages
// name it) whose outputs differ when the program is prepared and run again, bit for bit; empty
// when both repeat their outputs.
std::string unstable_side(const BuiltProgram& b, const Evaluation& e, Runtime& oracle,
                          Runtime& runtime, const std::string& oracle_name);

}  // namespace seqconf::difffuzz
