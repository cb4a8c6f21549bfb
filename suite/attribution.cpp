#include "suite/attribution.h"

#include <map>
#include <ostream>

#include "harness/run.h"
#include "reports/report.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"

namespace seqconf {

AttributionRuntimes onnxruntime_attribution(const std::string& library, OrtGraphOptimization level,
                                            int timeout_ms,
                                            const std::filesystem::path& keep_models_dir) {
  RuntimeOptions options;
  options.timeout_ms = timeout_ms;
  RuntimeOptions disabled = options;
  disabled.ort_graph_optimization = OrtGraphOptimization::disabled;
  const std::string runtime = "onnxruntime=" + library;
  // ONNX Runtime's model at a level, on the reference.
  const auto transform = [=](OrtGraphOptimization at) {
    return "transform=onnxruntime-optimizer:" + std::string(ort_graph_optimization_name(at)) + "=" +
           library + ",reference";
  };
  RuntimeOptions kept = options;
  kept.keep_models_dir = keep_models_dir;
  const std::string level_name = ort_graph_optimization_name(level);
  IsolationOptions isolation;
  if (timeout_ms > 0) isolation.timeout_ms = timeout_ms;
  return {
      {"graph optimizations disabled",
       [=] {
         return isolate_unless_told(make_runtime(runtime, disabled), std::nullopt, isolation);
       }},
      {"its model before any optimization, on the reference",
       [=] { return make_runtime(transform(OrtGraphOptimization::disabled), kept); }},
      {"its model optimized at " + level_name + ", on the reference",
       [=] { return make_runtime(transform(level), kept); }},
  };
}

namespace {

bool departs(const Outcome& o) { return o.status != Status::pass; }

// ONNX Runtime could not build its model: the tool in front of the reference stopped.
bool not_built(const Outcome& o) {
  return o.reason == Reason::tool_failed || o.reason == Reason::tool_crash ||
         o.reason == Reason::tool_timeout || o.status == Status::not_supported;
}

// The reference departs on the model ONNX Runtime built (not on the building itself).
bool model_departs(const Outcome& o) {
  return departs(o) && !reports::is_tool_reason(o.reason) && o.status != Status::not_supported;
}

std::string said(const Outcome& o) {
  std::string s(status_name(o.status));
  if (o.reason != Reason::none) s += "/" + std::string(reason_name(o.reason));
  return s;
}

}  // namespace

Attribution attribute(const Outcome& without, const Outcome& loaded, const Outcome& optimized) {
  Attribution a;
  // ONNX Runtime's words when no kernel is registered for the operator and type: it names the
  // kernel registry, not the loader, although the session fails while it is created.
  if (without.status == Status::not_supported &&
      without.message.find("Could not find an implementation") != std::string::npos) {
    a.layer = "kernel";
    a.why =
        "ONNX Runtime registers no kernel for the operator and type (\"Could not find an "
        "implementation\"), with graph optimizations disabled too";
  } else if (departs(without) && not_built(loaded)) {
    a.layer = "loader";
    a.why =
        "departs with graph optimizations disabled too, and ONNX Runtime cannot load the "
        "model (" +
        said(loaded) + ")";
  } else if (departs(without) && model_departs(loaded)) {
    a.layer = "loader";
    a.why =
        "departs with graph optimizations disabled too, and the model ONNX Runtime loads, "
        "before any optimization, departs on the reference (" +
        said(loaded) + ")";
  } else if (departs(without) && loaded.status == Status::pass) {
    a.layer = "kernel";
    a.why = "departs with graph optimizations disabled too (" + said(without) +
            "), while the model ONNX Runtime loads passes on the reference";
  } else if (!departs(without) && model_departs(optimized)) {
    a.layer = "graph optimizer";
    a.why =
        "passes with graph optimizations disabled, and ONNX Runtime's optimized model "
        "departs on the reference (" +
        said(optimized) + ")";
  } else {
    a.layer = "undetermined";
    a.why = "graph optimizations disabled: " + said(without) +
            "; its loaded model on the "
            "reference: " +
            said(loaded) + "; its optimized model on the reference: " + said(optimized);
  }
  return a;
}

void attribute_departures(reports::Report& report, const std::vector<Case>& cases,
                          const AttributionRuntimes& runtimes, const RunOptions& options,
                          std::ostream& log) {
  std::map<std::string, const Case*> by_id;
  for (const auto& c : cases) by_id[c.id] = &c;
  std::vector<const Case*> smallest;
  for (const auto& d : report.departures)
    if (d.run && by_id.count(d.smallest)) smallest.push_back(by_id[d.smallest]);
  if (smallest.empty()) return;
  log << "attributing " << smallest.size() << " departure(s): their smallest cases run again\n";
  const AttributionRuntimes::Configuration* configurations[] = {&runtimes.without_optimizations,
                                                                &runtimes.loaded_on_reference,
                                                                &runtimes.optimized_on_reference};
  // The static checks say nothing about the runtime, and outside their sandbox a model that
  // crashes ONNX's library would crash the suite.
  RunOptions rerun = options;
  rerun.static_checks = false;
  std::vector<std::vector<Outcome>> outcomes(smallest.size());
  std::vector<std::string> names;
  for (const auto* configuration : configurations) {
    std::unique_ptr<Runtime> runtime = configuration->make();
    names.push_back(runtime->name());
    for (size_t k = 0; k < smallest.size(); ++k) {
      if (stop_requested()) return;
      outcomes[k].push_back(run_case(*smallest[k], *runtime, rerun));
    }
  }
  std::map<std::string, Attribution> found;
  for (size_t k = 0; k < smallest.size(); ++k) {
    const auto& o = outcomes[k];
    Attribution a = attribute(o[0], o[1], o[2]);
    for (size_t r = 0; r < 3; ++r)
      a.runs.push_back({configurations[r]->name, names[r], o[r].status, o[r].reason, o[r].message,
                        o[r].kept_model});
    found[smallest[k]->id] = std::move(a);
  }
  for (auto& c : report.cases)
    if (auto it = found.find(c.outcome.case_id); it != found.end())
      c.outcome.attribution = it->second;
  reports::recompute(report);
}

}  // namespace seqconf
