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

Program Finder::failing_prefix(const Program& p, const std::string& kind, std::string* op) {
  std::vector<Program> prefixes;
  for (size_t n = 1; n < p.steps.size(); ++n) {
    prefixes.push_back(p);
    prefixes.back().steps.resize(n);
  }
  size_t evals = 0;
  const size_t i = first_failing(prefixes, kind, std::string(), nullptr, &evals);
  Program found = i < prefixes.size() ? std::move(prefixes[i]) : p;
  // The program's nodes run its steps in order: the last node is the last step's.
  const BuiltProgram b = build(found);
  *op = op_of(b, b.node_ops.size() - 1);
  return found;
}

Program Finder::shrink(const rc::Shrinkable<Program>& start, const std::string& kind,
                       const std::string& op, Evaluation* last) {
  const size_t budget = options.max_shrink_evaluations;
  rc::Shrinkable<Program> cur = start;
  size_t evals = 0;
  for (bool improved = true; improved && evals < budget;) {
    improved = false;
    auto seq = cur.shrinks();
    // Windows of shrinks, within the budget; a shrink's value is drawn on this thread.
    for (bool more = true; more && !improved && evals < budget;) {
      std::vector<rc::Shrinkable<Program>> window;
      while (window.size() < runtimes.size() && evals + window.size() < budget) {
        auto m = seq.next();
        if (!m) {
          more = false;
          break;
        }
        window.push_back(std::move(*m));
      }
      std::vector<Program> candidates;
      for (const auto& m : window) candidates.push_back(m.value());
      const size_t i = first_failing(candidates, kind, op, last, &evals);
      if (i < candidates.size()) {
        cur = window[i];
        improved = true;
      }
    }
  }
  Program best = cur.value();
  for (bool again = true; again && evals < budget;) {
    again = false;
    std::vector<Program> without_step;
    for (size_t i = 0; i < best.steps.size(); ++i) {
      without_step.push_back(best);
      without_step.back().steps.erase(without_step.back().steps.begin() +
                                      static_cast<std::ptrdiff_t>(i));
    }
    if (const size_t i = first_failing(without_step, kind, op, last, &evals);
        i < without_step.size()) {
      best = std::move(without_step[i]);
      again = true;
      continue;
    }
    // A first step that inserts into the source sequence becomes one more tensor of the
    // source (SequenceEmpty becomes SequenceConstruct): one node less, the same sequence.
    if (!best.steps.empty() && best.steps[0].kind == StepKind::insert && best.steps[0].tensor &&
        best.steps[0].tensor->dtype() == best.elem) {
      const Step& first = best.steps[0];
      const auto len = static_cast<int64_t>(best.tensors.size());
      int64_t at = len;
      if (first.position && first.position->element_count() == 1)
        at = first.position->int_at(0) < 0 ? first.position->int_at(0) + len
                                           : first.position->int_at(0);
      if (at >= 0 && at <= len && (!first.position || first.position->element_count() == 1)) {
        std::vector<Program> folded = {best};
        Program& cand = folded.front();
        cand.tensors.insert(cand.tensors.begin() + at, *first.tensor);
        if (cand.source == SourceKind::empty) cand.source = SourceKind::construct;
        cand.steps.erase(cand.steps.begin());
        if (first_failing(folded, kind, op, last, &evals) == 0) {
          best = std::move(cand);
          again = true;
          continue;
        }
      }
    }
    std::vector<Program> without_tensor;
    for (size_t i = 0; i < best.tensors.size(); ++i) {
      Program cand = best;
      cand.tensors.erase(cand.tensors.begin() + static_cast<std::ptrdiff_t>(i));
      if (cand.source == SourceKind::construct && cand.tensors.empty()) continue;
      without_tensor.push_back(std::move(cand));
    }
    if (const size_t i = first_failing(without_tensor, kind, op, last, &evals);
        i < without_tensor.size()) {
      best = std::move(without_tensor[i]);
      again = true;
    }
  }
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
