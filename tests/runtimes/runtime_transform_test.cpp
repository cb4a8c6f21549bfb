// Model-to-model tools as runtimes (runtimes/transform.h): a tool that breaks models on purpose
// in each way (tests/runtimes/breaking_tool.py) gives the departure of that way, and ONNX's
// version converter loses the sequence types of graph inputs (onnx issue 3984).
#include <gtest/gtest.h>

#include <filesystem>

#include "cases/case.h"
#include "harness/runner.h"
#include "reference/error.h"
#include "reference/model_builder.h"
#include "reference/proto.h"
#include "runtimes/registry.h"
#include "runtimes/transform.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;

const std::string kRepo = SEQCONF_SOURCE_DIR;

// A valid case whose sequence is a graph input, a valid one built from Constant nodes of float
// values, and a must-reject one (position -n-1 is out of bounds).
const std::string kValidInputs =
    "corpus/SequenceAt/position=-1/ptype=int32/dtype=float/n=5/context=inputs";
const std::string kValidConstant =
    "corpus/SequenceAt/position=1/ptype=int32/dtype=float/n=5/context=all_constant";
const std::string kMustReject =
    "corpus/SequenceAt/position=-n-1/ptype=int32/dtype=float/n=5/context=inputs";

Case corpus_case(const std::string& id) {
  CaseSelection s;
  s.source = "corpus";
  s.corpus = kRepo + "/fixtures/corpus";
  s.filters = {id};
  const auto cases = select_cases(s, nullptr);
  if (cases.size() != 1) throw std::runtime_error("no single corpus case " + id);
  return cases.front();
}

std::string breaking(const std::string& mode) {
  return "process=/usr/bin/python3 " + kRepo + "/tests/runtimes/breaking_tool.py " + mode;
}

Outcome run_through(const std::string& tool, const std::string& id, int timeout_ms = 60000,
                    const fs::path& keep = {}) {
  RuntimeOptions options;
  options.timeout_ms = timeout_ms;
  options.keep_models_dir = keep;
  auto runtime = make_runtime("transform=" + tool, options);
  RunOptions run;
  run.static_checks = false;
  return run_case(corpus_case(id), *runtime, run);
}

struct Breakage {
  const char* mode;
  const std::string* case_id;
  Status status;
  Reason reason;
};

TEST(Transform, EachWayOfBreakingAModelIsTheToolsDeparture) {
  const Breakage table[] = {
      {"identity", &kValidInputs, Status::pass, Reason::none},
      {"identity", &kMustReject, Status::pass, Reason::none},
      {"fail", &kValidInputs, Status::error, Reason::tool_failed},
      // A tool that refuses a model that must be rejected rejects it.
      {"fail", &kMustReject, Status::pass, Reason::none},
      {"silent", &kValidInputs, Status::error, Reason::tool_failed},
      {"crash", &kValidInputs, Status::crash, Reason::tool_crash},
      // A crash is never a correct rejection.
      {"crash", &kMustReject, Status::crash, Reason::tool_crash},
      {"garbage", &kValidInputs, Status::error, Reason::tool_invalid_model},
      {"invalid", &kValidInputs, Status::error, Reason::tool_invalid_model},
      {"drop-type", &kValidInputs, Status::error, Reason::tool_lost_type},
      {"drop-type", &kMustReject, Status::error, Reason::tool_lost_type},
      {"negate", &kValidConstant, Status::fail, Reason::value_mismatch},
  };
  for (const Breakage& b : table) {
    const Outcome o = run_through(breaking(b.mode), *b.case_id);
    EXPECT_EQ(o.status, b.status) << b.mode << " on " << *b.case_id << ": " << o.message;
    EXPECT_EQ(o.reason, b.reason) << b.mode << " on " << *b.case_id << ": " << o.message;
  }
}

TEST(Transform, AToolThatHangsIsStoppedAtTheTimeLimit) {
  const Outcome o = run_through(breaking("hang"), kValidInputs, 2000);
  EXPECT_EQ(o.status, Status::timeout) << o.message;
  EXPECT_EQ(o.reason, Reason::tool_timeout) << o.message;
}

TEST(Transform, TheMessageSaysWhatTheToolDid) {
  EXPECT_NE(run_through(breaking("fail"), kValidInputs).message.find("refusing this model"),
            std::string::npos);
  EXPECT_NE(run_through(breaking("crash"), kValidInputs).message.find("SIGSEGV"),
            std::string::npos);
  const Outcome lost = run_through(breaking("drop-type"), kValidInputs);
  EXPECT_NE(lost.message.find("graph input 'input_sequence': seq(tensor(float)) became no type"),
            std::string::npos)
      << lost.message;
}

// The model the tool made is kept beside the report for a case that did not pass, and only then.
TEST(Transform, TheToolsModelIsKeptForACaseThatDidNotPass) {
  const fs::path keep = fs::temp_directory_path() / ("seqconf-kept-" + std::to_string(::getpid()));
  fs::remove_all(keep);
  const Outcome failed = run_through(breaking("negate"), kValidConstant, 60000, keep);
  ASSERT_EQ(failed.status, Status::fail);
  ASSERT_FALSE(failed.kept_model.empty());
  const onnx::ModelProto kept = read_model(failed.kept_model);
  const onnx::ModelProto original = read_model(corpus_case(kValidConstant).dir / "model.onnx");
  EXPECT_NE(kept.SerializeAsString(), original.SerializeAsString());
  const Outcome passed = run_through(breaking("identity"), kValidInputs, 60000, keep);
  EXPECT_EQ(passed.status, Status::pass);
  EXPECT_TRUE(passed.kept_model.empty());
  // The failed case's file, and nothing for the passing one.
  EXPECT_EQ(std::distance(fs::directory_iterator(keep), fs::directory_iterator()), 1);
  fs::remove_all(keep);
}

// onnx issue 3984: the converter exports a sequence-typed graph input with no type.
TEST(Transform, OnnxVersionConverterLosesTheSequenceTypeOfAGraphInput) {
  const Outcome o = run_through("onnx-version-converter:17", kValidInputs);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_EQ(o.reason, Reason::tool_lost_type);
  EXPECT_NE(o.message.find("graph input 'input_sequence': seq(tensor(float)) became no type"),
            std::string::npos)
      << o.message;
  // Without a sequence-typed input or value_info there is nothing to lose: the converted model
  // runs on the reference and gives the case's outputs.
  EXPECT_EQ(run_through("onnx-version-converter:17", kValidConstant).status, Status::pass);
}

// Below an operator's first opset the converter has nothing to convert to: not a defect.
TEST(Transform, AnOpsetWithoutTheOperatorIsNotSupported) {
  const Outcome o = run_through("onnx-version-converter:10", kValidInputs);
  EXPECT_EQ(o.status, Status::not_supported) << o.message;
  EXPECT_NE(o.message.find("SequenceAt (first in opset 11) has no version at opset 10"),
            std::string::npos)
      << o.message;
}

TEST(Transform, BadSpellingsAreInvalidArguments) {
  for (const std::string spec :
       {"transform=", "transform=onnx-version-converter:99", "transform=onnx-version-converter:x",
        "transform=no-such-tool", "transform=onnx-version-converter:17,transform=process=x"}) {
    try {
      make_runtime(spec);
      ADD_FAILURE() << spec << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << spec << ": " << e.what();
    }
  }
}

TEST(Transform, TheRuntimeAfterTheToolIsTheTextAfterTheLastCommaWhenItNamesOne) {
  EXPECT_EQ(make_runtime("transform=onnx-version-converter:17")->name(),
            "transform onnx-version-converter:17, then reference");
  EXPECT_EQ(make_runtime("transform=onnx-version-converter:17,reference")->name(),
            "transform onnx-version-converter:17, then reference");
  // A command's own commas stay in the command.
  EXPECT_EQ(make_runtime("transform=process=tool --keep a,b")->name(),
            "transform process=tool --keep a,b, then reference");
}

// ONNX Runtime's own model of a case, run on the reference. ORT inlines SequenceMap's function
// body, whose formal inputs are named after the schema (input_sequence, ...); a body that reads
// the enclosing graph's input_sequence then reads SequenceMap's own first input instead
// (expectations/onnxruntime.json). The reference gives the case's outputs on the original model,
// so the changed result is the optimizer's.
TEST(Transform, OnnxRuntimesOwnModelOfASequenceMapCaseChangesTheResult) {
  std::string why;
  if (!ort(&why)) GTEST_SKIP() << "ONNX Runtime unavailable: " << why;
  const std::string id =
      "corpus/SequenceAt/position=-1/ptype=int64/dtype=int64/n=5/context=sequence_map_body";
  const fs::path keep =
      fs::temp_directory_path() / ("seqconf-ort-kept-" + std::to_string(::getpid()));
  for (const std::string level : {"disabled", "basic"}) {
    const Outcome o = run_through("onnxruntime-optimizer:" + level, id, 60000, keep);
    EXPECT_EQ(o.status, Status::fail) << level << ": " << o.message;
    EXPECT_EQ(o.reason, Reason::shape_mismatch) << level << ": " << o.message;
    ASSERT_FALSE(o.kept_model.empty());
    // The Loop ONNX Runtime made of SequenceMap, whose SequenceAt reads the samples.
    const onnx::ModelProto m = read_model(o.kept_model);
    const onnx::GraphProto* body = nullptr;
    for (const auto& n : m.graph().node())
      if (n.op_type() == "Loop") body = &n.attribute(0).g();
    ASSERT_TRUE(body) << level;
    bool reads_samples = false;
    for (const auto& n : body->node())
      reads_samples |= n.op_type() == "SequenceAt" && n.input(0) == "ctx_samples";
    EXPECT_TRUE(reads_samples) << level;
  }
  fs::remove_all(keep);
  EXPECT_EQ(run_through("onnxruntime-optimizer:basic", kValidInputs).status, Status::pass);
}

// SequenceMap's inlined Loop rejects a second sequence shorter than the first in its SequenceAt,
// not as SequenceMap: on the tool's model a rejection counts whatever the reference's code.
TEST(Transform, ARejectionOfTheToolsModelCountsWhateverItsCode) {
  std::string why;
  if (!ort(&why)) GTEST_SKIP() << "ONNX Runtime unavailable: " << why;
  const Outcome o = run_through("onnxruntime-optimizer:basic",
                                "corpus/SequenceMap/body=identity2/inputs=seq,seq/dtype=float/n=3/"
                                "lengths=3,2/context=inputs");
  EXPECT_EQ(o.status, Status::pass) << o.message;
}

// At extended ONNX Runtime fuses Conv and Relu into its own com.microsoft FusedConv: the result
// is not standard ONNX, so no other runtime can judge it.
TEST(Transform, AnOptimizedModelWithOnnxRuntimesOwnOperatorsIsNotSupported) {
  std::string why;
  if (!ort(&why)) GTEST_SKIP() << "ONNX Runtime unavailable: " << why;
  onnx::GraphProto g;
  *g.add_input() = model::value_info("x", tensor_type(DataType::float32, {1, 1, 3, 3}));
  *g.add_output() = model::value_info("y", tensor_type(DataType::float32, {1, 1, 3, 3}));
  *g.add_initializer() = tensor_to_proto(f32({1, 1, 1, 1}, {2.0f}), TensorEncoding::raw_data, "w");
  *g.add_node() = model::node("Conv", {"x", "w"}, {"c"});
  *g.add_node() = model::node("Relu", {"c"}, {"y"});
  const onnx::ModelProto m = model::make_model(g, 13);
  RunError error;
  // At basic the model stays standard ONNX and goes on to the reference (which lacks Conv).
  EXPECT_FALSE(make_runtime("transform=onnxruntime-optimizer:basic")
                   ->prepare("/nowhere/conv_relu/model.onnx", m, &error));
  EXPECT_EQ(error.message.find("com.microsoft"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("Conv"), std::string::npos) << error.message;
  EXPECT_FALSE(make_runtime("transform=onnxruntime-optimizer:extended")
                   ->prepare("/nowhere/conv_relu/model.onnx", m, &error));
  EXPECT_EQ(error.kind, RunError::Kind::not_supported) << error.message;
  EXPECT_NE(error.message.find("com.microsoft.FusedConv"), std::string::npos) << error.message;
}

onnx::ValueInfoProto info(const std::string& name, const onnx::TypeProto& t) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  *v.mutable_type() = t;
  return v;
}

TEST(LostTypes, NamesALostOrChangedTypeAndAcceptsAMorePreciseOne) {
  onnx::ModelProto before;
  auto* g = before.mutable_graph();
  *g->add_input() = info("s", seq_type(DataType::float32));
  *g->add_output() = info("y", tensor_type(DataType::float32));
  *g->add_value_info() = info("t", tensor_type(DataType::int64));
  EXPECT_TRUE(lost_types(before, before).empty());

  onnx::ModelProto refined = before;
  auto* dim = refined.mutable_graph()
                  ->mutable_output(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->add_dim();
  dim->set_dim_value(3);
  refined.mutable_graph()->clear_value_info();  // value_info is optional: dropping it is fine
  EXPECT_TRUE(lost_types(before, refined).empty());

  onnx::ModelProto untyped = before;
  untyped.mutable_graph()->mutable_input(0)->clear_type();
  EXPECT_EQ(lost_types(before, untyped),
            std::vector<std::string>{"graph input 's': seq(tensor(float)) became no type"});

  onnx::ModelProto retyped = before;
  *retyped.mutable_graph()->mutable_input(0)->mutable_type() = tensor_type(DataType::float32);
  *retyped.mutable_graph()->mutable_value_info(0)->mutable_type() = tensor_type(DataType::int32);
  EXPECT_EQ(lost_types(before, retyped),
            (std::vector<std::string>{"graph input 's': seq(tensor(float)) became tensor(float)",
                                      "value_info 't': tensor(int64) became tensor(int32)"}));
}

}  // namespace
}  // namespace seqconf::testing
