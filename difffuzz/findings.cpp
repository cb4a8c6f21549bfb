// Findings of a campaign: a shrunk disagreement as a FuzzFinding with its ID, fixture folder,
// case.json and fixture files, grouped by signature (FindingBook).
#include "difffuzz/findings.h"

#include <filesystem>

#include "reports/report.h"

#include <cctype>
#include <cstdio>
#include <utility>
#include <vector>

#include "difffuzz/evaluate.h"
#include "difffuzz/hash.h"
#include "harness/compare.h"
#include "harness/runner.h"
#include "reference/proto.h"
#include "reference/spec_clauses.h"

namespace seqconf::difffuzz {

namespace {

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

FindingBook::FindingBook(const FuzzOptions& options, FuzzResult& result, Finder& finder,
                         Runtime& oracle_side, Runtime& runtime, std::string oracle,
                         std::function<double()> elapsed)
    : options_(options),
      result_(result),
      finder_(finder),
      oracle_side_(oracle_side),
      runtime_(runtime),
      oracle_(std::move(oracle)),
      elapsed_(std::move(elapsed)) {}

FuzzFinding FindingBook::make(const Program& q, const Evaluation& last, size_t i, size_t input_set,
                              double found_after_s) const {
  const BuiltProgram b = build(q);
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
  auto feats = features(step_of(q, feature_node));
  // ONNX Runtime's C API takes strings NUL-terminated: name such inputs in the ID.
  if (has_string_with_nul(b.inputs)) feats.emplace_back("strings", "nul");

  FuzzFinding f;
  f.op = last.op;
  f.kind = last.kind;
  f.dtype = std::string(dtype_name(q.elem));
  f.description = last.message;
  f.program = describe(q);
  f.nodes = b.node_count;
  f.occurrences = 1;
  f.first_iteration = i;
  f.input_set = input_set;
  f.found_after_s = found_after_s;
  f.context = placement_name(q.tensors_as);
  // As seqconf run judges the fixture (harness/runner.h).
  if (f.kind == "crash" || f.kind == "timeout" || f.kind == "rejected_valid") {
    f.status = status_of(last.found.error.kind);
    f.reason = reason_of(last.found.error.kind);
  } else {
    f.status = Status::fail;
    f.reason = reason_from_name(f.kind).value_or(Reason::value_mismatch);
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(model_and_input_bytes(b))));
  const std::string h(hash, 8);
  f.id = "fuzz/" + f.op + "/kind=" + f.kind +
         (options_.make_oracle ? "/oracle=" + options_.oracle_id : std::string()) +
         "/dtype=" + f.dtype;
  for (const auto& [k, v] : feats) f.id += "/" + k + "=" + v;
  f.id += std::string("/context=") + placement_name(q.tensors_as) + "/h=" + h;
  f.folder = "fuzz_" + snake(f.op) + "__" + f.kind + "__" + f.dtype + "__" + h;
  f.case_json = make_case_json(f, last, b, step_of(q, feature_node),
                               reproduce_command(options_, options_.iterations),
                               options_.make_oracle ? options_.oracle_name : std::string());
  f.clauses = f.case_json.clauses;
  f.spec = f.case_json.spec;
  return f;
}

std::string departure_key(const FuzzFinding& f) {
  std::string key = f.op + "|" + reports::departure_what(f.status, f.reason) + "|";
  for (const auto& c : f.clauses) key += c + "+";
  return key;
}

void FindingBook::write(const FuzzFinding& f, const Program& q, const Evaluation& e) const {
  if (!options_.out.empty())
    write_case_folder(options_.out / f.folder, fixture_files(q, e, f.case_json));
  if (options_.log)
    options_.log("finding " + f.kind + " in " + f.op + " (" + f.dtype + ", " +
                 std::to_string(f.nodes) + " nodes): " + f.description);
}

void FindingBook::add(size_t i, size_t input_set,
                      const std::function<rc::Shrinkable<Program>()>& shrinkable, const Program& p,
                      const Evaluation& e) {
  const double found_after_s = elapsed_();
  // A crash or a hang names no node: the node its departure as found blames (the one the
  // reference rejects, else the last) varies from program to program, and crashes in two
  // operators may blame the same one. So it is placed before anything else: its departure is
  // the op it happens in (the last step of the shortest prefix that fails the same way), and its
  // program from then on that prefix. Its clause is not part of that key: shrinking keeps only
  // that the program crashes (or hangs), and the clause of the program it ends with may differ.
  const bool dies = e.kind == "crash" || e.kind == "timeout";
  const double start = elapsed_();
  Program placed = p;
  Evaluation placed_e = e;
  std::string key;
  if (dies) {
    std::string op;
    placed = finder_.failing_prefix(p, e.kind, &op, &placed_e);
    key = op + "|" + e.kind + "|in this op";
  }
  // Any other departure (operator, what the runtime did, spec clause) is known as found: a
  // departure is shrunk once, its first program; later ones only count.
  FuzzFinding raw = make(placed, placed_e, i, input_set, found_after_s);
  if (!dies) key = departure_key(raw);
  if (auto it = by_departure_.find(key); it != by_departure_.end()) {
    FuzzFinding& f = result_.findings[it->second];
    ++f.occurrences;
    // A program of the same departure that is smaller as it is (placed) becomes its reproducer.
    if (raw.nodes < f.nodes && departure_key(raw) == departure_key(f)) {
      if (!options_.out.empty()) std::filesystem::remove_all(options_.out / f.folder);
      raw.occurrences = f.occurrences;
      raw.first_iteration = f.first_iteration;
      raw.input_set = f.input_set;
      raw.found_after_s = f.found_after_s;
      raw.shrink_seconds = f.shrink_seconds;
      write(raw, placed, placed_e);
      f = std::move(raw);
    }
    if (dies) result_.shrink_seconds += elapsed_() - start;
    return;
  }
  Evaluation last = placed_e;
  // Against another runtime, outputs that differ may be one side's, run to run: such a
  // finding is kept as found, since shrinking needs a failure that repeats.
  const std::string unstable =
      options_.make_oracle && e.reference.ok && e.found.ok
          ? unstable_side(build(placed), placed_e, oracle_side_, runtime_, oracle_)
          : std::string();
  if (!unstable.empty()) {
    last.kind = "nondeterministic";
    last.message = unstable + " gives other outputs when it runs the program again; " + e.message;
  }
  // A departure the expectations list is not shrunk when the campaign says so.
  const bool shrink = unstable.empty() && !(options_.listed && options_.listed(raw));
  // Shrinking starts from the placed program: each candidate is cut to as many steps.
  const auto from_prefix = [&] {
    rc::Shrinkable<Program> s = shrinkable();
    if (placed.steps.size() == p.steps.size()) return s;
    return rc::shrinkable::map(std::move(s), [n = placed.steps.size()](Program q) {
      if (q.steps.size() > n) q.steps.resize(n);
      return q;
    });
  };
  if (shrink) ++result_.shrinks;
  const Program shrunk = shrink ? finder_.shrink(from_prefix(), e.kind, e.op, &last) : placed;
  result_.shrink_seconds += elapsed_() - start;
  FuzzFinding f = shrink || !unstable.empty() ? make(shrunk, last, i, input_set, found_after_s)
                                              : std::move(raw);
  f.shrink_seconds = elapsed_() - start;
  // The op a disagreement is first blamed on may change while shrinking (a crash at prepare
  // names no node): one finding per departure after shrinking too.
  const std::string shrunk_key = departure_key(f);
  if (auto it = by_departure_.find(shrunk_key); it != by_departure_.end()) {
    ++result_.findings[it->second].occurrences;
    by_departure_[key] = it->second;
    return;
  }
  write(f, shrunk, last);
  if (!shrink) ++result_.unshrunk_departures;
  by_departure_[key] = result_.findings.size();
  by_departure_[shrunk_key] = result_.findings.size();
  result_.findings.push_back(std::move(f));
}

}  // namespace seqconf::difffuzz
