// Model-to-model tools under test (a version converter, a graph optimizer, any command that
// rewrites a model) as a runtime: each case's model goes through the tool, ONNX's checker and
// shape inference judge the tool's output model, and another runtime (the reference unless told
// otherwise) runs it against the case's expected outcome. What the tool breaks is a departure
// of the tool:
//   - it crashes or hangs: RunError::Kind::tool_crash / tool_timeout;
//   - it refuses a valid model: tool_failed (on a must-reject case that is a correct rejection);
//   - its output model lacks a type that its input model declared, or declares another kind of
//     type for a graph input or output (a sequence typed as a tensor): tool_lost_type;
//   - its output model fails ONNX's checker or strict shape inference while its input passed:
//     tool_invalid_model;
//   - it changes the result: the other runtime's outcome departs from the case's expectation. A
//     rejection of a must-reject case counts whatever the reference's error code: on the tool's
//     model the same rejection may come from another node.
// The tool runs in a worker process (runtimes/isolated.h), so its crash or hang cannot take the
// suite with it; a crash is confirmed on a fresh worker that has seen only that model.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "runtimes/runtime.h"

namespace seqconf {

// The tools make_transform_runtime accepts (for --help and error messages):
//   onnx-version-converter:OPSET  ONNX's C++ version converter (the libonnx the suite links),
//                                 converting to default-domain opset OPSET;
//   onnxruntime-optimizer:LEVEL[=LIBRARY]
//                                 ONNX Runtime's graph optimizers at LEVEL (disabled, basic,
//                                 extended, all), the model it writes with the optimized-model
//                                 path set (runtimes/onnxruntime.h, make_onnxruntime_optimizer);
//                                 at disabled, the model as ONNX Runtime loads it (functions
//                                 such as SequenceMap inlined);
//   process=COMMAND               any tool: COMMAND INPUT OUTPUT reads the model at the path
//                                 INPUT and writes its output model to the path OUTPUT; exit
//                                 status 0 when it did (adapters/README.md).
std::vector<std::string> known_transform_tools();

struct TransformOptions {
  int timeout_ms = 60000;  // per tool run and per check of its output; <= 0 waits forever
  // Where the output model of a case that did not pass is kept for the reader, as
  // <case folder name>.onnx (Runtime::kept_model); empty: kept nowhere.
  std::filesystem::path keep_dir;
};

// The tool named by `tool` (known_transform_tools), then `runtime`. Throws
// Error(invalid_argument) for an unknown tool or a bad argument (an opset the converter does not
// know).
std::unique_ptr<Runtime> make_transform_runtime(const std::string& tool,
                                                std::unique_ptr<Runtime> runtime,
                                                TransformOptions options = {});

// The names of types that `output` lost or changed against `input` (graph inputs, outputs and
// value_info, subgraphs included), one line each: "graph input 'x': seq(tensor(float)) became
// no type". Empty when every type `input` declares is still there, or became more precise.
std::vector<std::string> lost_types(const onnx::ModelProto& input, const onnx::ModelProto& output);

}  // namespace seqconf
