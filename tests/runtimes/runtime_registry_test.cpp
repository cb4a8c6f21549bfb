// make_runtime: the third-party runtime specs and the isolation option.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runtimes/onnxruntime.h"
#include "runtimes/registry.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

ErrorCode code_of(const std::string& spec) {
  try {
    make_runtime(spec);
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << spec << ": no error";
  return ErrorCode::io_error;
}

// A graph optimization level is ONNX Runtime's: asked of another runtime, it is refused rather
// than ignored.
TEST(Registry, GraphOptimizationIsForOnnxRuntimeOnly) {
  RuntimeOptions o;
  o.ort_graph_optimization = OrtGraphOptimization::disabled;
  for (const char* spec : {"reference", "seeded=at.int32_position_rejected", "onnxruntime-web"}) {
    try {
      make_runtime(spec, o);
      ADD_FAILURE() << spec << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << spec;
      EXPECT_NE(std::string(e.what()).find("'onnxruntime'"), std::string::npos) << e.what();
    }
  }
}

TEST(Registry, GraphOptimizationLevelNames) {
  for (auto level : {OrtGraphOptimization::disabled, OrtGraphOptimization::basic,
                     OrtGraphOptimization::extended, OrtGraphOptimization::all})
    EXPECT_EQ(ort_graph_optimization_from_name(ort_graph_optimization_name(level)), level);
  EXPECT_STREQ(ort_graph_optimization_name(OrtGraphOptimization::disabled), "disabled");
  EXPECT_FALSE(ort_graph_optimization_from_name("ALL"));
  EXPECT_FALSE(ort_graph_optimization_from_name(""));
}

TEST(Registry, RejectsBadSpecs) {
  EXPECT_EQ(code_of("process"), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of("no-such-runtime"), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of("onnxruntime-web=x"), ErrorCode::invalid_argument);
  const ErrorCode missing = code_of("onnxruntime=/nonexistent/libonnxruntime.so.1");
  EXPECT_TRUE(missing == ErrorCode::io_error || missing == ErrorCode::not_supported);
}

// The releases of ORT_VERSIONS: folders with a library, by release number (1.9 before 1.10);
// a folder without the library is not one.
TEST(Registry, OnnxRuntimeReleasesInReleaseOrder) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "seqconf-ort-releases";
  fs::remove_all(root);
  for (const char* v : {"1.10.0", "1.9.0", "1.17.3", "1.17.0"}) {
    fs::create_directories(root / v);
    std::ofstream(root / v / "libonnxruntime.so.1") << "not a library";
  }
  fs::create_directories(root / "1.20.1" / "npm");  // an install that did not finish
  ::setenv("SEQCONF_ORT_RELEASES", root.c_str(), 1);
  const auto libs = onnxruntime_release_libraries();
  ::unsetenv("SEQCONF_ORT_RELEASES");
  std::vector<std::string> versions;
  for (const auto& lib : libs) versions.push_back(lib.parent_path().filename().string());
  EXPECT_EQ(versions, (std::vector<std::string>{"1.9.0", "1.10.0", "1.17.0", "1.17.3"}));
  fs::remove_all(root);
}

TEST(Registry, ProcessSpecStartsTheCommand) {
  auto rt = make_runtime("process=/usr/bin/python3 " + std::string(SEQCONF_SOURCE_DIR) +
                         "/tests/runtimes/runtime_process_adapter.py echo sequences");
  EXPECT_EQ(rt->name(), "test-adapter");
}

// The isolated reference gives the same values as the reference, computed in a child.
TEST(Registry, IsolatedReferenceRuns) {
  RuntimeOptions options;
  options.isolate = true;
  options.timeout_ms = 20000;
  auto rt = make_runtime("reference", options);
  const auto model = single_node(
      "SequenceAt", {{"S", seq_type(DataType::int32)}, {"i", tensor_type(DataType::int64)}},
      {{"T", tensor_type(DataType::int32)}});
  RunError error;
  auto pm = rt->prepare({}, model, &error);
  ASSERT_TRUE(pm) << error.message;
  const Tensor a = make_tensor(DataType::int32, {2}, 0), b = make_tensor(DataType::int32, {3}, 5);
  // "Negative value means counting positions from the back": -1 is the last tensor.
  const RunResult r = pm->run({Sequence(DataType::int32, {a, b}), i64(-1)});
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_TRUE(r.outputs.at(0).identical(b));
}

}  // namespace
}  // namespace seqconf::testing
