#include "bundle/rerun.h"

#include "runtimes/isolated.h"
#include "runtimes/registry.h"

namespace seqconf::bundle {

Rerunner::Rerunner(const std::string& spec, int timeout_ms) : spec_(spec), timeout_ms_(timeout_ms) {
  if (spec == "none") {
    no_rerun_ = "not rerun (--runtime none)";
    declined_ = true;
    return;
  }
  try {
    RuntimeOptions ro;
    ro.timeout_ms = timeout_ms;
    IsolationOptions io;
    io.timeout_ms = timeout_ms;
    runtime_ = isolate_unless_told(make_runtime(spec, ro), std::nullopt, io);
  } catch (const std::exception& e) {
    no_rerun_ = "not rerun: " + std::string(e.what());
  }
}

Rerunner::~Rerunner() = default;

Runtime* Rerunner::under_memcheck() {
  if (!memcheck_runtime_ && no_rerun_.empty()) {
    RuntimeOptions ro;
    ro.timeout_ms = timeout_ms_;
    IsolationOptions io;
    io.timeout_ms = timeout_ms_;
    io.memcheck = true;
    memcheck_runtime_ = make_isolated_runtime(make_runtime(spec_, ro), io);
  }
  return memcheck_runtime_.get();
}

Rerun Rerunner::run(const Case& c, const LoadedCase& lc, const std::vector<Expected>& expected,
                    std::optional<MemoryError> memory_error) {
  Rerun out;
  out.results.resize(lc.data_sets.size());
  Runtime* rerun_on = runtime_.get();
  if (memory_error && runtime_) {
    try {
      rerun_on = under_memcheck();
    } catch (const std::exception& e) {
      rerun_on = nullptr;
      no_rerun_ = "not rerun under memcheck: " + std::string(e.what());
    }
  }
  if (rerun_on) {
    out.rerun = true;
    RunError prep_error;
    auto prepared = rerun_on->prepare(c.dir / "model.onnx", lc.model, &prep_error);
    bool found = false;
    for (size_t k = 0; k < lc.data_sets.size() && !found; ++k) {
      RunResult r;
      if (prepared) {
        r = prepared->run(lc.data_sets[k].inputs);
      } else {
        r.ok = false;
        r.error = prep_error;
      }
      if (memory_error) {
        if (auto again = take_memory_error(*rerun_on)) {
          memory_error = again;
          out.pick = k;
          found = true;
          out.what_it_did = "memcheck: " + again->kind + ": " + again->description;
          out.results[k] = std::move(r);
          break;
        }
      }
      if (auto why = departs(expected[k], r, c.comparison)) {
        out.pick = k;
        found = true;
        out.what_it_did = *why;
      }
      out.results[k] = std::move(r);
      if (!prepared) {
        for (size_t j = k + 1; j < lc.data_sets.size(); ++j) out.results[j] = out.results[k];
        break;
      }
    }
    out.reproduced = found;
    if (!found) out.note = "the case did not depart when run again";
  } else {
    out.note = no_rerun_;
    out.declined = declined_;
  }
  out.memory_error = std::move(memory_error);
  return out;
}

}  // namespace seqconf::bundle
