#include "harness/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include "harness/compare.h"
#include "harness/static_checks.h"
#include "reference/error.h"
#include "reference/limits.h"

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
  // Only the reference has the stable codes; other runtimes' rejections count as rejections.
  if (!e.code.empty() && e.code != *expected_code) {
    o.status = Status::fail;
    o.reason = Reason::wrong_error_code;
    o.message = "expected error " + *expected_code + ", got " + e.code + ": " + e.message;
    return;
  }
  o.status = Status::pass;
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
  const std::optional<std::string> expected_code = c.expected_error_for(options.strict);
  LoadedCase lc;
  // Started once the case is loaded, collected when its outcome is complete: in the sandbox they
  // run while the case is prepared and run.
  std::optional<CaseStaticChecks> checks;
  auto finish = [&]() -> Outcome {
    o.kept_model = runtime.kept_model(c.dir / "model.onnx", o.status != Status::pass);
    if (checks) {
      o.findings = checks->findings();
      o.static_checks_not_applicable = checks->not_applicable();
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
    return finish();
  }
  if (options.static_checks) checks.emplace(lc, expected_code.has_value(), sandbox);
  o.expected =
      expected_code ? "error " + *expected_code : summarize_values(lc.data_sets.front().outputs);
  if (!expected_code) o.comparison = c.comparison.name();
  if (!expected_code)
    for (const auto& ds : lc.data_sets)
      if (ds.outputs.empty()) {
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
    rejected(o, prep_error, expected_code);
    if (o.status != Status::pass) o.message = (c.dir / "model.onnx").string() + ": " + o.message;
    return finish();
  }
  for (const DataSet& ds : lc.data_sets) {
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
    if (!r.ok) {
      rejected(o, r.error, expected_code);
      if (o.status != Status::pass) {
        o.message = ds.name + ": " + o.message;
        return finish();
      }
      continue;
    }
    o.actual = summarize_values(r.outputs);
    if (expected_code) {
      o.status = Status::fail;
      o.reason = Reason::accepted_invalid;
      o.message = ds.name + ": accepted an input that must be rejected with " + *expected_code +
                  "; gave " + o.actual;
      return finish();
    }
    Comparison cmp = compare_outputs(ds.outputs, r.outputs, c.comparison);
    if (!cmp.ok) {
      o.status = Status::fail;
      o.reason = cmp.reason;
      o.message = ds.name + ": " + cmp.message;
      return finish();
    }
  }
  o.status = Status::pass;
  return finish();
}

}  // namespace seqconf
