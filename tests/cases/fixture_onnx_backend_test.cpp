// ONNX's own backend test data: one test per discovered sequence fixture (ctest label
// onnx-backend), each run on the reference and compared with ONNX's expected outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "cases/case.h"
#include "cases/data_dir.h"
#include "harness/compare.h"
#include "harness/runner.h"
#include "reference/interpreter/interpreter.h"
#include "runtimes/reference_runtime.h"

namespace seqconf::testing {
namespace {

std::vector<Case> discovered() {
  try {
    return discover_onnx_backend(default_onnx_testdata_root());
  } catch (const Error&) {
    return {};  // no test data: BackendFixtures.AllKnownFixturesAreDiscovered fails instead
  }
}

std::string test_name(const std::string& id) {
  std::string s = id.substr(id.find('/') + 1);
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

class BackendFixture : public ::testing::TestWithParam<Case> {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BackendFixture);

TEST_P(BackendFixture, PassesOnTheReference) {
  ReferenceRuntime reference;
  const Outcome o = run_case(GetParam(), reference);
  EXPECT_EQ(status_name(o.status), "pass") << reason_name(o.reason) << ": " << o.message;
  for (const auto& f : o.findings) std::cout << "finding [" << f.check << "] " << f.message << "\n";
}

INSTANTIATE_TEST_SUITE_P(OnnxBackend, BackendFixture, ::testing::ValuesIn(discovered()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return test_name(info.param.id);
                         });

// The fixtures SPEC-NOTES lists: the 22 that use the five operators, plus the two
// sequence-only models. Discovery goes by the ops a model uses; this checks none is missed.
TEST(BackendFixtures, AllKnownFixturesAreDiscovered) {
  std::vector<std::string> expected = {"node/test_sequence_insert_at_back",
                                       "node/test_sequence_insert_at_front", "node/test_loop13_seq",
                                       "node/test_loop16_seq_none"};
  for (const char* m :
       {"identity_1_sequence", "identity_2_sequences", "identity_1_sequence_1_tensor",
        "add_2_sequences", "add_1_sequence_1_tensor", "extract_shapes"}) {
    expected.push_back(std::string("node/test_sequence_map_") + m);
    expected.push_back(std::string("node/test_sequence_map_") + m + "_expanded");
  }
  for (int i = 1; i <= 8; ++i) expected.push_back("simple/test_sequence_model" + std::to_string(i));
  ASSERT_EQ(expected.size(), 24u);
  std::set<std::string> ids;
  for (const auto& c : discovered()) ids.insert(c.id);
  for (const auto& e : expected) EXPECT_TRUE(ids.count("onnx-backend/" + e)) << e;
  // Models without any sequence operator are left out.
  EXPECT_FALSE(ids.count("onnx-backend/node/test_abs"));
  EXPECT_FALSE(ids.count("onnx-backend/node/test_identity_sequence"));
}

TEST(BackendFixtures, PrimaryOperatorIsRecorded) {
  std::map<std::string, std::string> op;
  for (const auto& c : discovered()) op[c.id] = c.op;
  EXPECT_EQ(op["onnx-backend/node/test_sequence_insert_at_back"], "SequenceInsert");
  EXPECT_EQ(op["onnx-backend/node/test_sequence_map_add_2_sequences"], "SequenceMap");
  // The expansion uses SequenceAt and SequenceInsert: a multi-op model.
  EXPECT_EQ(op["onnx-backend/node/test_sequence_map_add_2_sequences_expanded"], "model");
  EXPECT_EQ(op["onnx-backend/simple/test_sequence_model4"], "model");
}

// SequenceMap has a function body (its Loop expansion); ONNX ships both forms. The reference
// must give the same outputs for each, on the same inputs.
class SequenceMapExpansion : public ::testing::TestWithParam<Case> {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SequenceMapExpansion);

std::vector<Case> sequence_map_fixtures() {
  std::vector<Case> v;
  for (const auto& c : discovered())
    if (c.op == "SequenceMap" && c.id.find("_expanded") == std::string::npos) v.push_back(c);
  return v;
}

TEST_P(SequenceMapExpansion, EqualsItsExpandedForm) {
  const Case& c = GetParam();
  Case expanded = c;
  expanded.dir = c.dir.parent_path() / (c.dir.filename().string() + "_expanded");
  const LoadedCase a = load_case(c);
  const LoadedCase b = load_case(expanded);
  ASSERT_EQ(a.data_sets.size(), b.data_sets.size());
  const auto ma = interp::InterpretedModel::prepare(a.model);
  const auto mb = interp::InterpretedModel::prepare(b.model);
  for (size_t i = 0; i < a.data_sets.size(); ++i) {
    Context ca, cb;
    const auto out_a = ma.run(a.data_sets[i].inputs, ca);
    const auto out_b = mb.run(a.data_sets[i].inputs, cb);
    ASSERT_EQ(out_a.size(), out_b.size());
    for (size_t k = 0; k < out_a.size(); ++k)
      EXPECT_TRUE(out_a[k].identical(out_b[k]))
          << "output " << k << ": " << out_a[k].describe() << " vs " << out_b[k].describe();
    // And both equal ONNX's expected outputs.
    const Comparison cmp = compare_outputs(a.data_sets[i].outputs, out_b, c.comparison);
    EXPECT_TRUE(cmp.ok) << cmp.message;
  }
}

INSTANTIATE_TEST_SUITE_P(OnnxBackend, SequenceMapExpansion,
                         ::testing::ValuesIn(sequence_map_fixtures()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return test_name(info.param.id);
                         });

TEST(BackendFixtures, SixSequenceMapFixturesHaveExpansions) {
  EXPECT_EQ(sequence_map_fixtures().size(), 6u);
}

}  // namespace
}  // namespace seqconf::testing
