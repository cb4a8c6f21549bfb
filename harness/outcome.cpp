#include "harness/outcome.h"

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

}  // namespace seqconf
