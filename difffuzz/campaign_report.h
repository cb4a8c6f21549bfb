// A campaign's findings as departures, the way a conformance report groups its cases
// (reports/report.h): each finding counts as the outcome its fixture gives under
// `seqconf run --source corpus --corpus OUT`, so findings that share an operator, a spec clause
// and what the runtime did are one departure, whatever their element types and contexts. An
// expectations file applies to the findings as it does to a run; a departure is new unless the
// file lists every one of its findings. New departures come first.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "difffuzz/campaign.h"
#include "reports/expectations.h"
#include "reports/report.h"

namespace seqconf::difffuzz {

// The outcome of a finding's fixture: case id "corpus/<finding id>", source "corpus", and the
// finding's op, element type, context, clauses, status and reason.
Outcome finding_outcome(const FuzzFinding& f);

// The findings as a report (one case per finding, expectations applied when given; the
// departures' rerun commands replay a fixture from options.out).
reports::Report findings_report(const FuzzResult& r, const FuzzOptions& options,
                                const std::string& runtime_name, const std::string& runtime_version,
                                const reports::Expectations* expectations,
                                const std::string& expectations_file);

// A departure the expectations do not list in full.
bool is_new(const reports::Departure& d);

// The report's departures, the new ones first; within each part, the largest first.
std::vector<const reports::Departure*> departures_new_first(const reports::Report& report);

// The programs whose disagreement had the signature of one of the departure's findings.
size_t programs_of(const reports::Departure& d, const FuzzResult& r);

// The finding a case of the findings report stands for.
const FuzzFinding* finding_of_case(const FuzzResult& r, const std::string& case_id);

// The console's list: each new departure with its findings, programs, smallest fixture and the
// command that replays it; then each known departure on one line.
std::string departures_text(const reports::Report& report, const FuzzResult& r,
                            const FuzzOptions& options);

// The campaign's JSON report (schema: reports/seqconf-fuzz.schema.json): report_json, with the
// departures (new first), the expectations file, and each finding's departure and whether the
// expectations list it.
nlohmann::ordered_json campaign_report_json(const FuzzResult& r, const FuzzOptions& options,
                                            const reports::Report& findings);

}  // namespace seqconf::difffuzz
