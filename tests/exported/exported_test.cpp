// Exported models judged three ways (harness/runner.h, reports/report.h) on committed fixtures of
// fixtures/exported. The expected verdicts are worked out from each program's Python meaning and
// the spec sentence its model turns on, as the comments say, not taken from a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "cases/case.h"
#include "harness/localize.h"
#include "harness/runner.h"
#include "reports/expectations.h"
#include "reports/json_report.h"
#include "reports/report.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/registry.h"
#include "suite/suite.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kExported = SEQCONF_SOURCE_DIR "/fixtures/exported";
const std::filesystem::path kTorchOnnx = SEQCONF_SOURCE_DIR "/expectations/torch-onnx.json";

Case exported_case(const std::string& id) {
  for (Case& c : load_exported(kExported))
    if (c.id == id) return c;
  ADD_FAILURE() << id << " is not in " << kExported;
  return {};
}

Outcome run_on(Runtime& runtime, const std::string& id) {
  RunOptions options;
  options.static_checks = false;
  return run_case(exported_case(id), runtime, options);
}

TEST(ExportedCases, CarryTheirProducer) {
  const Case c = exported_case("exported/setitem_neg1/opset=13");
  ASSERT_TRUE(c.exported());
  EXPECT_EQ(c.producer.value("exporter", ""), "torch.onnx");
  EXPECT_EQ(c.producer.value("program", ""), "setitem_neg1");
  EXPECT_EQ(c.opset, 13);
  EXPECT_NE(c.producer.value("source", "").find("lst[-1] = d"), std::string::npos);
}

// lst = [a, b, c]; lst[-1] = d gives [a, b, d] in Python. The model is SequenceErase(-1) then
// SequenceInsert(d, -1): erasing gives [a, b], and position -1 "counting positions from the
// back" inserts before b: [a, d, b]. The reference gives the spec's meaning, so its runtime
// verdict passes, while the exporter and end-to-end verdicts fail on values: the exporter's.
TEST(ExportedCases, SetitemOfTheLastElementIsTheExportersDeparture) {
  ReferenceRuntime reference;
  const Outcome o = run_on(reference, "exported/setitem_neg1/opset=13");
  EXPECT_EQ(o.status, Status::pass) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::fail);
  EXPECT_EQ(o.exported->exporter.reason, Reason::value_mismatch) << o.exported->exporter.message;
  EXPECT_EQ(o.exported->end_to_end.status, Status::fail);
  EXPECT_EQ(o.exported->end_to_end_layer, "exporter");
  EXPECT_FALSE(o.depends_on_departure());
  EXPECT_EQ(o.exported->program, "setitem_neg1");
}

// lst.insert(10, d) appends in Python; the model's SequenceInsert(position = 10) on three tensors
// is outside "[-n, n]": the spec rejects the model (must-reject), so the reference's rejection
// passes, and the exporter verdict is the spec's rejection of what PyTorch runs.
TEST(ExportedCases, InsertPastTheEndIsInvalidUnderTheSpec) {
  ReferenceRuntime reference;
  const Outcome o = run_on(reference, "exported/insert_past_end/opset=13");
  EXPECT_EQ(o.status, Status::pass) << o.message;
  EXPECT_EQ(o.expected, "error position_out_of_range");
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::error);
  EXPECT_EQ(o.exported->exporter.reason, Reason::invalid_input);
  EXPECT_EQ(o.exported->end_to_end.status, Status::error);
  EXPECT_EQ(o.exported->end_to_end_layer, "exporter");
}

// lst.insert(1, d) into [a, b, c] is [a, d, b, c] in Python and under the spec alike.
TEST(ExportedCases, InsertInTheMiddlePassesThreeWays) {
  ReferenceRuntime reference;
  const Outcome o = run_on(reference, "exported/insert_middle/opset=13");
  EXPECT_EQ(o.status, Status::pass) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->exporter.status, Status::pass) << o.exported->exporter.message;
  EXPECT_EQ(o.exported->end_to_end.status, Status::pass);
  EXPECT_EQ(o.exported->end_to_end_layer, "");
}

// list(x.unbind(0)) of a [3, 3, 4] tensor: PyTorch's elements are [3, 4]; the model's
// SplitToSequence(split = 1, keepdims = 0) keeps the axis under the spec ([1, 3, 4]). A runtime
// that applies keepdims to the scalar split (the seeded defect that models ONNX Runtime) departs
// from the spec and thereby matches PyTorch: the program depends on that departure.
TEST(ExportedCases, UnbindMatchesPyTorchOnlyThroughTheKeepdimsDeparture) {
  ReferenceRuntime reference;
  const Outcome spec = run_on(reference, "exported/unbind_axis0/opset=13");
  ASSERT_TRUE(spec.exported);
  EXPECT_EQ(spec.exported->exporter.status, Status::fail);
  EXPECT_EQ(spec.exported->exporter.reason, Reason::shape_mismatch);

  std::unique_ptr<Runtime> keepdims = make_runtime("seeded=split.keepdims_with_scalar_split");
  const Outcome o = run_on(*keepdims, "exported/unbind_axis0/opset=13");
  EXPECT_EQ(o.status, Status::fail);
  EXPECT_EQ(o.reason, Reason::shape_mismatch) << o.message;
  ASSERT_TRUE(o.exported);
  EXPECT_EQ(o.exported->end_to_end.status, Status::pass) << o.exported->end_to_end.message;
  EXPECT_TRUE(o.depends_on_departure());
  EXPECT_EQ(o.exported->end_to_end_layer, "");
  // On the runtime's own values, the Constant (node 0) agrees and SplitToSequence (node 1)
  // departs; the reference, which passes, has nothing localized.
  EXPECT_FALSE(spec.localization);
  ASSERT_TRUE(o.localization);
  EXPECT_EQ(o.localization->kind, "node") << o.localization->message;
  EXPECT_EQ(o.localization->op, "SplitToSequence");
  EXPECT_EQ(o.localization->index, 1);
  EXPECT_FALSE(o.localization->machinery);
  ASSERT_TRUE(o.localization->repro);
  EXPECT_EQ(o.localization->repro->model.graph().node_size(), 1);
  EXPECT_EQ(o.localization->repro->inputs.size(), 2u);  // the data and the runtime's split
}

// A run of the seeded keepdims runtime on the unbind programs and one program that does not
// unbind: the keepdims departure counts the unbind programs that depend on it; the exporter's
// departure is listed by expectations/torch-onnx.json with its clause; the report survives JSON.
TEST(ExportedReport, CountsTheProgramsThatDependOnADeparture) {
  SuiteOptions options;
  options.source = "exported";
  options.exported = kExported;
  options.filters = {"exported/unbind_axis0/*", "exported/unbind_axis1/*",
                     "exported/insert_middle/*"};
  options.exporter_expectations = kTorchOnnx;
  options.run.static_checks = false;
  options.quiet = true;
  const SuiteResult r =
      run_suite([] { return make_runtime("seeded=split.keepdims_with_scalar_split"); }, options);
  const reports::Report& report = r.report;
  EXPECT_EQ(report.exported.cases, 21);
  EXPECT_EQ(report.exported.programs, 3);
  EXPECT_EQ(report.exported.depending, 14);
  ASSERT_EQ(report.departures.size(), 1u);
  EXPECT_EQ(report.departures[0].depending_programs,
            (std::vector<std::string>{"unbind_axis0", "unbind_axis1"}));
  ASSERT_EQ(report.exporter_departures.size(), 1u);
  EXPECT_EQ(report.exporter_departures[0].clauses,
            (std::vector<std::string>{"SplitToSequence.keepdims_ignored"}));
  EXPECT_EQ(report.exporter_departures[0].listed, "all");
  EXPECT_EQ(report.summary.unexpected_exporter, 0);

  const reports::Report back = reports::report_from_json(reports::report_to_json(report));
  EXPECT_EQ(reports::report_to_json(back), reports::report_to_json(report));
  EXPECT_EQ(back.exported.depending, 14);
  ASSERT_EQ(back.exporter_departures.size(), 1u);
  EXPECT_EQ(back.exporter_departures[0].listed, "all");
}

// Without the exporter's expectations the same exporter departure is new: the run's exit code
// says so.
TEST(ExportedReport, AnUnlistedExporterDepartureIsUnexpected) {
  SuiteOptions options;
  options.source = "exported";
  options.exported = kExported;
  options.filters = {"exported/unbind_axis0/opset=13"};
  options.no_expectations = true;
  options.run.static_checks = false;
  options.quiet = true;
  ReferenceRuntime reference;
  const SuiteResult r = run_suite(reference, options);
  EXPECT_EQ(r.report.summary.unexpected_exporter, 1);
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.report.exporter_departures.size(), 1u);
  EXPECT_EQ(r.report.exporter_departures[0].listed, "none");
}

}  // namespace
}  // namespace seqconf::testing
