// The persistent sequence against a plain std::vector model, across tree depths.
#include <random>

#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

// Tensor k is the scalar int64 k: its value identifies it.
Tensor tag(int64_t k) { return Tensor::from_values<DataType::int64>({}, {k}); }

void expect_same(const Sequence& s, const std::vector<int64_t>& model) {
  ASSERT_EQ(s.size(), model.size());
  for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(s.at(i).int_at(0), model[i]) << "index " << i;
  const auto all = s.tensors();
  for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(all[i].int_at(0), model[i]);
}

TEST(SequenceTree, BulkLoadAcrossDepths) {
  for (size_t n : {0u, 1u, 31u, 32u, 33u, 1024u, 1025u, 40000u}) {
    std::vector<Tensor> v;
    std::vector<int64_t> model;
    for (size_t i = 0; i < n; ++i) {
      v.push_back(tag(static_cast<int64_t>(i)));
      model.push_back(static_cast<int64_t>(i));
    }
    expect_same(Sequence(DataType::int64, v), model);
  }
}

TEST(SequenceTree, RandomEditsMatchTheModelAndLeaveOldVersionsIntact) {
  std::mt19937 rng(12345);
  Sequence s(DataType::int64);
  std::vector<int64_t> model;
  std::vector<std::pair<Sequence, std::vector<int64_t>>> snapshots;
  int64_t next = 0;
  for (int step = 0; step < 6000; ++step) {
    // Grow for a while, then shrink, so the tree both splits and empties.
    const bool grow = model.empty() || (step < 4000 ? rng() % 4 != 0 : rng() % 4 == 0);
    if (grow) {
      const size_t i = rng() % (model.size() + 1);
      s = s.inserted(i, tag(next));
      model.insert(model.begin() + static_cast<std::ptrdiff_t>(i), next++);
    } else {
      const size_t i = rng() % model.size();
      s = s.erased(i);
      model.erase(model.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (step % 500 == 0) snapshots.emplace_back(s, model);
  }
  expect_same(s, model);
  for (const auto& [snap, snap_model] : snapshots) expect_same(snap, snap_model);
}

TEST(SequenceTree, EditsShareTensorStorage) {
  std::vector<Tensor> v;
  for (int i = 0; i < 100; ++i) v.push_back(tag(i));
  const Sequence s(DataType::int64, v);
  const Sequence t = s.inserted(0, tag(-1)).erased(50);
  EXPECT_TRUE(t.at(1).shares_storage_with(s.at(0)));
  EXPECT_TRUE(t.at(99).shares_storage_with(s.at(99)));
}

TEST(SequenceTree, RejectsBadIndicesAndTypes) {
  const Sequence s(DataType::int64, {tag(0)});
  expect_error(ErrorCode::position_out_of_range, [&] { s.inserted(2, tag(1)); });
  expect_error(ErrorCode::position_out_of_range, [&] { s.erased(1); });
  expect_error(ErrorCode::element_type_mismatch, [&] { s.inserted(0, f32({}, {1})); });
}

}  // namespace
}  // namespace seqconf::testing
