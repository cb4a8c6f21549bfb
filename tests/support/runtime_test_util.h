// Helpers for the runtime tests: the ONNX backend fixtures that use the sequence operators (read
// with cases/case.h's loader), single-node models, ONNX Runtime loaded once, and the releases
// the expectations files are written for (ONNX Runtime and onnxruntime-web 1.30.0).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "cases/case.h"
#include "cases/data_dir.h"
#include "harness/compare.h"
#include "reference/proto.h"
#include "reference/value.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/process.h"
#include "runtimes/runtime.h"
#include "tests/support/interpreter_model_util.h"

namespace seqconf::testing {

// The backend fixtures that use the sequence operators (directly, in a subgraph or through
// SequenceConstruct/SequenceLength), as listed in the spec notes.
inline std::vector<std::string> sequence_fixture_names() {
  return {"node/test_sequence_insert_at_back",
          "node/test_sequence_insert_at_front",
          "node/test_sequence_map_add_1_sequence_1_tensor",
          "node/test_sequence_map_add_1_sequence_1_tensor_expanded",
          "node/test_sequence_map_add_2_sequences",
          "node/test_sequence_map_add_2_sequences_expanded",
          "node/test_sequence_map_extract_shapes",
          "node/test_sequence_map_extract_shapes_expanded",
          "node/test_sequence_map_identity_1_sequence",
          "node/test_sequence_map_identity_1_sequence_1_tensor",
          "node/test_sequence_map_identity_1_sequence_1_tensor_expanded",
          "node/test_sequence_map_identity_1_sequence_expanded",
          "node/test_sequence_map_identity_2_sequences",
          "node/test_sequence_map_identity_2_sequences_expanded",
          "node/test_loop13_seq",
          "node/test_loop16_seq_none",
          "simple/test_sequence_model1",
          "simple/test_sequence_model2",
          "simple/test_sequence_model3",
          "simple/test_sequence_model4",
          "simple/test_sequence_model5",
          "simple/test_sequence_model6",
          "simple/test_sequence_model7",
          "simple/test_sequence_model8"};
}

inline std::string_view kind_str(RunError::Kind k) { return run_error_kind_name(k); }

// The ONNX backend fixture `name` ("node/test_loop13_seq") under default_onnx_testdata_root(),
// as a case: load_case (cases/case.h) reads it, compare_outputs (harness/compare.h) judges a
// runtime's outputs with its tolerance.
inline Case backend_case(const std::string& name) {
  Case c;
  c.id = "onnx-backend/" + name;
  c.source = "onnx-backend";
  c.dir = default_onnx_testdata_root() / name;
  return c;
}

// One node; graph inputs/outputs are the node's, in order.
inline onnx::ModelProto single_node(
    const std::string& op, const std::vector<std::pair<std::string, onnx::TypeProto>>& ins,
    const std::vector<std::pair<std::string, onnx::TypeProto>>& outs) {
  onnx::GraphProto g;
  g.set_name(op);
  std::vector<std::string> in_names, out_names;
  for (const auto& [name, type] : ins) {
    in_names.push_back(name);
    *g.add_input() = model::value_info(name, type);
  }
  for (const auto& [name, type] : outs) {
    out_names.push_back(name);
    *g.add_output() = model::value_info(name, type);
  }
  *g.add_node() = model::node(op, in_names, out_names);
  return model::make_model(std::move(g), 17, "", 8);
}

// ONNX Runtime, loaded once per test program; null with the reason in *why when it is not
// available (SEQCONF_ORT_LIB selects another library).
inline Runtime* ort(std::string* why) {
  static std::string reason;
  static std::unique_ptr<Runtime> rt = [] {
    try {
      return make_onnxruntime_runtime(default_onnxruntime_library());
    } catch (const std::exception& e) {
      reason = e.what();
      return std::unique_ptr<Runtime>();
    }
  }();
  *why = reason;
  return rt.get();
}

// ONNX Runtime 1.30.0, the release expectations/onnxruntime.json is written for, loaded for the
// caller; null with the reason in *why when it is unavailable or another release.
inline std::unique_ptr<Runtime> ort_1_30(std::string* why) {
  std::unique_ptr<Runtime> rt;
  try {
    rt = make_onnxruntime_runtime(default_onnxruntime_library());
  } catch (const std::exception& e) {
    *why = std::string("ONNX Runtime unavailable: ") + e.what();
    return nullptr;
  }
  if (rt->version() != "1.30.0") {
    *why = "expectations/onnxruntime.json is written for ONNX Runtime 1.30.0, this is " +
           rt->version();
    return nullptr;
  }
  return rt;
}

// The command that starts onnxruntime-web 1.30.0, the release expectations/onnxruntime-web.json
// is written for, through the shipped adapter; empty with the reason in *why when node, the
// adapter or the package is missing (SEQCONF_ORT_WEB selects another package), the adapter does
// not start, or it is another release.
inline std::string onnxruntime_web_1_30_command(std::string* why) {
  std::string reason;
  const std::string command = onnxruntime_web_command(&reason);
  if (command.empty()) {
    *why = "onnxruntime-web unavailable: " + reason;
    return {};
  }
  std::string version;
  try {
    version = make_process_runtime(command)->version();
  } catch (const std::exception& e) {
    *why = std::string("onnxruntime-web unavailable: ") + e.what();
    return {};
  }
  if (version != "1.30.0") {
    *why = "expectations/onnxruntime-web.json is written for onnxruntime-web 1.30.0, this is " +
           version;
    return {};
  }
  return command;
}

}  // namespace seqconf::testing
