// The JSON form of a report (schema: reports/seqconf-report.schema.json). It is the form
// shards are merged from, so report_from_json(report_to_json(r)) keeps every case field.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/report.h"

namespace seqconf::reports {

inline constexpr int kSchemaVersion = 1;

nlohmann::json report_to_json(const Report& report);
// One departure as the report's "departures" list has it (the schema's $defs/departure).
nlohmann::json departure_to_json(const Departure& departure);
// Text of the JSON report; invalid UTF-8 in runtime messages becomes U+FFFD.
std::string report_to_json_text(const Report& report);

// Throws Error(invalid_argument) naming the field that is missing or of the wrong kind.
Report report_from_json(const nlohmann::json& j);
// Throws Error(io_error) when the file cannot be read.
Report load_report(const std::filesystem::path& path);

// Fills suite (version, git revision), machine (hostname, os, cpu count) and start_time.
RunInfo describe_run(std::string runtime_name, std::string runtime_version,
                     std::string runtime_path);
// Now, as ISO 8601 UTC with milliseconds: 2026-01-31T12:00:00.123Z.
std::string now_iso8601();

}  // namespace seqconf::reports
