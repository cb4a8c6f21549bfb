// Any runtime behind a process: the seqconf-runtime/1 protocol, JSON lines over the child's
// stdin and stdout (the README has the full description).
//
//   child  -> {"protocol":"seqconf-runtime/1","name":N,"version":V,
//              "capabilities":{"sequences":bool}}                        (once, at start)
//   seqconf-> {"id":I,"model":PATH,"inputs":[PATH...],"output_dir":DIR}  (one per run)
//   child  -> {"id":I,"ok":true,"outputs":[PATH...]}
//          |  {"id":I,"ok":false,"error":{"kind":"not_supported|invalid_input|internal",
//                                          "message":M}}
//
// Inputs and outputs are serialized TensorProto / SequenceProto / OptionalProto files, chosen
// by the graph's declared input and output types. When the child declares sequences:false,
// the model is rewritten ("lifted") so that only tensors cross the boundary: a sequence input
// of length N becomes N tensor inputs joined by SequenceConstruct (SequenceEmpty when N = 0);
// a sequence output becomes SequenceLength, then, once the length L is known, L SequenceAt
// outputs; the results are mapped back to the original inputs' and outputs' values.
#pragma once

#include <memory>
#include <string>

#include "onnx/onnx_pb.h"
#include "runtimes/runtime.h"

namespace seqconf {

struct ProcessOptions {
  int timeout_ms = 60000;  // handshake and each answer; the child is killed and restarted after
};

// Starts `sh -c command` and reads the handshake. Throws Error(io_error) when the child cannot
// be started or does not answer with the protocol's handshake.
std::unique_ptr<Runtime> make_process_runtime(const std::string& command,
                                              ProcessOptions options = {});

// The command that starts the shipped onnxruntime-web adapter (adapters/onnxruntime-web under
// Node), or empty with *why_not set when node, the adapter or the package is missing.
std::string onnxruntime_web_command(std::string* why_not);

// The lifting rewrite, exposed for tests: the model with each sequence input i replaced by
// input_lengths[i] tensor inputs (ignored for tensor inputs), and each sequence output j
// replaced by SequenceLength (output_lengths empty) or by output_lengths[j] SequenceAt outputs.
// Throws Error(not_supported) for optional inputs or outputs.
// The name of the k-th lifted value of a graph input or output: what is "item" (the tensors of a
// sequence input), "length" (SequenceLength of a sequence output) or "at" (its k-th tensor).
std::string lifted_name(const std::string& name, const char* what, size_t k);

onnx::ModelProto lift_sequences(const onnx::ModelProto& model,
                                const std::vector<size_t>& input_lengths,
                                const std::vector<size_t>* output_lengths);

}  // namespace seqconf
