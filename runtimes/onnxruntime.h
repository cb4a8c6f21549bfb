// ONNX Runtime driven through its C API. The library is opened at run time (dlopen) from a
// path, so one build of the suite drives any ORT release whose C API reaches the version the
// suite needs (kOrtApiVersion, ORT 1.10 and later). Sequences go in and out natively.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtimes/runtime.h"

namespace seqconf {

// The lowest OrtApi version that has every call the adapter makes (HasValue arrived in 10).
inline constexpr unsigned kOrtApiVersion = 10;

// False when the suite was built without the ORT C API header (no third_party/onnxruntime):
// make_onnxruntime_runtime then throws not_supported.
bool onnxruntime_compiled_in();

// $SEQCONF_ORT_LIB if set, else the library tools/setup-runtimes.sh installs
// (third_party/onnxruntime/lib/libonnxruntime.so.1 under the source tree).
std::filesystem::path default_onnxruntime_library();

// The further ONNX Runtime releases tools/setup-runtimes.sh installs when ORT_VERSIONS is set:
// third_party/onnxruntime-releases/<version>/libonnxruntime.so.1 under the source tree (or
// under $SEQCONF_ORT_RELEASES), by ascending release number. Empty when there are none.
std::vector<std::filesystem::path> onnxruntime_release_libraries();

// The graph optimization level of ONNX Runtime's sessions (OrtApi::
// SetSessionGraphOptimizationLevel): disabled, basic, extended or all, the levels ONNX Runtime
// names ORT_DISABLE_ALL, ORT_ENABLE_BASIC, ORT_ENABLE_EXTENDED and ORT_ENABLE_ALL. all is ONNX
// Runtime's own default.
enum class OrtGraphOptimization { disabled, basic, extended, all };
const char* ort_graph_optimization_name(OrtGraphOptimization level);
// nullopt for a name that is none of the four.
std::optional<OrtGraphOptimization> ort_graph_optimization_from_name(std::string_view name);

// Opens the library and asks for API kOrtApiVersion. Throws Error(not_supported) when the
// build lacks the header or the library's API is older, Error(io_error) when dlopen fails.
// Sessions use `level`; at any level but all the runtime's name says it:
// "onnxruntime (graph optimization: disabled)".
std::unique_ptr<Runtime> make_onnxruntime_runtime(
    const std::filesystem::path& library, OrtGraphOptimization level = OrtGraphOptimization::all);

// ONNX Runtime's graph optimizers as a model-to-model tool (runtimes/transform.h): each call
// creates a session for the model at `level` with the optimized-model path set
// (OrtApi::SetOptimizedModelFilePath), and gives the model ONNX Runtime wrote, or false and
// ONNX Runtime's error (its kind as for a runtime: not_supported, invalid_input, internal).
using OrtOptimize =
    std::function<bool(const std::string& model_bytes, std::string* optimized, RunError* error)>;
// Opens the library as make_onnxruntime_runtime does (and throws as it does); *version is set to
// the library's version.
OrtOptimize make_onnxruntime_optimizer(const std::filesystem::path& library,
                                       OrtGraphOptimization level, std::string* version);

}  // namespace seqconf
