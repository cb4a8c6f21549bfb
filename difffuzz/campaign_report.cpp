#include "difffuzz/campaign_report.h"

#include <algorithm>
#include <sstream>

#include "reports/json_report.h"

namespace seqconf::difffuzz {

namespace {

constexpr std::string_view kCasePrefix = "corpus/";

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

}  // namespace

Outcome finding_outcome(const FuzzFinding& f) {
  Outcome o;
  o.case_id = std::string(kCasePrefix) + f.id;
  o.source = "corpus";
  o.op = f.op;
  o.dtype = f.dtype;
  o.context = f.context;
  o.spec = f.spec;
  o.clauses = f.clauses;
  o.status = f.status;
  o.reason = f.reason;
  o.message = f.description;
  o.expected = f.case_json.extra.value("expected", std::string());
  if (const auto it = f.case_json.extra.find("found");
      it != f.case_json.extra.end() && it->is_object())
    o.actual = it->value("result", std::string());
  return o;
}

reports::Report findings_report(const FuzzResult& r, const FuzzOptions& options,
                                const std::string& runtime_name, const std::string& runtime_version,
                                const reports::Expectations* expectations,
                                const std::string& expectations_file) {
  reports::RunInfo info = reports::describe_run(runtime_name, runtime_version, "");
  info.options = {{"runtime", options.runtime_spec},
                  {"source", "corpus"},
                  {"corpus", options.out.string()},
                  {"fuzz_seed", options.seed},
                  {"fuzz_programs", r.programs}};
  info.expectations_file = expectations ? expectations_file : std::string();
  info.end_time = reports::now_iso8601();
  std::vector<Outcome> outcomes;
  outcomes.reserve(r.findings.size());
  for (const FuzzFinding& f : r.findings) outcomes.push_back(finding_outcome(f));
  return reports::make_report(std::move(info), std::move(outcomes), expectations);
}

bool is_new(const reports::Departure& d) { return d.listed != "all"; }

std::vector<const reports::Departure*> departures_new_first(const reports::Report& report) {
  std::vector<const reports::Departure*> out;
  for (const auto& d : report.departures) out.push_back(&d);
  std::stable_partition(out.begin(), out.end(),
                        [](const reports::Departure* d) { return is_new(*d); });
  return out;
}

const FuzzFinding* finding_of_case(const FuzzResult& r, const std::string& case_id) {
  for (const FuzzFinding& f : r.findings)
    if (kCasePrefix.size() + f.id.size() == case_id.size() &&
        case_id.compare(kCasePrefix.size(), std::string::npos, f.id) == 0)
      return &f;
  return nullptr;
}

size_t programs_of(const reports::Departure& d, const FuzzResult& r) {
  size_t n = 0;
  for (const auto& id : d.case_ids)
    if (const FuzzFinding* f = finding_of_case(r, id)) n += f->occurrences;
  return n;
}

std::string departures_text(const reports::Report& report, const FuzzResult& r,
                            const FuzzOptions& options) {
  const auto departures = departures_new_first(report);
  const size_t fresh = static_cast<size_t>(std::count_if(departures.begin(), departures.end(),
                                                         [](const auto* d) { return is_new(*d); }));
  std::ostringstream out;
  out << departures.size() << " departure(s), " << fresh << " new";
  if (!report.info.expectations_file.empty())
    out << ", " << departures.size() - fresh << " listed in " << report.info.expectations_file;
  out << "\n";
  for (const auto* d : departures) {
    const size_t programs = programs_of(*d, r);
    const std::string counts = std::to_string(d->case_ids.size()) + " finding(s), " +
                               std::to_string(programs) + " program(s)";
    if (!is_new(*d)) {
      out << "known " << d->op << ": " << d->what << " [" << joined(d->clauses) << "] (" << counts
          << ")\n";
      continue;
    }
    out << "NEW " << d->title << "\n";
    out << "    " << counts << "; element types " << joined(d->dtypes) << "; contexts "
        << joined(d->contexts) << "\n";
    if (const FuzzFinding* f = finding_of_case(r, d->smallest)) {
      out << "    smallest: " << f->program << "\n";
      out << "    " << f->description << "\n";
      if (!options.out.empty())
        out << "    fixture: " << (options.out / f->folder).string() << "\n";
    }
    out << "    rerun: " << d->rerun << "\n";
  }
  return out.str();
}

nlohmann::ordered_json campaign_report_json(const FuzzResult& r, const FuzzOptions& options,
                                            const reports::Report& findings) {
  nlohmann::ordered_json j =
      report_json(r, options, findings.info.runtime_name, findings.info.runtime_version);
  j["expectations_file"] = findings.info.expectations_file;
  const auto departures = departures_new_first(findings);
  std::map<std::string, std::string> departure_of_case;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  size_t fresh = 0;
  for (const auto* d : departures) {
    nlohmann::ordered_json dj = reports::departure_to_json(*d);
    dj["new"] = is_new(*d);
    dj["programs"] = programs_of(*d, r);
    const FuzzFinding* smallest = finding_of_case(r, d->smallest);
    dj["fixture"] = smallest ? smallest->folder : std::string();
    list.push_back(std::move(dj));
    fresh += is_new(*d);
    for (const auto& id : d->case_ids) departure_of_case[id] = d->id;
  }
  j["new_departures"] = fresh;
  j["departures"] = std::move(list);
  for (auto& f : j["findings"]) {
    const std::string case_id = std::string(kCasePrefix) + f["id"].get<std::string>();
    f["departure"] = departure_of_case[case_id];
    const auto it = std::find_if(findings.cases.begin(), findings.cases.end(),
                                 [&](const auto& c) { return c.outcome.case_id == case_id; });
    f["expected"] = it != findings.cases.end() && it->verdict == reports::Verdict::expected_failure;
    if (it != findings.cases.end()) {
      f["status"] = std::string(reports::status_key(it->outcome.status));
      f["reason"] = std::string(reason_name(it->outcome.reason));
      f["clauses"] = it->outcome.clauses;
      f["context"] = it->outcome.context;
    }
  }
  return j;
}

}  // namespace seqconf::difffuzz
