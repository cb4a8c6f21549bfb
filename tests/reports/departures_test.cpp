// Departures of the synthetic outcomes (synthetic.h), derived by hand. The six non-pass cases:
//   SequenceAt.float.pos_neg              fail/value_mismatch   float   loop_body
//   SequenceInsert.int8.pos_shape_1       error/invalid_input   int8    if_branch
//   SequenceInsert.int8.append            crash/crash           int8    inputs
//   SplitToSequence.uint16.split_scalar   not_supported         uint16  initializers
//   SplitToSequence.uint32.split_scalar   not_supported         uint32  constant_nodes
//   SplitToSequence.float.keepdims_0      skipped               float   inputs
// None names a clause, so the key is (op, "-", what): five departures, the two not_supported
// SplitToSequence cases together, four of them departures of a run (the skipped one is "not
// run").
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "reference/spec_clauses.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/report.h"
#include "tests/reports/synthetic.h"

namespace seqconf::reports {
namespace {

using nlohmann::json;
using testing::run_info;
using testing::synthetic_outcomes;

// The entries of report_test.cpp: uint16 not_supported listed, uint32 (entry says fail) not,
// the skipped SplitToSequence case matched, the crash listed.
const json kEntries = json::parse(R"({
  "runtime": "reference",
  "entries": [
    {"id": "corpus.SplitToSequence.uint16.*", "status": "not_supported", "reason": "uint16"},
    {"id": "corpus.SplitToSequence.*", "status": "fail", "reason": "split differs"},
    {"id": "corpus.SequenceInsert.int8.append", "status": "crash", "reason": "segfault"}
  ]})");

// Every non-pass case (skipped included) is in exactly one departure, and nothing else is.
void expect_cover_exactly_once(const Report& r) {
  std::map<std::string, int> seen;
  for (const auto& d : r.departures) {
    EXPECT_FALSE(d.case_ids.empty()) << d.id;
    for (const auto& id : d.case_ids) ++seen[id];
  }
  size_t non_pass = 0;
  for (const auto& c : r.cases) {
    if (c.outcome.status == Status::pass) {
      EXPECT_EQ(seen.count(c.outcome.case_id), 0u) << c.outcome.case_id;
      continue;
    }
    ++non_pass;
    EXPECT_EQ(seen[c.outcome.case_id], 1) << c.outcome.case_id;
  }
  EXPECT_EQ(seen.size(), non_pass);
}

// Every departure of the JSON form names cases of that report with its op; together they are
// the non-pass cases, each once.
void expect_json_cover_exactly_once(const json& j) {
  std::map<std::string, std::string> op_of;
  size_t non_pass = 0;
  for (const auto& c : j.at("cases"))
    if (c.at("status") != "pass") {
      op_of[c.at("id")] = c.at("op");
      ++non_pass;
    }
  std::map<std::string, int> seen;
  for (const auto& d : j.at("departures")) {
    EXPECT_EQ(d.at("count"), d.at("cases").size());
    for (const auto& id : d.at("cases")) {
      ++seen[id];
      EXPECT_EQ(op_of[id], d.at("op")) << id;
    }
  }
  EXPECT_EQ(seen.size(), non_pass);
  for (const auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
}

TEST(Departures, WhatTheRuntimeDidInOneTable) {
  EXPECT_EQ(departure_what(Status::fail, Reason::value_mismatch), "wrong values");
  EXPECT_EQ(departure_what(Status::fail, Reason::shape_mismatch), "wrong shape");
  EXPECT_EQ(departure_what(Status::fail, Reason::accepted_invalid),
            "accepts what must be rejected");
  EXPECT_EQ(departure_what(Status::fail, Reason::memory_error),
            "reads or writes memory it does not own");
  EXPECT_EQ(departure_what(Status::error, Reason::invalid_input), "rejects a valid case");
  EXPECT_EQ(departure_what(Status::not_supported, Reason::not_supported), "not supported");
  EXPECT_EQ(departure_what(Status::crash, Reason::crash), "crash");
  EXPECT_EQ(departure_what(Status::timeout, Reason::timeout), "timeout");
  EXPECT_EQ(departure_what(Status::skipped, Reason::none), "not run");
  // A model-to-model tool's reason says what the tool did, whatever the status it gave.
  EXPECT_EQ(departure_what(Status::crash, Reason::tool_crash), "tool crashes");
  EXPECT_EQ(departure_what(Status::timeout, Reason::tool_timeout), "tool hangs");
  EXPECT_EQ(departure_what(Status::error, Reason::tool_failed), "tool fails on a valid model");
  EXPECT_EQ(departure_what(Status::error, Reason::tool_invalid_model),
            "tool emits an invalid model");
  EXPECT_EQ(departure_what(Status::error, Reason::tool_lost_type), "tool loses a type");
  // Every reason on a fail or an error maps to a label, none to the fallback's empty text.
  for (Reason r : kAllReasons)
    for (Status s : {Status::fail, Status::error}) EXPECT_FALSE(departure_what(s, r).empty());
}

// A tool that breaks the model never reached the sentence a case checks: its cases of one op
// and one what are one departure, whatever their clauses.
TEST(Departures, AToolsDepartureIsOnePerOperatorWhateverTheClauses) {
  std::vector<Outcome> outcomes(3);
  const char* clauses[] = {"position.negative", "position.range", "position.negative"};
  const Reason reasons[] = {Reason::tool_lost_type, Reason::tool_lost_type, Reason::value_mismatch};
  for (size_t k = 0; k < outcomes.size(); ++k) {
    Outcome& o = outcomes[k];
    o.case_id = "corpus/SequenceAt/" + std::to_string(k);
    o.source = "corpus";
    o.op = "SequenceAt";
    o.clauses = {clauses[k]};
    o.status = reasons[k] == Reason::value_mismatch ? Status::fail : Status::error;
    o.reason = reasons[k];
  }
  const Report r = make_report(run_info(), outcomes, nullptr);
  ASSERT_EQ(r.departures.size(), 2u);
  EXPECT_EQ(r.departures[0].what, "tool loses a type");
  EXPECT_EQ(r.departures[0].case_ids,
            (std::vector<std::string>{"corpus/SequenceAt/0", "corpus/SequenceAt/1"}));
  EXPECT_TRUE(r.departures[0].clauses.empty());
  // A changed result is judged against the sentence, as any runtime's.
  EXPECT_EQ(r.departures[1].what, "wrong values");
  EXPECT_EQ(r.departures[1].clauses, std::vector<std::string>{"position.negative"});
}

TEST(Departures, OfTheSyntheticOutcomesByHand) {
  const auto ex = Expectations::from_json(kEntries);
  const Report r = make_report(run_info(), synthetic_outcomes(), &ex);
  ASSERT_EQ(r.departures.size(), 5u);
  // The largest first, then by id.
  const auto& split = r.departures[0];
  EXPECT_EQ(split.id, "SplitToSequence.-.not_supported");
  EXPECT_EQ(split.op, "SplitToSequence");
  EXPECT_TRUE(split.clauses.empty());
  EXPECT_EQ(split.what, "not supported");
  EXPECT_EQ(split.title, "SplitToSequence: not supported for uint16, uint32");
  EXPECT_EQ(split.case_ids,
            (std::vector<std::string>{"corpus.SplitToSequence.uint16.split_scalar",
                                      "corpus.SplitToSequence.uint32.split_scalar"}));
  EXPECT_EQ(split.dtypes, (std::vector<std::string>{"uint16", "uint32"}));
  EXPECT_EQ(split.contexts, (std::vector<std::string>{"constant_nodes", "initializers"}));
  // Both ids are as long: the first by id.
  EXPECT_EQ(split.smallest, "corpus.SplitToSequence.uint16.split_scalar");
  EXPECT_EQ(split.rerun,
            "build/seqconf run --runtime 'reference' --source corpus --filter "
            "'corpus.SplitToSequence.uint16.split_scalar'");
  EXPECT_EQ(split.listed, "some");  // uint16 listed; uint32's entry expects fail
  EXPECT_TRUE(split.run);

  const std::vector<std::tuple<std::string, std::string, std::string, std::string, std::string>>
      rest = {// id, what, dtype, context, listed
              {"SequenceAt.-.wrong_values", "wrong values", "float", "loop_body", "none"},
              {"SequenceInsert.-.crash", "crash", "int8", "inputs", "all"},
              {"SequenceInsert.-.rejects_a_valid_case", "rejects a valid case", "int8", "if_branch",
               "none"},
              {"SplitToSequence.-.not_run", "not run", "float", "inputs", "all"}};
  for (size_t k = 0; k < rest.size(); ++k) {
    const Departure& d = r.departures[k + 1];
    const auto& [id, what, dtype, context, listed] = rest[k];
    EXPECT_EQ(d.id, id);
    EXPECT_EQ(d.what, what);
    EXPECT_EQ(d.case_ids.size(), 1u);
    EXPECT_EQ(d.smallest, d.case_ids.front());
    EXPECT_EQ(d.dtypes, std::vector<std::string>{dtype});
    EXPECT_EQ(d.contexts, std::vector<std::string>{context});
    EXPECT_EQ(d.listed, listed) << id;
    EXPECT_EQ(d.run, what != "not run");
  }
  EXPECT_EQ(r.departures[1].case_ids.front(), "corpus.SequenceAt.float.pos_neg");
  EXPECT_EQ(r.departures[2].case_ids.front(), "corpus.SequenceInsert.int8.append");
  expect_cover_exactly_once(r);
}

TEST(Departures, KeyedByTheClausesTheCasesCheck) {
  auto outcomes = synthetic_outcomes();
  // Three more SequenceAt failures: two of position.negative (one shorter id), one of
  // position.scalar; with pos_neg (position.negative) they make two departures.
  outcomes.push_back(testing::outcome("corpus.SequenceAt.int8.pos_neg_long_name", "SequenceAt",
                                      "int8", Status::fail, Reason::value_mismatch));
  outcomes.push_back(testing::outcome("corpus.SequenceAt.int8.neg", "SequenceAt", "int8",
                                      Status::fail, Reason::value_mismatch, {}, "if_branch"));
  outcomes.push_back(testing::outcome("corpus.SequenceAt.int8.pos_2d", "SequenceAt", "int8",
                                      Status::fail, Reason::value_mismatch));
  for (auto& o : outcomes) {
    if (o.op != "SequenceAt" || o.status == Status::pass) continue;
    const bool scalar = o.case_id == "corpus.SequenceAt.int8.pos_2d";
    o.clauses = {scalar ? "position.scalar" : "position.negative"};
    o.spec = std::string(spec_clause(o.clauses.front()).sentence);
  }
  const Report r = make_report(run_info(), outcomes, nullptr);
  ASSERT_EQ(r.departures.size(), 6u);
  const Departure& neg = r.departures[0];
  EXPECT_EQ(neg.id, "SequenceAt.position.negative.wrong_values");
  EXPECT_EQ(neg.clauses, std::vector<std::string>{"position.negative"});
  EXPECT_EQ(neg.title, "SequenceAt: wrong values \u2014 " +
                           std::string(spec_clause("position.negative").sentence));
  EXPECT_EQ(neg.spec, spec_clause("position.negative").sentence);
  EXPECT_EQ(neg.case_ids.size(), 3u);
  EXPECT_EQ(neg.smallest, "corpus.SequenceAt.int8.neg");
  EXPECT_EQ(neg.dtypes, (std::vector<std::string>{"float", "int8"}));
  EXPECT_EQ(neg.contexts, (std::vector<std::string>{"if_branch", "inputs", "loop_body"}));
  bool scalar_found = false;
  for (const auto& d : r.departures)
    if (d.id == "SequenceAt.position.scalar.wrong_values") {
      scalar_found = true;
      EXPECT_EQ(d.case_ids, std::vector<std::string>{"corpus.SequenceAt.int8.pos_2d"});
    }
  EXPECT_TRUE(scalar_found);
  expect_cover_exactly_once(r);
}

// Not supported is a missing type or operator whatever sentence a case checks: the two
// SplitToSequence cases, given different clauses, stay one departure without clauses.
TEST(Departures, NotSupportedIsOneDeparturePerOperatorWhateverTheClauses) {
  auto outcomes = synthetic_outcomes();
  for (auto& o : outcomes)
    if (o.status == Status::not_supported) {
      o.clauses = {o.dtype == "uint16" ? "SplitToSequence.split_scalar"
                                       : "SplitToSequence.axis_negative"};
      o.spec = std::string(spec_clause(o.clauses.front()).sentence);
    }
  const Report r = make_report(run_info(), outcomes, nullptr);
  size_t unsupported = 0;
  for (const auto& d : r.departures) {
    if (d.what != "not supported") continue;
    ++unsupported;
    EXPECT_EQ(d.id, "SplitToSequence.-.not_supported");
    EXPECT_TRUE(d.clauses.empty());
    EXPECT_EQ(d.case_ids.size(), 2u);
    EXPECT_EQ(d.title, "SplitToSequence: not supported for uint16, uint32");
  }
  EXPECT_EQ(unsupported, 1u);
  expect_cover_exactly_once(r);
}

TEST(Departures, RecomputedWhenReadBackAndMerged) {
  const auto ex = Expectations::from_json(kEntries);
  const Report r = make_report(run_info(), testing::diff_new_outcomes(), &ex);
  expect_cover_exactly_once(r);
  const json j = report_to_json(r);
  ASSERT_TRUE(j.contains("departures"));
  EXPECT_EQ(j["departures"].size(), r.departures.size());
  expect_json_cover_exactly_once(j);
  // The reader does not need them: they are recomputed from the cases.
  json without = j;
  without.erase("departures");
  const Report back = report_from_json(without);
  expect_cover_exactly_once(back);
  EXPECT_EQ(report_to_json(back), j);
  // Two shards merge into the departures of the whole run.
  Report a = r, b = r;
  a.cases.clear();
  b.cases.clear();
  for (size_t k = 0; k < r.cases.size(); ++k) (k % 2 ? a : b).cases.push_back(r.cases[k]);
  recompute(a);
  recompute(b);
  const Report merged = merge({a, b}, {"a.json", "b.json"});
  expect_cover_exactly_once(merged);
  EXPECT_EQ(report_to_json(merged)["departures"], j["departures"]);
}

TEST(Departures, HtmlSectionAtTheTop) {
  const auto ex = Expectations::from_json(kEntries);
  const std::string h = report_to_html(make_report(run_info(), synthetic_outcomes(), &ex));
  const auto title = h.find("reference 0.1.0 departs from the spec in 4 ways</h2>");
  ASSERT_NE(title, std::string::npos);
  EXPECT_LT(title, h.find("<h2>Summary</h2>"));
  EXPECT_NE(h.find("1 group(s) of cases were not run"), std::string::npos);
  EXPECT_NE(h.find("<tr data-departure=\"SplitToSequence.-.not_supported\" data-count=\"2\" "
                   "data-listed=\"some\">"),
            std::string::npos);
  size_t rows = 0;
  for (size_t p = h.find("<tr data-departure="); p != std::string::npos;
       p = h.find("<tr data-departure=", p + 1))
    ++rows;
  EXPECT_EQ(rows, 5u);
  EXPECT_NE(h.find("<pre>build/seqconf run --runtime &#39;reference&#39; --source corpus --filter "
                   "&#39;corpus.SequenceAt.float.pos_neg&#39;</pre>"),
            std::string::npos);
  // A run without departures says so.
  std::vector<Outcome> passing;
  for (auto& o : synthetic_outcomes())
    if (o.status == Status::pass) passing.push_back(o);
  EXPECT_NE(report_to_html(make_report(run_info(), passing, nullptr))
                .find("departs from the spec in 0 ways</h2>"),
            std::string::npos);
}

TEST(Departures, ConsoleTable) {
  const Report r = make_report(run_info(), synthetic_outcomes(), nullptr);
  const std::string t = departures_text(r);
  EXPECT_EQ(t.rfind("reference 0.1.0 departs from the spec in 4 ways (and 1 group(s) of cases "
                    "not run):\n",
                    0),
            0u);
  EXPECT_NE(t.find("     2  SplitToSequence  not supported"), std::string::npos);
  EXPECT_NE(t.find("corpus.SplitToSequence.uint16.split_scalar\n"), std::string::npos);
  EXPECT_EQ(t.find("... and"), std::string::npos);
  const std::string short_table = departures_text(r, 2);
  EXPECT_NE(short_table.find("... and 3 more\n"), std::string::npos);
  size_t lines = 0;
  for (char c : short_table) lines += c == '\n';
  EXPECT_EQ(lines, 5u);  // headline, header, 2 rows, "... and"
  std::vector<Outcome> passing;
  for (auto& o : synthetic_outcomes())
    if (o.status == Status::pass) passing.push_back(o);
  EXPECT_EQ(departures_text(make_report(run_info(), passing, nullptr)), "");
}

}  // namespace
}  // namespace seqconf::reports
