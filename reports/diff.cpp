#include "reports/diff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "reference/error.h"
#include "reports/html_report.h"
#include "reports/output.h"

namespace seqconf::reports {

using nlohmann::json;

std::string_view change_key(Change c) {
  switch (c) {
    case Change::regressed:
      return "regressed";
    case Change::progressed:
      return "progressed";
    case Change::changed:
      return "changed";
    case Change::appeared:
      return "appeared";
    case Change::disappeared:
      return "disappeared";
  }
  return "changed";
}

int ReportDiff::count(Change c) const {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(),
                                        [c](const CaseChange& x) { return x.change == c; }));
}

int ReportDiff::passes_missing() const {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(), [](const CaseChange& c) {
    return c.change == Change::disappeared && c.base && c.base->status == Status::pass;
  }));
}

std::vector<std::string> gate_failures(const ReportDiff& d) {
  const DiffGate& gate = d.gate;
  std::vector<std::string> why;
  if (d.has_regressions())
    why.push_back(std::to_string(d.count(Change::regressed)) +
                  " case(s) regressed (pass in base, another status in new)");
  if (!d.next.complete && !gate.allow_incomplete)
    why.push_back(
        "new is incomplete (an interrupted or killed run): the cases it did not reach "
        "are not judged (--allow-incomplete accepts it)");
  if (const int missing = d.passes_missing(); missing > 0 && !gate.allow_missing)
    why.push_back(std::to_string(missing) +
                  " case(s) that passed in base are absent from new (--allow-missing accepts "
                  "it)");
  if (!gate.allow_missing) {
    std::string differ;
    for (const char* key : kSelectionOptions) {
      const auto b = d.base.selection.find(key), n = d.next.selection.find(key);
      const json bv = b == d.base.selection.end() ? json() : *b;
      const json nv = n == d.next.selection.end() ? json() : *n;
      if (bv != nv)
        differ +=
            (differ.empty() ? "" : "; ") + std::string(key) + " " + bv.dump() + " -> " + nv.dump();
    }
    if (!differ.empty())
      why.push_back("the runs selected their cases differently (" + differ +
                    "): they do not compare case for case (--allow-missing accepts it)");
  }
  return why;
}

bool ReportDiff::runtime_changed() const {
  return base.runtime_name != next.runtime_name || base.runtime_version != next.runtime_version;
}

namespace {

DiffSide side_of(const Report& r, std::string file) {
  DiffSide s{std::move(file), r.info.runtime_name, r.info.runtime_version,
             static_cast<int>(r.cases.size()), r.info.complete};
  if (r.info.options.is_object())
    for (const char* key : kSelectionOptions)
      if (const auto it = r.info.options.find(key); it != r.info.options.end())
        s.selection[key] = *it;
  return s;
}

std::map<std::string, const Outcome*> by_id(const Report& r, const std::string& file) {
  std::map<std::string, const Outcome*> m;
  for (const auto& c : r.cases)
    if (!m.emplace(c.outcome.case_id, &c.outcome).second)
      throw Error(ErrorCode::invalid_argument,
                  file + ": case \"" + c.outcome.case_id + "\" appears more than once");
  return m;
}

// How a change is classified; nullopt when the case is unchanged.
std::optional<Change> classify(const Outcome* base, const Outcome* next) {
  if (!base) return Change::appeared;
  if (!next) return Change::disappeared;
  const bool was = base->status == Status::pass, is = next->status == Status::pass;
  if (was && !is) return Change::regressed;
  if (!was && is) return Change::progressed;
  if (base->status != next->status || base->reason != next->reason) return Change::changed;
  return std::nullopt;
}

// "fail/value_mismatch", "pass", or "absent".
std::string side_text(const std::optional<Outcome>& o) {
  if (!o) return "absent";
  std::string s(status_key(o->status));
  if (o->reason != Reason::none) s += "/" + std::string(reason_name(o->reason));
  return s;
}

json status_json(const std::optional<Outcome>& o) {
  return o ? json(std::string(status_key(o->status))) : json(nullptr);
}
json reason_json(const std::optional<Outcome>& o) {
  return o ? json(std::string(reason_name(o->reason))) : json(nullptr);
}

json side_json(const DiffSide& s) {
  return {{"file", s.file},
          {"runtime", {{"name", s.runtime_name}, {"version", s.runtime_version}}},
          {"cases", s.cases},
          {"complete", s.complete},
          {"selection", s.selection}};
}

// A status badge with its reason, or "absent".
std::string side_html(const std::optional<Outcome>& o) {
  if (!o) return "<span class=\"tag s-none\">absent</span>";
  std::string h = html_status_tag(o->status);
  if (o->reason != Reason::none) h += " " + html_escape(reason_name(o->reason));
  return h;
}

}  // namespace

ReportDiff diff_reports(const Report& base, const Report& next, std::string base_file,
                        std::string next_file) {
  ReportDiff d;
  const auto b = by_id(base, base_file);
  const auto n = by_id(next, next_file);
  d.base = side_of(base, std::move(base_file));
  d.next = side_of(next, std::move(next_file));
  std::map<std::string, std::pair<const Outcome*, const Outcome*>> both;
  for (const auto& [id, o] : b) both[id].first = o;
  for (const auto& [id, o] : n) both[id].second = o;
  for (const auto& [id, pair] : both) {
    const auto& [was, is] = pair;
    const auto change = classify(was, is);
    if (!change) {
      ++d.unchanged;
      continue;
    }
    CaseChange c;
    c.change = *change;
    c.id = id;
    if (was) c.base = *was;
    if (is) c.next = *is;
    d.changes.push_back(std::move(c));
  }
  std::stable_sort(d.changes.begin(), d.changes.end(),
                   [](const CaseChange& x, const CaseChange& y) { return x.change < y.change; });
  return d;
}

std::string departure_of(const CaseChange& c) {
  const Outcome& o = c.current();
  return o.op + " [" + context_column(o) + "] " + side_text(c.base) + " -> " + side_text(c.next);
}

std::vector<ChangeGroup> group_changes(const ReportDiff& diff, Change change) {
  std::map<std::string, ChangeGroup> groups;
  for (const auto& c : diff.changes) {
    if (c.change != change) continue;
    const std::string key = departure_of(c);
    auto& g = groups[key];
    g.change = change;
    g.departure = key;
    g.cases.push_back(&c);
  }
  std::vector<ChangeGroup> out;
  for (auto& [key, g] : groups) {
    std::sort(g.cases.begin(), g.cases.end(), [](const CaseChange* x, const CaseChange* y) {
      return x->id.size() != y->id.size() ? x->id.size() < y->id.size() : x->id < y->id;
    });
    out.push_back(std::move(g));
  }
  std::stable_sort(out.begin(), out.end(), [](const ChangeGroup& x, const ChangeGroup& y) {
    return x.cases.size() > y.cases.size();
  });
  return out;
}

std::string diff_to_text(const ReportDiff& d, size_t ids) {
  std::ostringstream t;
  // The verdict first: why the gate fails, or that it passes.
  const std::vector<std::string> why = gate_failures(d);
  if (why.empty()) t << "gate: pass (no regression)\n";
  for (size_t k = 0; k < why.size(); ++k) t << (k ? "      " : "gate: FAIL: ") << why[k] << "\n";
  const auto side = [&](const char* label, const DiffSide& s) {
    t << label << s.file << ": " << s.runtime() << ", " << s.cases << " cases"
      << (s.complete ? "" : " (incomplete: an interrupted run)") << "\n";
  };
  side("base ", d.base);
  side("new  ", d.next);
  if (d.runtime_changed())
    t << "runtime changed: " << d.base.runtime() << " -> " << d.next.runtime() << "\n";
  for (Change c : kAllChanges) t << change_key(c) << " " << d.count(c) << ", ";
  t << "unchanged " << d.unchanged << "\n";
  for (Change c : kAllChanges) {
    const auto groups = group_changes(d, c);
    if (groups.empty()) continue;
    t << "\n"
      << change_key(c) << " (" << d.count(c) << " in " << groups.size() << " group"
      << (groups.size() == 1 ? "" : "s") << "):\n";
    for (const auto& g : groups) {
      t << "  " << g.cases.size() << "  " << g.departure << "\n     ";
      const size_t shown = std::min(g.cases.size(), ids + 1);
      for (size_t k = 0; k < shown; ++k) t << (k ? ", " : " ") << g.cases[k]->id;
      if (g.cases.size() > shown) t << " (+" << g.cases.size() - shown << " more)";
      t << "\n";
    }
  }
  return t.str();
}

json diff_to_json(const ReportDiff& d) {
  json j = {{"diff_version", 1},
            {"base", side_json(d.base)},
            {"new", side_json(d.next)},
            {"runtime_changed", d.runtime_changed()}};
  const std::vector<std::string> why = gate_failures(d);
  j["gate"] = {{"passed", why.empty()}, {"failures", why}};
  json counts = json::object();
  for (Change c : kAllChanges) {
    counts[std::string(change_key(c))] = d.count(c);
    j[std::string(change_key(c))] = json::array();
  }
  counts["unchanged"] = d.unchanged;
  j["counts"] = counts;
  for (const auto& c : d.changes) {
    const Outcome& o = c.current();
    j[std::string(change_key(c.change))].push_back({{"id", c.id},
                                                    {"op", o.op},
                                                    {"context", context_column(o)},
                                                    {"departure", departure_of(c)},
                                                    {"base_status", status_json(c.base)},
                                                    {"new_status", status_json(c.next)},
                                                    {"base_reason", reason_json(c.base)},
                                                    {"new_reason", reason_json(c.next)}});
  }
  return j;
}

std::string diff_to_html(const ReportDiff& d) {
  std::ostringstream h;
  h << html_page_head("seqconf diff: " + d.base.file + " -> " + d.next.file);
  h << "<h1>seqconf diff: " << html_escape(d.base.runtime()) << " &rarr; "
    << html_escape(d.next.runtime()) << "</h1>\n";
  if (!d.base.complete || !d.next.complete)
    h << "<div class=\"banner warn\" id=\"incomplete\">An interrupted run is compared: the cases "
         "it did not reach count as appeared or disappeared.</div>\n";
  const std::vector<std::string> why = gate_failures(d);
  if (!why.empty()) {
    h << "<div class=\"banner bad\" id=\"verdict\">";
    for (size_t k = 0; k < why.size(); ++k) h << (k ? "<br>" : "") << html_escape(why[k]);
    h << "</div>\n";
  } else {
    h << "<div class=\"banner good\" id=\"verdict\">No regression.</div>\n";
  }

  h << "<table class=\"meta\"><tr><td></td><th>base</th><th>new</th></tr>\n";
  const auto meta = [&](const char* k, const std::string& b, const std::string& n) {
    h << "<tr><td>" << k << "</td><td>" << html_escape(b) << "</td><td>" << html_escape(n)
      << "</td></tr>\n";
  };
  meta("report", d.base.file, d.next.file);
  meta("runtime", d.base.runtime(), d.next.runtime());
  meta("cases", std::to_string(d.base.cases), std::to_string(d.next.cases));
  meta("complete", d.base.complete ? "yes" : "NO", d.next.complete ? "yes" : "NO");
  h << "</table>\n";

  h << "<h2>Summary</h2>\n<table class=\"summary\"><tr>";
  for (Change c : kAllChanges) h << "<th>" << change_key(c) << "</th>";
  h << "<th>unchanged</th></tr><tr>";
  for (Change c : kAllChanges)
    h << "<td class=\"n\" data-count=\"" << change_key(c) << "\">" << d.count(c) << "</td>";
  h << "<td class=\"n\" data-count=\"unchanged\">" << d.unchanged << "</td></tr></table>\n";

  for (Change c : kAllChanges) {
    const auto groups = group_changes(d, c);
    if (groups.empty()) continue;
    const std::string key(change_key(c));
    std::string title = key;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    h << "<h2 id=\"" << key << "\">" << title << " (" << d.count(c) << ")</h2>\n";
    for (const auto& g : groups) {
      h << "<details class=\"case group\" data-change=\"" << key << "\" data-departure=\""
        << html_escape(g.departure) << "\" data-count=\"" << g.cases.size() << "\""
        << (c == Change::regressed ? " open" : "") << "><summary><b>" << g.cases.size()
        << "</b> &mdash; " << html_escape(g.departure) << " &mdash; <code>"
        << html_escape(g.cases.front()->id)
        << "</code></summary>\n<table><tr><th>case</th><th>base</th>"
        << "<th>new</th><th>message</th></tr>\n";
      for (const CaseChange* x : g.cases) {
        // What the new run says; for a progression, what the base run said.
        const std::string message = x->next && !x->next->message.empty() ? x->next->message
                                    : x->base                            ? x->base->message
                                                                         : std::string();
        h << "<tr data-case-id=\"" << html_escape(x->id) << "\" data-change=\"" << key
          << "\"><td><code>" << html_escape(x->id) << "</code></td><td>" << side_html(x->base)
          << "</td><td>" << side_html(x->next) << "</td><td>" << html_escape(message)
          << "</td></tr>\n";
      }
      h << "</table></details>\n";
    }
  }
  h << "</body>\n</html>\n";
  return h.str();
}

}  // namespace seqconf::reports
