#include "reference/error.h"

namespace seqconf {

namespace {
struct Entry {
  ErrorCode code;
  std::string_view name;
  std::string_view summary;
};
constexpr Entry kEntries[] = {
#define SEQCONF_ENTRY(name, summary) {ErrorCode::name, #name, summary},
    SEQCONF_ERROR_CODES(SEQCONF_ENTRY)
#undef SEQCONF_ENTRY
};
}  // namespace

std::string_view error_code_name(ErrorCode code) { return kEntries[static_cast<int>(code)].name; }

std::string_view error_code_summary(ErrorCode code) {
  return kEntries[static_cast<int>(code)].summary;
}

bool error_code_from_name(std::string_view name, ErrorCode& out) {
  for (const auto& e : kEntries)
    if (e.name == name) {
      out = e.code;
      return true;
    }
  return false;
}

}  // namespace seqconf
