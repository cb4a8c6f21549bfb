#include "runtimes/runtime.h"

namespace seqconf {

std::string_view run_error_kind_name(RunError::Kind kind) {
  switch (kind) {
    case RunError::Kind::not_supported:
      return "not_supported";
    case RunError::Kind::invalid_input:
      return "invalid_input";
    case RunError::Kind::internal:
      return "internal";
    case RunError::Kind::crash:
      return "crash";
    case RunError::Kind::timeout:
      return "timeout";
  }
  return "internal";
}

}  // namespace seqconf
