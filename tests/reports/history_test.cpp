// Tests of seqconf history's logic (reports/history.h) on three runs of the synthetic outcomes
// (synthetic.h), given out of release order. Their departures, by hand (no case names a clause,
// so a departure is op and what the runtime did):
//   run                  1.9.0 (diff_base)  1.10.0 (all pass)  1.17.3 (diff_new)
//   SequenceAt wrong values          1 (float.pos_neg)   .     3 (float.pos_0, string.pos_0,
//                                                                 bool.pos_neg_1)
//   SequenceInsert rejects a valid case  1               .     .
//   SequenceInsert crash                 1               .     .
//   SplitToSequence not supported        2 (uint16, uint32) .  1 (uint16)
//   SplitToSequence not run              1               .     1
//   SequenceInsert not run               .               .     1 (float.pos_shape_1)
//   SequenceInsert fails on a valid case .               .     1 (int8.pos_shape_1)
//   SequenceInsert timeout               .               .     1 (int8.append)
//   SequenceMap wrong shape              .               .     1 (float.identity)
// So the five departures of 1.9.0 are first seen there and gone in 1.10.0 (two come back in
// 1.17.3: first_gone stays 1.10.0); the four of 1.17.3 only are first seen there, never gone.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "reference/error.h"
#include "reports/history.h"
#include "tests/reports/synthetic.h"

namespace seqconf::reports {
namespace {

using nlohmann::json;

std::vector<Outcome> all_pass() {
  auto v = testing::diff_base_outcomes();
  for (auto& o : v) {
    o.status = Status::pass;
    o.reason = Reason::none;
  }
  return v;
}

// In the order a user might give them: newest first.
std::vector<std::pair<std::string, Report>> three_runs() {
  return {
      {"new.json", make_report(testing::run_info("onnxruntime", "1.17.3"),
                               testing::diff_new_outcomes(), nullptr)},
      {"base.json", make_report(testing::run_info("onnxruntime", "1.9.0"),
                                testing::diff_base_outcomes(), nullptr)},
      {"fixed.json", make_report(testing::run_info("onnxruntime", "1.10.0"), all_pass(), nullptr)}};
}

struct Expected {
  std::vector<int> counts;
  size_t first_seen;
  std::optional<size_t> first_gone;
};

TEST(History, ColumnsInReleaseOrder) {
  const History h = history_of(three_runs());
  ASSERT_EQ(h.columns.size(), 3u);
  EXPECT_EQ(h.columns[0].label(), "onnxruntime 1.9.0");
  EXPECT_EQ(h.columns[1].label(), "onnxruntime 1.10.0");
  EXPECT_EQ(h.columns[2].label(), "onnxruntime 1.17.3");
  EXPECT_EQ(h.columns[0].file, "base.json");
  EXPECT_EQ(h.columns[0].cases, 11);
  EXPECT_EQ(h.columns[0].passed, 5);
  EXPECT_EQ(h.columns[0].departures, 5);
  EXPECT_EQ(h.columns[1].departures, 0);
  // 1.17.3: the 5 passes of 1.9.0 regressed, were skipped or disappeared; 2 progressed.
  EXPECT_EQ(h.columns[2].passed, 2);
  EXPECT_EQ(h.columns[2].departures, 7);
}

TEST(History, CountsFirstSeenAndFirstGoneDerivedByHand) {
  const History h = history_of(three_runs());
  const std::map<std::pair<std::string, std::string>, Expected> expected = {
      {{"SequenceAt", "wrong values"}, {{1, 0, 3}, 0, 1}},
      {{"SequenceInsert", "rejects a valid case"}, {{1, 0, 0}, 0, 1}},
      {{"SequenceInsert", "crash"}, {{1, 0, 0}, 0, 1}},
      {{"SplitToSequence", "not supported"}, {{2, 0, 1}, 0, 1}},
      {{"SplitToSequence", "not run"}, {{1, 0, 1}, 0, 1}},
      {{"SequenceInsert", "not run"}, {{0, 0, 1}, 2, std::nullopt}},
      {{"SequenceInsert", "fails on a valid case"}, {{0, 0, 1}, 2, std::nullopt}},
      {{"SequenceInsert", "timeout"}, {{0, 0, 1}, 2, std::nullopt}},
      {{"SequenceMap", "wrong shape"}, {{0, 0, 1}, 2, std::nullopt}}};
  ASSERT_EQ(h.rows.size(), expected.size());
  for (const HistoryRow& r : h.rows) {
    const auto it = expected.find({r.op, r.what});
    ASSERT_NE(it, expected.end()) << r.op << ": " << r.what;
    EXPECT_EQ(r.counts, it->second.counts) << r.id;
    EXPECT_EQ(r.first_seen, it->second.first_seen) << r.id;
    EXPECT_EQ(r.first_gone, it->second.first_gone) << r.id;
  }
  // By first seen, then op: the rows of 1.9.0 come first.
  for (size_t i = 1; i < h.rows.size(); ++i)
    EXPECT_LE(std::tie(h.rows[i - 1].first_seen, h.rows[i - 1].op),
              std::tie(h.rows[i].first_seen, h.rows[i].op));
}

TEST(History, DescribedByTheLatestRunThatShowsIt) {
  const History h = history_of(three_runs());
  for (const HistoryRow& r : h.rows)
    if (r.op == "SequenceAt") {
      // 1.17.3's cases: the shortest id of the three.
      EXPECT_EQ(r.smallest, "corpus.SequenceAt.float.pos_0");
      EXPECT_NE(r.rerun.find("corpus.SequenceAt.float.pos_0"), std::string::npos);
    }
}

TEST(History, ReleaseNumbersCompareAsNumbers) {
  EXPECT_TRUE(release_less("1.9.0", "1.10.0"));
  EXPECT_FALSE(release_less("1.10.0", "1.9.0"));
  EXPECT_TRUE(release_less("1.17.0", "1.17.3"));
  EXPECT_TRUE(release_less("1.17.3-rc1", "1.17.3"));
  EXPECT_FALSE(release_less("1.17.3", "1.17.3-rc1"));
  EXPECT_TRUE(release_less("1.17", "1.17.0"));
  EXPECT_FALSE(release_less("1.17.0", "1.17.0"));
}

TEST(History, TwoRunsOfOneReleaseAreRefused) {
  auto runs = three_runs();
  runs.push_back({"again.json", runs[1].second});
  try {
    history_of(runs);
    FAIL() << "two runs of onnxruntime 1.9.0 were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("onnxruntime 1.9.0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(history_of({}), Error);
}

TEST(History, JsonAndHtmlCarryTheTable) {
  const History h = history_of(three_runs());
  const json j = history_to_json(h);
  EXPECT_EQ(j["columns"][1]["label"], "onnxruntime 1.10.0");
  ASSERT_EQ(j["departures"].size(), 9u);
  for (const auto& d : j["departures"])
    if (d["op"] == "SequenceMap") {
      EXPECT_EQ(d["counts"], json({0, 0, 1}));
      EXPECT_EQ(d["first_seen"], "onnxruntime 1.17.3");
      EXPECT_TRUE(d["first_gone"].is_null());
    } else if (d["op"] == "SequenceAt") {
      EXPECT_EQ(d["first_seen"], "onnxruntime 1.9.0");
      EXPECT_EQ(d["first_gone"], "onnxruntime 1.10.0");
    }
  const std::string html = history_to_html(h);
  EXPECT_NE(html.find("<th data-column=\"onnxruntime 1.10.0\""), std::string::npos);
  EXPECT_NE(html.find("data-first-seen=\"onnxruntime 1.17.3\" data-first-gone=\"\""),
            std::string::npos);
  EXPECT_NE(html.find("data-column=\"onnxruntime 1.17.3\" data-count=\"3\""), std::string::npos);
  const std::string md = history_to_markdown(h);
  EXPECT_NE(md.find("| SequenceMap: wrong shape | · | · | 1 | 1.17.3 | — |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| SequenceAt: wrong values | 1 | · | 3 | 1.9.0 | 1.10.0 |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| *cases passed* | 5/11 | 11/11 | 2/11 |"), std::string::npos) << md;
  const std::string text = history_to_text(h);
  EXPECT_NE(text.find("9 distinct departure(s) over 3 run(s)"), std::string::npos) << text;
}

}  // namespace
}  // namespace seqconf::reports
