#include "harness/oracle.h"

#include <algorithm>

#include "runtimes/reference_runtime.h"

namespace seqconf {

namespace {

// Errors the reference raises for the model itself, whatever its inputs: its static type check
// and the graph's structure (reference/error.h: invalid_model).
bool static_code(const std::string& code) { return code == "invalid_model"; }

Meaning from_error(const RunError& e, bool at_prepare) {
  Meaning m;
  m.error = e;
  m.message = e.message;
  m.at_prepare = at_prepare;
  if (const std::optional<Reason> gap = reference_gap(e)) {
    m.kind = Meaning::Kind::not_judged;
    m.gap = *gap;
    return m;
  }
  m.kind = Meaning::Kind::rejected;
  m.code = e.code;
  m.static_rejection = at_prepare || static_code(e.code);
  return m;
}

// An exported model: the reference under the options, data set by data set.
CaseMeaning reference_meaning(const Case& c, const LoadedCase& lc, const OracleOptions& options) {
  CaseMeaning cm;
  cm.from_reference = true;
  ReferenceRuntime reference(options.policy, nullptr, options.host);
  RunError prep_error;
  std::unique_ptr<PreparedModel> prepared;
  try {
    prepared = reference.prepare(c.dir / "model.onnx", lc.model, &prep_error);
  } catch (const std::exception& e) {
    prep_error = {RunError::Kind::internal, e.what(), "", {}, {}};
  }
  for (const DataSet& ds : lc.data_sets) {
    if (!prepared) {
      cm.data_sets.push_back(from_error(prep_error, true));
      continue;
    }
    RunResult r = prepared->run(ds.inputs);
    for (const auto& [op, n] : r.delegated) cm.delegated[op] += n;
    if (!r.host.empty()) cm.host = r.host;
    if (!r.ok) {
      cm.data_sets.push_back(from_error(r.error, false));
      continue;
    }
    Meaning m;
    m.outputs = std::move(r.outputs);
    cm.data_sets.push_back(std::move(m));
  }
  // Typing is static: a model invalid on one data set is invalid on every one, those the
  // reference could not finish included.
  const auto invalid = std::find_if(cm.data_sets.begin(), cm.data_sets.end(), [](const Meaning& m) {
    return m.rejected() && m.static_rejection;
  });
  if (invalid != cm.data_sets.end()) {
    const Meaning first = *invalid;
    std::fill(cm.data_sets.begin(), cm.data_sets.end(), first);
  }
  return cm;
}

}  // namespace

std::optional<Reason> reference_gap(const RunError& e) {
  if (e.code.empty()) return Reason::internal;  // an exception, not a verdict
  if (e.code == "not_supported" || e.code == "unsupported_type")
    return Reason::reference_not_supported;
  if (e.code == "limit_exceeded") return Reason::reference_limit;
  if (e.code == "nondeterministic") return Reason::nondeterministic;
  if (e.code == "host_rejected") return Reason::host_rejected;
  return std::nullopt;
}

size_t CaseMeaning::judged() const {
  return static_cast<size_t>(std::count_if(data_sets.begin(), data_sets.end(),
                                           [](const Meaning& m) { return m.judged(); }));
}

const Meaning* CaseMeaning::first_gap() const {
  for (const Meaning& m : data_sets)
    if (!m.judged()) return &m;
  return nullptr;
}

bool CaseMeaning::must_reject() const {
  bool any = false;
  for (const Meaning& m : data_sets) {
    if (!m.judged()) continue;
    if (!m.rejected()) return false;
    any = true;
  }
  return any;
}

CaseMeaning spec_meaning(const Case& c, const LoadedCase& lc, const OracleOptions& options) {
  if (c.exported()) return reference_meaning(c, lc, options);
  CaseMeaning cm;
  const std::optional<std::string> code = c.expected_error_for(options.policy == Policy::strict);
  // Whether the model itself is what the spec rejects: the reference refuses to prepare it.
  bool at_load = false;
  if (code && options.locate_rejections) {
    ReferenceRuntime reference(options.policy);
    RunError error;
    try {
      at_load = !reference.prepare(c.dir / "model.onnx", lc.model, &error);
    } catch (const std::exception&) {
      at_load = false;
    }
  }
  for (const DataSet& ds : lc.data_sets) {
    Meaning m;
    if (code) {
      m.kind = Meaning::Kind::rejected;
      m.code = *code;
      m.static_rejection = at_load;
    } else {
      m.outputs = ds.outputs;
    }
    cm.data_sets.push_back(std::move(m));
  }
  return cm;
}

}  // namespace seqconf
