#include "harness/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include "harness/compare.h"
#include "harness/static_checks.h"
#include "reference/error.h"
#include "reference/interpreter/interpreter.h"
#include "reference/limits.h"
#include "runtimes/isolated.h"
#include "runtimes/memcheck.h"
#include "runtimes/reference_runtime.h"

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

// An exported case (Case::exported): the spec's meaning of its model is the reference's, under
// the run's policy. That meaning replaces the framework's outputs as what the runtime is held to;
// the framework's outputs judge the exporter (here) and the end-to-end result (run_case).
struct ExportedCase {
  ExportedVerdicts verdicts;
  // Per data set: the reference's rejection (its error code), else nullopt and its outputs in
  // the LoadedCase; and the rejection's words.
  std::vector<std::optional<std::string>> spec_error;
  std::vector<std::string> spec_message;
  std::vector<std::vector<Value>> framework_outputs;
  // What kept the reference from giving the model's meaning (an operator it lacks with no host, a
  // limit, a random draw, a host that failed): the case is then not judged, on every data set.
  std::optional<Judgement> not_judged;
  // The nodes the reference ran on its host, over every data set.
  std::map<std::string, size_t> delegated;
};

// Whether a rejection by the reference is a gap of the reference rather than the spec's verdict
// on the model or its inputs.
std::optional<Reason> gap_of(const RunError& e) {
  if (e.code.empty()) return Reason::internal;  // an exception, not a verdict
  if (e.code == "not_supported" || e.code == "unsupported_type")
    return Reason::reference_not_supported;
  if (e.code == "limit_exceeded") return Reason::reference_limit;
  if (e.code == "nondeterministic") return Reason::nondeterministic;
  if (e.code == "host_rejected") return Reason::host_rejected;
  return std::nullopt;
}

// Static errors: the model breaks the spec whatever its inputs (a node's type constraint, the
// graph's structure), so a model rejected so on one data set is invalid on every one.
bool static_rejection(const std::string& code) { return code == "invalid_model"; }

std::string producer_text(const nlohmann::json& p) {
  if (!p.is_object() || !p.contains("exporter")) return {};
  std::string s = p.value("exporter", "") + " " + p.value("exporter_version", "");
  if (p.contains("framework"))
    s += " (" + p.value("framework", "") + " " + p.value("framework_version", "") + ")";
  return s;
}

ExportedCase judge_exporter(const Case& c, LoadedCase& lc, bool strict,
                            const std::shared_ptr<const interp::HostKernel>& host) {
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
  ReferenceRuntime reference(strict ? Policy::strict : Policy::lenient, nullptr, host);
  RunError prep_error;
  // The first rejection: a gap of the reference, or the spec rejecting the model or its inputs.
  auto spec_rejects = [&](const std::string& where, const RunError& e) {
    ex.spec_error.push_back(e.code);
    ex.spec_message.push_back(e.message);
    if (const std::optional<Reason> gap = gap_of(e)) {
      if (!ex.not_judged)
        ex.not_judged = Judgement{Status::not_judged, *gap,
                                  where +
                                      ": not judged: the reference cannot give the model's "
                                      "meaning under the spec: " +
                                      describe_error(e)};
      return;
    }
    Judgement& j = ex.verdicts.exporter;
    if (j.status != Status::pass) return;
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
                                : (static_rejection(e.code)
                                       ? invalid + ": "
                                       : std::string("the spec (reference) rejects its inputs: ")) +
                                      describe_error(e);
    j.message = where + ": the framework runs the program; " + why;
  };
  std::unique_ptr<PreparedModel> prepared =
      reference.prepare(c.dir / "model.onnx", lc.model, &prep_error);
  for (DataSet& ds : lc.data_sets) {
    ex.framework_outputs.push_back(std::move(ds.outputs));
    ds.outputs.clear();
    if (!prepared) {
      spec_rejects("model.onnx", prep_error);
      continue;
    }
    RunResult r = prepared->run(ds.inputs);
    for (const auto& [op, n] : r.delegated) ex.delegated[op] += n;
    if (!r.ok) {
      spec_rejects(ds.name, r.error);
      continue;
    }
    ex.spec_error.push_back(std::nullopt);
    ex.spec_message.emplace_back();
    ds.outputs = std::move(r.outputs);
    const Comparison cmp = compare_outputs(ex.framework_outputs.back(), ds.outputs, c.comparison);
    if (!cmp.ok && ex.verdicts.exporter.status == Status::pass)
      ex.verdicts.exporter = {Status::fail, cmp.reason,
                              ds.name +
                                  ": the spec's meaning of the model (reference) against the "
                                  "framework: " +
                                  cmp.message};
  }
  // Typing is static: a model invalid on one data set is invalid on all of them.
  for (size_t k = 0; k < ex.spec_error.size(); ++k)
    if (ex.spec_error[k] && static_rejection(*ex.spec_error[k])) {
      const std::string code = *ex.spec_error[k], message = ex.spec_message[k];
      for (size_t m = 0; m < ex.spec_error.size(); ++m) {
        ex.spec_error[m] = code;
        ex.spec_message[m] = message;
      }
      break;
    }
  if (ex.not_judged) ex.verdicts.exporter = *ex.not_judged;
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
    if (std::optional<MemoryError> m = take_memory_error(runtime)) note_memory_error(o, *m);
    o.kept_model = runtime.kept_model(c.dir / "model.onnx", o.status != Status::pass);
    if (checks) {
      o.findings = checks->findings();
      o.static_checks_not_applicable = checks->not_applicable();
    }
    if (ex) {
      if (ex->verdicts.end_to_end.status == Status::skipped && o.status != Status::skipped &&
          o.reason != Reason::load_error)
        ex->verdicts.end_to_end.status = Status::pass;
      // Not judged against the spec, whatever the runtime did; a crash or a hang stays one.
      if (ex->not_judged && o.status != Status::crash && o.status != Status::timeout) {
        o.status = Status::not_judged;
        o.reason = ex->not_judged->reason;
        o.message = ex->not_judged->message;
      }
      for (const auto& [op, n] : ex->delegated) o.delegated[op] += n;
      if (!o.delegated.empty() && options.host) o.host = options.host->name;
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
    for (const auto& ds : lc.data_sets)
      if (ds.outputs.empty()) {
        o.status = Status::error;
        o.reason = Reason::load_error;
        o.message = (c.dir / ds.name).string() + ": no output_K.pb (the framework's outputs)";
        o.exported = ExportedVerdicts{};
        return finish();
      }
    ex = judge_exporter(c, lc, options.strict, options.host);
    // The model is must-reject under the spec when the reference rejects every data set.
    if (!ex->not_judged && std::all_of(ex->spec_error.begin(), ex->spec_error.end(),
                                       [](const auto& e) { return e.has_value(); }))
      expected_code = ex->spec_error.front();
  }
  // What data set k must give: the case's expectation, or for an exported case the spec's.
  const auto expected_code_of = [&](size_t k) { return ex ? ex->spec_error[k] : expected_code; };
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
    if (ex) ex->verdicts.end_to_end = rejected_end_to_end("model.onnx", prep_error);
    rejected(o, prep_error, expected_code);
    if (o.status != Status::pass) o.message = (c.dir / "model.onnx").string() + ": " + o.message;
    return finish();
  }
  // The first data set that does not pass decides the outcome. An exported case runs every data
  // set all the same (its end-to-end verdict needs them), unless the runtime died or hung.
  bool decided = false;
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
    if (!r.delegated.empty()) {
      for (const auto& [op, n] : r.delegated) o.delegated[op] += n;
      if (const auto* ref = dynamic_cast<const ReferenceRuntime*>(&runtime); ref && ref->host())
        o.host = ref->host()->name;
    }
    if (ex && ex->verdicts.end_to_end.status == Status::skipped) {
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
    if (ex && ex->not_judged) continue;  // no meaning under the spec to hold the runtime to
    if (code) {
      o.status = Status::fail;
      o.reason = Reason::accepted_invalid;
      o.message = ex && static_rejection(*code)
                      ? ds.name + ": ran a model that is invalid under the spec (" +
                            ex->spec_message[k] + "); gave " + o.actual
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
      if (!ex) return finish();
    }
  }
  if (!decided) o.status = Status::pass;
  return finish();
}

}  // namespace seqconf
