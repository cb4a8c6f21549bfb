// JUnit XML form of a report: one <testcase> per case (classname = op, or the source when the
// case has no op; name = case id).
//   unexpected fail, unexpected pass, not_supported -> <failure type=...>
//   unexpected error, crash, timeout                -> <error type=...>
//   expected failure                                -> <skipped message="expected ...: reason">
//   skipped                                         -> <skipped>
#pragma once

#include <string>

#include "reports/report.h"

namespace seqconf::reports {

std::string report_to_junit(const Report& report);

}  // namespace seqconf::reports
