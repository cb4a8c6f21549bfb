#include "bundle/expected.h"

namespace seqconf::bundle {

std::vector<Expected> expectations_of(const Case& c, const LoadedCase& lc,
                                      const OracleOptions& options) {
  std::vector<Expected> out;
  for (Meaning& m : spec_meaning(c, lc, options).data_sets) {
    Expected e;
    if (!m.judged()) {
      e.not_judged = true;
      e.why = m.message;
    } else if (m.rejected()) {
      e.rejected = true;
      e.at_load = m.static_rejection;
      e.why = m.code.empty() ? m.message : m.code;
    } else {
      e.outputs = std::move(m.outputs);
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
  if (e.not_judged) return std::nullopt;
  if (e.rejected) {
    if (r.ok) return "accepted: it ran and gave " + summarize_values(r.outputs);
    if (r.error.kind == RunError::Kind::answer_unreadable)
      return "accepted: it ran, then its answer could not be read: " + error_text(r.error);
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
