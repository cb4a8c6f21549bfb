// Differential fuzzing campaigns (ctest label `fuzz`):
//  - the reference against itself finds nothing;
//  - a seeded defect (SequenceInsert's negative positions off by one) is caught, and the finding
//    shrinks to at most 3 nodes;
//  - the same seed and iteration count give the same findings;
//  - ONNX Runtime 1.30: every finding is listed in expectations/onnxruntime.json, and the
//    fixtures written reproduce under the corpus runner.
#include <gtest/gtest.h>

#include <set>

#include <onnx/defs/schema.h>

#include "difffuzz/campaign.h"
#include "difffuzz/campaign_report.h"
#include "harness/runner.h"
#include "harness/static_checks.h"
#include "reports/expectations.h"
#include "reports/report.h"
#include "runtimes/isolated.h"
#include "runtimes/onnxruntime.h"
#include "runtimes/registry.h"
#include "runtimes/seeded/seeded.h"
#include "tests/difffuzz/fuzz_dirs.h"
#include "tests/support/runtime_test_util.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;
using difffuzz::FuzzOptions;
using difffuzz::run_campaign;

// SequenceInsert's description and input descriptions, whitespace runs made single spaces.
std::string insert_spec_text() {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema("SequenceInsert", 17, "");
  std::string text = schema->doc() ? schema->doc() : "";
  for (const auto& in : schema->inputs()) text += " " + in.GetDescription();
  std::string flat;
  for (char c : text) {
    if (c == '\n') c = ' ';
    if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += c;
  }
  return flat;
}

TEST(DiffFuzz, ReferenceAgainstItselfFindsNothing) {
  auto rt = make_runtime("reference");
  FuzzOptions o;
  o.seed = 7;
  o.iterations = 400;
  o.out = fresh_fuzz_dir("difffuzz-self");
  const auto r = run_campaign(*rt, o);
  EXPECT_EQ(r.programs, 400u);
  EXPECT_EQ(r.disagreements, 0u);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().description;
  EXPECT_EQ(r.not_supported, 0u);
  // Both kinds of program occur: some run, some are rejected.
  EXPECT_GT(r.agree_outputs, 40u);
  EXPECT_GT(r.agree_rejected, 40u);
  EXPECT_TRUE(fs::is_empty(o.out));
  // Every op a program can hold is counted, at most once per program; most programs are valid
  // throughout, so most run to the end.
  const std::set<std::string> ops = {"SequenceEmpty",      "SequenceConstruct", "SequenceInsert",
                                     "SequenceErase",      "SequenceAt",        "SequenceLength",
                                     "ConcatFromSequence", "SplitToSequence",   "SequenceMap"};
  std::set<std::string> counted;
  for (const auto& [op, n] : r.programs_by_op) {
    counted.insert(op);
    EXPECT_LE(n, r.programs) << op;
    EXPECT_GT(n, 0u) << op;
    EXPECT_LE(r.agree_outputs_by_op.count(op) ? r.agree_outputs_by_op.at(op) : 0, n) << op;
  }
  EXPECT_EQ(counted, ops);
  EXPECT_GT(r.agree_outputs, r.agree_rejected);
  // Every graph context occurs, with programs both sides run to the end.
  for (const char* context : {"inputs", "initializers", "if_branch", "loop_body"})
    EXPECT_GT(
        r.agree_outputs_by_context.count(context) ? r.agree_outputs_by_context.at(context) : 0, 5u)
        << context;
}

TEST(DiffFuzz, BrokenInsertIsFoundAndShrunk) {
  // The seeded defect insert.negative_inserts_after (runtimes/seeded/): a negative position
  // inserts after the tensor it names, where the spec says "Negative value means counting
  // positions from the back" and the tensor goes before it.
  const auto broken = seeded::make_seeded_runtime(seeded::defect("insert.negative_inserts_after"));
  Runtime& rt = *broken;
  FuzzOptions o;
  o.seed = 11;
  o.iterations = 300;
  o.runtime_spec = "seeded=insert.negative_inserts_after";
  o.out = fresh_fuzz_dir("difffuzz-broken");
  const auto r = run_campaign(rt, o);
  ASSERT_FALSE(r.findings.empty());
  for (const auto& f : r.findings) {
    std::cout << f.id << " (" << f.nodes << " nodes, " << f.occurrences
              << " programs): " << f.program << "\n";
    EXPECT_EQ(f.op, "SequenceInsert") << f.id << ": " << f.description;
    EXPECT_LE(f.nodes, 3u) << f.id << ": " << f.program;
    // The fixture is in the corpus layout and runs on the broken runtime as a non-pass.
    EXPECT_TRUE(fs::exists(o.out / f.folder / "model.onnx"));
    EXPECT_TRUE(fs::exists(o.out / f.folder / "case.json"));
    // The fixture cites a sentence of SequenceInsert's spec text.
    const std::string spec = f.case_json.spec;
    EXPECT_FALSE(spec.empty()) << f.id;
    EXPECT_NE(insert_spec_text().find(spec), std::string::npos) << f.id << ": " << spec;
  }
  const auto cases = fixture_cases(o.out);
  ASSERT_EQ(cases.size(), r.findings.size());
  auto reference = make_runtime("reference");
  for (const auto& c : cases) {
    EXPECT_NE(run_case(c, rt).status, Status::pass) << c.id;
    // The reference agrees with its own expectation in the fixture.
    EXPECT_EQ(run_case(c, *reference).status, Status::pass) << c.id;
  }
}

// One finding per departure (operator, what the runtime did, spec clause), whatever the element
// types and contexts its programs have: every disagreement is counted into exactly one finding,
// and only the first program of each departure is shrunk.
TEST(DiffFuzz, EachDepartureIsOneFindingShrunkOnce) {
  const auto broken = seeded::make_seeded_runtime(seeded::defect("insert.out_of_range_wraps"));
  FuzzOptions o;
  o.seed = 4;
  o.iterations = 600;
  o.input_sets = 8;
  o.out = fresh_fuzz_dir("difffuzz-once");
  const auto r = run_campaign(*broken, o);
  ASSERT_FALSE(r.findings.empty());
  std::set<std::string> departures;
  size_t occurrences = 0;
  for (const auto& f : r.findings) {
    std::string key = f.op + "|" + reports::departure_what(f.status, f.reason) + "|";
    for (const auto& c : f.clauses) key += c + "+";
    EXPECT_TRUE(departures.insert(key).second) << "two findings of departure " << key;
    occurrences += f.occurrences;
  }
  EXPECT_EQ(occurrences, r.disagreements);
  // More disagreements than findings: the later ones were counted, not shrunk again.
  EXPECT_GT(r.disagreements, r.findings.size());
  // One fixture per finding, none left of a replaced reproducer.
  EXPECT_EQ(fixture_cases(o.out).size(), r.findings.size());
  // The share of executions both sides rejected is reported per op.
  size_t rejected = 0;
  for (const auto& [op, n] : r.agree_rejected_by_op) {
    EXPECT_LE(n, r.programs_by_op.at(op)) << op;
    rejected = std::max(rejected, n);
  }
  EXPECT_LE(rejected, r.agree_rejected);
}

// A crash names no node: the node a crash's departure as found blames (the one the reference
// rejects, else the last) changes from program to program. A crash is one departure per op it
// happens in, and only its first program is shrunk.
TEST(DiffFuzz, ACrashIsShrunkOncePerOp) {
  const std::string id = "insert.crash_on_empty_sequence";
  const auto rt = isolate_runtime(seeded::make_seeded_runtime(seeded::defect(id)));
  FuzzOptions o;
  o.seed = 1;
  o.iterations = 80;
  o.input_sets = 8;
  o.runtime_spec = "seeded=" + id;
  o.out = fresh_fuzz_dir("difffuzz-crash-once");
  const auto r = run_campaign(*rt, o);
  size_t crashes = 0;
  for (const auto& f : r.findings) {
    std::cout << f.id << " (" << f.occurrences << " programs): " << f.program << "\n";
    if (f.kind != "crash") continue;
    EXPECT_EQ(f.op, "SequenceInsert") << f.id;
    EXPECT_LE(f.nodes, 2u) << f.program;
    crashes += f.occurrences;
  }
  // Several crashing programs, one finding, one shrink.
  EXPECT_GT(crashes, 5u);
  EXPECT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.shrinks, r.findings.size());
}

TEST(DiffFuzz, SameSeedSameFindings) {
  auto run = [](const std::string& name, size_t jobs) {
    const auto broken =
        seeded::make_seeded_runtime(seeded::defect("insert.negative_inserts_after"));
    FuzzOptions o;
    o.seed = 3;
    o.iterations = 150;
    o.out = fresh_fuzz_dir("difffuzz-" + name);
    o.jobs = jobs;
    o.make_runtime = [] {
      return seeded::make_seeded_runtime(seeded::defect("insert.negative_inserts_after"));
    };
    return run_campaign(*broken, o);
  };
  const auto a = run("det-a", 1);
  // Threads evaluate programs out of order; findings are still processed in program order.
  for (const auto& b : {run("det-b", 1), run("det-c", 2), run("det-d", 3)}) {
    ASSERT_EQ(a.findings.size(), b.findings.size());
    EXPECT_FALSE(a.findings.empty());
    EXPECT_EQ(b.programs, 150u);
    EXPECT_EQ(a.agree_outputs, b.agree_outputs);
    EXPECT_EQ(a.agree_rejected, b.agree_rejected);
    EXPECT_EQ(a.disagreements, b.disagreements);
    for (size_t i = 0; i < a.findings.size(); ++i) {
      EXPECT_EQ(a.findings[i].id, b.findings[i].id);
      EXPECT_EQ(a.findings[i].program, b.findings[i].program);
      EXPECT_EQ(a.findings[i].occurrences, b.findings[i].occurrences);
      EXPECT_EQ(a.findings[i].first_iteration, b.findings[i].first_iteration);
    }
  }
}

TEST(DiffFuzz, OnnxRuntimeFindingsAreExpectedAndReproduce) {
  std::string why;
  std::unique_ptr<Runtime> in_process = ort_1_30(&why);
  if (!in_process) GTEST_SKIP() << why;
  // As seqconf fuzz runs it by default: ORT 1.30 aborts its process on some programs
  // (ConcatFromSequence of tensors of different ranks).
  std::unique_ptr<Runtime> rt = isolate_runtime(std::move(in_process));
  const auto expectations =
      reports::Expectations::load(kFuzzSource / "expectations" / "onnxruntime.json");
  FuzzOptions o;
  o.seed = 1;
  o.iterations = 2000;
  o.out = fresh_fuzz_dir("difffuzz-onnxruntime");
  const auto r = run_campaign(*rt, o);
  std::cout << r.programs << " programs, " << r.not_supported << " not supported, "
            << r.findings.size() << " findings, " << r.seconds << " s\n";
  EXPECT_GT(r.agree_outputs, 100u);
  std::map<std::string, std::string> status_by_id;
  for (const auto& f : r.findings) {
    const reports::Expectation* e = expectations.match("corpus/" + f.id);
    ASSERT_NE(e, nullptr) << f.id << " not in expectations/onnxruntime.json: " << f.description
                          << " | " << f.program;
    EXPECT_EQ(status_name(e->status), difffuzz::status_of_kind(f.kind)) << f.id;
    status_by_id["corpus/" + f.id] = difffuzz::status_of_kind(f.kind);
  }
  // The fixtures reproduce: the corpus runner gives ORT the status the finding predicts.
  const auto cases = r.findings.empty() ? std::vector<Case>{} : fixture_cases(o.out);
  ASSERT_EQ(cases.size(), r.findings.size());
  // The static checks in their sandbox, as seqconf run does: ONNX's shape inference dies with
  // SIGFPE on a zero split given as an initializer.
  StaticCheckSandbox sandbox;
  std::vector<Outcome> replayed;
  for (const auto& c : cases) {
    const Outcome out = run_case(c, *rt, {}, &sandbox);
    EXPECT_EQ(std::string(status_name(out.status)), status_by_id[c.id])
        << c.id << ": " << out.message;
    replayed.push_back(out);
  }
  // And the campaign's departures are the conformance report's departures of its fixtures: the
  // same ids, each with the same findings.
  const auto departures = [](const reports::Report& report) {
    std::map<std::string, std::vector<std::string>> by_id;
    for (const auto& d : report.departures) by_id[d.id] = d.case_ids;
    return by_id;
  };
  const auto from_campaign =
      departures(findings_report(r, o, rt->name(), rt->version(), nullptr, ""));
  const auto from_fixtures =
      departures(reports::make_report(reports::RunInfo{}, replayed, nullptr));
  EXPECT_GT(from_campaign.size(), 5u);
  EXPECT_EQ(from_campaign, from_fixtures);
}

}  // namespace
}  // namespace seqconf::testing
