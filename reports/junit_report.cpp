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
  return t;
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
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"seqconf\" tests=\"" << s.total << "\" failures=\"" << failures
    << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds(total_ms)
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
        x << "/>\n";
        continue;
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
          << xml_escape(detail_text(c)) << "</" << tag << ">\n";
        break;
      }
    }
    x << "  </testcase>\n";
  }
  x << " </testsuite>\n</testsuites>\n";
  return x.str();
}

}  // namespace seqconf::reports
