#include "reports/junit_report.h"

#include <cstdio>
#include <sstream>

#include "reports/output.h"

namespace seqconf::reports {

namespace {

std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
  return buf;
}

std::string detail_text(const CaseRecord& c) {
  const Outcome& o = c.outcome;
  std::string t;
  if (!o.message.empty()) t += o.message + "\n";
  if (!o.expected.empty()) t += "expected: " + o.expected + "\n";
  if (!o.actual.empty()) t += "actual: " + o.actual + "\n";
  if (!c.outcome.spec.empty()) t += "spec: " + c.outcome.spec + "\n";
  for (const auto& f : o.findings) t += f.check + ": " + f.message + "\n";
  for (const auto& a : o.ambiguities)
    t += "ambiguity " + a.id + " (" + a.op + "): " + a.spec_sentence + " -- " + a.detail + "\n";
  if (o.localization && o.localization->kind == "node") {
    const Localization& l = *o.localization;
    t += "node at fault, on the runtime's own values: " + l.label + "; it got " + l.got +
         "; the spec gives " + l.spec + "; the runtime gave " + l.runtime + ": " + l.message + "\n";
  } else if (o.localization) {
    t += "localization (" + o.localization->kind + "): " + o.localization->message + "\n";
  }
  return t;
}

std::string judgement_text(const char* name, const Judgement& v) {
  std::string t = std::string(name) + ": " + std::string(status_key(v.status));
  if (v.reason != Reason::none) t += " [" + std::string(reason_name(v.reason)) + "]";
  if (!v.message.empty()) t += " " + v.message;
  return t + "\n";
}

// An exported case's three verdicts, for the system-out of its testcase.
std::string verdicts_text(const CaseRecord& c) {
  const Outcome& o = c.outcome;
  const ExportedVerdicts& x = *o.exported;
  std::string t = "producer: " + x.producer + ", program: " + x.program + "\n";
  t += judgement_text("exporter (the spec's meaning against the framework)", x.exporter);
  if (!x.fault_node.empty()) t += "node at fault: " + x.fault_node + "\n";
  t += judgement_text("runtime (against the spec)", {o.status, o.reason, o.message});
  t += judgement_text("end to end (against the framework)", x.end_to_end);
  if (!x.end_to_end_layer.empty()) t += "end-to-end departure due to: " + x.end_to_end_layer + "\n";
  if (o.depends_on_departure())
    t += "the runtime matches the framework only because it departs from the spec\n";
  return t;
}

// The exporter verdicts of the exported cases as a testsuite of their own, judged by the
// exporter's expectations file; empty without exported cases.
std::string exporter_suite(const Report& r, int* tests, int* failures, int* skipped) {
  std::ostringstream x;
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (!o.exported) continue;
    ++*tests;
    const Judgement& v = o.exported->exporter;
    x << "  <testcase classname=\"exporter\" name=\"" << xml_escape(o.case_id) << "\"";
    switch (c.exporter_verdict) {
      case Verdict::pass:
        x << "/>\n";
        continue;
      case Verdict::skipped:
      case Verdict::expected_failure: {
        ++*skipped;
        const Expectation* e = c.exporter_expectation ? &*c.exporter_expectation : nullptr;
        x << ">\n   <skipped message=\""
          << xml_escape(e ? "expected exporter departure (" + e->clause + "): " + e->reason
                          : std::string("not run"))
          << "\">" << xml_escape(v.message) << "</skipped>\n";
        break;
      }
      case Verdict::unexpected_pass:
      case Verdict::unexpected_failure:
        ++*failures;
        x << ">\n   <failure type=\""
          << (c.exporter_verdict == Verdict::unexpected_pass ? "unexpected_pass"
                                                             : "exporter_departure")
          << "\" message=\""
          << xml_escape(v.message.empty() ? "passed, but the exporter's expectations say it departs"
                                          : v.message)
          << "\"/>\n";
        break;
    }
    x << "  </testcase>\n";
  }
  return x.str();
}

// The memory errors the runtime's workers made outside any case, one failing testcase each, as
// a testsuite of their own (they fail the run: exit_code); empty when there are none.
std::string workers_suite(const Report& r) {
  const auto& errors = r.info.worker_memory_errors;
  if (errors.empty()) return {};
  std::ostringstream x;
  x << " <testsuite name=\"seqconf.workers\" tests=\"" << errors.size() << "\" failures=\""
    << errors.size() << "\" errors=\"0\" skipped=\"0\" time=\"0.000\" timestamp=\""
    << xml_escape(r.info.start_time) << "\" hostname=\"" << xml_escape(r.info.hostname) << "\">\n";
  for (size_t k = 0; k < errors.size(); ++k) {
    const WorkerMemoryError& w = errors[k];
    std::string frames;
    for (const auto& f : w.error.frames) frames += f + "\n";
    x << "  <testcase classname=\"workers\" name=\"" << worker_phase_name(w.phase) << "." << k + 1
      << "\">\n   <failure type=\"memory_error:" << xml_escape(w.error.kind) << "\" message=\""
      << xml_escape(std::string(worker_phase_text(w.phase)) + " (" + std::to_string(w.workers) +
                    " worker(s)), outside any case: " + w.error.description)
      << "\">" << xml_escape(frames) << "</failure>\n  </testcase>\n";
  }
  x << " </testsuite>\n";
  return x.str();
}

}  // namespace

std::string report_to_junit(const Report& r) {
  const Summary& s = r.summary;
  int failures = 0, errors = 0, skipped = 0;
  double total_ms = 0;
  for (const auto& c : r.cases) {
    total_ms += c.outcome.duration_ms;
    const Status st = c.outcome.status;
    if (c.verdict == Verdict::expected_failure || c.verdict == Verdict::skipped)
      ++skipped;
    else if (c.verdict == Verdict::unexpected_pass || st == Status::fail ||
             st == Status::not_supported)
      ++failures;
    else if (c.verdict == Verdict::unexpected_failure)
      ++errors;
  }
  const std::string suite = "seqconf." + r.info.runtime_name;
  int exporter_tests = 0, exporter_failures = 0, exporter_skipped = 0;
  const std::string exporter_cases =
      exporter_suite(r, &exporter_tests, &exporter_failures, &exporter_skipped);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const int worker_errors = static_cast<int>(r.info.worker_memory_errors.size());
  x << "<testsuites name=\"seqconf\" tests=\"" << s.total + exporter_tests + worker_errors
    << "\" failures=\"" << failures + exporter_failures + worker_errors << "\" errors=\"" << errors
    << "\" skipped=\"" << skipped + exporter_skipped << "\" time=\"" << seconds(total_ms)
    << "\">\n";
  x << " <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << s.total << "\" failures=\""
    << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\""
    << seconds(total_ms) << "\" timestamp=\"" << xml_escape(r.info.start_time) << "\" hostname=\""
    << xml_escape(r.info.hostname) << "\">\n";
  x << "  <properties>\n";
  const auto prop = [&](const std::string& name, const std::string& value) {
    x << "   <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value)
      << "\"/>\n";
  };
  prop("runtime.name", r.info.runtime_name);
  prop("runtime.version", r.info.runtime_version);
  prop("runtime.path", r.info.runtime_path);
  prop("suite.version", r.info.suite_version);
  prop("suite.git_revision", r.info.git_revision);
  prop("complete", r.info.complete ? "true" : "false");
  prop("expectations_file", r.info.expectations_file);
  // What was not judged, and what the reference's host ran (reports/report.h: judging_text).
  if (const std::string judging = judging_text(r); !judging.empty()) prop("judging", judging);
  x << "  </properties>\n";

  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    const std::string classname = o.op.empty() ? o.source : o.op;
    x << "  <testcase classname=\"" << xml_escape(classname) << "\" name=\""
      << xml_escape(o.case_id) << "\" time=\"" << seconds(o.duration_ms) << "\"";
    const std::string status(status_key(o.status));
    const std::string reason(reason_name(o.reason));
    const std::string type = reason.empty() ? status : status + ":" + reason;
    switch (c.verdict) {
      case Verdict::pass:
        if (!o.exported) {
          x << "/>\n";
          continue;
        }
        x << ">\n";
        break;
      case Verdict::skipped:
        x << ">\n   <skipped message=\"" << xml_escape(o.message.empty() ? "not run" : o.message)
          << "\"/>\n";
        break;
      case Verdict::expected_failure:
        x << ">\n   <skipped message=\""
          << xml_escape("expected " + status + ": " + c.expectation->reason +
                        (c.expectation->link.empty() ? "" : " (" + c.expectation->link + ")"))
          << "\">" << xml_escape(detail_text(c)) << "</skipped>\n";
        break;
      case Verdict::unexpected_pass:
        x << ">\n   <failure type=\"unexpected_pass\" message=\""
          << xml_escape("passed, but the expectations say " +
                        std::string(status_key(c.expectation->status)) + ": " +
                        c.expectation->reason)
          << "\"/>\n";
        break;
      case Verdict::unexpected_failure: {
        const bool failure = o.status == Status::fail || o.status == Status::not_supported;
        const char* tag = failure ? "failure" : "error";
        x << ">\n   <" << tag << " type=\"" << xml_escape(type) << "\" message=\""
          << xml_escape(o.message.empty() ? status : o.message) << "\">"
          << xml_escape(detail_text(c) + (c.expectation_mismatch.empty()
                                              ? std::string()
                                              : "\nnot covered: " + c.expectation_mismatch))
          << "</" << tag << ">\n";
        break;
      }
    }
    if (o.exported) x << "   <system-out>" << xml_escape(verdicts_text(c)) << "</system-out>\n";
    x << "  </testcase>\n";
  }
  x << " </testsuite>\n";
  if (exporter_tests > 0) {
    x << " <testsuite name=\"seqconf.exporter\" tests=\"" << exporter_tests << "\" failures=\""
      << exporter_failures << "\" errors=\"0\" skipped=\"" << exporter_skipped
      << "\" time=\"0.000\" timestamp=\"" << xml_escape(r.info.start_time) << "\" hostname=\""
      << xml_escape(r.info.hostname) << "\">\n";
    x << "  <properties>\n   <property name=\"exporter_expectations_file\" value=\""
      << xml_escape(r.info.exporter_expectations_file) << "\"/>\n  </properties>\n";
    x << exporter_cases << " </testsuite>\n";
  }
  x << workers_suite(r);
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace seqconf::reports
