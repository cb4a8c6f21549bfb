// Input sets (difffuzz/input_sets.h): another input set of a program builds the same model, so
// that it runs on the structure's prepared model; and a campaign with input sets finds what a
// campaign of single programs finds, deterministically for any number of threads.
#include <gtest/gtest.h>

#include "difffuzz/campaign.h"
#include "difffuzz/input_sets.h"
#include "reference/proto.h"
#include "runtimes/registry.h"

namespace seqconf::testing {
namespace {

using namespace difffuzz;

std::string inputs_bytes(const BuiltProgram& b) {
  std::string bytes;
  for (const Value& v : b.inputs) bytes += value_to_bytes(v, TensorEncoding::raw_data);
  return bytes;
}

TEST(InputSets, BuildTheSameModel) {
  const auto gen = program_gen();
  size_t checked = 0, other_values = 0;
  for (size_t i = 0; i < 400; ++i) {
    const Program p = campaign_program(gen, 5, i).value();
    if (!takes_input_sets(p)) continue;
    const BuiltProgram b = build(p);
    const std::string model = b.model->SerializeAsString();
    for (size_t j = 1; j <= 4; ++j) {
      const Program q =
          input_set_gen(p)(rc::Random(rc::Random::Key{5, i, j, 0}), static_cast<int>(i % 100))
              .value();
      const BuiltProgram c = build(q);
      ASSERT_EQ(c.model->SerializeAsString(), model) << describe(p) << "\n" << describe(q);
      ASSERT_EQ(c.input_names, b.input_names);
      ++checked;
      other_values += inputs_bytes(c) != inputs_bytes(b);
    }
  }
  EXPECT_GT(checked, 800u);
  // The input sets are other values, not copies (a program of SequenceEmpty and SequenceLength
  // has no value to change).
  EXPECT_GT(other_values, checked * 9 / 10);
}

TEST(InputSets, InitializerProgramsTakeNone) {
  Program p;
  p.tensors_as = Placement::initializers;
  EXPECT_FALSE(takes_input_sets(p));
  p.tensors_as = Placement::loop_body;
  EXPECT_TRUE(takes_input_sets(p));
}

// A seeded defect that depends on values (a negative position read one off): with input sets the
// campaign runs more programs per structure, finds it, and gives the same findings, counts and
// fixtures with 1 and 2 threads.
TEST(InputSets, FindTheDefectAndDoNotDependOnThreads) {
  FuzzOptions o;
  o.seed = 3;
  o.iterations = 60;
  o.input_sets = 32;
  o.make_runtime = [] { return make_runtime("seeded=at.negative_off_by_one"); };
  auto one = o.make_runtime();
  o.jobs = 1;
  const FuzzResult a = run_campaign(*one, o);
  o.jobs = 2;
  const FuzzResult b = run_campaign(*one, o);
  EXPECT_EQ(a.structures, 60u);
  EXPECT_GT(a.programs, 2 * a.structures);
  ASSERT_FALSE(a.findings.empty());
  EXPECT_EQ(a.programs, b.programs);
  EXPECT_EQ(a.agree_outputs, b.agree_outputs);
  EXPECT_EQ(a.disagreements, b.disagreements);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  bool from_an_input_set = false;
  for (size_t k = 0; k < a.findings.size(); ++k) {
    EXPECT_EQ(a.findings[k].id, b.findings[k].id);
    EXPECT_EQ(a.findings[k].program, b.findings[k].program);
    EXPECT_EQ(a.findings[k].input_set, b.findings[k].input_set);
    from_an_input_set |= a.findings[k].input_set > 0;
  }
  EXPECT_TRUE(from_an_input_set);
}

}  // namespace
}  // namespace seqconf::testing
