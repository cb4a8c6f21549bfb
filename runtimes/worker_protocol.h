// The messages between an isolated runtime and its worker (not part of the runtimes' interface):
// their fields, and the values and run results they carry; see isolated.h.
#pragma once

#include <string>
#include <vector>

#include "reference/value.h"
#include "runtimes/isolated.h"
#include "runtimes/runtime.h"

namespace seqconf::worker_protocol {

// Messages are frames: a uint64 length, then the payload. A payload is a list of
// length-prefixed fields. Values travel as their ONNX proto (TensorProto, SequenceProto or
// OptionalProto) next to their TypeProto, so an empty sequence keeps its element type.
inline void put(std::string& out, const std::string& s) { put_field(out, s); }
using Reader = FieldReader;

void put_values(std::string& out, const std::vector<Value>& values);
std::vector<Value> get_values(Reader& in, const std::string& what);

// A run's result as an answer, and back.
std::string encode(const RunResult& r);
RunResult decode(const std::string& bytes);

// A run that failed with `kind` and `message`.
RunResult failure(RunError::Kind kind, std::string message);

}  // namespace seqconf::worker_protocol
