// The catalogs' parameter builder and ID key order (params.h).
#include "generators/catalog/params.h"

#include <gtest/gtest.h>

namespace seqconf::catalog {
namespace {

struct Row {
  int n = 0;
  std::string label;
  int position = 0;
};

std::vector<std::string> show(const Params<Row>& rows) {
  std::vector<std::string> v;
  for (const Row& r : rows) v.push_back(std::to_string(r.n) + r.label + std::to_string(r.position));
  return v;
}

TEST(Params, CombineIsACartesianProductFirstKeyOutermost) {
  const auto rows = Params<Row>().combine(&Row::n, {1, 2}).combine(&Row::label, {"a", "b"});
  EXPECT_EQ(show(rows), (std::vector<std::string>{"1a0", "1b0", "2a0", "2b0"}));
}

TEST(Params, CombineTakesAnyContainerAndStartsFromADeliberateList) {
  const std::vector<std::string> labels = {"x", "y"};
  const auto rows = Params<Row>{{3, "", 7}, {4, "", 8}}.combine(&Row::label, labels);
  EXPECT_EQ(show(rows), (std::vector<std::string>{"3x7", "3y7", "4x8", "4y8"}));
}

TEST(Params, ExpandGivesValuesThatDependOnEarlierFields) {
  const auto rows = Params<Row>().combine(&Row::n, {0, 2}).expand(&Row::position, [](const Row& r) {
    std::vector<int> v;
    for (int i = 0; i <= r.n; ++i) v.push_back(i);
    return v;
  });
  EXPECT_EQ(show(rows), (std::vector<std::string>{"00", "20", "21", "22"}));
}

TEST(Params, FilterKeepsAndUnlessDrops) {
  const auto all = Params<Row>().combine(&Row::n, {1, 2, 3, 4});
  EXPECT_EQ(show(all.filter([](const Row& r) { return r.n % 2 == 0; })),
            (std::vector<std::string>{"20", "40"}));
  EXPECT_EQ(show(all.unless([](const Row& r) { return r.n % 2 == 0; })),
            (std::vector<std::string>{"10", "30"}));
}

TEST(IdKeys, OrderPutsTheComponentsInTheDeclaredOrder) {
  const IdKeys keys = {"position", "ptype", "dtype", "n"};
  const auto params = keys.order({{"n", "5"}, {"dtype", "float"}, {"position", "0"}});
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].key, "position");
  EXPECT_EQ(params[1].key, "dtype");
  EXPECT_EQ(params[2].key, "n");
}

TEST(IdKeys, UndeclaredRepeatedOrMisorderedKeysThrow) {
  const IdKeys keys = {"position", "ptype", "dtype", "n"};
  EXPECT_THROW(keys.order({{"position", "0"}, {"axis", "1"}}), std::logic_error);
  EXPECT_THROW(keys.order({{"n", "5"}, {"n", "1"}}), std::logic_error);
  EXPECT_NO_THROW(keys.check({{"position", "0"}, {"n", "5"}}));
  EXPECT_THROW(keys.check({{"n", "5"}, {"position", "0"}}), std::logic_error);

  std::vector<CatalogCase> out;
  CatalogCase c;
  c.params = {{"dtype", "float"}, {"ptype", "int64"}};
  EXPECT_THROW(keys.add(out, c), std::logic_error);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace seqconf::catalog
