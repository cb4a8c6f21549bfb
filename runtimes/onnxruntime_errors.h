// How seqconf reads an error of ONNX Runtime: the rules of runtimes/onnxruntime_errors.json, the
// one table that the C API binding (onnxruntime.cpp), the onnxruntime-web adapter and a bundle's
// repro.js (through runtimes/onnxruntime_errors.js) all apply.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtimes/runtime.h"

namespace seqconf {

// The native library (the C API, onnxruntime-node) or the WebAssembly build (onnxruntime-web).
enum class OrtBuild { native, web };

struct OrtErrorRule {
  std::string id;  // "no_kernel", "safeint", "check", ...
  RunError::Kind kind = RunError::Kind::internal;
};

// The rule of the table that decides an error of the build: the first whose message the error's
// message contains (case ignored), else the first whose code is the error's (an OrtErrorCode;
// nullopt: none known); nullopt when none does.
std::optional<OrtErrorRule> onnxruntime_error_rule(std::string_view message,
                                                   std::optional<int> code, OrtBuild build);

// The kind of the first rule that matches; internal when none does.
RunError::Kind onnxruntime_error_kind(std::string_view message, std::optional<int> code,
                                      OrtBuild build);

// The table and the JavaScript that applies it, as a bundle folder carries them
// (onnxruntime_errors.json, onnxruntime_errors.js).
std::string_view onnxruntime_errors_json();
std::string_view onnxruntime_errors_js();

}  // namespace seqconf
