#include "harness/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include "harness/compare.h"
#include "harness/localize.h"
#include "harness/oracle.h"
#include "harness/static_checks.h"
#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/limits.h"
#include "runtimes/isolated.h"
#include "runtimes/memcheck.h"

namespace seqconf {

Status status_of(RunError::Kind k) {
  switch (k) {
    case RunError::Kind::not_supported:
      return Status::not_supported;
    case RunError::Kind::crash:
    case RunError::Kind::tool_crash:
      return Status::crash;
    case RunError::Kind::timeout:
    case RunError::Kind::tool_timeout:
      return Status::timeout;
    default:
      return Status::error;
  }
}

Reason reason_of(RunError::Kind k) {
  switch (k) {
    case RunError::Kind::not_supported:
      return Reason::not_supported;
    case RunError::Kind::invalid_input:
      return Reason::invalid_input;
    case RunError::Kind::internal:
      return Reason::internal;
    case RunError::Kind::crash:
      return Reason::crash;
    case RunError::Kind::timeout:
      return Reason::timeout;
    case RunError::Kind::limit_exceeded:
      return Reason::limit_exceeded;
    case RunError::Kind::tool_failed:
      return Reason::tool_failed;
    case RunError::Kind::tool_crash:
      return Reason::tool_crash;
    case RunError::Kind::tool_timeout:
      return Reason::tool_timeout;
    case RunError::Kind::tool_invalid_model:
      return Reason::tool_invalid_model;
    case RunError::Kind::tool_lost_type:
      return Reason::tool_lost_type;
    case RunError::Kind::answer_unreadable:
      return Reason::internal;
  }
  return Reason::internal;
}

namespace {

std::string describe_error(const RunError& e) {
  std::string s = std::string(run_error_kind_name(e.kind));
  if (!e.code.empty()) s += " " + e.code;
  return s + ": " + e.message;
}

// A runtime rejected the case (while preparing or running): fills the outcome.
void rejected(Outcome& o, const RunError& e, const std::optional<std::string>& expected_code) {
  o.actual = describe_error(e);
  if (!expected_code) {
    o.status = status_of(e.kind);
    o.reason = reason_of(e.kind);
    o.message =
        e.kind == RunError::Kind::limit_exceeded ? o.actual : "rejected a valid case: " + o.actual;
    return;
  }
  // A runtime that ran the model and whose answer then could not be read (its adapter's own
  // failure) accepted it.
  if (e.kind == RunError::Kind::answer_unreadable) {
    o.status = Status::fail;
    o.reason = Reason::accepted_invalid;
    o.message = "accepted what must be rejected (" + *expected_code +
                "): it ran the model, then its answer could not be read: " + o.actual;
    return;
  }
  // Crashes, timeouts and outputs too large to read are never a correct rejection; nor is a
  // model-to-model tool that breaks a model (a tool that refuses an invalid model rejects it).
  if (e.kind != RunError::Kind::not_supported && e.kind != RunError::Kind::invalid_input &&
      e.kind != RunError::Kind::internal && e.kind != RunError::Kind::tool_failed) {
    o.status = status_of(e.kind);
    o.reason = reason_of(e.kind);
    o.message = o.actual;
    return;
  }
  // A runtime's internal failure (an uncaught exception, an assertion, the protocol's kind
  // internal) is not its check of the model or inputs: the case is rejected, for no reason the
  // runtime gives.
  if (e.kind == RunError::Kind::internal && e.code.empty()) {
    o.status = Status::fail;
    o.reason = Reason::rejected_internally;
    o.message = "rejected what must be rejected (" + *expected_code +
                ") through an internal error, not a check of the model or inputs: " + o.actual;
    return;
  }
  // Only the reference has the stable codes; other runtimes' rejections count as rejections.
  if (!e.code.empty() && e.code != *expected_code) {
    o.status = Status::fail;
    o.reason = Reason::wrong_error_code;
    o.message = "expected error " + *expected_code + ", got " + e.code + ": " + e.message;
    return;
  }
  o.status = Status::pass;
}

// An exported case (Case::exported): the spec's meaning of its model is the oracle's
// (harness/oracle.h), under the run's policy and host. That meaning replaces the framework's
// outputs as what the runtime is held to; the framework's outputs judge the exporter (here) and
// the end-to-end result (run_case).
struct ExportedCase {
  ExportedVerdicts verdicts;
  CaseMeaning meaning;
  // The framework's outputs of each data set; empty where the folder gives none (a model with
  // its inputs only: the runtime is judged against the spec alone).
  std::vector<std::vector<Value>> framework_outputs;
  // Some data set gives the framework's outputs: the exporter and end-to-end verdicts have
  // something to compare; else both stay skipped.
  bool framework_given = false;
  // No data set could be judged (an operator the reference lacks with no host, a limit, a random
  // draw, a host that failed): the case is not judged. A data set that could not be judged beside
  // one that could leaves the case judged on the others.
  std::optional<Judgement> not_judged;
};

std::string producer_text(const nlohmann::json& p) {
  if (!p.is_object() || !p.contains("exporter")) return {};
  std::string s = p.value("exporter", "") + " " + p.value("exporter_version", "");
  if (p.contains("framework"))
    s += " (" + p.value("framework", "") + " " + p.value("framework_version", "") + ")";
  return s;
}

ExportedCase judge_exporter(const Case& c, LoadedCase& lc, const OracleOptions& oracle) {
  ExportedCase ex;
  ex.verdicts.producer = producer_text(c.producer);
  // Without a case.json the model names its producer (torch.onnx writes "pytorch" and the torch
  // version).
  if (ex.verdicts.producer.empty() && !lc.model.producer_name().empty())
    ex.verdicts.producer =
        lc.model.producer_name() +
        (lc.model.producer_version().empty() ? std::string() : " " + lc.model.producer_version());
  // Without a case.json the program is the folder's name, or its parent's in the layout
  // <program>/opset=<N>/ that one program exported at several opsets gives.
  const std::string folder = c.dir.filename().string();
  ex.verdicts.program = c.producer.is_object() && c.producer.contains("program")
                            ? c.producer.value("program", "")
                        : folder.rfind("opset=", 0) == 0 ? c.dir.parent_path().filename().string()
                                                         : folder;
  ex.verdicts.exporter.status = Status::pass;
  ex.meaning = spec_meaning(c, lc, oracle);
  for (size_t k = 0; k < lc.data_sets.size(); ++k) {
    DataSet& ds = lc.data_sets[k];
    ex.framework_outputs.push_back(std::move(ds.outputs));
    ds.outputs.clear();
    const bool framework = !ex.framework_outputs.back().empty();
    ex.framework_given = ex.framework_given || framework;
    const Meaning& m = ex.meaning.data_sets[k];
    Judgement& j = ex.verdicts.exporter;
    if (!m.judged()) continue;
    if (m.rejected() && !framework) continue;
    if (m.rejected()) {
      // The spec rejects the model or its inputs; the framework ran the program.
      if (j.status != Status::pass) continue;
      const RunError& e = m.error;
      const std::string where = m.at_prepare ? std::string("model.onnx") : ds.name;
      ex.verdicts.fault_op = e.fault_op;
      ex.verdicts.fault_node = e.fault_node;
      j.status = status_of(e.kind);
      j.reason = reason_of(e.kind);
      // The reference's static type check already words it ("the model is invalid under the
      // spec, whatever its inputs: node 4 (Identity-13 ...) ..."): its kind and code follow.
      const std::string invalid = "the model is invalid under the spec";
      const std::string why = e.message.rfind(interp::kInvalidWhateverInputs, 0) == 0
                                  ? e.message + " (" + std::string(run_error_kind_name(e.kind)) +
                                        (e.code.empty() ? "" : " " + e.code) + ")"
                              : m.static_rejection
                                  ? invalid + ": " + describe_error(e)
                                  : "the spec (reference) rejects its inputs: " + describe_error(e);
      j.message = where + ": the framework runs the program; " + why;
      continue;
    }
    ds.outputs = m.outputs;
    if (!framework) continue;
    const Comparison cmp = compare_outputs(ex.framework_outputs.back(), ds.outputs, c.comparison);
    if (!cmp.ok && j.status == Status::pass)
      j = {Status::fail, cmp.reason,
           ds.name + ": the spec's meaning of the model (reference) against the framework: " +
               cmp.message};
  }
  // The model declares for an output a type or shape the framework does not give: the exporter
  // wrote a model that does not describe the program (when nothing above departs already).
  for (const DataSet& ds : lc.data_sets) {
    Judgement& j = ex.verdicts.exporter;
    if (ds.undeclared_outputs.empty() || j.status != Status::pass) continue;
    const DataSet::Undeclared& first = ds.undeclared_outputs.front();
    j = {Status::fail, first.element_type ? Reason::dtype_mismatch : Reason::shape_mismatch,
         ds.name + ": the framework's output departs from the model's declaration: " + first.text};
  }
  // No data set gives the framework's outputs: nothing to judge the exporter by.
  if (!ex.framework_given)
    ex.verdicts.exporter = {Status::skipped, Reason::none,
                            "no output_K.pb: the framework's outputs are not given, the runtime "
                            "is judged against the spec alone"};
  if (ex.meaning.judged() == 0) {
    const Meaning& gap = *ex.meaning.first_gap();
    const std::string where =
        gap.at_prepare ? std::string("model.onnx")
                       : lc.data_sets[static_cast<size_t>(&gap - ex.meaning.data_sets.data())].name;
    ex.not_judged = Judgement{Status::not_judged, gap.gap,
                              where +
                                  ": not judged: the reference cannot give the model's meaning "
                                  "under the spec: " +
                                  describe_error(gap.error)};
    // A declaration the framework's outputs depart from needs no meaning under the spec.
    if (ex.verdicts.exporter.status == Status::pass) ex.verdicts.exporter = *ex.not_judged;
  }
  return ex;
}

// The end-to-end verdict of a runtime that rejected what the framework ran.
Judgement rejected_end_to_end(const std::string& where, const RunError& e) {
  return {status_of(e.kind), reason_of(e.kind),
          where + ": the framework runs the program; the runtime rejects it: " + describe_error(e)};
}

// A memory error memcheck saw while the runtime prepared and ran the case (seqconf run
// --memcheck). It takes precedence over what the runtime answered: outputs computed from memory
// the runtime does not own, or never initialised, cannot be trusted, so a pass, a value mismatch
// or a rejection becomes fail, memory_error, its message followed by the answer's. A crash or a
// timeout stays what it is, the error kept with it as its likely cause.
void note_memory_error(Outcome& o, const MemoryError& m) {
  o.memory_error = m;
  if (o.status == Status::crash || o.status == Status::timeout) return;
  std::string message = "memcheck: " + memory_error_text(m);
  if (o.status == Status::pass)
    message += "; the outputs matched";
  else if (!o.message.empty())
    message += "; then " + std::string(status_name(o.status)) +
               (o.reason == Reason::none ? "" : " [" + std::string(reason_name(o.reason)) + "]") +
               ": " + o.message;
  o.status = Status::fail;
  o.reason = Reason::memory_error;
  o.message = std::move(message);
}

}  // namespace

Outcome run_case(const Case& c, Runtime& runtime, const RunOptions& options,
                 StaticCheckSandbox* sandbox) {
  const auto t0 = std::chrono::steady_clock::now();
  const TensorLimit limit(options.max_tensor_bytes ? options.max_tensor_bytes
                                                   : kDefaultMaxTensorBytes);
  Outcome o;
  o.case_id = c.id;
  o.source = c.source;
  o.op = c.op;
  o.dtype = c.dtype;
  o.context = c.context;
  o.spec = c.spec;
  o.clauses = c.clauses;
  if (c.clarity == "ambiguous") o.ambiguity = c.ambiguity;
  std::optional<std::string> expected_code = c.expected_error_for(options.strict);
  LoadedCase lc;
  // Started once the case is loaded, collected when its outcome is complete: in the sandbox they
  // run while the case is prepared and run.
  std::optional<CaseStaticChecks> checks;
  std::optional<ExportedCase> ex;
  auto finish = [&]() -> Outcome {
    // A data set the spec's meaning was not found for is not judged; when none was, the case is
    // not judged, whatever the runtime did, but a crash or a hang stays one, and a memory error
    // the runtime made wins (below).
    if (ex && ex->not_judged && o.status != Status::crash && o.status != Status::timeout) {
      o.status = Status::not_judged;
      o.reason = ex->not_judged->reason;
      o.message = ex->not_judged->message;
    }
    if (std::optional<MemoryError> m = take_memory_error(runtime)) note_memory_error(o, *m);
    o.kept_model = runtime.kept_model(c.dir / "model.onnx", o.status != Status::pass);
    if (checks) {
      o.findings = checks->findings();
      o.static_checks_not_applicable = checks->not_applicable();
    }
    if (ex) {
      if (ex->framework_given && ex->verdicts.end_to_end.status == Status::skipped &&
          o.status != Status::skipped && o.reason != Reason::load_error)
        ex->verdicts.end_to_end.status = Status::pass;
      for (const auto& [op, n] : ex->meaning.delegated) o.delegated[op] += n;
      if (!ex->meaning.host.empty()) o.host = ex->meaning.host;
      o.data_sets = ex->meaning.data_sets.size();
      o.data_sets_judged = ex->meaning.judged();
      ex->verdicts.end_to_end_layer =
          end_to_end_layer(o.status, ex->verdicts.exporter, ex->verdicts.end_to_end);
      o.exported = std::move(ex->verdicts);
    }
    o.duration_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return o;
  };
  try {
    lc = load_case(c);
  } catch (const std::exception& e) {
    o.status = Status::error;
    o.reason = Reason::load_error;
    o.message = e.what();
    if (c.exported()) o.exported = ExportedVerdicts{};
    return finish();
  }
  if (c.exported()) {
    // A data set without output_K.pb is judged against the spec alone (a runtime engineer's
    // model with its inputs only).
    ex = judge_exporter(c, lc, {options.strict ? Policy::strict : Policy::lenient, options.host});
    // The model is must-reject under the spec when the spec rejects every data set it judges.
    if (ex->meaning.must_reject())
      for (const Meaning& m : ex->meaning.data_sets)
        if (m.rejected()) {
          expected_code = m.code;
          break;
        }
  }
  // What data set k must give: the case's expectation, or for an exported case the spec's (a
  // data set the spec's meaning was not found for has none: nothing is held against the runtime).
  const auto expected_code_of = [&](size_t k) -> std::optional<std::string> {
    if (!ex) return expected_code;
    const Meaning& m = ex->meaning.data_sets[k];
    return m.rejected() ? std::optional<std::string>(m.code) : std::nullopt;
  };
  if (options.static_checks) checks.emplace(lc, expected_code.has_value(), sandbox);
  o.expected =
      expected_code ? "error " + *expected_code : summarize_values(lc.data_sets.front().outputs);
  if (!expected_code) o.comparison = c.comparison.name();
  if (!ex)
    for (const auto& ds : lc.data_sets)
      if (!expected_code && ds.outputs.empty()) {
        o.status = Status::error;
        o.reason = Reason::load_error;
        o.message = (c.dir / ds.name).string() + ": no output_K.pb and no error expectation";
        return finish();
      }
  RunError prep_error;
  std::unique_ptr<PreparedModel> prepared;
  try {
    prepared = runtime.prepare(c.dir / "model.onnx", lc.model, &prep_error);
  } catch (const std::exception& e) {
    prep_error.kind = RunError::Kind::internal;
    prep_error.message = std::string("exception while preparing: ") + e.what();
  }
  if (!prepared) {
    if (ex && ex->framework_given)
      ex->verdicts.end_to_end = rejected_end_to_end("model.onnx", prep_error);
    rejected(o, prep_error, expected_code);
    if (o.status != Status::pass) o.message = (c.dir / "model.onnx").string() + ": " + o.message;
    return finish();
  }
  // The first data set that does not pass decides the outcome. An exported case runs every data
  // set all the same (its end-to-end verdict needs them), unless the runtime died or hung.
  bool decided = false;
  // The data set whose values departed first (localized below).
  std::optional<size_t> departed;
  for (size_t k = 0; k < lc.data_sets.size(); ++k) {
    const DataSet& ds = lc.data_sets[k];
    const std::optional<std::string> code = expected_code_of(k);
    RunResult r;
    try {
      r = prepared->run(ds.inputs);
    } catch (const std::exception& e) {
      r.ok = false;
      r.error.kind = RunError::Kind::internal;
      r.error.message = std::string("exception while running: ") + e.what();
    }
    for (auto& a : r.ambiguities)
      if (std::find(o.ambiguities.begin(), o.ambiguities.end(), a) == o.ambiguities.end())
        o.ambiguities.push_back(a);
    for (const auto& [op, n] : r.delegated) o.delegated[op] += n;
    if (!r.host.empty()) o.host = r.host;
    if (ex && !ex->framework_outputs[k].empty() &&
        ex->verdicts.end_to_end.status == Status::skipped) {
      if (!r.ok) {
        ex->verdicts.end_to_end = rejected_end_to_end(ds.name, r.error);
      } else {
        const Comparison e2e = compare_outputs(ex->framework_outputs[k], r.outputs, c.comparison);
        if (!e2e.ok)
          ex->verdicts.end_to_end = {Status::fail, e2e.reason, ds.name + ": " + e2e.message};
      }
    }
    const bool died =
        !r.ok && (r.error.kind == RunError::Kind::crash || r.error.kind == RunError::Kind::timeout);
    if (decided) {
      if (died) break;
      continue;
    }
    // No meaning under the spec to hold the runtime to on this data set; a crash or a hang is
    // one all the same.
    if (ex && !ex->meaning.data_sets[k].judged() && !died) continue;
    if (!r.ok) {
      rejected(o, r.error, code);
      if (o.status != Status::pass) {
        o.message = ds.name + ": " + o.message;
        decided = true;
        if (!ex || died) return finish();
      }
      continue;
    }
    o.actual = summarize_values(r.outputs);
    if (code) {
      o.status = Status::fail;
      o.reason = Reason::accepted_invalid;
      o.message = ex && ex->meaning.data_sets[k].static_rejection
                      ? ds.name + ": ran a model that is invalid under the spec (" +
                            ex->meaning.data_sets[k].message + "); gave " + o.actual
                      : ds.name + ": accepted an input that must be rejected with " + *code +
                            "; gave " + o.actual;
      decided = true;
      if (!ex) return finish();
      continue;
    }
    Comparison cmp = compare_outputs(ds.outputs, r.outputs, c.comparison);
    if (!cmp.ok) {
      o.status = Status::fail;
      o.reason = cmp.reason;
      o.message = ds.name + ": " + cmp.message;
      decided = true;
      departed = k;
      if (!ex) return finish();
    }
  }
  if (!decided) o.status = Status::pass;
  // A model whose values depart: the node they come from, on the runtime's own values.
  if (ex && departed && options.localize && lc.model.graph().node_size() > 1)
    o.localization =
        localize(lc.model, lc.data_sets[*departed].inputs, runtime,
                 {options.strict ? Policy::strict : Policy::lenient, options.host, c.source});
  return finish();
}

}  // namespace seqconf
