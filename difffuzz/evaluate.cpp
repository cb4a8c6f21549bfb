// Evaluation of a program: its model prepared and run on both sides, and the verdict of the
// runtime's result against the other side's.
#include "difffuzz/evaluate.h"

#include "harness/compare.h"
#include "harness/oracle.h"
#include "reference/interpreter/interpreter.h"

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

// How a program's outputs compare (cases/case_json.h's table, by the operators it uses).
ComparisonRule comparison_rule_of(const BuiltProgram& b) {
  return comparison_rule("fuzz", b.model->graph());
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

std::string one_line(std::string s, size_t max) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

std::string op_of(const BuiltProgram& b, size_t node) {
  return node < b.node_ops.size() ? b.node_ops[node] : std::string("model");
}

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
  // The reference could not judge the program: the oracle's gap (harness/oracle.h), by the rule
  // the runner and the bundle follow. An error without a code is not the reference's (another
  // oracle's words, or an exception), and stays a rejection.
  if (!ref.ok && !ref.error.code.empty() && reference_gap(ref.error)) {
    e.verdict = Verdict::not_judged;
    e.op = op_of(b, node_named_in(ref.error.message, b));
    e.message = std::string(oracle) + " cannot judge it: " + one_line(ref.error.message);
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

}  // namespace seqconf::difffuzz
