// A departure a runtime's team can act on without seqconf: `seqconf bundle REPORT --out DIR`
// writes one folder per departure of a conformance report or a fuzz report, named after the
// departure, holding its smallest reproducible case:
//   model.onnx, test_data_set_0/input_K.pb, output_K.pb   the case in ONNX's backend test layout
//                                                          (the outputs the spec gives)
//   actual/output_K.pb or actual/error.txt                 what the runtime gave when bundled
//   values.json                                            the same values, readable, and what
//                                                          repro.js runs and expects
//   lengths.onnx, items.onnx                               the model with its sequences lifted to
//                                                          tensors, when it takes or gives any
//                                                          (a JavaScript API passes tensors only)
//   repro.js                                               a standalone Node script on the
//                                                          runtime's own JavaScript API: exit 1
//                                                          while the departure holds, 0 once the
//                                                          runtime does what the spec says (after
//                                                          its control), 2 when it cannot tell
//   control_*.onnx                                         the control repro.js runs first: a
//                                                          case of the same operator and context
//                                                          that passed in the same run
//   memcheck.supp                                          a memory error's: repro.js runs the
//                                                          model under valgrind memcheck
//   README.md                                              the issue the runtime's team would
//                                                          want: what happens, the spec sentence,
//                                                          the runtime, the other cases, reruns
// Data flows one way: report -> cases -> the runtime again (for its actual values) -> folders.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace seqconf::bundle {

struct BundleOptions {
  std::filesystem::path report;  // a conformance report (seqconf run --report) or a fuzz report
  std::filesystem::path out;     // created; one folder per departure in it
  // The runtime the cases run on again for their actual values (a --runtime spec); empty: the
  // report's. "none": not rerun, the folders carry the report's message only.
  std::string runtime;
  // A fuzz report's fixtures (the campaign's --out); empty: the folder the report names.
  std::filesystem::path fixtures;
  int timeout_ms = 60000;               // per prepare and per run, in the worker and in repro.js
  std::vector<std::string> departures;  // globs of departure ids; empty: every departure
};

// One folder written.
struct Bundled {
  std::string departure;  // the departure's id
  std::filesystem::path folder;
  std::string case_id;      // the case it holds
  bool rerun = false;       // the case ran on the runtime again
  bool declined = false;    // ... not, as told (--runtime none)
  bool reproduced = false;  // ... and departed again
  bool repro_js = false;    // a repro.js was written (the runtime has a JavaScript API)
  std::string note;         // why not, when something is missing
};

// Writes the folders and returns them, in the report's order of departures. Departures whose
// cases were not run (skipped) get no folder. Throws Error(io_error / invalid_argument) when the
// report cannot be read or is neither kind, or when out cannot be written.
std::vector<Bundled> write_bundles(const BundleOptions& options, std::ostream& log);

// The JavaScript package of a runtime, as a report names it: "onnxruntime-node" for
// onnxruntime, "onnxruntime-web" for onnxruntime-web; empty when it has none.
std::string javascript_package(const std::string& runtime_name);

}  // namespace seqconf::bundle
