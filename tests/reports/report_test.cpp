// Tests of the reports library on synthetic outcomes (synthetic.h). Expected counts are
// derived by hand from the outcome list and the expectation rules:
//   non-pass with an entry of the same status -> expected failure;
//   pass with an entry of a non-pass status  -> unexpected pass;
//   any other non-pass (not skipped)          -> unexpected failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "reference/error.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/output.h"
#include "reports/report.h"
#include "tests/reports/synthetic.h"

namespace seqconf::reports {
namespace {

using nlohmann::json;
using testing::occurrences;
using testing::outcome;
using testing::run_info;
using testing::synthetic_outcomes;

const json kExpectations = json::parse(R"({
  "runtime": "reference",
  "entries": [
    {"id": "corpus.SplitToSequence.uint16.*", "status": "not_supported",
     "reason": "uint16 not registered", "link": "https://example.org/k/1"},
    {"id": "corpus.SplitToSequence.*", "status": "fail", "reason": "split differs"},
    {"id": "corpus.SequenceAt.string.*", "status": "fail", "reason": "strings broken"},
    {"id": "corpus.SequenceInsert.int8.append", "status": "crash", "reason": "segfault"}
  ]})");

const CaseRecord& find_case(const Report& r, const std::string& id) {
  for (const auto& c : r.cases)
    if (c.outcome.case_id == id) return c;
  throw std::runtime_error("no case " + id);
}

TEST(Status, KeysRoundTrip) {
  for (Status s : kAllStatuses) EXPECT_EQ(status_from_key(status_key(s)), s);
  EXPECT_EQ(status_key(Status::not_supported), "not_supported");
  EXPECT_FALSE(status_from_key("passed").has_value());
}

TEST(Reason, NamesRoundTrip) {
  std::set<std::string_view> names;
  for (Reason r : kAllReasons) {
    EXPECT_EQ(reason_from_name(reason_name(r)), r) << reason_name(r);
    EXPECT_TRUE(names.insert(reason_name(r)).second) << reason_name(r);
  }
  EXPECT_EQ(reason_name(Reason::none), "");
  EXPECT_EQ(reason_name(Reason::output_count_mismatch), "output_count_mismatch");
  EXPECT_FALSE(reason_from_name("signal").has_value());
  EXPECT_FALSE(reason_from_name("none").has_value());
}

TEST(Judge, Rules) {
  const auto o = [](Status s) { return outcome("x", "SequenceAt", "float", s); };
  Expectation fail_entry{"x", Status::fail, "r", "", {}};
  Expectation pass_entry{"x", Status::pass, "must pass", "", {}};
  EXPECT_EQ(judge(o(Status::pass), nullptr), Verdict::pass);
  EXPECT_EQ(judge(o(Status::pass), &fail_entry), Verdict::unexpected_pass);
  EXPECT_EQ(judge(o(Status::pass), &pass_entry), Verdict::pass);
  EXPECT_EQ(judge(o(Status::fail), nullptr), Verdict::unexpected_failure);
  EXPECT_EQ(judge(o(Status::fail), &fail_entry), Verdict::expected_failure);
  EXPECT_EQ(judge(o(Status::crash), &fail_entry), Verdict::unexpected_failure);
  EXPECT_EQ(judge(o(Status::not_supported), nullptr), Verdict::unexpected_failure);
  EXPECT_EQ(judge(o(Status::timeout), &pass_entry), Verdict::unexpected_failure);
  EXPECT_EQ(judge(o(Status::skipped), nullptr), Verdict::skipped);
  EXPECT_EQ(judge(o(Status::skipped), &fail_entry), Verdict::skipped);
  // A list of statuses: each is expected, pass included.
  Expectation either{"x", Status::not_supported, "no complex", "", {Status::pass}};
  EXPECT_EQ(judge(o(Status::not_supported), &either), Verdict::expected_failure);
  EXPECT_EQ(judge(o(Status::pass), &either), Verdict::pass);
  EXPECT_EQ(judge(o(Status::fail), &either), Verdict::unexpected_failure);
}

TEST(Expectations, StatusList) {
  const auto ex = Expectations::from_json(
      json::parse(R"({"entries":[{"id":"a*","status":["not_supported","pass"],"reason":"r"}]})"));
  const Expectation* e = ex.match("abc");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->status, Status::not_supported);
  EXPECT_EQ(e->also, std::vector<Status>{Status::pass});
  EXPECT_TRUE(e->accepts(Status::pass));
  EXPECT_FALSE(e->accepts(Status::fail));
  EXPECT_THROW(
      Expectations::from_json(json::parse(R"({"entries":[{"id":"a","status":[],"reason":"r"}]})")),
      Error);
  EXPECT_THROW(Expectations::from_json(json::parse(
                   R"({"entries":[{"id":"a","status":["fail","often"],"reason":"r"}]})")),
               Error);
  // The report keeps the list through JSON.
  RunInfo i;
  i.runtime_name = "r";
  const Report r = make_report(i,
                               {outcome("abc", "SequenceAt", "complex64", Status::pass),
                                outcome("abd", "SequenceAt", "complex64", Status::not_supported)},
                               &ex);
  EXPECT_EQ(r.summary.unexpected_passes, 0);
  EXPECT_EQ(r.summary.expected_failures, 1);
  const json j = report_to_json(r);
  EXPECT_EQ(j["cases"][1]["expectation"]["also"], json::array({"pass"}));
  EXPECT_EQ(report_to_json(report_from_json(j)), j);
}

TEST(Expectations, FirstMatchingEntryWins) {
  const auto ex = Expectations::from_json(kExpectations);
  EXPECT_EQ(ex.runtime(), "reference");
  ASSERT_EQ(ex.entries().size(), 4u);
  const Expectation* a = ex.match("corpus.SplitToSequence.uint16.split_scalar");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->status, Status::not_supported);
  EXPECT_EQ(a->link, "https://example.org/k/1");
  const Expectation* b = ex.match("corpus.SplitToSequence.uint32.split_scalar");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->status, Status::fail);
  EXPECT_EQ(b->link, "");
  EXPECT_EQ(ex.match("corpus.SequenceAt.float.pos_0"), nullptr);
  // fnmatch: '?' is one character, '[...]' a set; '*' also crosses dots.
  const auto ex2 = Expectations::from_json(json::parse(
      R"({"entries":[{"id":"a?c","status":"fail","reason":"r"},
                     {"id":"x[0-9]","status":"fail","reason":"r"}]})"));
  EXPECT_NE(ex2.match("abc"), nullptr);
  EXPECT_EQ(ex2.match("abbc"), nullptr);
  EXPECT_NE(ex2.match("x7"), nullptr);
  EXPECT_EQ(ex2.match("xa"), nullptr);
}

TEST(Expectations, InvalidFilesNameTheProblem) {
  const auto rejects = [](const char* text, const std::string& fragment) {
    try {
      Expectations::from_json(json::parse(text));
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  rejects(R"([])", "not an object");
  rejects(R"({"runtime":"r"})", "entries");
  rejects(R"({"entries":[{"status":"fail","reason":"r"}]})", "\"id\"");
  rejects(R"({"entries":[{"id":"a","status":"broken","reason":"r"}]})",
          "unknown status \"broken\"");
  rejects(R"({"entries":[{"id":"a","status":"fail"}]})", "\"reason\"");
  rejects(R"({"entries":[{"id":"a","status":"fail","reason":3}]})", "not a string");
  rejects(R"({"entries":[{"id":"a","status":"fail","outcome_reason":"wrong","reason":"r"}]})",
          "unknown outcome_reason \"wrong\"");
  rejects(R"({"entries":[{"id":"a","status":"fail","outcome_reason":[],"reason":"r"}]})",
          "\"outcome_reason\" is not a name or a list of names");
  rejects(R"({"entries":[{"id":"a","status":"pass","outcome_reason":"crash","reason":"r"}]})",
          "\"outcome_reason\" without a non-pass status");
  rejects(R"({"entries":[{"id":"a","status":"fail","programs":[3],"reason":"r"}]})",
          "\"programs\" lists 3");
  try {
    Expectations::load("/nonexistent/expectations.json");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io_error);
  }
}

// An entry covers a case only with a status and an outcome reason it names: "fail" with
// "shape_mismatch" does not cover a case that fails with value_mismatch (the rule: a non-pass
// whose reason the entry's outcome_reason does not list is an unexpected failure).
TEST(Expectations, AnotherReasonIsNotCovered) {
  const auto ex = Expectations::from_json(json::parse(R"({"entries":[
      {"id":"corpus.SplitToSequence.*","status":"fail","outcome_reason":"shape_mismatch",
       "reason":"keeps the axis"},
      {"id":"corpus.SequenceAt.*","status":["error","pass"],
       "outcome_reason":["invalid_input","internal"],"reason":"rejects"}]})"));
  const Expectation& split = ex.entries()[0];
  EXPECT_EQ(split.outcome_reasons, std::vector<Reason>{Reason::shape_mismatch});
  const Report r = make_report(
      run_info(),
      {outcome("corpus.SplitToSequence.a", "SplitToSequence", "float", Status::fail,
               Reason::shape_mismatch),
       outcome("corpus.SplitToSequence.b", "SplitToSequence", "float", Status::fail,
               Reason::value_mismatch),
       outcome("corpus.SequenceAt.a", "SequenceAt", "float", Status::error, Reason::internal),
       outcome("corpus.SequenceAt.b", "SequenceAt", "float", Status::error, Reason::limit_exceeded),
       outcome("corpus.SequenceAt.c", "SequenceAt", "float", Status::pass)},
      &ex);
  EXPECT_EQ(find_case(r, "corpus.SplitToSequence.a").verdict, Verdict::expected_failure);
  EXPECT_EQ(find_case(r, "corpus.SplitToSequence.a").expectation_mismatch, "");
  const CaseRecord& b = find_case(r, "corpus.SplitToSequence.b");
  EXPECT_EQ(b.verdict, Verdict::unexpected_failure);
  EXPECT_EQ(b.expectation_mismatch,
            "entry 'corpus.SplitToSequence.*' expects fail [shape_mismatch], the case is fail "
            "[value_mismatch] (another reason)");
  EXPECT_EQ(find_case(r, "corpus.SequenceAt.a").verdict, Verdict::expected_failure);
  EXPECT_EQ(find_case(r, "corpus.SequenceAt.b").verdict, Verdict::unexpected_failure);
  EXPECT_EQ(find_case(r, "corpus.SequenceAt.c").verdict, Verdict::pass);
  EXPECT_EQ(r.summary.expected_failures, 2);
  EXPECT_EQ(r.summary.unexpected_failures, 2);
  EXPECT_EQ(exit_code(r), 1);
  // The console line and the JSON report say why; the report reads back the same.
  const std::vector<std::string> lines = uncovered_lines(r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "not covered: corpus.SplitToSequence.b: " + b.expectation_mismatch);
  const json j = report_to_json(r);
  EXPECT_EQ(j["cases"][4]["expectation_mismatch"], b.expectation_mismatch);
  EXPECT_EQ(j["cases"][4]["expectation"]["outcome_reason"], json::array({"shape_mismatch"}));
  EXPECT_EQ(report_to_json(report_from_json(j)), j);
  EXPECT_EQ(occurrences(report_to_html(r), "<dt>not covered</dt>"), 2u);
  EXPECT_EQ(occurrences(report_to_junit(r), "not covered: entry &#39;corpus.SplitToSequence.*"),
            1u);
  // Without outcome_reason the entry takes any reason of its status.
  const auto any = Expectations::from_json(json::parse(
      R"({"entries":[{"id":"corpus.SplitToSequence.*","status":"fail","reason":"r"}]})"));
  EXPECT_EQ(make_report(run_info(),
                        {outcome("corpus.SplitToSequence.b", "SplitToSequence", "float",
                                 Status::fail, Reason::value_mismatch)},
                        &any)
                .summary.expected_failures,
            1);
}

// A runtime's entry naming a clause covers only the cases that check it.
TEST(Expectations, AnotherClauseIsNotCovered) {
  const auto ex = Expectations::from_json(json::parse(R"({"entries":[
      {"id":"c.*","status":"fail","outcome_reason":"accepted_invalid",
       "clause":"SequenceAt.position_range","reason":"accepts position n"}]})"));
  Outcome in_range = outcome("c.1", "SequenceAt", "float", Status::fail, Reason::accepted_invalid);
  in_range.clauses = {"SequenceAt.position_range"};
  Outcome other = outcome("c.2", "SequenceAt", "float", Status::fail, Reason::accepted_invalid);
  other.clauses = {"position.negative"};
  const Report r = make_report(run_info(), {in_range, other}, &ex);
  EXPECT_EQ(find_case(r, "c.1").verdict, Verdict::expected_failure);
  EXPECT_EQ(find_case(r, "c.2").verdict, Verdict::unexpected_failure);
  EXPECT_EQ(find_case(r, "c.2").expectation_mismatch,
            "entry 'c.*' is about clause SequenceAt.position_range, the case checks "
            "position.negative");
}

// An entry's "programs" say which exported programs its glob means: a case of another program
// is not covered, and the run warns about the entry, naming the program.
TEST(Expectations, WildcardOverAnUnlistedProgramWarns) {
  const auto ex = Expectations::from_json(json::parse(R"({"entries":[
      {"id":"exported/unbind_*","status":"fail","outcome_reason":"shape_mismatch",
       "programs":["unbind_0","unbind_1"],"reason":"keeps the axis"}]})"));
  const auto exported = [](const std::string& program, Status s, Reason why) {
    Outcome o = outcome("exported/" + program + "/opset=13", "model", "float", s, why);
    o.source = "exported";
    o.exported = ExportedVerdicts{};
    o.exported->program = program;
    return o;
  };
  const Report r = make_report(run_info(),
                               {exported("unbind_0", Status::fail, Reason::shape_mismatch),
                                exported("unbind_new", Status::fail, Reason::shape_mismatch),
                                exported("unbind_newer", Status::pass, Reason::none)},
                               &ex);
  EXPECT_EQ(find_case(r, "exported/unbind_0/opset=13").verdict, Verdict::expected_failure);
  const CaseRecord& fresh = find_case(r, "exported/unbind_new/opset=13");
  EXPECT_EQ(fresh.verdict, Verdict::unexpected_failure);
  EXPECT_FALSE(fresh.expectation.has_value());
  EXPECT_EQ(fresh.expectation_mismatch,
            "entry 'exported/unbind_*' lists programs unbind_0, unbind_1, not unbind_new");
  // A pass of an unlisted program is a pass: the entry does not apply to it.
  EXPECT_EQ(find_case(r, "exported/unbind_newer/opset=13").verdict, Verdict::pass);
  const std::vector<std::string> notes = expectations_notes(r, &ex, "mine.json", nullptr, "");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "warning: mine.json: entry 'exported/unbind_*' matches cases of programs it does not "
            "list, which it does not cover: unbind_new (1), unbind_newer (1)");
  // Every program listed: no warning.
  EXPECT_TRUE(expectations_notes(
                  make_report(run_info(),
                              {exported("unbind_1", Status::fail, Reason::shape_mismatch)}, &ex),
                  &ex, "mine.json", nullptr, "")
                  .empty());
}

// The exporter's file applies by default only to the models of the producers it names; chosen
// by the user it applies to every model, and the run says so.
TEST(Expectations, ExporterFileAppliesToItsProducers) {
  auto ex = Expectations::from_json(json::parse(R"({"exporter":"torch.onnx",
      "producers":["torch.onnx 1.13.0a0","pytorch 1.13.0"],
      "entries":[{"id":"exported/unbind_*","status":"fail","outcome_reason":"shape_mismatch",
                  "reason":"keeps the axis"}]})"));
  EXPECT_TRUE(ex.for_producer("torch.onnx 1.13.0a0 (pytorch 1.13.0a0)"));
  EXPECT_TRUE(ex.for_producer("pytorch 1.13.0"));
  EXPECT_FALSE(ex.for_producer("pytorch 2.1.0"));
  EXPECT_FALSE(ex.for_producer("torch.onnx 2.1.0 (pytorch 2.1.0)"));
  EXPECT_FALSE(ex.for_producer(""));
  const auto exported = [](const std::string& id, const std::string& producer) {
    Outcome o = outcome(id, "model", "float", Status::pass);
    o.source = "exported";
    o.exported = ExportedVerdicts{};
    o.exported->producer = producer;
    o.exported->program = "unbind_0";
    o.exported->exporter = {Status::fail, Reason::shape_mismatch, "keeps the axis"};
    return o;
  };
  const std::vector<Outcome> outcomes = {exported("exported/unbind_0/a", "pytorch 1.13.0"),
                                         exported("exported/unbind_0/b", "pytorch 2.1.0"),
                                         exported("exported/unbind_0/c", "")};
  const Report by_default = make_report(run_info(), outcomes, nullptr, &ex);
  EXPECT_EQ(find_case(by_default, "exported/unbind_0/a").exporter_verdict,
            Verdict::expected_failure);
  const CaseRecord& other = find_case(by_default, "exported/unbind_0/b");
  EXPECT_EQ(other.exporter_verdict, Verdict::unexpected_failure);
  EXPECT_FALSE(other.exporter_expectation.has_value());
  EXPECT_EQ(other.exporter_expectation_mismatch,
            "the exporter's expectations (torch.onnx, measured on torch.onnx 1.13.0a0, pytorch "
            "1.13.0) are not applied to a model whose producer is pytorch 2.1.0");
  EXPECT_EQ(find_case(by_default, "exported/unbind_0/c").exporter_verdict,
            Verdict::unexpected_failure);
  EXPECT_EQ(by_default.summary.unexpected_exporter, 2);
  std::vector<std::string> notes = expectations_notes(by_default, nullptr, "", &ex, "t.json");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "t.json (measured on torch.onnx 1.13.0a0, pytorch 1.13.0) not applied to the "
            "exported cases of other producers: pytorch 2.1.0 (1), unknown (1); "
            "--exporter-expectations FILE applies a file to them");
  // Chosen by the user: applied to every model, and said.
  ex.apply_to_every_producer();
  const Report chosen = make_report(run_info(), outcomes, nullptr, &ex);
  EXPECT_EQ(chosen.summary.unexpected_exporter, 0);
  EXPECT_EQ(find_case(chosen, "exported/unbind_0/b").exporter_expectation_mismatch, "");
  notes = expectations_notes(chosen, nullptr, "", &ex, "t.json");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "t.json (measured on torch.onnx 1.13.0a0, pytorch 1.13.0) applied, as "
            "--exporter-expectations asks, to the exported cases of other producers: pytorch "
            "2.1.0 (1), unknown (1)");
}

TEST(Report, SummaryWithoutExpectations) {
  const Report r = make_report(run_info(), synthetic_outcomes(), nullptr);
  const Summary& s = r.summary;
  EXPECT_EQ(s.total, 10);
  EXPECT_EQ(s.passed, 4);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.errored, 1);
  EXPECT_EQ(s.not_supported, 2);
  EXPECT_EQ(s.crashed, 1);
  EXPECT_EQ(s.timed_out, 0);
  EXPECT_EQ(s.skipped, 1);
  EXPECT_EQ(s.expected_failures, 0);
  EXPECT_EQ(s.unexpected_failures, 5);
  EXPECT_EQ(s.unexpected_passes, 0);
  EXPECT_EQ(exit_code(r), 1);
  EXPECT_TRUE(std::is_sorted(r.cases.begin(), r.cases.end(), [](const auto& a, const auto& b) {
    return a.outcome.case_id < b.outcome.case_id;
  }));
}

TEST(Report, SummaryWithExpectations) {
  const auto ex = Expectations::from_json(kExpectations);
  const Report r = make_report(run_info(), synthetic_outcomes(), &ex);
  const Summary& s = r.summary;
  EXPECT_EQ(s.total, 10);
  EXPECT_EQ(s.expected_failures, 2);    // uint16 not_supported, int8.append crash
  EXPECT_EQ(s.unexpected_failures, 3);  // pos_neg fail, pos_shape_1 error, uint32 not_supported
  EXPECT_EQ(s.unexpected_passes, 1);    // SequenceAt.string
  EXPECT_EQ(find_case(r, "corpus.SequenceAt.string.pos_0").verdict, Verdict::unexpected_pass);
  EXPECT_EQ(find_case(r, "corpus.SplitToSequence.uint32.split_scalar").verdict,
            Verdict::unexpected_failure);
  EXPECT_EQ(find_case(r, "corpus.SplitToSequence.uint16.split_scalar").verdict,
            Verdict::expected_failure);
  EXPECT_EQ(find_case(r, "corpus.SplitToSequence.float.keepdims_0").verdict, Verdict::skipped);
  EXPECT_EQ(exit_code(r), 1);

  // Only expected failures left: exit code 0.
  std::vector<Outcome> only_expected = {
      outcome("corpus.SplitToSequence.uint16.a", "SplitToSequence", "uint16",
              Status::not_supported),
      outcome("corpus.SequenceAt.float.ok", "SequenceAt", "float", Status::pass)};
  EXPECT_EQ(exit_code(make_report(run_info(), only_expected, &ex)), 0);
}

TEST(Report, MatrixAndFindings) {
  const Report r = make_report(run_info(), synthetic_outcomes(), nullptr);
  ASSERT_EQ(r.matrix.size(), 8u);
  std::map<std::pair<std::string, std::string>, const MatrixCell*> at;
  for (const auto& c : r.matrix) at[{c.op, c.column}] = &c;
  const MatrixCell* at_float = at.at({"SequenceAt", "float"});
  EXPECT_EQ(at_float->total, 2);
  EXPECT_EQ(at_float->counts.at(Status::pass), 1);
  EXPECT_EQ(at_float->counts.at(Status::fail), 1);
  EXPECT_EQ(at_float->worst(), Status::fail);
  EXPECT_EQ(at.at({"SequenceInsert", "int8"})->worst(), Status::crash);
  EXPECT_EQ(at.at({"SplitToSequence", "float"})->worst(), Status::skipped);
  EXPECT_EQ(at.at({"model", "-"})->worst(), Status::pass);

  ASSERT_EQ(r.findings.size(), 2u);  // sorted by kind: "ambiguity" < "shape_inference"
  const AggregatedFinding& si = r.findings[1];
  EXPECT_EQ(si.kind, "shape_inference");
  EXPECT_EQ(si.op, "model");
  EXPECT_EQ(si.case_ids, std::vector<std::string>{"onnx-backend.simple.test_sequence_model1"});
  const AggregatedFinding& f = r.findings[0];
  EXPECT_EQ(f.id, "position_shape_1");
  EXPECT_EQ(f.op, "SequenceInsert");
  EXPECT_EQ(f.details, std::vector<std::string>{"accepted position of shape [1]"});
  EXPECT_EQ(f.case_ids, (std::vector<std::string>{"corpus.SequenceInsert.float.pos_shape_1",
                                                  "corpus.SequenceInsert.int8.pos_shape_1"}));
}

// The op x context matrix, counted by hand from synthetic.h's context list.
TEST(Report, ContextMatrix) {
  const Report r = make_report(run_info(), synthetic_outcomes(), nullptr);
  std::vector<std::tuple<std::string, std::string, int, Status>> cells;
  for (const auto& c : r.context_matrix) cells.emplace_back(c.op, c.column, c.total, c.worst());
  const std::vector<std::tuple<std::string, std::string, int, Status>> expected = {
      {"SequenceAt", "inputs", 1, Status::pass},
      {"SequenceAt", "loop_body", 2, Status::fail},
      {"SequenceInsert", "if_branch", 2, Status::error},
      {"SequenceInsert", "inputs", 1, Status::crash},
      {"SplitToSequence", "constant_nodes", 1, Status::not_supported},
      {"SplitToSequence", "initializers", 1, Status::not_supported},
      {"SplitToSequence", "inputs", 1, Status::skipped},
      {"model", "inputs", 1, Status::pass}};
  EXPECT_EQ(cells, expected);
  const MatrixCell& loop = r.context_matrix[1];
  EXPECT_EQ(loop.counts, (std::map<Status, int>{{Status::pass, 1}, {Status::fail, 1}}));
  const MatrixCell& branch = r.context_matrix[2];
  EXPECT_EQ(branch.counts, (std::map<Status, int>{{Status::pass, 1}, {Status::error, 1}}));
  // One cell per case at most, and every case in one cell.
  int total = 0;
  for (const auto& c : r.context_matrix) total += c.total;
  EXPECT_EQ(total, r.summary.total);
  // The op x dtype matrix is computed the same way over the dtype.
  EXPECT_EQ(op_matrix(r.cases, kDtypeColumn).size(), r.matrix.size());
  EXPECT_EQ(op_matrix(r.cases, kContextColumn).size(), r.context_matrix.size());
}

TEST(Report, SummaryText) {
  const Report r = make_report(run_info(), synthetic_outcomes(), nullptr);
  const std::string t = summary_text(r);
  EXPECT_NE(t.find("SequenceAt"), std::string::npos);
  EXPECT_NE(t.find("2/3"), std::string::npos);   // SequenceAt: 2 of 3 passed
  EXPECT_NE(t.find("4/10"), std::string::npos);  // total
  EXPECT_EQ(occurrences(t, "\n"), 6u);           // header, 4 ops, total
}

// The outcomes with the spec sentence and clauses of one case set, as the runner sets them from
// the case.
std::vector<Outcome> with_spec(std::vector<Outcome> outcomes, const std::string& id,
                               const std::string& spec, std::vector<std::string> clauses) {
  for (auto& o : outcomes)
    if (o.case_id == id) {
      o.spec = spec;
      o.clauses = clauses;
    }
  return outcomes;
}

TEST(JsonReport, RoundTripKeepsEveryField) {
  const auto ex = Expectations::from_json(kExpectations);
  RunInfo i = run_info();
  i.expectations_file = "exp.json";
  const Report r = make_report(i,
                               with_spec(synthetic_outcomes(), "corpus.SequenceAt.float.pos_neg",
                                         "Negative value means ...", {"position.negative"}),
                               &ex);
  const json j = report_to_json(r);
  EXPECT_EQ(j["cases"][1]["spec"], "Negative value means ...");
  EXPECT_EQ(j["cases"][1]["clauses"], json::array({"position.negative"}));
  EXPECT_FALSE(j["cases"][0].contains("clauses"));  // a case without clauses
  EXPECT_EQ(j["schema_version"], kSchemaVersion);
  EXPECT_EQ(j["summary"]["unexpected_passes"], 1);
  EXPECT_EQ(j["cases"].size(), 10u);
  const json back = report_to_json(report_from_json(j));
  EXPECT_EQ(back, j);
  // Every case names its context; a case without one counts as inputs.
  EXPECT_EQ(j["cases"][0]["id"], "corpus.SequenceAt.float.pos_0");
  EXPECT_EQ(j["cases"][0]["context"], "inputs");
  EXPECT_EQ(j["cases"][1]["context"], "loop_body");
  // Invalid UTF-8 from a runtime message is repaired, not fatal.
  const std::string text = report_to_json_text(r);
  EXPECT_NE(text.find("\xEF\xBF\xBD bytes"), std::string::npos);
  EXPECT_TRUE(json::parse(text).is_object());
}

// A case with a memory error (seqconf run --memcheck) keeps it through JSON; the others have no
// memory_error key.
TEST(JsonReport, MemoryErrorRoundTrips) {
  std::vector<Outcome> outcomes = synthetic_outcomes();
  Outcome& o = outcomes[1];
  o.reason = Reason::memory_error;
  o.memory_error =
      MemoryError{"InvalidRead",
                  "Invalid read of size 8",
                  {"strlen (vg_replace_strmem.c:494)", "Gather (libonnxruntime.so.1)"}};
  const json j = report_to_json(make_report(run_info(), outcomes, nullptr));
  EXPECT_EQ(j["cases"][1]["reason"], "memory_error");
  const json expected = {
      {"kind", "InvalidRead"},
      {"description", "Invalid read of size 8"},
      {"frames", {"strlen (vg_replace_strmem.c:494)", "Gather (libonnxruntime.so.1)"}}};
  EXPECT_EQ(j["cases"][1]["memory_error"], expected);
  EXPECT_FALSE(j["cases"][0].contains("memory_error"));
  const Report back = report_from_json(j);
  ASSERT_TRUE(back.cases[1].outcome.memory_error.has_value());
  EXPECT_EQ(back.cases[1].outcome.memory_error->frames.size(), 2u);
  EXPECT_EQ(back.cases[1].outcome.memory_error->kind, "InvalidRead");
  EXPECT_FALSE(back.cases[0].outcome.memory_error.has_value());
  EXPECT_EQ(report_to_json(back), j);
}

// The errors memcheck saw a run's workers make outside any case (seqconf run --memcheck): a
// section of their own, each with its phase and the number of workers, read back as written; an
// empty section in a memcheck run without one, none in a run without memcheck. A run whose
// cases all pass exits 1 with one, 0 without; shards merge them, counting the workers.
TEST(JsonReport, WorkerMemoryErrorsRoundTripAndFailTheRun) {
  const std::vector<Outcome> passing = {
      outcome("corpus.SequenceAt.float.a", "SequenceAt", "float", Status::pass)};
  RunInfo plain = run_info();
  EXPECT_FALSE(
      report_to_json(make_report(plain, passing, nullptr)).contains("worker_memory_errors"));
  RunInfo memcheck = run_info();
  memcheck.options["memcheck"] = true;
  const Report clean = make_report(memcheck, passing, nullptr);
  EXPECT_EQ(report_to_json(clean)["worker_memory_errors"], json::array());
  EXPECT_EQ(exit_code(clean), 0);

  memcheck.worker_memory_errors = {
      {WorkerPhase::startup,
       MemoryError{"UninitCondition", "Conditional jump", {"load (libx.so.1)", "main (p.cpp:3)"}},
       3},
      {WorkerPhase::between_cases, MemoryError{"InvalidFree", "Invalid free()", {}}, 1}};
  const Report r = make_report(memcheck, passing, nullptr);
  EXPECT_EQ(exit_code(r), 1);
  const json j = report_to_json(r);
  const json expected = json::array({{{"phase", "startup"},
                                      {"kind", "UninitCondition"},
                                      {"description", "Conditional jump"},
                                      {"frames", {"load (libx.so.1)", "main (p.cpp:3)"}},
                                      {"workers", 3}},
                                     {{"phase", "between_cases"},
                                      {"kind", "InvalidFree"},
                                      {"description", "Invalid free()"},
                                      {"frames", json::array()},
                                      {"workers", 1}}});
  EXPECT_EQ(j["worker_memory_errors"], expected);
  EXPECT_FALSE(j["cases"][0].contains("memory_error"));
  const Report back = report_from_json(j);
  ASSERT_EQ(back.info.worker_memory_errors.size(), 2u);
  EXPECT_EQ(back.info.worker_memory_errors[0].phase, WorkerPhase::startup);
  EXPECT_EQ(back.info.worker_memory_errors[1].phase, WorkerPhase::between_cases);
  EXPECT_EQ(report_to_json(back), j);

  json bad = j;
  bad["worker_memory_errors"][0]["phase"] = "later";
  EXPECT_THROW(report_from_json(bad), Error);

  // Two shards whose workers made the same start-up error: one entry, 3 + 3 workers.
  const std::vector<Outcome> other = {
      outcome("corpus.SequenceAt.float.b", "SequenceAt", "float", Status::pass)};
  const Report merged = merge({r, make_report(memcheck, other, nullptr)}, {});
  ASSERT_EQ(merged.info.worker_memory_errors.size(), 2u);
  EXPECT_EQ(merged.info.worker_memory_errors[0].workers, 6);
  EXPECT_EQ(merged.info.worker_memory_errors[1].workers, 2);
}

TEST(JsonReport, ContextMatrixBesideTheDtypeMatrix) {
  const json j = report_to_json(make_report(run_info(), synthetic_outcomes(), nullptr));
  const json& m = j.at("context_matrix");
  EXPECT_EQ(m.at("ops"), json({"SequenceAt", "SequenceInsert", "SplitToSequence", "model"}));
  EXPECT_EQ(m.at("contexts"),
            json({"constant_nodes", "if_branch", "initializers", "inputs", "loop_body"}));
  ASSERT_EQ(m.at("cells").size(), 8u);
  EXPECT_EQ(m.at("cells")[1], json::parse(R"({"op": "SequenceAt", "context": "loop_body",
      "total": 2, "worst": "fail", "counts": {"pass": 1, "fail": 1}})"));
  EXPECT_EQ(m.at("cells")[6], json::parse(R"({"op": "SplitToSequence", "context": "inputs",
      "total": 1, "worst": "skipped", "counts": {"skipped": 1}})"));
  // The op x dtype matrix keeps its form.
  EXPECT_EQ(j.at("matrix").at("cells")[0],
            json::parse(R"({"op": "SequenceAt", "dtype": "float", "total": 2, "worst": "fail",
                            "counts": {"pass": 1, "fail": 1}})"));
  EXPECT_EQ(j.at("matrix").at("dtypes"),
            json({"-", "float", "int8", "string", "uint16", "uint32"}));
}

// Reports written before cases carried a context read as context inputs.
TEST(JsonReport, CaseWithoutContextReadsAsInputs) {
  json j = report_to_json(make_report(run_info(), synthetic_outcomes(), nullptr));
  for (auto& c : j["cases"]) c.erase("context");
  j.erase("context_matrix");
  const Report r = report_from_json(j);
  for (const auto& c : r.cases) EXPECT_EQ(context_column(c.outcome), "inputs");
  ASSERT_EQ(r.context_matrix.size(), 4u);  // one per op
  for (const auto& c : r.context_matrix) EXPECT_EQ(c.column, "inputs");
  EXPECT_EQ(report_to_json(r)["matrix"], j["matrix"]);
}

TEST(JsonReport, RejectsWhatItCannotRead) {
  json j = report_to_json(make_report(run_info(), synthetic_outcomes(), nullptr));
  json bad = j;
  bad["schema_version"] = 99;
  EXPECT_THROW(report_from_json(bad), Error);
  bad = j;
  bad["cases"][0].erase("status");
  try {
    report_from_json(bad);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0] lacks \"status\""), std::string::npos)
        << e.what();
  }
  bad = j;
  bad["cases"][1]["status"] = "flaky";
  EXPECT_THROW(report_from_json(bad), Error);
}

TEST(JsonReport, RejectsAnUnknownReason) {
  json bad = report_to_json(make_report(run_info(), synthetic_outcomes(), nullptr));
  bad["cases"][1]["reason"] = "signal";
  try {
    report_from_json(bad);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("cases[1]: unknown reason \"signal\""), std::string::npos)
        << e.what();
  }
}

TEST(Merge, TwoShardsEqualTheWholeRun) {
  const auto ex = Expectations::from_json(kExpectations);
  const auto all = synthetic_outcomes();
  std::vector<Outcome> a, b;
  for (size_t k = 0; k < all.size(); ++k) (k % 2 ? b : a).push_back(all[k]);
  RunInfo ia = run_info(), ib = run_info();
  ia.options["shard"] = "1/2";
  ib.options["shard"] = "2/2";
  ib.start_time = "2026-01-01T00:00:00.500Z";
  ib.end_time = "2026-01-01T00:00:02.000Z";
  const Report whole = make_report(run_info(), all, &ex);
  const Report merged =
      merge({make_report(ia, a, &ex), make_report(ib, b, &ex)}, {"a.json", "b.json"});
  const json jw = report_to_json(whole), jm = report_to_json(merged);
  EXPECT_EQ(jm["cases"], jw["cases"]);
  EXPECT_EQ(jm["summary"], jw["summary"]);
  EXPECT_EQ(jm["matrix"], jw["matrix"]);
  EXPECT_EQ(jm["context_matrix"], jw["context_matrix"]);
  EXPECT_EQ(jm["findings"], jw["findings"]);
  EXPECT_EQ(jm["start_time"], "2026-01-01T00:00:00.000Z");
  EXPECT_EQ(jm["end_time"], "2026-01-01T00:00:02.000Z");
  EXPECT_FALSE(jm["options"].contains("shard"));
  EXPECT_EQ(jm["merged_from"], json::array({"a.json", "b.json"}));
  EXPECT_TRUE(merged.info.complete);

  RunInfo interrupted = ib;
  interrupted.complete = false;
  EXPECT_FALSE(
      merge({make_report(ia, a, &ex), make_report(interrupted, b, &ex)}, {}).info.complete);
}

// seqconf merge reads the shards back from JSON: the contexts survive and the merged op x
// context matrix is the whole run's.
TEST(Merge, ShardsReadFromJsonKeepTheirContexts) {
  const auto all = synthetic_outcomes();
  std::vector<Outcome> a, b;
  for (size_t k = 0; k < all.size(); ++k) (k < 5 ? a : b).push_back(all[k]);
  const auto through_json = [](const Report& r) { return report_from_json(report_to_json(r)); };
  const Report merged = merge({through_json(make_report(run_info(), a, nullptr)),
                               through_json(make_report(run_info(), b, nullptr))},
                              {"a.json", "b.json"});
  const Report whole = make_report(run_info(), all, nullptr);
  EXPECT_EQ(report_to_json(merged)["context_matrix"], report_to_json(whole)["context_matrix"]);
  EXPECT_EQ(context_column(find_case(merged, "corpus.SplitToSequence.uint32.split_scalar").outcome),
            "constant_nodes");
  EXPECT_EQ(merged.context_matrix.size(), 8u);
}

TEST(Merge, RejectsOverlapAndMixedRuntimes) {
  const auto all = synthetic_outcomes();
  const Report r = make_report(run_info(), all, nullptr);
  EXPECT_THROW(merge({r, r}, {}), Error);
  RunInfo other = run_info();
  other.runtime_name = "onnxruntime";
  const Report o = make_report(other, {all[0]}, nullptr);
  const Report rest = make_report(run_info(), {all[1]}, nullptr);
  EXPECT_THROW(merge({rest, o}, {}), Error);
  EXPECT_THROW(merge({}, {}), Error);
}

TEST(Output, Escaping) {
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(xml_escape("t\tn\nx\x01y"), "t\tn\nx\xEF\xBF\xBDy");
  EXPECT_EQ(valid_utf8("ok \xC3\xA9 \xFF \xC3"), "ok \xC3\xA9 \xEF\xBF\xBD \xEF\xBF\xBD");
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("a*b"), "'a*b'");
}

TEST(Output, AtomicWrite) {
  const auto dir = std::filesystem::temp_directory_path() / "seqconf_report_test_atomic";
  std::filesystem::remove_all(dir);
  const auto path = dir / "sub" / "r.json";
  write_file_atomic(path, "first");
  write_file_atomic(path, "second");
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), "second");
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "sub")) (void)e, ++files;
  EXPECT_EQ(files, 1u);  // no temporary left behind
  EXPECT_THROW(write_file_atomic("/proc/seqconf-cannot-write/r.json", "x"), Error);
  std::filesystem::remove_all(dir);
}

TEST(JunitReport, MapsVerdicts) {
  const auto ex = Expectations::from_json(kExpectations);
  const std::string x = report_to_junit(make_report(run_info(), synthetic_outcomes(), &ex));
  // failures: unexpected pass, fail, unexpected not_supported; errors: the error;
  // skipped: 2 expected failures + 1 skipped.
  EXPECT_NE(x.find("tests=\"10\" failures=\"3\" errors=\"1\" skipped=\"3\""), std::string::npos)
      << x;
  EXPECT_EQ(occurrences(x, "<testcase "), 10u);
  EXPECT_NE(x.find("classname=\"SequenceAt\" name=\"corpus.SequenceAt.float.pos_neg\""),
            std::string::npos);
  EXPECT_NE(x.find("expected 2, got 3 &lt;&amp;&gt;&quot;&#39;"), std::string::npos);
  EXPECT_NE(x.find("<failure type=\"unexpected_pass\""), std::string::npos);
  EXPECT_NE(x.find("<skipped message=\"expected crash: segfault\""), std::string::npos);
  EXPECT_NE(x.find("<error type=\"error:invalid_input\""), std::string::npos);
  EXPECT_EQ(x.find('\x01'), std::string::npos);
  EXPECT_EQ(x.find('\xff'), std::string::npos);
}

// A memory error a worker made outside any case fails the run (exit_code): the HTML banner is
// not green and lists it, and the JUnit report has a failing testcase for it.
TEST(JunitReport, AWorkersMemoryErrorOutsideAnyCaseFails) {
  RunInfo i = run_info("onnxruntime", "1.30.0");
  WorkerMemoryError w;
  w.phase = WorkerPhase::startup;
  w.error = {"InvalidRead", "Invalid read of size 8 <here>", {"f (lib.so)", "main (a.c:3)"}};
  w.workers = 3;
  i.worker_memory_errors.push_back(w);
  const Report with = make_report(i, {}, nullptr);
  EXPECT_EQ(exit_code(with), 1);
  const std::string x = report_to_junit(with);
  EXPECT_NE(x.find("<testsuite name=\"seqconf.workers\" tests=\"1\" failures=\"1\""),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("<failure type=\"memory_error:InvalidRead\" message=\"while the worker "
                   "started (3 worker(s)), outside any case: Invalid read of size 8 &lt;here&gt;"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("<testsuites name=\"seqconf\" tests=\"1\" failures=\"1\""), std::string::npos);
  const std::string h = report_to_html(with);
  EXPECT_NE(h.find("<div class=\"banner bad\" id=\"verdict\">"), std::string::npos);
  EXPECT_NE(h.find("1 memory error(s) of the runtime's workers outside any case"),
            std::string::npos);
  EXPECT_NE(h.find("<li data-phase=\"startup\"><b>InvalidRead</b> while the worker started (3 "
                   "workers): Invalid read of size 8 &lt;here&gt;<pre>f (lib.so)\nmain (a.c:3)"),
            std::string::npos)
      << h;
  // Without one: a green banner, no workers suite.
  const Report without = make_report(run_info(), {}, nullptr);
  EXPECT_EQ(report_to_junit(without).find("seqconf.workers"), std::string::npos);
  EXPECT_NE(report_to_html(without).find("banner good"), std::string::npos);
}

TEST(HtmlReport, MatrixCellsDetailsAndEscaping) {
  const auto ex = Expectations::from_json(kExpectations);
  const std::string h = report_to_html(
      make_report(run_info(),
                  with_spec(synthetic_outcomes(), "corpus.SequenceAt.float.pos_neg",
                            "Negative value means counting <back>", {"position.negative"}),
                  &ex));
  EXPECT_NE(h.find("<blockquote>Negative value means counting &lt;back&gt;</blockquote>"),
            std::string::npos);
  EXPECT_NE(h.find("inferred seq(tensor(float)), expected &lt;int8&gt;"), std::string::npos);
  EXPECT_NE(h.find("data-op=\"SequenceAt\" data-dtype=\"float\" data-status=\"fail\""),
            std::string::npos);
  EXPECT_NE(h.find("data-op=\"SequenceInsert\" data-dtype=\"int8\" data-status=\"crash\""),
            std::string::npos);
  // The op x context matrix, beside op x dtype, in the same form.
  EXPECT_NE(h.find("<table class=\"matrix\" id=\"matrix-dtype\">"), std::string::npos);
  EXPECT_NE(h.find("<table class=\"matrix\" id=\"matrix-context\">"), std::string::npos);
  EXPECT_LT(h.find("id=\"matrix-dtype\""), h.find("id=\"matrix-context\""));
  EXPECT_NE(h.find("data-op=\"SequenceAt\" data-context=\"loop_body\" data-status=\"fail\" "
                   "data-total=\"2\""),
            std::string::npos);
  EXPECT_NE(h.find("data-op=\"SequenceInsert\" data-context=\"if_branch\" "
                   "data-status=\"error\""),
            std::string::npos);
  EXPECT_NE(h.find("data-op=\"model\" data-context=\"inputs\" data-status=\"pass\""),
            std::string::npos);
  EXPECT_EQ(occurrences(h, "data-context="), 8u);
  EXPECT_NE(h.find("<dt>context</dt><dd>loop_body</dd>"), std::string::npos);
  EXPECT_EQ(occurrences(h, "<details class=\"case\""), 7u);  // 6 non-pass + 1 unexpected pass
  EXPECT_EQ(h.find("got 3 <&>"), std::string::npos);
  EXPECT_NE(h.find("got 3 &lt;&amp;&gt;&quot;&#39;"), std::string::npos);
  EXPECT_NE(h.find("build/seqconf run --runtime &#39;reference&#39; --source corpus --filter "
                   "&#39;corpus.SequenceAt.float.pos_neg&#39;"),
            std::string::npos);
  EXPECT_NE(h.find("It is an error if &#39;position&#39; is not a scalar tensor."),
            std::string::npos);
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_EQ(h.find("http://"), std::string::npos);  // self-contained

  const std::string clean = report_to_html(make_report(run_info(), synthetic_outcomes(), nullptr));
  EXPECT_EQ(occurrences(clean, "<details class=\"case\""), 6u);
}

TEST(HtmlReport, ReproduceCommandRepeatsTheRunsChoices) {
  RunInfo i = run_info();
  i.options = {{"runtime", "onnxruntime=/opt/ort/lib.so"},
               {"corpus", "/tmp/my corpus"},
               {"onnx_testdata", ""},
               {"strict", true}};
  const Report r = make_report(i, synthetic_outcomes(), nullptr);
  EXPECT_EQ(reproduce_command(r, r.cases[0]),
            "build/seqconf run --runtime 'onnxruntime=/opt/ort/lib.so' --source corpus --corpus "
            "'/tmp/my corpus' --strict --filter '" +
                r.cases[0].outcome.case_id + "'");
  const CaseRecord& backend = find_case(r, "onnx-backend.simple.test_sequence_model1");
  EXPECT_EQ(reproduce_command(r, backend),
            "build/seqconf run --runtime 'onnxruntime=/opt/ort/lib.so' --source onnx-backend "
            "--strict --filter 'onnx-backend.simple.test_sequence_model1'");
  i.options["ort_graph_optimization"] = "disabled";
  const Report d = make_report(i, synthetic_outcomes(), nullptr);
  EXPECT_EQ(reproduce_command(d, find_case(d, "onnx-backend.simple.test_sequence_model1")),
            "build/seqconf run --runtime 'onnxruntime=/opt/ort/lib.so' --source onnx-backend "
            "--strict --ort-graph-optimization 'disabled' --filter "
            "'onnx-backend.simple.test_sequence_model1'");
}

TEST(HtmlReport, IndexComparesRuntimes) {
  const auto all = synthetic_outcomes();
  RunInfo other = run_info();
  other.runtime_name = "onnxruntime";
  std::vector<Outcome> ort = all;
  for (auto& o : ort)
    if (o.status != Status::skipped) o.status = Status::pass;
  const std::string h =
      index_to_html({{make_report(run_info(), all, nullptr), "reference.html", ""},
                     {make_report(other, ort, nullptr), "", ""}});
  EXPECT_NE(h.find("data-runtime=\"onnxruntime\" data-op=\"SequenceAt\" data-dtype=\"float\" "
                   "data-status=\"pass\""),
            std::string::npos);
  EXPECT_NE(h.find("data-runtime=\"reference\" data-op=\"SequenceAt\" data-dtype=\"float\" "
                   "data-status=\"fail\""),
            std::string::npos);
  EXPECT_NE(h.find("data-runtime=\"reference\" data-op=\"SequenceAt\" data-context=\"loop_body\" "
                   "data-status=\"fail\""),
            std::string::npos);
  EXPECT_NE(h.find("data-runtime=\"onnxruntime\" data-op=\"SequenceAt\" "
                   "data-context=\"loop_body\" data-status=\"pass\""),
            std::string::npos);
  EXPECT_EQ(occurrences(h, "data-context="), 16u);  // 8 cells, 2 runtimes
  // Not passed by both: the 5 non-pass reference cases and the skipped one.
  EXPECT_EQ(occurrences(h, "<tr data-case-id="), 6u);
  EXPECT_NE(h.find("<a href=\"reference.html\">"), std::string::npos);
}

}  // namespace
}  // namespace seqconf::reports

namespace seqconf::reports {
namespace {

// Every committed expectations file loads, names its runtime (a model-to-model tool's names the
// transform run it was written for: "transform <tool>:<argument>, then <runtime>"), and gives each
// entry a reason.
TEST(Expectations, CommittedFilesLoad) {
  const std::filesystem::path dir = std::filesystem::path(SEQCONF_SOURCE_DIR) / "expectations";
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    const Expectations ex = Expectations::load(e.path());
    const std::string stem = e.path().stem().string();
    // An exporter's file is named after the exporter, '.' spelled '-' (torch-onnx.json).
    std::string exporter = ex.runtime();
    std::replace(exporter.begin(), exporter.end(), '.', '-');
    EXPECT_TRUE(ex.runtime() == stem || ex.runtime().rfind("transform " + stem + ":", 0) == 0 ||
                exporter == stem)
        << e.path() << ": " << ex.runtime();
    EXPECT_FALSE(ex.entries().empty()) << e.path();
    // Each entry says what it accepts: the outcome reasons of its non-pass statuses, and the
    // programs of a glob over exported cases; an exporter's file names its producers.
    for (const auto& x : ex.entries()) {
      EXPECT_FALSE(x.reason.empty()) << x.id;
      EXPECT_FALSE(x.outcome_reasons.empty()) << e.path() << ": " << x.id;
      if (x.id.rfind("exported/", 0) == 0) {
        EXPECT_FALSE(x.programs.empty()) << e.path() << ": " << x.id;
      }
    }
    std::ifstream in(e.path());
    if (json::parse(in).contains("exporter")) {
      EXPECT_FALSE(ex.producers().empty()) << e.path();
    }
  }
  EXPECT_GE(files, 1u);
}

// The schema's "reason" enum is exactly the set of Reason names ("" for none).
TEST(Reason, SchemaListsEveryReason) {
  std::ifstream in(std::filesystem::path(SEQCONF_SOURCE_DIR) / "reports" /
                   "seqconf-report.schema.json");
  ASSERT_TRUE(in);
  const json schema = json::parse(in);
  std::set<std::string> in_schema;
  for (const auto& n : schema.at("$defs").at("reason").at("enum"))
    in_schema.insert(n.get<std::string>());
  std::set<std::string> names;
  for (Reason r : kAllReasons) names.insert(std::string(reason_name(r)));
  EXPECT_EQ(in_schema, names);
  EXPECT_EQ(schema.at("$defs").at("reason").at("enum").size(), std::size(kAllReasons));
}

}  // namespace
}  // namespace seqconf::reports
