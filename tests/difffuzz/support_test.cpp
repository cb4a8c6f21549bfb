// What the runtime supports (difffuzz/support.h):
//  - the generator draws no node the support leaves out, and draws the same programs as
//    without a probe when everything is supported (the reference);
//  - ONNX Runtime 1.30's probe finds the SplitToSequence types it does not register, and a
//    campaign against it has no program that is only "not supported".
#include <gtest/gtest.h>

#include <set>

#include "difffuzz/campaign.h"
#include "difffuzz/support.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "tests/support/runtime_test_util.h"

namespace seqconf::testing {
namespace {

using namespace difffuzz;

Program program_at(const rc::Gen<Program>& gen, size_t i) {
  return gen(rc::Random(rc::Random::Key{9, i, 0, 0}), static_cast<int>(i % 100)).value();
}

TEST(Support, TheReferenceSupportsEverythingAndDrawsTheSamePrograms) {
  auto reference = make_runtime("reference");
  const Support support = probe_support(*reference);
  EXPECT_TRUE(support.not_supported.empty());
  const auto plain = program_gen(8);
  const auto probed = program_gen(8, support);
  for (size_t i = 0; i < 300; ++i)
    EXPECT_EQ(describe(program_at(plain, i)), describe(program_at(probed, i)));
}

TEST(Support, NoProgramHoldsANodeTheRuntimeDoesNotSupport) {
  Support support;
  support.not_supported[{"SplitToSequence", DataType::float32}] = "no";
  support.not_supported[{"SequenceEmpty", DataType::float32}] = "no";
  for (gens::BodyKind body : map_bodies(DataType::float32))
    support.not_supported[{support_node(StepKind::map, body), DataType::float32}] = "no";
  EXPECT_FALSE(support.allows(StepKind::map, DataType::float32));
  EXPECT_TRUE(support.allows(StepKind::map, DataType::float64));
  const auto gen = program_gen(8, support);
  size_t float_programs = 0, float64_splits = 0;
  for (size_t i = 0; i < 2000; ++i) {
    const Program p = program_at(gen, i);
    for (const Step& s : p.steps)
      if (p.elem == DataType::float64 && s.kind == StepKind::split) ++float64_splits;
    if (p.elem != DataType::float32) continue;
    ++float_programs;
    EXPECT_NE(p.source, SourceKind::empty) << describe(p);
    for (const Step& s : p.steps) {
      EXPECT_NE(s.kind, StepKind::split) << describe(p);
      EXPECT_NE(s.kind, StepKind::map) << describe(p);
    }
  }
  // float programs are still drawn, and other types keep their splits.
  EXPECT_GT(float_programs, 50u);
  EXPECT_GT(float64_splits, 20u);
}

TEST(Support, OnnxRuntimeLacksTheSplitToSequenceTypesItDoesNotRegister) {
  std::string why;
  std::unique_ptr<Runtime> ort = ort_1_30(&why);
  if (!ort) GTEST_SKIP() << why;
  auto rt = isolate_runtime(std::move(ort));
  const Support support = probe_support(*rt);
  // ONNX Runtime registers SplitToSequence for bool, float, double, float16, int32, int64 and
  // string only: the other 8 of the 15 types.
  std::set<DataType> split_types;
  for (const auto& [key, message] : support.not_supported)
    if (key.first == "SplitToSequence") split_types.insert(key.second);
  const std::set<DataType> expected = {DataType::uint8,     DataType::int8,      DataType::uint16,
                                       DataType::int16,     DataType::uint32,    DataType::uint64,
                                       DataType::complex64, DataType::complex128};
  EXPECT_EQ(split_types, expected);
  FuzzOptions o;
  o.seed = 4;
  o.iterations = 300;
  o.support = std::make_shared<const Support>(support);
  const FuzzResult r = run_campaign(*rt, o);
  EXPECT_EQ(r.not_supported, 0u);
  EXPECT_GT(r.agree_outputs, 150u);
}

}  // namespace
}  // namespace seqconf::testing
