// Regression tests of robustness fixes: sizes checked before allocating, no unbounded loops on
// empty tensors with huge dimensions, errors that name the file they come from. Each test
// would end in std::bad_alloc / std::length_error / std::out_of_range, a hang, or a message
// without the file name before its fix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <thread>

#include "cases/case.h"
#include "harness/runner.h"
#include "reference/interpreter/interpreter.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"
#include "reference/support/support_ops.h"
#include "runtimes/reference_runtime.h"

namespace seqconf {
namespace {

namespace fs = std::filesystem;

template <class F>
ErrorCode code_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no seqconf::Error thrown";
  return ErrorCode::io_error;
}

constexpr int64_t k2to20 = int64_t{1} << 20;

Tensor ints(std::vector<int64_t> v) {
  const auto n = static_cast<int64_t>(v.size());
  return Tensor::from_values<DataType::int64>({n}, std::move(v));
}

TEST(HardeningLimits, AddChecksTheBroadcastSizeBeforeAllocating) {
  // [2^20, 1] + [1, 2^20] broadcasts to 2^40 elements.
  const Tensor a = Tensor::zeros(DataType::int8, {k2to20, 1});
  const Tensor b = Tensor::zeros(DataType::int8, {1, k2to20});
  EXPECT_EQ(code_of([&] { support::Add(a, b); }), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, ConcatFromSequenceChecksTheTotalBeforeAllocating) {
  // 2^16 handles on one 2^24-byte tensor concatenate to 2^40 bytes.
  const Tensor t = Tensor::zeros(DataType::int8, {int64_t{1} << 24});
  const Sequence s(DataType::int8, std::vector<Tensor>(size_t{1} << 16, t));
  EXPECT_EQ(code_of([&] { ops::ConcatFromSequence(s, 0, 0); }), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, StringZerosChecksTheLimitBeforeAllocating) {
  EXPECT_EQ(code_of([] { Tensor::zeros(DataType::string, {int64_t{1} << 40}); }),
            ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, SplitToSequenceOfAnEmptyTensorWithAHugeAxis) {
  // Shape [2^40, 0] has no element, yet splitting axis 0 in chunks of 1 would make 2^40
  // tensors: the chunk count is bounded by the same limit.
  const Tensor x = Tensor::zeros(DataType::float32, {int64_t{1} << 40, 0});
  Context ctx;
  EXPECT_EQ(code_of([&] { ops::SplitToSequence(x, std::nullopt, 0, 1, ctx); }),
            ErrorCode::limit_exceeded);
  const Tensor one = Tensor::from_values<DataType::int64>({}, {1});
  EXPECT_EQ(code_of([&] { ops::SplitToSequence(x, one, 0, 1, ctx); }), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, SplitToSequenceScalarSplitNearInt64Max) {
  // Axis length 2^63 - 1 in chunks of 2^63 - 2: "Last chunk will be smaller", so two chunks of
  // lengths 2^63 - 2 and 1 (the tensor has no element: its other axis is 0).
  const int64_t max = std::numeric_limits<int64_t>::max();
  const Tensor x = Tensor::zeros(DataType::float32, {max, 0});
  const Tensor split = Tensor::from_values<DataType::int64>({}, {max - 1});
  Context ctx;
  const Sequence s = ops::SplitToSequence(x, split, 0, 1, ctx);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.at(0).shape(), (Shape{max - 1, 0}));
  EXPECT_EQ(s.at(1).shape(), (Shape{1, 0}));
}

TEST(HardeningLimits, SplitToSequenceOfAnEmptyTensorWithAHugeOuterAxis) {
  // Shape [2^40, 0] split along axis 1 by [0, 0] (zero entries: lenient policy): two chunks
  // of shape [2^40, 0], without a pass over the 2^40 outer rows.
  const Tensor x = Tensor::zeros(DataType::float32, {int64_t{1} << 40, 0});
  Context ctx;
  const Sequence s = ops::SplitToSequence(x, ints({0, 0}), 1, 1, ctx);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.at(1).shape(), (Shape{int64_t{1} << 40, 0}));
}

TEST(HardeningLimits, SplitToSequenceWithinTheLimitStillSplits) {
  // Control: an empty tensor of shape [5, 0] gives 5 chunks of shape [1, 0] (keepdims=1).
  const Tensor x = Tensor::zeros(DataType::float32, {5, 0});
  Context ctx;
  const Sequence s = ops::SplitToSequence(x, std::nullopt, 0, 1, ctx);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s.at(4).shape(), (Shape{1, 0}));
}

TEST(HardeningLimits, ConcatFromSequenceAxisLengthOverflow) {
  // Tensors without elements may have any dimension: 2^62 + 2^62 does not fit in int64.
  const Tensor t = Tensor::zeros(DataType::int8, {int64_t{1} << 62, 0});
  const Sequence s(DataType::int8, {t, t});
  EXPECT_EQ(code_of([&] { ops::ConcatFromSequence(s, 0, 0); }), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, ConcatFromSequenceOfEmptyTensorsWithAHugeOuterAxis) {
  // [2^40, 0] and [2^40, 0] along axis 1 give [2^40, 0]: no element, and no loop over 2^40.
  const Tensor t = Tensor::zeros(DataType::bool_, {int64_t{1} << 40, 0});
  const Tensor y = ops::ConcatFromSequence(Sequence(DataType::bool_, {t, t}), 1, 0);
  EXPECT_EQ(y.shape(), (Shape{int64_t{1} << 40, 0}));
}

// Loop(M, "", v) -> y whose body passes cond and v through; nested: the body's v_out comes
// from the same loop run again on v_in (M read from the outer scope).
onnx::ModelProto loop_model(bool nested) {
  auto typed = [](onnx::ValueInfoProto* v, const char* name, int32_t elem) {
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  };
  auto identity = [](onnx::GraphProto* g, const char* in, const char* out) {
    auto* n = g->add_node();
    n->set_op_type("Identity");
    n->add_input(in);
    n->add_output(out);
  };
  auto loop = [&](onnx::GraphProto* g, const char* in, const char* out) {
    auto* n = g->add_node();
    n->set_op_type("Loop");
    n->add_input("M");
    n->add_input("");
    n->add_input(in);
    n->add_output(out);
    auto* a = n->add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* b = a->mutable_g();
    b->set_name("body");
    identity(b, "cond", "cond_out");
    typed(b->add_input(), "i", 7);
    typed(b->add_input(), "cond", 9);
    typed(b->add_input(), "v_in", 1);
    typed(b->add_output(), "cond_out", 9);
    typed(b->add_output(), "v_out", 1);
    return b;
  };
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("loop");
  onnx::GraphProto* outer_body = loop(g, "v", "y");
  if (nested)
    identity(loop(outer_body, "v_in", "v_out"), "v_in", "v_out");
  else
    identity(outer_body, "v_in", "v_out");
  typed(g->add_input(), "M", 7);
  typed(g->add_input(), "v", 1);
  typed(g->add_output(), "y", 1);
  return m;
}

ErrorCode run_loop_model(bool nested, int64_t trip_count) {
  Context ctx;
  return code_of([&] {
    interp::run_model(loop_model(nested),
                      {Tensor::from_values<DataType::int64>({}, {trip_count}),
                       Tensor::from_values<DataType::float32>({}, {1.0f})},
                      ctx);
  });
}

TEST(HardeningLimits, LoopIterationsAreBoundedPerEvaluation) {
  const TensorLimit limit(1000 * sizeof(Tensor));  // a budget of 1000 subgraph runs
  // Control: 20 outer iterations of 20 inner ones (420 runs) fit; the loops pass v through.
  {
    Context ctx;
    const auto out = interp::run_model(loop_model(true),
                                       {Tensor::from_values<DataType::int64>({}, {20}),
                                        Tensor::from_values<DataType::float32>({}, {2.5f})},
                                       ctx);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].tensor().data<float>()[0], 2.5f);
  }
  EXPECT_EQ(run_loop_model(false, 1001), ErrorCode::limit_exceeded);
  // Nested: 40 outer iterations of 40 inner ones (1640 runs) exceed the budget although each
  // loop alone stays below it.
  EXPECT_EQ(run_loop_model(true, 40), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, LoopWorkIsBoundedByTheBytesItsNodesReadAndWrite) {
  // The same 1000 iterations (below the subgraph-run budget) fit a 1 MiB work budget when v is
  // a scalar (each iteration: a body run and two Identity runs of 256 each, plus a few bytes)
  // but not when v has 1024 floats (each iteration's Identity reads and writes 8 KiB).
  auto run = [](const Tensor& v) {
    Context ctx;
    ctx.work_budget = size_t{1} << 20;
    return interp::run_model(loop_model(false),
                             {Tensor::from_values<DataType::int64>({}, {1000}), v}, ctx);
  };
  const auto out = run(Tensor::from_values<DataType::float32>({}, {2.5f}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tensor().data<float>()[0], 2.5f);
  try {
    run(Tensor::zeros(DataType::float32, {1024}));
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::limit_exceeded);
    EXPECT_NE(std::string(e.what()).find("work budget of 1048576 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(HardeningLimits, DefaultWorkBudgetFollowsMaxTensorBytes) {
  // 16 x max_tensor_bytes: 16 x 64 KiB = 1 MiB. With v of 1024 floats each iteration costs
  // more than 8 KiB, so 50 iterations fit and 200 do not (both below the subgraph-run budget
  // of 64 KiB / sizeof(Tensor)).
  const TensorLimit limit(64 << 10);
  ASSERT_GT((64u << 10) / sizeof(Tensor), 200u);
  auto run = [](int64_t trips) {
    Context ctx;
    interp::run_model(loop_model(false),
                      {Tensor::from_values<DataType::int64>({}, {trips}),
                       Tensor::zeros(DataType::float32, {1024})},
                      ctx);
  };
  EXPECT_NO_THROW(run(50));
  try {
    run(200);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::limit_exceeded);
    EXPECT_NE(std::string(e.what()).find("work budget of 1048576 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(HardeningSplit, SplitEntriesWhoseSumOverflowsDoNotSumToTheAxis) {
  // 1 + (2^63 - 1) + (2^63 - 1) + 2 wraps to 1 in 64-bit arithmetic: the axis length of [1].
  const int64_t max = std::numeric_limits<int64_t>::max();
  const Tensor x = Tensor::from_values<DataType::float32>({1}, {1.0f});
  Context ctx;
  EXPECT_EQ(code_of([&] {
              ops::SplitToSequence(x, ints({1, max, max, 2}), 0, 1, ctx);
            }),
            ErrorCode::split_sum_mismatch);
  EXPECT_EQ(code_of([&] {
              ops::SplitToSequence(x, ints({2, max}), 0, 1, ctx);
            }),
            ErrorCode::split_sum_mismatch);
}

TEST(HardeningSlice, NegativeStepOnAnEmptyAxisSelectsNothing) {
  // numpy: np.zeros(0)[-1:-10:-1] has shape (0,).
  const Tensor x = Tensor::zeros(DataType::float32, {0});
  const Tensor y = support::Slice(x, ints({-1}), ints({-10}), ints({0}), ints({-1}));
  EXPECT_EQ(y.shape(), (Shape{0}));
}

TEST(HardeningSlice, ExtremeStepsSelectOneElement) {
  // numpy: a[0:5:2**63-1] == [a[0]] and a[4:-6:-2**63] == [a[4]] for a = [0, 1, 2, 3, 4].
  const Tensor x = Tensor::from_values<DataType::int64>({5}, {0, 1, 2, 3, 4});
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  const Tensor up = support::Slice(x, ints({0}), ints({5}), ints({0}), ints({max}));
  ASSERT_EQ(up.shape(), (Shape{1}));
  EXPECT_EQ(up.int_at(0), 0);
  const Tensor down = support::Slice(x, ints({4}), ints({-6}), ints({0}), ints({min}));
  ASSERT_EQ(down.shape(), (Shape{1}));
  EXPECT_EQ(down.int_at(0), 4);
}

TEST(HardeningLimits, TheLimitBelongsToTheThreadThatInstalledIt) {
  // Two runs in one process with different limits: a limit installed on one thread leaves
  // another thread's at the default, and ends with its scope.
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(2);
  p.add_float_data(1);
  p.add_float_data(2);  // 8 bytes
  std::promise<void> installed, checked;
  std::thread small([&] {
    const TensorLimit limit(7);
    installed.set_value();
    checked.get_future().wait();
    EXPECT_EQ(max_tensor_bytes(), 7u);
    EXPECT_EQ(code_of([&] { tensor_from_proto(p); }), ErrorCode::limit_exceeded);
  });
  installed.get_future().wait();
  EXPECT_EQ(max_tensor_bytes(), kDefaultMaxTensorBytes);
  EXPECT_EQ(tensor_from_proto(p).element_count(), 2u);
  checked.set_value();
  small.join();
  {
    const TensorLimit limit(7);
    EXPECT_EQ(Context().max_tensor_bytes, 7u);  // a Context takes its thread's limit
  }
  EXPECT_EQ(max_tensor_bytes(), kDefaultMaxTensorBytes);
  EXPECT_EQ(Context().max_tensor_bytes, kDefaultMaxTensorBytes);
}

TEST(HardeningLimits, TheInterpreterRunsUnderTheLimitOfItsContext) {
  // Loop of 1000 iterations passing v through: within the default, past a Context limit of
  // 100 tensor handles (the subgraph-run budget), whatever the thread's limit.
  auto run = [](size_t limit) {
    Context ctx;
    ctx.max_tensor_bytes = limit;
    interp::run_model(loop_model(false),
                      {Tensor::from_values<DataType::int64>({}, {1000}),
                       Tensor::from_values<DataType::float32>({}, {1.0f})},
                      ctx);
  };
  EXPECT_NO_THROW(run(kDefaultMaxTensorBytes));
  EXPECT_EQ(code_of([&] { run(100 * sizeof(Tensor)); }), ErrorCode::limit_exceeded);
}

TEST(HardeningLimits, MaxTensorBytesIsCheckedWhenDecoding) {
  const TensorLimit limit(7);
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(2);
  p.add_float_data(1);
  p.add_float_data(2);  // 8 bytes
  EXPECT_EQ(code_of([&] { tensor_from_proto(p); }), ErrorCode::limit_exceeded);
  const TensorLimit at(8);
  EXPECT_EQ(tensor_from_proto(p).element_count(), 2u);
}

TEST(HardeningFileNames, DecodingErrorsInsideAMessageNameTheFile) {
  // A SequenceProto whose second tensor has 3 bytes of raw_data for one float.
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  auto* t = s.add_tensor_values();
  t->set_data_type(1);
  t->add_dims(1);
  t->set_raw_data(std::string(3, '\0'));
  onnx::TypeProto declared;
  declared.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  try {
    value_from_bytes(s.SerializeAsString(), declared, "dir/input_0.pb");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_proto);
    EXPECT_NE(std::string(e.what()).find("dir/input_0.pb"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("raw_data has 3 bytes"), std::string::npos) << e.what();
  }
}

onnx::TypeProto float_sequence_type() {
  onnx::TypeProto t;
  t.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  return t;
}

TEST(HardeningFileNames, AnotherMessageTypeIsRejected) {
  // A ModelProto parses as a SequenceProto with only unknown fields (ir_version is field 1, a
  // varint, where SequenceProto has the string name): it must not decode as an empty sequence.
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(11);
  try {
    value_from_bytes(m.SerializeAsString(), float_sequence_type(), "dir/input_0.pb");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_proto);
    EXPECT_NE(std::string(e.what()).find("dir/input_0.pb: not a valid onnx.SequenceProto"),
              std::string::npos)
        << e.what();
  }
}

TEST(HardeningFileNames, FieldsOfANewerOnnxAreTolerated) {
  // Control: a field number above every field SequenceProto defines is kept as unknown and
  // does not make the message invalid.
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  std::string bytes = s.SerializeAsString();
  bytes += std::string("\xa0\x06\x01", 3);  // field 100, varint 1
  const Value v = value_from_bytes(bytes, float_sequence_type(), "input_0.pb");
  ASSERT_TRUE(v.is_sequence());
  EXPECT_EQ(v.sequence().size(), 0u);
}

// A scratch folder under the test's working directory.
fs::path scratch(const std::string& name) {
  const fs::path d = fs::current_path() / ("hardening_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void copy_case(const fs::path& from, const fs::path& to) {
  fs::copy(from, to, fs::copy_options::recursive);
}

const fs::path kControl = fs::path(SEQCONF_MALFORMED) / "corpus" / "00_control_valid";

TEST(HardeningFileNames, AHugeDataSetNumberIsAnErrorNamingTheFolder) {
  const fs::path d = scratch("huge_number") / "case";
  copy_case(kControl, d);
  fs::rename(d / "test_data_set_0", d / "test_data_set_99999999999999999999");
  Case c;
  c.dir = d;
  try {
    load_case(c);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test_data_set_99999999999999999999"), std::string::npos)
        << e.what();
  }
}

TEST(HardeningFileNames, ABackendFolderWithDataButNoModelIsReported) {
  const fs::path root = scratch("no_model");
  copy_case(kControl, root / "test_x");
  fs::remove(root / "test_x" / "case.json");
  fs::remove(root / "test_x" / "model.onnx");
  const auto cases = discover_onnx_backend(root);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].id, "onnx-backend/test_x");
  EXPECT_NE(cases[0].load_error.find((root / "test_x" / "model.onnx").string()), std::string::npos)
      << cases[0].load_error;
}

TEST(HardeningFileNames, AModelTheRuntimeRejectsIsNamedInTheOutcome) {
  const fs::path dir = fs::path(SEQCONF_MALFORMED) / "corpus" / "graph_cycle";
  auto cases = load_corpus(dir);
  ASSERT_EQ(cases.size(), 1u);
  ReferenceRuntime runtime;
  RunOptions options;
  options.static_checks = false;
  const Outcome o = run_case(cases[0], runtime, options);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_NE(o.message.find((dir / "model.onnx").string()), std::string::npos) << o.message;
}

}  // namespace
}  // namespace seqconf
