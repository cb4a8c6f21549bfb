// Every property can fail: each runs against broken variants of the operators (mutants.h) and
// RapidCheck must find, and shrink, a counterexample.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "properties/runner.h"
#include "tests/properties/mutants.h"

namespace seqconf::properties {
namespace {

struct MutantCase {
  size_t mutant;
  std::string property;
};

const std::vector<Mutant>& mutants() {
  static const std::vector<Mutant> all = all_mutants();
  return all;
}

std::vector<MutantCase> mutant_cases() {
  std::vector<MutantCase> out;
  for (size_t i = 0; i < mutants().size(); ++i)
    for (const auto& p : mutants()[i].caught_by) out.push_back({i, p});
  return out;
}

class MutantCaught : public ::testing::TestWithParam<MutantCase> {};

TEST_P(MutantCaught, PropertyFindsCounterexample) {
  const Mutant& m = mutants()[GetParam().mutant];
  const PropertyDef& def = property(GetParam().property);
  // A broken variant usually falls within a few cases; the budget is a ceiling, not a cost.
  rc::detail::TestParams params = configured_params();
  params.maxSuccess = std::max(params.maxSuccess, 2000);
  const PropertyRun run = run_property(def, m.ops, params);
  ASSERT_EQ(run.result, PropertyRun::Result::failed)
      << def.id << " found no counterexample against " << m.name << " (" << m.description << ") in "
      << run.cases << " cases";
  EXPECT_FALSE(run.counterexample.empty());
  EXPECT_FALSE(run.reproduce.empty());
  std::cout << m.name << " caught by " << def.id << " after " << run.cases << " cases:\n";
  for (const auto& [type, value] : run.counterexample) std::cout << "  " << value << "\n";
}

std::string case_name(const ::testing::TestParamInfo<MutantCase>& info) {
  std::string id = mutants()[info.param.mutant].name + "__" + info.param.property;
  std::replace(id.begin(), id.end(), '/', '_');
  return id;
}

INSTANTIATE_TEST_SUITE_P(Mutants, MutantCaught, ::testing::ValuesIn(mutant_cases()), case_name);

TEST(Mutants, EveryPropertyIsBrokenBySomeMutant) {
  std::set<std::string> caught;
  for (const auto& m : mutants()) caught.insert(m.caught_by.begin(), m.caught_by.end());
  for (const auto& p : all_properties())
    EXPECT_TRUE(caught.count(p.id)) << p.id << " is not run against any broken variant";
  for (const auto& id : caught) EXPECT_NO_THROW(property(id)) << id;
}

}  // namespace
}  // namespace seqconf::properties
