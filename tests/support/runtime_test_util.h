// Helpers for the runtime tests: ONNX backend fixtures read directly (model.onnx,
// test_data_set_0/input_K.pb, output_K.pb) and a comparison with ONNX's tolerance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/proto.h"
#include "reference/value.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/runtime.h"
#include "tests/support/interpreter_model_util.h"

namespace seqconf::testing {

inline const std::filesystem::path kBackendData = "/usr/share/libonnx-testdata/data";

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

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Fixture {
  std::filesystem::path model_path;
  onnx::ModelProto model;
  std::vector<Value> inputs;
  std::vector<Value> outputs;
};

inline Fixture load_fixture(const std::string& name) {
  Fixture f;
  const auto dir = kBackendData / name;
  f.model_path = dir / "model.onnx";
  if (!f.model.ParseFromString(read_bytes(f.model_path)))
    throw Error(ErrorCode::invalid_proto, f.model_path.string() + ": not a ModelProto");
  std::vector<std::string> initializers;
  for (const auto& i : f.model.graph().initializer()) initializers.push_back(i.name());
  const auto data = dir / "test_data_set_0";
  int k = 0;
  for (const auto& in : f.model.graph().input()) {
    if (std::find(initializers.begin(), initializers.end(), in.name()) != initializers.end())
      continue;
    const auto p = data / ("input_" + std::to_string(k++) + ".pb");
    f.inputs.push_back(value_from_bytes(read_bytes(p), in.type(), p.string()));
  }
  k = 0;
  for (const auto& out : f.model.graph().output()) {
    const auto p = data / ("output_" + std::to_string(k++) + ".pb");
    f.outputs.push_back(value_from_bytes(read_bytes(p), out.type(), p.string()));
  }
  return f;
}

// ONNX's backend comparison: rtol 1e-3, atol 1e-7 for floating types, exact otherwise.
inline ::testing::AssertionResult tensors_close(const Tensor& expected, const Tensor& actual) {
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape())
    return ::testing::AssertionFailure()
           << "expected " << expected.describe() << ", got " << actual.describe();
  if (!is_floating(expected.dtype()))
    return expected.identical(actual) ? ::testing::AssertionSuccess()
                                      : ::testing::AssertionFailure() << "values differ";
  return visit_dtype(expected.dtype(), [&](auto tag) -> ::testing::AssertionResult {
    using T = typename decltype(tag)::type;
    auto to_c = [](const T& v) -> std::complex<double> {
      if constexpr (std::is_same_v<T, Float16>)
        return float16_to_float(v);
      else if constexpr (std::is_arithmetic_v<T>)
        return static_cast<double>(v);
      else if constexpr (std::is_same_v<T, std::string>)
        return 0.0;
      else
        return std::complex<double>(v.real(), v.imag());
    };
    if constexpr (std::is_same_v<T, std::string>) {
      return ::testing::AssertionFailure() << "unreachable";
    } else {
      for (size_t i = 0; i < expected.element_count(); ++i) {
        const auto e = to_c(expected.data<T>()[i]), a = to_c(actual.data<T>()[i]);
        if (std::isnan(e.real()) && std::isnan(a.real())) continue;
        if (std::abs(e - a) > 1e-7 + 1e-3 * std::abs(e))
          return ::testing::AssertionFailure()
                 << "element " << i << ": expected " << e.real() << ", got " << a.real();
      }
      return ::testing::AssertionSuccess();
    }
  });
}

inline ::testing::AssertionResult values_close(const Value& expected, const Value& actual) {
  if (expected.v.index() != actual.v.index())
    return ::testing::AssertionFailure()
           << "expected " << expected.describe() << ", got " << actual.describe();
  if (expected.is_tensor()) return tensors_close(expected.tensor(), actual.tensor());
  if (expected.is_sequence()) {
    const Sequence &e = expected.sequence(), &a = actual.sequence();
    if (e.size() != a.size() || e.elem_type() != a.elem_type())
      return ::testing::AssertionFailure()
             << "expected " << e.describe() << ", got " << a.describe();
    for (size_t i = 0; i < e.size(); ++i) {
      auto r = tensors_close(e.at(i), a.at(i));
      if (!r) return r << " (sequence position " << i << ")";
    }
    return ::testing::AssertionSuccess();
  }
  const Optional &e = expected.optional(), &a = actual.optional();
  if (!e.element || !a.element)
    return (!e.element && !a.element) ? ::testing::AssertionSuccess()
                                      : ::testing::AssertionFailure()
                                            << "expected " << expected.describe() << ", got "
                                            << actual.describe();
  return values_close(*e.element, *a.element);
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

}  // namespace seqconf::testing
