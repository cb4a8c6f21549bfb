// Tests of seqconf diff's logic (reports/diff.h) on the synthetic pair of runs of synthetic.h,
// whose expected categories are listed there by hand.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "reference/error.h"
#include "reports/diff.h"
#include "reports/json_report.h"
#include "tests/reports/synthetic.h"

namespace seqconf::reports {
namespace {

using nlohmann::json;
using testing::occurrences;

Report base_report() {
  return make_report(testing::run_info("onnxruntime", "1.17.0"), testing::diff_base_outcomes(),
                     nullptr);
}
Report new_report() {
  return make_report(testing::run_info("onnxruntime", "1.17.3"), testing::diff_new_outcomes(),
                     nullptr);
}

std::map<std::string, Change> categories(const ReportDiff& d) {
  std::map<std::string, Change> m;
  for (const auto& c : d.changes) m[c.id] = c.change;
  return m;
}

TEST(Diff, CategoriesDerivedByHand) {
  const ReportDiff d = diff_reports(base_report(), new_report(), "a.json", "b.json");
  const std::map<std::string, Change> expected = {
      {"corpus.SequenceAt.float.pos_0", Change::regressed},
      {"corpus.SequenceAt.string.pos_0", Change::regressed},
      {"corpus.SequenceAt.bool.pos_neg_1", Change::regressed},
      {"corpus.SequenceInsert.float.pos_shape_1", Change::regressed},
      {"corpus.SequenceAt.float.pos_neg", Change::progressed},
      {"corpus.SplitToSequence.uint32.split_scalar", Change::progressed},
      {"corpus.SequenceInsert.int8.pos_shape_1", Change::changed},
      {"corpus.SequenceInsert.int8.append", Change::changed},
      {"corpus.SequenceMap.float.identity", Change::appeared},
      {"onnx-backend.simple.test_sequence_model1", Change::disappeared}};
  EXPECT_EQ(categories(d), expected);
  EXPECT_EQ(d.count(Change::regressed), 4);
  EXPECT_EQ(d.count(Change::progressed), 2);
  EXPECT_EQ(d.count(Change::changed), 2);
  EXPECT_EQ(d.count(Change::appeared), 1);
  EXPECT_EQ(d.count(Change::disappeared), 1);
  EXPECT_EQ(d.unchanged, 2);  // uint16.split_scalar (message only), float.keepdims_0 (skipped)
  EXPECT_TRUE(d.has_regressions());
  EXPECT_TRUE(d.runtime_changed());
  EXPECT_EQ(d.base.cases, 11);
  EXPECT_EQ(d.next.cases, 11);
  // Ordered by kind of change, then id.
  for (size_t k = 1; k < d.changes.size(); ++k) {
    const auto& a = d.changes[k - 1];
    const auto& b = d.changes[k];
    EXPECT_TRUE(a.change < b.change || (a.change == b.change && a.id < b.id)) << b.id;
  }
  for (const auto& c : d.changes) {
    EXPECT_EQ(c.base.has_value(), c.change != Change::appeared) << c.id;
    EXPECT_EQ(c.next.has_value(), c.change != Change::disappeared) << c.id;
  }
}

// The reverse diff: regressions become progressions and back, appeared and disappeared swap.
TEST(Diff, ReverseSwapsTheDirection) {
  const ReportDiff forward = diff_reports(base_report(), new_report());
  const ReportDiff reverse = diff_reports(new_report(), base_report());
  const std::map<Change, Change> swapped = {{Change::regressed, Change::progressed},
                                            {Change::progressed, Change::regressed},
                                            {Change::changed, Change::changed},
                                            {Change::appeared, Change::disappeared},
                                            {Change::disappeared, Change::appeared}};
  auto expected = categories(forward);
  for (auto& [id, c] : expected) c = swapped.at(c);
  EXPECT_EQ(categories(reverse), expected);
  EXPECT_EQ(reverse.unchanged, forward.unchanged);
  EXPECT_EQ(reverse.count(Change::regressed), 2);
  EXPECT_TRUE(reverse.has_regressions());  // the two progressions of the forward diff
}

TEST(Diff, SameRunHasNoChange) {
  const ReportDiff d = diff_reports(base_report(), base_report());
  EXPECT_TRUE(d.changes.empty());
  EXPECT_EQ(d.unchanged, 11);
  EXPECT_FALSE(d.has_regressions());
  EXPECT_FALSE(d.runtime_changed());
}

// Shards read back from JSON and merged compare equal to the whole run.
TEST(Diff, MergedShardsEqualTheWholeRun) {
  const auto all = testing::diff_new_outcomes();
  std::vector<Outcome> a, b;
  for (size_t k = 0; k < all.size(); ++k) (k % 2 ? b : a).push_back(all[k]);
  const auto through_json = [](const Report& r) { return report_from_json(report_to_json(r)); };
  const Report merged =
      merge({through_json(make_report(testing::run_info("onnxruntime", "1.17.3"), a, nullptr)),
             through_json(make_report(testing::run_info("onnxruntime", "1.17.3"), b, nullptr))},
            {"a.json", "b.json"});
  const ReportDiff d = diff_reports(new_report(), merged);
  EXPECT_TRUE(d.changes.empty());
  EXPECT_EQ(d.unchanged, static_cast<int>(all.size()));
}

TEST(Diff, GroupsByDepartureShortestIdFirst) {
  const ReportDiff d = diff_reports(base_report(), new_report());
  const auto groups = group_changes(d, Change::regressed);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].departure, "SequenceAt [loop_body] pass -> fail/value_mismatch");
  ASSERT_EQ(groups[0].cases.size(), 2u);
  // Shortest first, although "bool" sorts before "string".
  EXPECT_EQ(groups[0].cases[0]->id, "corpus.SequenceAt.string.pos_0");
  EXPECT_EQ(groups[0].cases[1]->id, "corpus.SequenceAt.bool.pos_neg_1");
  EXPECT_EQ(groups[1].departure, "SequenceAt [inputs] pass -> fail/value_mismatch");
  EXPECT_EQ(groups[2].departure, "SequenceInsert [if_branch] pass -> skipped");

  const auto changed = group_changes(d, Change::changed);
  ASSERT_EQ(changed.size(), 2u);
  EXPECT_EQ(changed[0].departure,
            "SequenceInsert [if_branch] error/invalid_input -> error/internal");
  EXPECT_EQ(changed[1].departure, "SequenceInsert [inputs] crash/crash -> timeout/timeout");
  EXPECT_EQ(group_changes(d, Change::appeared)[0].departure,
            "SequenceMap [sequence_map_body] absent -> fail/shape_mismatch");
  EXPECT_EQ(group_changes(d, Change::disappeared)[0].departure, "model [inputs] pass -> absent");
  EXPECT_EQ(group_changes(d, Change::progressed).size(), 2u);
}

TEST(Diff, TextNamesBothRuntimesAndListsRegressionsFirst) {
  const std::string t = diff_to_text(diff_reports(base_report(), new_report(), "a.json", "b.json"));
  EXPECT_NE(t.find("runtime changed: onnxruntime 1.17.0 -> onnxruntime 1.17.3"), std::string::npos)
      << t;
  EXPECT_NE(t.find("regressed 4, progressed 2, changed 2, appeared 1, disappeared 1, unchanged 2"),
            std::string::npos)
      << t;
  const size_t regressed = t.find("\nregressed (4 in 3 groups):");
  ASSERT_NE(regressed, std::string::npos) << t;
  EXPECT_LT(regressed, t.find("\nprogressed (2 in 2 groups):"));
  EXPECT_NE(t.find("  2  SequenceAt [loop_body] pass -> fail/value_mismatch\n"
                   "      corpus.SequenceAt.string.pos_0, corpus.SequenceAt.bool.pos_neg_1\n"),
            std::string::npos)
      << t;
  // At most `ids` + 1 ids per group.
  const std::string one = diff_to_text(diff_reports(base_report(), new_report()), 0);
  EXPECT_NE(one.find("      corpus.SequenceAt.string.pos_0 (+1 more)\n"), std::string::npos) << one;
  // The same runtime is not reported as a change.
  EXPECT_EQ(diff_to_text(diff_reports(base_report(), base_report())).find("runtime changed"),
            std::string::npos);
}

TEST(Diff, JsonForm) {
  const json j = diff_to_json(diff_reports(base_report(), new_report(), "a.json", "b.json"));
  EXPECT_EQ(j["base"]["file"], "a.json");
  EXPECT_EQ(j["base"]["runtime"], json({{"name", "onnxruntime"}, {"version", "1.17.0"}}));
  EXPECT_EQ(j["new"]["runtime"]["version"], "1.17.3");
  EXPECT_TRUE(j["runtime_changed"].get<bool>());
  EXPECT_EQ(j["counts"], json({{"regressed", 4},
                               {"progressed", 2},
                               {"changed", 2},
                               {"appeared", 1},
                               {"disappeared", 1},
                               {"unchanged", 2}}));
  ASSERT_EQ(j["regressed"].size(), 4u);
  EXPECT_EQ(j["regressed"][0],
            json({{"id", "corpus.SequenceAt.bool.pos_neg_1"},
                  {"op", "SequenceAt"},
                  {"context", "loop_body"},
                  {"departure", "SequenceAt [loop_body] pass -> fail/value_mismatch"},
                  {"base_status", "pass"},
                  {"new_status", "fail"},
                  {"base_reason", ""},
                  {"new_reason", "value_mismatch"}}));
  EXPECT_EQ(j["changed"][1]["base_reason"], "invalid_input");
  EXPECT_EQ(j["changed"][1]["new_reason"], "internal");
  EXPECT_TRUE(j["appeared"][0]["base_status"].is_null());
  EXPECT_TRUE(j["appeared"][0]["base_reason"].is_null());
  EXPECT_EQ(j["appeared"][0]["new_status"], "fail");
  EXPECT_TRUE(j["disappeared"][0]["new_status"].is_null());
  EXPECT_EQ(j["disappeared"][0]["base_status"], "pass");
}

TEST(Diff, HtmlFormInTheReportsLook) {
  Report next = new_report();
  next.info.runtime_version = "1.17.3 <rc>";
  const std::string h = diff_to_html(diff_reports(base_report(), next, "a.json", "b&.json"));
  EXPECT_NE(h.find(".s-pass{"), std::string::npos);  // the report page's style sheet
  EXPECT_NE(h.find("id=\"verdict\">4 case(s) regressed (pass in base"), std::string::npos);
  EXPECT_NE(h.find("<td class=\"n\" data-count=\"regressed\">4</td>"), std::string::npos);
  EXPECT_NE(h.find("<td class=\"n\" data-count=\"unchanged\">2</td>"), std::string::npos);
  EXPECT_NE(h.find("data-change=\"regressed\" data-departure=\"SequenceAt [loop_body] pass -&gt; "
                   "fail/value_mismatch\" data-count=\"2\""),
            std::string::npos);
  EXPECT_EQ(occurrences(h, "<tr data-case-id="), 10u);
  EXPECT_NE(h.find("<tr data-case-id=\"corpus.SequenceMap.float.identity\" "
                   "data-change=\"appeared\"><td><code>corpus.SequenceMap.float.identity</code>"
                   "</td><td><span class=\"tag s-none\">absent</span></td><td><span class=\"tag "
                   "s-fail\">fail</span> shape_mismatch</td><td>output 0: shape [2] &lt;&gt; [3]"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("onnxruntime 1.17.3 &lt;rc&gt;"), std::string::npos);
  EXPECT_NE(h.find("b&amp;.json"), std::string::npos);
  EXPECT_EQ(h.find("<rc>"), std::string::npos);
  // Regressions come first.
  EXPECT_LT(h.find("<h2 id=\"regressed\">"), h.find("<h2 id=\"progressed\">"));
  const std::string same = diff_to_html(diff_reports(base_report(), base_report()));
  EXPECT_NE(same.find("id=\"verdict\">No regression."), std::string::npos);
}

TEST(Diff, RejectsARepeatedCaseId) {
  auto twice = testing::diff_base_outcomes();
  twice.push_back(twice.front());
  const Report r = make_report(testing::run_info("onnxruntime", "1.17.0"), twice, nullptr);
  try {
    diff_reports(base_report(), r, "a.json", "b.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("b.json: case \"corpus.SequenceAt.float.pos_0\" appears "
                                         "more than once"),
              std::string::npos)
        << e.what();
  }
}

// ---- the gate (gate_failures): seqconf diff exits 1 when any reason is given ----

// Two reports of one case each, or none: base passes, new has the given outcome.
ReportDiff one_case(std::optional<Status> next_status, bool next_complete = true) {
  RunInfo b = testing::run_info(), n = testing::run_info();
  n.complete = next_complete;
  std::vector<Outcome> base = {testing::outcome("corpus.a", "SequenceAt", "float", Status::pass)};
  std::vector<Outcome> next;
  if (next_status)
    next.push_back(
        testing::outcome("corpus.a", "SequenceAt", "float", *next_status,
                         *next_status == Status::pass ? Reason::none : Reason::internal));
  return diff_reports(make_report(b, base, nullptr), make_report(n, next, nullptr));
}

TEST(DiffGate, APassThatBecomesAnyOtherStatusIsARegression) {
  EXPECT_TRUE(gate_failures(one_case(Status::pass)).empty());
  for (Status s : kAllStatuses) {
    if (s == Status::pass) continue;
    const ReportDiff d = one_case(s);
    EXPECT_EQ(d.count(Change::regressed), 1) << status_key(s);
    const auto why = gate_failures(d);
    ASSERT_EQ(why.size(), 1u) << status_key(s);
    EXPECT_NE(why[0].find("1 case(s) regressed"), std::string::npos) << why[0];
  }
}

TEST(DiffGate, AnIncompleteNewRunFailsUnlessAllowed) {
  ReportDiff d = one_case(Status::pass, /*next_complete=*/false);
  auto why = gate_failures(d);
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("new is incomplete"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("--allow-incomplete"), std::string::npos) << why[0];
  d.gate.allow_incomplete = true;
  EXPECT_TRUE(gate_failures(d).empty());
  // An incomplete base does not fail the gate: the new run is what is judged.
  RunInfo b = testing::run_info();
  b.complete = false;
  const std::vector<Outcome> one = {
      testing::outcome("corpus.a", "SequenceAt", "float", Status::pass)};
  EXPECT_TRUE(gate_failures(diff_reports(make_report(b, one, nullptr),
                                         make_report(testing::run_info(), one, nullptr)))
                  .empty());
}

TEST(DiffGate, APassAbsentFromNewFailsUnlessAllowedAFailureMayGo) {
  ReportDiff d = one_case(std::nullopt);
  auto why = gate_failures(d);
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("1 case(s) that passed in base are absent from new"), std::string::npos)
      << why[0];
  d.gate.allow_missing = true;
  EXPECT_TRUE(gate_failures(d).empty());
  // A case that failed in base and is gone is no regression.
  const std::vector<Outcome> failing = {
      testing::outcome("corpus.a", "SequenceAt", "float", Status::fail, Reason::value_mismatch)};
  const ReportDiff gone = diff_reports(make_report(testing::run_info(), failing, nullptr),
                                       make_report(testing::run_info(), {}, nullptr));
  EXPECT_EQ(gone.count(Change::disappeared), 1);
  EXPECT_TRUE(gate_failures(gone).empty());
}

TEST(DiffGate, RunsThatSelectedTheirCasesDifferentlyFailUnlessAllowed) {
  const std::vector<Outcome> one = {
      testing::outcome("corpus.a", "SequenceAt", "float", Status::pass)};
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, json>>{{"source", "corpus"},
                                                 {"filters", json::array({"corpus/SequenceAt*"})},
                                                 {"shard", "1/2"},
                                                 {"strict", true}}) {
    RunInfo n = testing::run_info();
    n.options[key] = value;
    ReportDiff d =
        diff_reports(make_report(testing::run_info(), one, nullptr), make_report(n, one, nullptr));
    auto why = gate_failures(d);
    ASSERT_EQ(why.size(), 1u) << key;
    EXPECT_NE(why[0].find("selected their cases differently (" + key), std::string::npos) << why[0];
    d.gate.allow_missing = true;
    EXPECT_TRUE(gate_failures(d).empty()) << key;
  }
  // Options that do not select cases (the corpus folder, jobs) do not count.
  RunInfo n = testing::run_info();
  n.options["corpus"] = "/elsewhere";
  n.options["jobs"] = 2;
  EXPECT_TRUE(gate_failures(diff_reports(make_report(testing::run_info(), one, nullptr),
                                         make_report(n, one, nullptr)))
                  .empty());
}

TEST(DiffGate, TheFirstLineOfTheTextAndTheJsonSayWhy) {
  const ReportDiff d = one_case(Status::crash, /*next_complete=*/false);
  const std::string t = diff_to_text(d);
  EXPECT_EQ(t.rfind("gate: FAIL: 1 case(s) regressed", 0), 0u) << t;
  EXPECT_NE(t.find("new is incomplete"), std::string::npos) << t;
  const json j = diff_to_json(d);
  EXPECT_FALSE(j["gate"]["passed"].get<bool>());
  EXPECT_EQ(j["gate"]["failures"].size(), 2u);
  EXPECT_EQ(diff_to_text(one_case(Status::pass)).rfind("gate: pass", 0), 0u);
}

}  // namespace
}  // namespace seqconf::reports
