#include "bundle/expected.h"

#include "runtimes/reference_runtime.h"

namespace seqconf::bundle {

std::vector<Expected> expectations_of(const Case& c, const LoadedCase& lc, bool strict) {
  std::vector<Expected> out;
  if (c.exported()) {
    // An exported model's outputs are the framework's; the spec's are the reference's.
    ReferenceRuntime reference(strict ? Policy::strict : Policy::lenient);
    RunError error;
    auto prepared = reference.prepare(c.dir / "model.onnx", lc.model, &error);
    for (const DataSet& ds : lc.data_sets) {
      Expected e;
      if (!prepared) {
        e.rejected = true;
        e.at_load = true;
        e.why = error.code.empty() ? error.message : error.code;
      } else {
        RunResult r = prepared->run(ds.inputs);
        if (r.ok) {
          e.outputs = std::move(r.outputs);
        } else {
          e.rejected = true;
          e.why = r.error.code.empty() ? r.error.message : r.error.code;
        }
      }
      out.push_back(std::move(e));
    }
    return out;
  }
  const auto code = c.expected_error_for(strict);
  // Whether the model itself is what the spec rejects: the reference refuses to prepare it.
  bool at_load = false;
  if (code) {
    ReferenceRuntime reference(strict ? Policy::strict : Policy::lenient);
    RunError error;
    at_load = !reference.prepare(c.dir / "model.onnx", lc.model, &error);
  }
  for (const DataSet& ds : lc.data_sets) {
    Expected e;
    if (code) {
      e.rejected = true;
      e.at_load = at_load;
      e.why = *code;
    } else {
      e.outputs = ds.outputs;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string error_text(const RunError& e) {
  return std::string(run_error_kind_name(e.kind)) + ": " + e.message;
}

std::optional<std::string> departs(const Expected& e, const RunResult& r,
                                   const ComparisonRule& rule) {
  if (e.rejected) {
    if (r.ok) return "accepted: it ran and gave " + summarize_values(r.outputs);
    // A must-reject case is rejected with an error, never by a crash or a hang.
    if (r.error.kind == RunError::Kind::crash || r.error.kind == RunError::Kind::timeout)
      return error_text(r.error);
    // Nor by a fault of the runtime's code (harness/runner.cpp: rejected_internally).
    if (r.error.kind == RunError::Kind::internal)
      return "rejected through an internal error, not a check: " + error_text(r.error);
    return std::nullopt;
  }
  if (!r.ok) return error_text(r.error);
  const Comparison c = compare_outputs(e.outputs, r.outputs, rule);
  if (c.ok) return std::nullopt;
  return c.message;
}

}  // namespace seqconf::bundle
