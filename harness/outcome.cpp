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

}  // namespace seqconf
