#include "harness/outcome.h"

#include <algorithm>

namespace seqconf {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::pass:
      return "pass";
    case Status::fail:
      return "fail";
    case Status::error:
      return "error";
    case Status::not_supported:
      return "not_supported";
    case Status::crash:
      return "crash";
    case Status::timeout:
      return "timeout";
    case Status::not_judged:
      return "not_judged";
    case Status::skipped:
      return "skipped";
  }
  return "error";
}

namespace {
struct ReasonEntry {
  Reason reason;
  std::string_view name;
};
// In the order of the enum, so that a Reason indexes its entry.
constexpr ReasonEntry kReasonEntries[] = {
#define SEQCONF_ENTRY(name, summary) {Reason::name, #name},
    {Reason::none, ""}, SEQCONF_REASONS(SEQCONF_ENTRY)
#undef SEQCONF_ENTRY
};
}  // namespace

std::string_view reason_name(Reason r) { return kReasonEntries[static_cast<int>(r)].name; }

std::optional<Reason> reason_from_name(std::string_view name) {
  for (const auto& e : kReasonEntries)
    if (e.name == name) return e.reason;
  return std::nullopt;
}

void Tally::add(const Outcome& o) {
  ++total;
  switch (o.status) {
    case Status::pass:
      ++passed;
      break;
    case Status::fail:
      ++failed;
      break;
    case Status::error:
      ++errored;
      break;
    case Status::not_supported:
      ++not_supported;
      break;
    case Status::crash:
      ++crashed;
      break;
    case Status::timeout:
      ++timed_out;
      break;
    case Status::not_judged:
      ++not_judged;
      break;
    case Status::skipped:
      ++skipped;
      break;
  }
  findings += static_cast<int>(o.findings.size());
  ambiguities += static_cast<int>(o.ambiguities.size());
}

Tally& Tally::operator+=(const Tally& o) {
  total += o.total, passed += o.passed, failed += o.failed, errored += o.errored;
  not_supported += o.not_supported, crashed += o.crashed, timed_out += o.timed_out;
  not_judged += o.not_judged, skipped += o.skipped, findings += o.findings;
  ambiguities += o.ambiguities;
  return *this;
}

Tally tally(const std::vector<Outcome>& outcomes) {
  Tally t;
  for (const auto& o : outcomes) t.add(o);
  return t;
}

std::string summary_line(const Tally& t, const std::string& runtime) {
  auto n = [](int v) { return std::to_string(v); };
  return terminal_safe(runtime) + ": " + n(t.total) + " cases: " + n(t.passed) + " pass, " +
         n(t.failed) + " fail, " + n(t.errored) + " error, " + n(t.not_supported) +
         " not_supported, " + n(t.crashed) + " crash, " + n(t.timed_out) + " timeout, " +
         (t.not_judged ? n(t.not_judged) + " not_judged, " : std::string()) + n(t.skipped) +
         " skipped; " + n(t.findings) + " static findings, " + n(t.ambiguities) +
         " ambiguities met";
}

std::string terminal_safe(std::string_view s, bool keep_newlines) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += keep_newlines ? "\n" : "\\n";
    } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      const auto d = static_cast<unsigned char>(s[++i]);
      out += "\\u00";
      out += kHex[d >> 4];
      out += kHex[d & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string outcome_line(const Outcome& o) {
  std::string s(status_name(o.status));
  std::transform(s.begin(), s.end(), s.begin(), ::toupper);
  s += " " + o.case_id;
  if (o.reason != Reason::none) s += " [" + std::string(reason_name(o.reason)) + "]";
  if (!o.message.empty()) s += " " + o.message;
  if (o.localization && o.localization->kind == "node")
    s += "; from " + o.localization->label +
         ", on the runtime's own values: " + o.localization->message;
  return terminal_safe(s);
}

std::string end_to_end_layer(Status runtime, const Judgement& exporter,
                             const Judgement& end_to_end) {
  if (end_to_end.status == Status::pass || end_to_end.status == Status::skipped) return {};
  // Without the spec's meaning of the model neither side can be blamed.
  if (runtime == Status::not_judged || exporter.status == Status::not_judged) return "undetermined";
  const bool exporter_departs = exporter.status != Status::pass;
  if (runtime == Status::pass) return exporter_departs ? "exporter" : "undetermined";
  return exporter_departs ? "runtime and exporter" : "runtime";
}

}  // namespace seqconf
