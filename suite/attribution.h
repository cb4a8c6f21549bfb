// Who broke it: which layer of ONNX Runtime each departure of a run comes from. The smallest case
// of every departure runs three more times:
//   - on the runtime with its graph optimizations disabled;
//   - as the model ONNX Runtime builds before any optimization (functions such as SequenceMap
//     inlined) evaluated by the reference;
//   - as the model ONNX Runtime's optimizers make at the run's level evaluated by the reference.
// From the three outcomes (attribute()):
//   loader            departs with optimizations disabled too, and ONNX Runtime cannot load the
//                     model, or the model it loads departs on the reference;
//   kernel            departs with optimizations disabled too, and the model it loads passes on
//                     the reference: the model is right, its execution is not (the kernels, or
//                     the values crossing the C API); or ONNX Runtime registers no kernel for
//                     the operator and type ("Could not find an implementation");
//   graph optimizer   passes with optimizations disabled, and its optimized model departs on the
//                     reference;
//   undetermined      anything else, the runs named.
// These are departures from the spec, so never the exporter's. An exported model's end-to-end
// departure (against its framework) has a layer of its own, "exporter" among them
// (ExportedVerdicts::end_to_end_layer; the report's end_to_end_departures).
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "cases/case.h"
#include "harness/outcome.h"
#include "harness/runner.h"
#include "reports/report.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/runtime.h"

namespace seqconf {

// The three configurations, each a factory of the runtime that runs it.
struct AttributionRuntimes {
  struct Configuration {
    std::string name;  // "graph optimizations disabled", ...
    std::function<std::unique_ptr<Runtime>()> make;
  };
  Configuration without_optimizations;   // the runtime, its graph optimizations disabled
  Configuration loaded_on_reference;     // its model before any optimization, on the reference
  Configuration optimized_on_reference;  // its model at the run's level, on the reference
};

// ONNX Runtime's: the library, at the run's graph optimization level. keep_models_dir: where
// the models ONNX Runtime built for departing cases are kept (empty: nowhere).
AttributionRuntimes onnxruntime_attribution(const std::string& library, OrtGraphOptimization level,
                                            int timeout_ms,
                                            const std::filesystem::path& keep_models_dir);

// The layer, from the outcomes of the three runs (in the order of AttributionRuntimes).
Attribution attribute(const Outcome& without_optimizations, const Outcome& loaded_on_reference,
                      const Outcome& optimized_on_reference);

// Runs the smallest case of each departure of the report (that was run) in the three
// configurations and sets its attribution; then rederives the report. `cases` are the run's.
// A departure whose smallest case is not among them is left without one.
void attribute_departures(reports::Report& report, const std::vector<Case>& cases,
                          const AttributionRuntimes& runtimes, const RunOptions& options,
                          std::ostream& log);

}  // namespace seqconf
