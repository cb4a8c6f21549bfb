// Shrinking of a disagreement (greedy, in windows of one candidate per thread) and the check
// for outputs that change from run to run.
#include "difffuzz/shrink.h"

#include <algorithm>

#include "difffuzz/evaluate.h"
#include "difffuzz/parallel.h"
#include "harness/compare.h"

namespace seqconf::difffuzz {

bool Finder::same_failure(const Program& p, const std::string& kind, const std::string& op,
                          size_t w, Evaluation* out) {
  const BuiltProgram b = build(p);
  if (b.output_names.empty()) return false;
  RunResult reference = run_on(*references[w], b);
  // Every kind but a crash or a hang needs the reference to run the program (outputs that
  // differ, rejected_valid) or to reject it (accepted_invalid): a candidate the reference
  // judges otherwise cannot fail the same way, and the runtime under test is not asked.
  if (kind != "crash" && kind != "timeout" && reference.ok == (kind == "accepted_invalid"))
    return false;
  Evaluation e = judge(b, std::move(reference), run_on(*runtimes[w], b), oracle);
  if (e.verdict != Verdict::disagree || e.kind != kind) return false;
  // A crash or a hang names no node: the op it is attributed to (the node the reference
  // rejects, else the last node) may change while shrinking; the shrunk program names it.
  if (e.op != op && kind != "crash" && kind != "timeout") return false;
  if (out) *out = std::move(e);
  return true;
}

size_t Finder::first_failing(const std::vector<Program>& candidates, const std::string& kind,
                             const std::string& op, Evaluation* last, size_t* evals) {
  const size_t window = runtimes.size();
  for (size_t first = 0; first < candidates.size(); first += window) {
    const size_t n = std::min(window, candidates.size() - first);
    std::vector<Evaluation> evaluations(n);
    std::vector<char> fails(n, 0);
    for_each_parallel(n, n, [&](size_t w, size_t k) {
      fails[k] = same_failure(candidates[first + k], kind, op, w, &evaluations[k]);
    });
    for (size_t k = 0; k < n; ++k)
      if (fails[k]) {
        *evals += k + 1;
        result.shrink_evaluations += k + 1;
        if (last) *last = std::move(evaluations[k]);
        return first + k;
      }
    *evals += n;
    result.shrink_evaluations += n;
  }
  return candidates.size();
}

Program Finder::failing_prefix(const Program& p, const std::string& kind, std::string* op,
                               Evaluation* last) {
  std::vector<Program> prefixes;
  for (size_t n = 1; n < p.steps.size(); ++n) {
    prefixes.push_back(p);
    prefixes.back().steps.resize(n);
  }
  size_t evals = 0;
  const size_t i = first_failing(prefixes, kind, std::string(), last, &evals);
  Program found = i < prefixes.size() ? std::move(prefixes[i]) : p;
  // The program's nodes run its steps in order: the last node is the last step's.
  const BuiltProgram b = build(found);
  *op = op_of(b, b.node_ops.size() - 1);
  return found;
}

namespace {

// The first step inserts into the source sequence a tensor of its element type, at a position
// the source has: it becomes one more tensor of the source (SequenceEmpty becomes
// SequenceConstruct), one node less, the same sequence. False when the program has no such step.
bool fold_first_insert(Program& p) {
  if (p.steps.empty() || p.steps[0].kind != StepKind::insert || !p.steps[0].tensor ||
      p.steps[0].tensor->dtype() != p.elem)
    return false;
  const Step& first = p.steps[0];
  if (first.position && first.position->element_count() != 1) return false;
  const auto len = static_cast<int64_t>(p.tensors.size());
  int64_t at = len;
  if (first.position)
    at =
        first.position->int_at(0) < 0 ? first.position->int_at(0) + len : first.position->int_at(0);
  if (at < 0 || at > len) return false;
  p.tensors.insert(p.tensors.begin() + at, *first.tensor);
  if (p.source == SourceKind::empty) p.source = SourceKind::construct;
  p.steps.erase(p.steps.begin());
  return true;
}

bool apply(const Cut& c, Program& p) {
  switch (c.kind) {
    case Cut::Kind::step:
      if (c.index >= p.steps.size()) return false;
      p.steps.erase(p.steps.begin() + static_cast<std::ptrdiff_t>(c.index));
      return true;
    case Cut::Kind::fold:
      return fold_first_insert(p);
    case Cut::Kind::tensor:
      if (c.index >= p.tensors.size() ||
          (p.source == SourceKind::construct && p.tensors.size() == 1))
        return false;
      p.tensors.erase(p.tensors.begin() + static_cast<std::ptrdiff_t>(c.index));
      return true;
  }
  return false;
}

// Two candidates with the same model and inputs are one.
std::string fingerprint(const Program& p) { return model_and_input_bytes(build(p)); }

}  // namespace

Program Finder::cut_down(Program best, const std::string& kind, const std::string& op,
                         Evaluation* last, size_t* evals, std::vector<Cut>* cuts) {
  const size_t budget = options.max_shrink_evaluations;
  // Each kind of cut in turn, the first candidate that still fails taken, until none does.
  const auto try_cuts = [&](Cut::Kind kind_of_cut, size_t count) {
    std::vector<Program> candidates;
    std::vector<Cut> tried;
    for (size_t i = 0; i < count; ++i) {
      Program cand = best;
      if (!apply(Cut{kind_of_cut, i}, cand)) continue;
      candidates.push_back(std::move(cand));
      tried.push_back(Cut{kind_of_cut, i});
    }
    const size_t i = first_failing(candidates, kind, op, last, evals);
    if (i == candidates.size()) return false;
    best = std::move(candidates[i]);
    if (cuts) cuts->push_back(tried[i]);
    return true;
  };
  while (*evals < budget &&
         (try_cuts(Cut::Kind::step, best.steps.size()) || try_cuts(Cut::Kind::fold, 1) ||
          try_cuts(Cut::Kind::tensor, best.tensors.size()))) {
  }
  return best;
}

Program Finder::shrink(const rc::Shrinkable<Program>& start, const std::string& kind,
                       const std::string& op, Evaluation* last) {
  const size_t budget = options.max_shrink_evaluations;
  rc::Shrinkable<Program> cur = start;
  size_t evals = 0;
  // A crash or a hang costs a new worker for each candidate that still fails: the big cuts
  // come first, so that fewer candidates fail. RapidCheck's shrinks then go on from the
  // program as found with the same cuts made in each, and a candidate that the cuts make
  // equal to the current program is not tried.
  const bool dies = kind == "crash" || kind == "timeout";
  if (dies) {
    std::vector<Cut> cuts;
    cut_down(start.value(), kind, op, last, &evals, &cuts);
    if (!cuts.empty())
      cur = rc::shrinkable::map(start, [cuts](Program q) {
        for (const Cut& c : cuts) apply(c, q);
        return q;
      });
  }
  for (bool improved = true; improved && evals < budget;) {
    improved = false;
    auto seq = cur.shrinks();
    const std::string current = dies ? fingerprint(cur.value()) : std::string();
    // Windows of shrinks, within the budget; a shrink's value is drawn on this thread.
    for (bool more = true; more && !improved && evals < budget;) {
      std::vector<rc::Shrinkable<Program>> window;
      std::vector<Program> candidates;
      while (window.size() < runtimes.size() && evals + window.size() < budget) {
        auto m = seq.next();
        if (!m) {
          more = false;
          break;
        }
        Program value = m->value();
        if (dies && fingerprint(value) == current) continue;
        window.push_back(std::move(*m));
        candidates.push_back(std::move(value));
      }
      const size_t i = first_failing(candidates, kind, op, last, &evals);
      if (i < candidates.size()) {
        cur = window[i];
        improved = true;
      }
    }
  }
  const Program best = cut_down(cur.value(), kind, op, last, &evals, nullptr);
  // The final evaluation describes the shrunk program.
  ++result.shrink_evaluations;
  same_failure(best, kind, op, 0, last);
  return best;
}

// Of a disagreement between two runtimes that both gave outputs: the side (named as messages
// name it) whose outputs differ when the program is prepared and run again, bit for bit; empty
// when both repeat their outputs.
std::string unstable_side(const BuiltProgram& b, const Evaluation& e, Runtime& oracle,
                          Runtime& runtime, const std::string& oracle_name) {
  const auto repeats = [&](Runtime& rt, const RunResult& first) {
    const RunResult again = run_on(rt, b);
    return again.ok && compare_outputs(first.outputs, again.outputs, ComparisonRule{}).ok;
  };
  if (!repeats(oracle, e.reference)) return oracle_name;
  if (!repeats(runtime, e.found)) return "the runtime";
  return {};
}

}  // namespace seqconf::difffuzz
