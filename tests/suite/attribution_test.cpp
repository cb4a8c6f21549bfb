// Who broke it (suite/attribution.h): each layer from the three extra runs, first on outcomes
// written by hand, then through run_suite with configurations that put each defect where the
// label says: a seeded runtime (a kernel's defect), and a tool that breaks models on purpose in
// front of the reference (tests/runtimes/breaking_tool.py: an optimizer's or a loader's defect).
#include <gtest/gtest.h>

#include <sstream>

#include "harness/run.h"
#include "reference/error.h"
#include "reports/json_report.h"
#include "runtimes/registry.h"
#include "suite/attribution.h"
#include "suite/suite.h"

namespace seqconf {
namespace {

Outcome outcome(Status status, Reason reason = Reason::none) {
  Outcome o;
  o.status = status;
  o.reason = reason;
  return o;
}

const Outcome kPass = outcome(Status::pass);
const Outcome kWrong = outcome(Status::fail, Reason::value_mismatch);
const Outcome kRejected = outcome(Status::error, Reason::invalid_input);

TEST(Attribution, EachLayerFromTheThreeRuns) {
  // without optimizations, ORT's loaded model on the reference, its optimized model there
  EXPECT_EQ(attribute(kWrong, kPass, kPass).layer, "kernel");
  EXPECT_EQ(attribute(kRejected, kPass, kWrong).layer, "kernel");
  EXPECT_EQ(attribute(kPass, kPass, kWrong).layer, "graph optimizer");
  EXPECT_EQ(attribute(kWrong, kWrong, kWrong).layer, "loader");
  EXPECT_EQ(attribute(kRejected, outcome(Status::error, Reason::tool_failed), kPass).layer,
            "loader");
  EXPECT_EQ(attribute(outcome(Status::crash, Reason::crash),
                      outcome(Status::crash, Reason::tool_crash), kPass)
                .layer,
            "loader");
  EXPECT_EQ(attribute(outcome(Status::not_supported, Reason::not_supported),
                      outcome(Status::not_supported, Reason::not_supported), kPass)
                .layer,
            "loader");
  // No kernel registered: ONNX Runtime's words say it, although the session fails at load.
  Outcome no_kernel = outcome(Status::not_supported, Reason::not_supported);
  no_kernel.message = "Could not find an implementation for SplitToSequence(11) node";
  EXPECT_EQ(
      attribute(no_kernel, outcome(Status::not_supported, Reason::not_supported), kPass).layer,
      "kernel");
  // Goes away without optimizations, but the optimized model is right: nothing to point at.
  EXPECT_EQ(attribute(kPass, kPass, kPass).layer, "undetermined");
  // An optimized model that no other runtime can judge says nothing either.
  EXPECT_EQ(attribute(kPass, kPass, outcome(Status::not_supported, Reason::not_supported)).layer,
            "undetermined");
  // A loaded model that lost a type is not a model that departs.
  EXPECT_EQ(attribute(kWrong, outcome(Status::error, Reason::tool_lost_type), kPass).layer,
            "undetermined");
}

const std::string kRepo = SEQCONF_SOURCE_DIR;
const std::string kValidInputs =
    "corpus/SequenceAt/position=-1/ptype=int32/dtype=float/n=5/context=inputs";
const std::string kValidConstant =
    "corpus/SequenceAt/position=1/ptype=int32/dtype=float/n=5/context=all_constant";

std::string breaking(const std::string& mode) {
  return "transform=process=/usr/bin/python3 " + kRepo + "/tests/runtimes/breaking_tool.py " +
         mode + ",reference";
}

AttributionRuntimes::Configuration configuration(const std::string& name, const std::string& spec) {
  return {name, [spec] { return make_runtime(spec); }};
}

// A quiet run of one corpus case, without static checks.
SuiteOptions one_case(const std::string& id) {
  SuiteOptions options;
  options.source = "corpus";
  options.corpus = kRepo + "/fixtures/corpus";
  options.filters = {id};
  options.run.static_checks = false;
  options.quiet = true;
  return options;
}

// The one departure of a run of `id` on `runtime`, attributed with the three given runtimes.
reports::Departure attributed(const std::string& runtime, const std::string& id,
                              const std::string& without, const std::string& loaded,
                              const std::string& optimized) {
  SuiteOptions options = one_case(id);
  options.attribution =
      AttributionRuntimes{configuration("without optimizations", without),
                          configuration("loaded, on the reference", loaded),
                          configuration("optimized, on the reference", optimized)};
  const SuiteResult r = run_suite([&] { return make_runtime(runtime); }, options);
  if (r.report.departures.size() != 1) throw std::runtime_error("not one departure");
  return r.report.departures.front();
}

TEST(Attribution, ASeededKernelDefectIsTheKernels) {
  const auto d =
      attributed("seeded=at.negative_off_by_one", kValidInputs, "seeded=at.negative_off_by_one",
                 breaking("identity"), breaking("identity"));
  ASSERT_TRUE(d.attribution);
  EXPECT_EQ(d.attribution->layer, "kernel") << d.attribution->why;
  ASSERT_EQ(d.attribution->runs.size(), 3u);
  EXPECT_EQ(d.attribution->runs[0].configuration, "without optimizations");
  EXPECT_EQ(d.attribution->runs[0].status, Status::fail);
  EXPECT_EQ(d.attribution->runs[1].status, Status::pass);
}

// An "optimizer" that changes the result only when it runs: without it the case passes, and its
// model departs on the reference; that model is kept for the reader.
TEST(Attribution, AnOptimizerThatChangesTheResultIsTheOptimizers) {
  const auto d = attributed(breaking("negate"), kValidConstant, "reference", breaking("identity"),
                            breaking("negate"));
  ASSERT_TRUE(d.attribution);
  EXPECT_EQ(d.attribution->layer, "graph optimizer") << d.attribution->why;
  EXPECT_EQ(d.attribution->runs[2].reason, Reason::value_mismatch);
}

TEST(Attribution, ALoaderThatCannotLoadTheModelIsTheLoaders) {
  const auto d = attributed(breaking("crash"), kValidInputs, breaking("crash"), breaking("crash"),
                            breaking("crash"));
  ASSERT_TRUE(d.attribution);
  EXPECT_EQ(d.attribution->layer, "loader") << d.attribution->why;
}

TEST(Attribution, ALoadedModelThatDepartsIsTheLoaders) {
  const auto d = attributed(breaking("negate"), kValidConstant, breaking("negate"),
                            breaking("negate"), breaking("negate"));
  ASSERT_TRUE(d.attribution);
  EXPECT_EQ(d.attribution->layer, "loader") << d.attribution->why;
}

TEST(Attribution, NothingToPointAtIsUndetermined) {
  const auto d = attributed(breaking("negate"), kValidConstant, "reference", breaking("identity"),
                            breaking("identity"));
  ASSERT_TRUE(d.attribution);
  EXPECT_EQ(d.attribution->layer, "undetermined") << d.attribution->why;
}

// The attribution is the smallest case's, so it survives a report read back, and the console
// table gets a layer column.
TEST(Attribution, SurvivesTheJsonReportAndShowsInTheConsoleTable) {
  SuiteOptions options = one_case(kValidInputs);
  options.attribution =
      AttributionRuntimes{configuration("a", "seeded=at.negative_off_by_one"),
                          configuration("b", "reference"), configuration("c", "reference")};
  const SuiteResult r =
      run_suite([] { return make_runtime("seeded=at.negative_off_by_one"); }, options);
  const reports::Report back =
      reports::report_from_json(nlohmann::json::parse(reports::report_to_json_text(r.report)));
  ASSERT_EQ(back.departures.size(), 1u);
  ASSERT_TRUE(back.departures[0].attribution);
  EXPECT_EQ(back.departures[0].attribution->layer, "kernel");
  EXPECT_EQ(back.departures[0].attribution->runs.size(), 3u);
  const std::string table = reports::departures_text(back);
  EXPECT_NE(table.find("layer"), std::string::npos) << table;
  EXPECT_NE(table.find("kernel"), std::string::npos) << table;
  EXPECT_EQ(back.info.options.value("attribution", false), true);
}

// A stop request (SIGINT, SIGTERM) that comes while the departures are attributed leaves them
// unattributed: the report says the run is incomplete and the run exits 1.
TEST(Attribution, AStopWhileAttributingMakesTheRunIncomplete) {
  SuiteOptions options = one_case(kValidInputs);
  const auto stopping = [](const std::string& name) {
    return AttributionRuntimes::Configuration{name, [] {
                                                request_stop();  // as a signal would
                                                return make_runtime("reference");
                                              }};
  };
  options.attribution = AttributionRuntimes{stopping("a"), stopping("b"), stopping("c")};
  const SuiteResult r =
      run_suite([] { return make_runtime("seeded=at.negative_off_by_one"); }, options);
  clear_stop_request();
  EXPECT_FALSE(r.report.info.complete);
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.report.departures.size(), 1u);
  EXPECT_FALSE(r.report.departures[0].attribution);
}

}  // namespace
}  // namespace seqconf
