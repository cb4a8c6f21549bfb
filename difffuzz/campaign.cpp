#include "difffuzz/campaign.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "difffuzz/batch.h"
#include "difffuzz/encoding.h"
#include "difffuzz/input_sets.h"
#include "difffuzz/parallel.h"
#include "difffuzz/support.h"
#include "generators/generators.h"
#include "harness/compare.h"
#include "harness/runner.h"
#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/proto.h"
#include "reference/spec_clauses.h"
#include "runtimes/registry.h"

namespace seqconf::difffuzz {

Prepared prepare_on(Runtime& rt, const BuiltProgram& b) {
  Prepared p;
  try {
    p.model = rt.prepare_shared("fuzz.onnx", b.model, &p.error);
  } catch (const std::exception& e) {
    p.error.kind = RunError::Kind::internal;
    p.error.message = e.what();
  }
  return p;
}

RunResult run_prepared(const Prepared& p, const std::vector<Value>& inputs) {
  RunResult r;
  if (!p.model) {
    r.error = p.error;
    return r;
  }
  try {
    return p.model->run(inputs);
  } catch (const std::exception& e) {
    r.error.kind = RunError::Kind::internal;
    r.error.message = e.what();
  }
  return r;
}

RunResult run_on(Runtime& rt, const BuiltProgram& b) {
  return run_prepared(prepare_on(rt, b), b.inputs);
}

namespace {

// How a program's outputs compare (cases/case_json.h's table, by the operators it uses).
ComparisonRule comparison_rule_of(const BuiltProgram& b) {
  return comparison_rule("fuzz", interp::ops_used(b.model->graph()));
}

// The top-level node a message names ("n<k>_<Op>"), else the first op type it names, else the
// last node. Returns the node index.
size_t node_named_in(const std::string& message, const BuiltProgram& b) {
  for (size_t k = b.node_ops.size(); k-- > 0;)
    if (message.find("n" + std::to_string(k) + "_" + b.node_ops[k]) != std::string::npos) return k;
  size_t best = std::string::npos, best_at = std::string::npos;
  for (size_t k = 0; k < b.node_ops.size(); ++k) {
    const size_t at = message.find(b.node_ops[k]);
    if (at != std::string::npos && at < best_at) {
      best_at = at;
      best = k;
    }
  }
  if (best != std::string::npos) return best;
  return b.node_ops.empty() ? 0 : b.node_ops.size() - 1;
}

std::string one_line(std::string s, size_t max = 300) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

std::string op_of(const BuiltProgram& b, size_t node) {
  return node < b.node_ops.size() ? b.node_ops[node] : std::string("model");
}

// The step a node index runs (SequenceEmpty / SequenceConstruct come first when present).
const Step* step_of(const Program& p, size_t node) {
  const size_t first = p.source == SourceKind::input ? 0 : 1;
  if (node < first || node - first >= p.steps.size()) return nullptr;
  return &p.steps[node - first];
}

const char* split_form(const Step& s) {
  if (!s.split) return "absent";
  if (s.split->dtype() != DataType::int32 && s.split->dtype() != DataType::int64) return "other";
  if (s.split->rank() == 0) return "scalar";
  return s.split->rank() == 1 ? "list" : "other";
}

// Dimensions as a case ID spells them: "2", "1x1".
std::string dims_label(const Shape& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

// ID components that tell findings of one op apart (expectation globs match on them).
std::vector<std::pair<std::string, std::string>> features(const Step* s) {
  std::vector<std::pair<std::string, std::string>> f;
  if (!s) return f;
  switch (s->kind) {
    case StepKind::insert:
    case StepKind::erase:
    case StepKind::at:
      f.emplace_back("position",
                     s->position ? std::string(dtype_name(s->position->dtype())) : "absent");
      // A position that is not a scalar (clause position.scalar) names its shape.
      if (s->position && s->position->rank() > 0)
        f.emplace_back("pshape", dims_label(s->position->shape()));
      break;
    case StepKind::split:
      f.emplace_back("split", split_form(*s));
      f.emplace_back("keepdims", s->keepdims ? std::to_string(*s->keepdims) : "default");
      break;
    case StepKind::map:
      f.emplace_back("body", body_id(s->body));
      if (s->extra && s->extra->is_sequence()) f.emplace_back("extra", "sequence");
      break;
    case StepKind::concat:
      f.emplace_back("new_axis", std::to_string(s->new_axis));
      break;
    case StepKind::length:
      break;
  }
  return f;
}

bool has_string_with_nul(const std::vector<Value>& values) {
  auto check = [](const Tensor& t) {
    if (t.dtype() != DataType::string) return false;
    for (size_t i = 0; i < t.element_count(); ++i)
      if (t.string_at(i).find('\0') != std::string::npos) return true;
    return false;
  };
  for (const Value& v : values) {
    if (v.is_tensor() && check(v.tensor())) return true;
    if (v.is_sequence())
      for (size_t i = 0; i < v.sequence().size(); ++i)
        if (check(v.sequence().at(i))) return true;
  }
  return false;
}

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string snake(const std::string& op) {
  std::string out;
  for (char c : op) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

// The spec clause a finding is about (spec_clauses.h): chosen by the reference's error code
// when the reference rejects the program, else by what the step does (a default position, a
// split that makes keepdims irrelevant); the operator's summary otherwise. The first candidate
// clause that belongs to the operator wins. Null for an op without clauses (a finding about
// the model as a whole).
const SpecClause* spec_clause_of(const std::string& op, const std::string& code, const Step* step) {
  static const std::map<std::string, std::vector<std::string_view>> kByCode = {
      {"position_out_of_range", {"position.out_of_bounds"}},
      {"position_not_scalar", {"position.scalar"}},
      {"position_type", {"position.integral", "SplitToSequence.split_integral"}},
      {"element_type_mismatch", {"SequenceInsert.same_type", "SequenceConstruct.same_type"}},
      {"split_negative", {"SplitToSequence.split_positive"}},
      {"split_zero", {"SplitToSequence.split_positive"}},
      {"split_sum_mismatch", {"SplitToSequence.split_sum"}},
      {"split_empty", {"SplitToSequence.split_shape"}},
      {"split_rank", {"SplitToSequence.split_shape"}},
      {"split_type", {"SplitToSequence.split_integral"}},
      {"axis_out_of_range", {"SplitToSequence.axis_range", "ConcatFromSequence.axis_range"}},
      {"input_rank", {"ConcatFromSequence.same_shape"}},
      {"shape_mismatch", {"ConcatFromSequence.same_shape"}},
      {"sequence_length_mismatch", {"SequenceMap.same_samples"}},
      {"body_arity_mismatch", {"SequenceMap.arity"}},
  };
  std::vector<std::string_view> ids;
  if (auto it = kByCode.find(code); it != kByCode.end()) ids = it->second;
  if (step && !step->position && (step->kind == StepKind::insert || step->kind == StepKind::erase))
    ids.insert(ids.end(), {"SequenceInsert.position_default", "SequenceErase.position_default"});
  if (step && step->kind == StepKind::split && step->split)
    ids.push_back("SplitToSequence.keepdims_ignored");
  if (step && step->kind == StepKind::concat && step->new_axis)
    ids.push_back("ConcatFromSequence.new_axis_stack");
  if (step && step->position && step->position->element_count() == 1 &&
      (step->position->dtype() == DataType::int32 || step->position->dtype() == DataType::int64) &&
      step->position->int_at(0) < 0)
    ids.push_back("position.negative");
  for (std::string_view id : ids) {
    const SpecClause& clause = spec_clause(id);
    if (spec_clause_covers(clause, op)) return &clause;
  }
  return find_spec_clause(op + ".summary");
}

std::string result_summary(const RunResult& r) {
  if (r.ok) return "outputs " + summarize_values(r.outputs);
  return std::string(run_error_kind_name(r.error.kind)) +
         (r.error.code.empty() ? "" : " " + r.error.code) + ": " + one_line(r.error.message);
}

}  // namespace

Evaluation evaluate(const Program& p, Runtime& reference, Runtime& runtime) {
  const BuiltProgram b = build(p);
  RunResult ref = run_on(reference, b);
  return judge(b, std::move(ref), run_on(runtime, b));
}

Evaluation judge(const BuiltProgram& b, RunResult reference, RunResult found,
                 std::string_view oracle) {
  Evaluation e;
  e.reference = std::move(reference);
  e.found = std::move(found);
  const RunResult& ref = e.reference;
  const RunResult& got = e.found;
  if (!got.ok && got.error.kind == RunError::Kind::not_supported) {
    e.verdict = Verdict::not_supported;
    e.op = op_of(b, node_named_in(got.error.message, b));
    e.message = one_line(got.error.message);
    return e;
  }
  const bool got_died = !got.ok && (got.error.kind == RunError::Kind::crash ||
                                    got.error.kind == RunError::Kind::timeout);
  // Both sides crashed, or both hung: an oracle other than the reference (which runs in this
  // process) behaves as the runtime does, and that is not a disagreement between them.
  if (got_died && !ref.ok && ref.error.kind == got.error.kind) {
    e.verdict = Verdict::agree_rejected;
    return e;
  }
  if (got_died) {
    e.verdict = Verdict::disagree;
    e.kind = got.error.kind == RunError::Kind::crash ? "crash" : "timeout";
    e.op = op_of(b, ref.ok ? b.node_ops.size() - 1 : node_named_in(ref.error.message, b));
    e.message = e.kind + ": " + one_line(got.error.message);
    return e;
  }
  if (ref.ok && got.ok) {
    // Bit for bit, unless the program computes values (the comparator's table): decided only
    // when the bits differ.
    ComparisonRule rule;
    Comparison c = compare_outputs(ref.outputs, got.outputs, rule);
    if (!c.ok && !(rule = comparison_rule_of(b)).exact)
      c = compare_outputs(ref.outputs, got.outputs, rule);
    if (c.ok) {
      e.verdict = Verdict::agree_outputs;
      return e;
    }
    e.verdict = Verdict::disagree;
    e.kind = std::string(reason_name(c.reason));
    e.message = one_line(c.message);
    e.op = "model";
    if (ref.outputs.size() == got.outputs.size()) {
      for (size_t i = 0; i < ref.outputs.size(); ++i) {
        const Comparison ci =
            compare_value(ref.outputs[i], got.outputs[i], rule, b.output_names[i]);
        if (!ci.ok) {
          e.op = b.output_ops[i];
          e.message = one_line(b.output_names[i] + " (" + e.op + "): " + ci.message);
          break;
        }
      }
    }
    return e;
  }
  if (!ref.ok && !got.ok) {
    e.verdict = Verdict::agree_rejected;
    return e;
  }
  e.verdict = Verdict::disagree;
  if (ref.ok) {
    e.kind = "rejected_valid";
    e.op = op_of(b, node_named_in(got.error.message, b));
    e.message = std::string(oracle) + " runs it (" + summarize_values(ref.outputs) +
                "); the runtime rejects it: " + one_line(got.error.message);
  } else {
    e.kind = "accepted_invalid";
    e.op = op_of(b, node_named_in(ref.error.message, b));
    e.message = std::string(oracle) + " rejects it (" +
                (ref.error.code.empty() ? "" : ref.error.code + ": ") +
                one_line(ref.error.message, 200) + "); the runtime gives " +
                summarize_values(got.outputs);
  }
  return e;
}

std::map<std::string, std::string> fixture_files(const Program& p, const Evaluation& e,
                                                 const CaseJson& case_json) {
  const BuiltProgram b = build(p);
  return case_folder_files(*b.model, b.inputs,
                           e.reference.ok ? e.reference.outputs : std::vector<Value>(), case_json);
}

std::string status_of_kind(const std::string& kind) {
  if (kind == "rejected_valid") return "error";
  if (kind == "crash" || kind == "timeout") return kind;
  return "fail";
}

std::string reproduce_command(const FuzzOptions& o, size_t iterations) {
  if (!o.replay.empty())
    return "seqconf fuzz --runtime " + o.runtime_spec + o.runtime_args + " --replay " + o.replay +
           " --out " + (o.out.empty() ? std::string("DIR") : o.out.string());
  return "seqconf fuzz --runtime " + o.runtime_spec + o.runtime_args + " --seed " +
         std::to_string(o.seed) +
         (o.first_iteration ? " --first-iteration " + std::to_string(o.first_iteration) : "") +
         " --iterations " + std::to_string(iterations) + " --out " +
         (o.out.empty() ? std::string("DIR") : o.out.string());
}

rc::Shrinkable<Program> campaign_program(const rc::Gen<Program>& gen, uint64_t seed, size_t i) {
  return gen(rc::Random(rc::Random::Key{seed, i, 0, 0}), static_cast<int>(i % 100));
}

Program input_program(const uint8_t* data, size_t size, int max_steps, const Support& support) {
  if (auto p = decode(data, size)) return std::move(*p);
  const ProgramKey key = program_key(data, size);
  return campaign_program(program_gen(max_steps, support), key.seed, key.iteration).value();
}

ProgramKey program_key(const uint8_t* data, size_t size) {
  // A hash of the bytes: libFuzzer's mutations of the input are new draws of the generator.
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  return {fnv1a(bytes), size > 0 ? static_cast<size_t>(data[0] % 100) : 0};
}

namespace {

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
                    Evaluation* out) {
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

  // The index of the first candidate that fails the same way (its evaluation in *last), or
  // candidates.size(); *evals counts the candidates up to that one, as trying them one at a
  // time would.
  size_t first_failing(const std::vector<Program>& candidates, const std::string& kind,
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

  // RapidCheck shrinking (greedy: the first shrink that still fails the same way), then
  // removal of single steps, folding of a first insert into the source, and removal of source
  // tensors.
  Program shrink(const rc::Shrinkable<Program>& start, const std::string& kind,
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
};

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

// oracle_name: the runtime the finding's expected result comes from; empty: the reference.
CaseJson make_case_json(const FuzzFinding& f, const Evaluation& e, const BuiltProgram& b,
                        const Step* step, const std::string& reproduce,
                        const std::string& oracle_name) {
  CaseJson j;
  j.id = f.id;
  j.op = f.op;
  j.opset = 17;
  j.dtype = f.dtype;
  if (!e.reference.ok && !e.reference.error.code.empty()) j.expected_error = e.reference.error.code;
  // An oracle other than the reference names no error code: the fixture expects a rejection,
  // as invalid_model (a runner compares codes only with a runtime that gives them).
  if (!e.reference.ok && e.reference.error.code.empty() && !oracle_name.empty())
    j.expected_error = "invalid_model";
  if (const SpecClause* clause =
          spec_clause_of(f.op, e.reference.ok ? std::string() : e.reference.error.code, step)) {
    j.spec = std::string(clause->sentence);
    j.clauses = {std::string(clause->id)};
  }
  j.clarity = "normative";
  j.comparison = comparison_rule_of(b);
  j.params["kind"] = f.kind;
  j.params["context"] = f.context;
  j.params["program"] = f.program;
  j.inputs = b.input_names;
  j.outputs = b.output_names;
  j.extra["expected"] = result_summary(e.reference);
  j.extra["found"] = {
      {"kind", f.kind}, {"result", result_summary(e.found)}, {"message", e.message}};
  j.extra["reproduce"] = reproduce;
  if (!oracle_name.empty()) j.extra["oracle"] = oracle_name;
  return j;
}

}  // namespace

FuzzResult run_campaign(Runtime& runtime, const FuzzOptions& options) {
  FuzzResult result;
  result.seed = options.seed;
  const size_t jobs = options.make_runtime ? std::max<size_t>(options.jobs, 1) : 1;
  // One reference and one runtime under test per thread; thread 0 uses `runtime`.
  std::vector<std::unique_ptr<Runtime>> references, extra;
  std::vector<Runtime*> runtimes = {&runtime};
  if (options.make_oracle && options.oracle_id.empty())
    throw Error(ErrorCode::invalid_argument, "a fuzz campaign's oracle needs an ID");
  // The other side of each comparison, one per thread: the reference, or the oracle.
  for (size_t w = 0; w < jobs; ++w)
    references.push_back(options.make_oracle ? options.make_oracle() : make_runtime("reference"));
  const std::string oracle =
      options.make_oracle ? options.oracle_name : std::string(kReferenceOracle);
  for (size_t w = 1; w < jobs; ++w) {
    extra.push_back(options.make_runtime());
    runtimes.push_back(extra.back().get());
  }
  std::vector<Runtime*> reference_ptrs;
  for (const auto& r : references) reference_ptrs.push_back(r.get());
  Finder finder{reference_ptrs, runtimes, options, result, oracle};
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // Programs hold only nodes the runtime supports (difffuzz/support.h), probed now unless given.
  result.support = options.support ? *options.support : probe_support(runtimes);
  const auto gen = program_gen(options.max_steps, result.support);
  // "kind|op|dtype|context" before and after shrinking -> index in findings
  std::map<std::string, size_t> by_signature;
  // Counts one evaluated program; a disagreement with a new signature is shrunk and written.
  auto consider = [&](size_t i, size_t input_set,
                      const std::function<rc::Shrinkable<Program>()>& shrinkable, const Program& p,
                      const Evaluation& e) {
    ++result.programs;
    if (input_set == 0) ++result.structures;
    std::set<std::string> ops;
    if (p.source == SourceKind::empty) ops.insert("SequenceEmpty");
    if (p.source == SourceKind::construct) ops.insert("SequenceConstruct");
    for (const Step& s : p.steps) ops.insert(step_op(s.kind));
    for (const std::string& op : ops) {
      ++result.programs_by_op[op];
      if (e.verdict == Verdict::agree_outputs) ++result.agree_outputs_by_op[op];
    }
    ++result.programs_by_context[placement_name(p.tensors_as)];
    if (e.verdict == Verdict::agree_outputs)
      ++result.agree_outputs_by_context[placement_name(p.tensors_as)];
    switch (e.verdict) {
      case Verdict::agree_outputs:
        ++result.agree_outputs;
        return;
      case Verdict::agree_rejected:
        ++result.agree_rejected;
        return;
      case Verdict::not_supported:
        ++result.not_supported;
        ++result.not_supported_by_op[e.op];
        return;
      case Verdict::disagree:
        break;
    }
    ++result.disagreements;
    const double found_after_s = elapsed();
    const std::string pre_signature = e.kind + "|" + e.op + "|" + std::string(dtype_name(p.elem)) +
                                      "|" + placement_name(p.tensors_as);
    if (auto it = by_signature.find(pre_signature); it != by_signature.end()) {
      ++result.findings[it->second].occurrences;
      return;
    }
    Evaluation last = e;
    const double shrink_start = elapsed();
    // Against another runtime, outputs that differ may be one side's, run to run: such a
    // finding is kept as found, since shrinking needs a failure that repeats.
    const std::string unstable =
        options.make_oracle && e.reference.ok && e.found.ok
            ? unstable_side(build(p), e, *references.front(), runtime, oracle)
            : std::string();
    if (!unstable.empty()) {
      last.kind = "nondeterministic";
      last.message = unstable + " gives other outputs when it runs the program again; " + e.message;
    }
    const Program shrunk = unstable.empty() ? finder.shrink(shrinkable(), e.kind, e.op, &last) : p;
    result.shrink_seconds += elapsed() - shrink_start;
    const BuiltProgram b = build(shrunk);
    const RunResult& blamed = last.reference.ok ? last.found : last.reference;
    const size_t node = last.reference.ok && last.found.ok ? b.node_ops.size() - 1
                                                           : node_named_in(blamed.error.message, b);
    // Value mismatches name the op of the differing output; find its step for the features.
    size_t feature_node = node;
    if (last.found.ok && last.reference.ok)
      for (size_t k = b.node_ops.size(); k-- > 0;)
        if (b.node_ops[k] == last.op) {
          feature_node = k;
          break;
        }
    auto feats = features(step_of(shrunk, feature_node));
    // ONNX Runtime's C API takes strings NUL-terminated: name such inputs in the ID.
    if (has_string_with_nul(b.inputs)) feats.emplace_back("strings", "nul");
    // The op a disagreement is first blamed on may change while shrinking (a crash at prepare
    // names no node): one finding per kind, op, type and context after shrinking too.
    const std::string signature = last.kind + "|" + last.op + "|" +
                                  std::string(dtype_name(shrunk.elem)) + "|" +
                                  placement_name(shrunk.tensors_as);
    if (auto it = by_signature.find(signature); it != by_signature.end()) {
      ++result.findings[it->second].occurrences;
      by_signature[pre_signature] = it->second;
      return;
    }

    FuzzFinding f;
    f.op = last.op;
    f.kind = last.kind;
    f.dtype = std::string(dtype_name(shrunk.elem));
    f.description = last.message;
    f.program = describe(shrunk);
    f.nodes = b.node_count;
    f.occurrences = 1;
    f.first_iteration = i;
    f.input_set = input_set;
    f.found_after_s = found_after_s;
    f.context = placement_name(shrunk.tensors_as);
    // As seqconf run judges the fixture (harness/runner.h).
    if (f.kind == "crash" || f.kind == "timeout" || f.kind == "rejected_valid") {
      f.status = status_of(last.found.error.kind);
      f.reason = reason_of(last.found.error.kind);
    } else {
      f.status = Status::fail;
      f.reason = reason_from_name(f.kind).value_or(Reason::value_mismatch);
    }
    std::string bytes = b.model->SerializeAsString();
    for (const Value& v : b.inputs) bytes += value_to_bytes(v, TensorEncoding::raw_data);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(bytes)));
    const std::string h(hash, 8);
    f.id = "fuzz/" + f.op + "/kind=" + f.kind +
           (options.make_oracle ? "/oracle=" + options.oracle_id : std::string()) +
           "/dtype=" + f.dtype;
    for (const auto& [k, v] : feats) f.id += "/" + k + "=" + v;
    f.id += std::string("/context=") + placement_name(shrunk.tensors_as) + "/h=" + h;
    f.folder = "fuzz_" + snake(f.op) + "__" + f.kind + "__" + f.dtype + "__" + h;
    f.case_json = make_case_json(f, last, b, step_of(shrunk, feature_node),
                                 reproduce_command(options, options.iterations),
                                 options.make_oracle ? options.oracle_name : std::string());
    f.clauses = f.case_json.clauses;
    f.spec = f.case_json.spec;
    if (!options.out.empty())
      write_case_folder(options.out / f.folder, fixture_files(shrunk, last, f.case_json));
    if (options.log)
      options.log("finding " + f.kind + " in " + f.op + " (" + f.dtype + ", " +
                  std::to_string(f.nodes) + " nodes): " + f.description);
    by_signature[pre_signature] = result.findings.size();
    by_signature[signature] = result.findings.size();
    result.findings.push_back(std::move(f));
  };
  // Programs go in rounds: generated in order on this thread (RapidCheck's generation state is
  // not thread-safe) while the previous round is evaluated: built and run on the reference, then
  // on the runtime (in batches, batch.h) by the evaluation threads; then counted and shrunk in
  // order.
  const size_t max_batch = std::max<size_t>(options.batch, 1);
  // Rounds start small, so that the evaluation threads soon have work, and double up to a size
  // that makes the wait for a round's last program rare.
  // With input sets a structure is up to options.input_sets programs: rounds of fewer
  // structures keep a time budget's last round short.
  const size_t max_round =
      (options.input_sets > 1 ? size_t{64} : std::max<size_t>(512, 4 * max_batch)) * jobs;
  size_t round = std::max<size_t>(8, max_batch) * jobs;
  std::vector<BatchCounts> counts(jobs);
  // An input set j >= 1 of a structure (difffuzz/input_sets.h) and its evaluation.
  struct InputSetRun {
    size_t j = 0;
    Program program;
    Evaluation evaluation;
  };
  struct Round {
    size_t first = 0;  // index in the campaign of the round's first program
    std::vector<rc::Shrinkable<Program>> shrinkables;
    std::vector<Slot> slots;
    std::vector<std::vector<InputSetRun>> input_sets;  // per slot, in order of j
  };
  // RapidCheck's generation state is shared by all threads: every draw (and every value of a
  // shrinkable drawn lazily) holds this lock, so that the evaluation threads can draw input
  // sets while this thread draws the next round.
  std::mutex generation;
  const bool with_input_sets = options.input_sets > 1 && max_batch == 1 && !options.program;
  auto input_set_shrinkable = [&](const Program& p, size_t i, size_t j) {
    return input_set_gen(p)(rc::Random(rc::Random::Key{options.seed, i, j, 0}),
                            static_cast<int>(i % 100));
  };
  auto in_parallel = [&](size_t n, const std::function<void(size_t, size_t)>& work) {
    for_each_parallel(jobs, n, work);
  };
  // The next round's programs; false when the campaign has run its programs or its time.
  size_t generated = 0;
  auto generate = [&](Round& r) {
    const size_t iterations = options.program ? 1 : options.iterations;
    if (iterations != 0 && generated >= iterations) return false;
    if (options.time_budget_s > 0 && elapsed() >= options.time_budget_s) return false;
    const size_t n = iterations == 0 ? round : std::min(round, iterations - generated);
    r.first = generated;
    r.shrinkables.clear();
    r.slots.assign(n, Slot{});
    r.input_sets.assign(n, {});
    for (size_t k = 0; k < n; ++k) {
      const std::lock_guard<std::mutex> lock(generation);
      r.shrinkables.push_back(
          options.program
              ? rc::shrinkable::just(*options.program)
              : campaign_program(gen, options.seed, options.first_iteration + generated + k));
      r.slots[k].program = r.shrinkables.back().value();
    }
    generated += n;
    round = std::min(2 * round, max_round);
    return true;
  };
  // Once judged, a slot keeps what counting and shrinking read: its program and verdict, and
  // the results of a disagreement. The rest is freed by the evaluation threads, in parallel,
  // rather than by the thread that generates the next round.
  auto release = [](Slot& s) {
    s.built = BuiltProgram();
    s.reference = RunResult();
    if (s.evaluation.verdict != Verdict::disagree) {
      s.evaluation.reference = RunResult();
      s.evaluation.found = RunResult();
    }
  };
  // A structure prepared once on each side and run with its own values, then with further
  // input sets in chunks while the last chunk gave a verdict the structure had not given yet.
  auto evaluate_input_sets = [&](Round& r, size_t w, size_t k) {
    Slot& s = r.slots[k];
    const size_t i = options.first_iteration + r.first + k;
    s.built = build(s.program);
    ++counts[w].sessions;
    const Prepared on_reference = prepare_on(*references[w], s.built);
    const Prepared on_runtime = prepare_on(*runtimes[w], s.built);
    s.evaluation = judge(s.built, run_prepared(on_reference, s.built.inputs),
                         run_prepared(on_runtime, s.built.inputs), oracle);
    // A model either side cannot prepare gives the same verdict whatever the values.
    if (!on_reference.model || !on_runtime.model) return;
    const auto behaviour = [](const Evaluation& e) {
      return std::to_string(static_cast<int>(e.verdict)) + "|" + e.kind + "|" + e.op + "|" +
             e.reference.error.code + "|" +
             (e.found.ok ? "" : std::string(run_error_kind_name(e.found.error.kind)));
    };
    std::set<std::string> seen = {behaviour(s.evaluation)};
    size_t j = 1;
    for (const size_t chunk : {3, 4, 8, 16}) {
      if (j >= options.input_sets) break;
      const size_t n = std::min(chunk, options.input_sets - j);
      std::vector<Program> drawn;
      {
        const std::lock_guard<std::mutex> lock(generation);
        for (size_t t = 0; t < n; ++t)
          drawn.push_back(input_set_shrinkable(s.program, i, j + t).value());
      }
      // The runtime under test gets the chunk in one call (one request to a worker process).
      std::vector<std::vector<Value>> inputs;
      for (const Program& q : drawn) inputs.push_back(build(q).inputs);
      std::vector<RunResult> found;
      try {
        found = on_runtime.model->run_many(inputs);
      } catch (const std::exception& e) {
        found.assign(inputs.size(), RunResult());
        for (RunResult& f : found) {
          f.error.kind = RunError::Kind::internal;
          f.error.message = e.what();
        }
      }
      bool fresh = false;
      for (size_t t = 0; t < drawn.size(); ++t) {
        InputSetRun set{j++, std::move(drawn[t]), {}};
        set.evaluation =
            judge(s.built, run_prepared(on_reference, inputs[t]), std::move(found[t]), oracle);
        fresh |= seen.insert(behaviour(set.evaluation)).second;
        if (set.evaluation.verdict != Verdict::disagree) {
          set.evaluation.reference = RunResult();
          set.evaluation.found = RunResult();
        }
        r.input_sets[k].push_back(std::move(set));
      }
      if (!fresh) break;
    }
  };
  auto evaluate_round = [&](Round& r) {
    in_parallel(r.slots.size(), [&](size_t w, size_t k) {
      if (with_input_sets && takes_input_sets(r.slots[k].program)) {
        evaluate_input_sets(r, w, k);
        release(r.slots[k]);
        return;
      }
      r.slots[k].built = build(r.slots[k].program);
      r.slots[k].reference = run_on(*references[w], r.slots[k].built);
      // Unbatched: the runtime runs the program right away (a group of one).
      if (max_batch == 1) {
        evaluate_group({&r.slots[k]}, *runtimes[w], &counts[w], oracle);
        release(r.slots[k]);
      }
    });
    if (max_batch == 1) return;
    std::vector<Slot*> order;
    for (Slot& s : r.slots) order.push_back(&s);
    const auto groups = batch_groups(order, max_batch, options.batch_nodes);
    in_parallel(groups.size(), [&](size_t w, size_t g) {
      evaluate_group(groups[g], *runtimes[w], &counts[w], oracle);
      for (Slot* s : groups[g]) release(*s);
    });
  };
  Round current, next;
  for (bool more = generate(current); more;) {
    std::thread evaluator = thread_with_limit([&] { evaluate_round(current); });
    more = generate(next);
    evaluator.join();
    const auto enough = [&] {
      return options.stop_after_findings > 0 &&
             result.findings.size() >= options.stop_after_findings;
    };
    for (size_t k = 0; k < current.slots.size() && !enough(); ++k) {
      const size_t i = options.first_iteration + current.first + k;
      const Program& structure = current.slots[k].program;
      consider(
          i, 0, [&] { return current.shrinkables[k]; }, structure, current.slots[k].evaluation);
      for (const InputSetRun& set : current.input_sets[k]) {
        if (enough()) break;
        consider(
            i, set.j, [&] { return input_set_shrinkable(structure, i, set.j); }, set.program,
            set.evaluation);
      }
    }
    if (options.stop_after_findings > 0 && result.findings.size() >= options.stop_after_findings)
      break;
    std::swap(current, next);
  }
  for (const BatchCounts& c : counts) {
    result.sessions += c.sessions;
    result.batches += c.batches;
    result.batched_programs += c.batched_programs;
    result.batch_splits += c.splits;
  }
  result.seconds = elapsed();
  return result;
}

nlohmann::ordered_json report_json(const FuzzResult& r, const FuzzOptions& options,
                                   const std::string& runtime_name,
                                   const std::string& runtime_version) {
  nlohmann::ordered_json j;
  j["kind"] = "seqconf-fuzz";
  j["runtime"] = runtime_name;
  j["runtime_version"] = runtime_version;
  // How to run it again and where its fixtures are (seqconf bundle reads both).
  j["runtime_spec"] = options.runtime_spec;
  j["out"] = options.out.empty() ? std::string() : std::filesystem::absolute(options.out).string();
  j["oracle"] = options.make_oracle ? options.oracle_name : std::string("reference");
  j["seed"] = r.seed;
  j["programs"] = r.programs;
  j["structures"] = r.structures;
  j["input_sets"] = std::max<size_t>(options.input_sets, 1);
  j["seconds"] = r.seconds;
  j["programs_per_second"] = r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0.0;
  j["agree_outputs"] = r.agree_outputs;
  j["agree_rejected"] = r.agree_rejected;
  j["not_supported"] = r.not_supported;
  j["not_supported_by_op"] = r.not_supported_by_op;
  j["programs_by_op"] = r.programs_by_op;
  j["agree_outputs_by_op"] = r.agree_outputs_by_op;
  j["programs_by_context"] = r.programs_by_context;
  j["agree_outputs_by_context"] = r.agree_outputs_by_context;
  nlohmann::ordered_json unsupported = nlohmann::ordered_json::array();
  for (const auto& [key, message] : r.support.not_supported)
    unsupported.push_back(
        {{"node", key.first}, {"dtype", dtype_name(key.second)}, {"message", one_line(message)}});
  j["not_drawn_not_supported"] = unsupported;
  j["disagreements"] = r.disagreements;
  j["batch"] = {{"max_programs", std::max<size_t>(options.batch, 1)},
                {"max_nodes", options.batch_nodes},
                {"sessions", r.sessions},
                {"batches", r.batches},
                {"batched_programs", r.batched_programs},
                {"splits", r.batch_splits}};
  j["shrink_evaluations"] = r.shrink_evaluations;
  j["shrink_seconds"] = r.shrink_seconds;
  nlohmann::ordered_json by_op = nlohmann::ordered_json::object();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FuzzFinding& f : r.findings) {
    auto& count = by_op[f.op][f.kind];
    count = count.is_null() ? 1 : count.get<int>() + 1;
    list.push_back({{"fixture", f.folder},
                    {"id", f.id},
                    {"op", f.op},
                    {"kind", f.kind},
                    {"dtype", f.dtype},
                    {"description", f.description},
                    {"program", f.program},
                    {"nodes", f.nodes},
                    {"occurrences", f.occurrences},
                    {"first_iteration", f.first_iteration},
                    {"input_set", f.input_set}});
  }
  j["findings_by_op"] = by_op;
  j["findings"] = list;
  j["reproduce"] = reproduce_command(options, r.programs);
  return j;
}

}  // namespace seqconf::difffuzz
