#include "reports/history.h"

#include <string.h>  // strverscmp (GNU)

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "reference/error.h"
#include "reports/html_report.h"
#include "reports/output.h"

namespace seqconf::reports {

using nlohmann::json;

std::string HistoryColumn::label() const {
  return runtime_version.empty() ? runtime_name : runtime_name + " " + runtime_version;
}

bool release_less(const std::string& a, const std::string& b) {
  // strverscmp orders digit runs as numbers; the release core decides first, then a
  // pre-release ("-rc1", "-dev.20240101") comes before the release itself.
  const size_t da = a.find('-'), db = b.find('-');
  const std::string core_a = a.substr(0, da), core_b = b.substr(0, db);
  if (const int c = ::strverscmp(core_a.c_str(), core_b.c_str()); c != 0) return c < 0;
  const bool pre_a = da != std::string::npos, pre_b = db != std::string::npos;
  if (pre_a != pre_b) return pre_a;
  return pre_a && ::strverscmp(a.c_str() + da + 1, b.c_str() + db + 1) < 0;
}

History history_of(const std::vector<std::pair<std::string, Report>>& reports) {
  if (reports.empty()) throw Error(ErrorCode::invalid_argument, "history: no report given");
  std::vector<const std::pair<std::string, Report>*> order;
  for (const auto& r : reports) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    const RunInfo &x = a->second.info, &y = b->second.info;
    if (x.runtime_name != y.runtime_name) return x.runtime_name < y.runtime_name;
    return release_less(x.runtime_version, y.runtime_version);
  });

  History h;
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& [file, report] = *order[i];
    HistoryColumn col{file,
                      report.info.runtime_name,
                      report.info.runtime_version,
                      static_cast<int>(report.cases.size()),
                      report.summary.passed,
                      static_cast<int>(report.departures.size()),
                      report.info.complete};
    if (i > 0 && col.label() == h.columns.back().label())
      throw Error(ErrorCode::invalid_argument,
                  "history: " + h.columns.back().file + " and " + file + " are both runs of " +
                      col.label() + "; give one report per release (seqconf merge joins shards)");
    h.columns.push_back(std::move(col));
  }

  std::map<std::string, size_t> row_of;  // departure id -> index into h.rows
  for (size_t i = 0; i < order.size(); ++i) {
    for (const Departure& d : order[i]->second.departures) {
      auto [it, added] = row_of.emplace(d.id, h.rows.size());
      if (added) {
        HistoryRow row;
        row.id = d.id;
        row.counts.assign(h.columns.size(), 0);
        row.first_seen = i;
        h.rows.push_back(std::move(row));
      }
      HistoryRow& row = h.rows[it->second];
      row.counts[i] = static_cast<int>(d.case_ids.size());
      // Described as the latest column that shows it describes it.
      row.op = d.op;
      row.what = d.what;
      row.title = d.title;
      row.clauses = d.clauses;
      row.spec = d.spec;
      row.smallest = d.smallest;
      row.rerun = d.rerun;
    }
  }
  for (HistoryRow& row : h.rows)
    for (size_t i = row.first_seen + 1; i < row.counts.size(); ++i)
      if (row.counts[i] == 0) {
        row.first_gone = i;
        break;
      }
  std::sort(h.rows.begin(), h.rows.end(), [](const HistoryRow& a, const HistoryRow& b) {
    if (a.first_seen != b.first_seen) return a.first_seen < b.first_seen;
    if (a.op != b.op) return a.op < b.op;
    return a.id < b.id;
  });
  return h;
}

std::string history_to_text(const History& h) {
  std::ostringstream out;
  out << "seqconf history: " << h.rows.size() << " distinct departure(s) over " << h.columns.size()
      << " run(s)\n";
  for (size_t i = 0; i < h.columns.size(); ++i) {
    const HistoryColumn& c = h.columns[i];
    out << "  [" << i + 1 << "] " << c.label() << ": " << c.passed << "/" << c.cases << " pass, "
        << c.departures << " departure(s)" << (c.complete ? "" : ", INTERRUPTED") << "  (" << c.file
        << ")\n";
  }
  if (h.rows.empty()) return out.str();
  out << "\n";
  for (size_t i = 0; i < h.columns.size(); ++i)
    out << std::setw(6) << ("[" + std::to_string(i + 1) + "]");
  out << "  first seen -> gone  departure\n";
  for (const HistoryRow& r : h.rows) {
    for (int n : r.counts) out << std::setw(6) << (n ? std::to_string(n) : std::string("."));
    out << "  [" << r.first_seen + 1 << "] -> "
        << (r.first_gone ? "[" + std::to_string(*r.first_gone + 1) + "]" : std::string("    "))
        << "  " << r.op << ": " << r.what;
    if (!r.clauses.empty()) out << " (" << r.clauses.front() << ")";
    out << "\n";
  }
  return out.str();
}

std::string history_to_markdown(const History& h) {
  const auto cell = [](std::string s) {
    for (size_t p = s.find('|'); p != std::string::npos; p = s.find('|', p + 2)) s.insert(p, "\\");
    return s;
  };
  // "1.17.0" for first seen / first gone when every column is of one runtime, else the label.
  const bool one_runtime = std::all_of(h.columns.begin(), h.columns.end(), [&](const auto& c) {
    return c.runtime_name == h.columns[0].runtime_name;
  });
  const auto name = [&](size_t i) {
    return cell(one_runtime ? h.columns[i].runtime_version : h.columns[i].label());
  };
  std::ostringstream md;
  md << "| departure |";
  for (const auto& c : h.columns) md << " " << cell(c.label()) << " |";
  md << " first seen | first gone |\n|---|";
  for (size_t i = 0; i < h.columns.size(); ++i) md << "--:|";
  md << "---|---|\n| *cases passed* |";
  for (const auto& c : h.columns) md << " " << c.passed << "/" << c.cases << " |";
  md << " | |\n";
  for (const HistoryRow& r : h.rows) {
    md << "| " << cell(r.op) << ": " << cell(r.what);
    if (!r.clauses.empty()) md << " (`" << cell(r.clauses.front()) << "`)";
    md << " |";
    for (int n : r.counts) md << " " << (n ? std::to_string(n) : std::string("·")) << " |";
    md << " " << name(r.first_seen) << " | " << (r.first_gone ? name(*r.first_gone) : "—")
       << " |\n";
  }
  return md.str();
}

json history_to_json(const History& h) {
  json j = {{"history_version", 1}, {"columns", json::array()}, {"departures", json::array()}};
  for (const HistoryColumn& c : h.columns)
    j["columns"].push_back({{"file", c.file},
                            {"label", c.label()},
                            {"runtime", {{"name", c.runtime_name}, {"version", c.runtime_version}}},
                            {"cases", c.cases},
                            {"passed", c.passed},
                            {"departures", c.departures},
                            {"complete", c.complete}});
  for (const HistoryRow& r : h.rows)
    j["departures"].push_back(
        {{"id", r.id},
         {"op", r.op},
         {"what", r.what},
         {"title", r.title},
         {"clauses", r.clauses},
         {"spec", r.spec},
         {"counts", r.counts},
         {"first_seen", h.columns[r.first_seen].label()},
         {"first_gone", r.first_gone ? json(h.columns[*r.first_gone].label()) : json(nullptr)},
         {"smallest", r.smallest},
         {"rerun", r.rerun}});
  return j;
}

std::string history_to_html(const History& h) {
  const auto e = [](std::string_view s) { return html_escape(s); };
  std::ostringstream p;
  std::string runtimes;
  for (const auto& c : h.columns)
    if (runtimes.find(c.runtime_name) == std::string::npos)
      runtimes += (runtimes.empty() ? "" : ", ") + c.runtime_name;
  p << html_page_head("seqconf history: " + runtimes);
  p << "<h1>Departures from the spec across " << h.columns.size() << " run(s) of " << e(runtimes)
    << "</h1>\n";
  if (std::any_of(h.columns.begin(), h.columns.end(), [](const auto& c) { return !c.complete; }))
    p << "<div class=\"banner warn\" id=\"incomplete\">An interrupted run is included: a "
         "departure it did not reach counts as gone.</div>\n";
  p << "<p>" << h.rows.size()
    << " distinct departure(s). A count is the number of cases of that departure in that run; "
       "<b>first seen</b> is the first run (in release order) that shows it, <b>first gone</b> "
       "the first later run that no longer does.</p>\n";
  p << "<table class=\"summary\" id=\"history\"><tr><th>departure</th>";
  for (const auto& c : h.columns)
    p << "<th data-column=\"" << e(c.label()) << "\" title=\"" << e(c.file) << "\">" << e(c.label())
      << "<br><small>" << c.passed << "/" << c.cases << " pass</small></th>";
  p << "<th>first seen</th><th>first gone</th><th>smallest case</th></tr>\n";
  for (const HistoryRow& r : h.rows) {
    const std::string seen = h.columns[r.first_seen].label();
    const std::string gone = r.first_gone ? h.columns[*r.first_gone].label() : std::string();
    p << "<tr data-departure=\"" << e(r.id) << "\" data-first-seen=\"" << e(seen)
      << "\" data-first-gone=\"" << e(gone) << "\"><td title=\"" << e(r.spec) << "\"><b>" << e(r.op)
      << "</b>: " << e(r.what);
    if (!r.clauses.empty()) {
      p << " <small>";
      for (size_t i = 0; i < r.clauses.size(); ++i) p << (i ? ", " : "") << e(r.clauses[i]);
      p << "</small>";
    }
    p << "</td>";
    for (size_t i = 0; i < r.counts.size(); ++i)
      p << "<td class=\"n\" data-column=\"" << e(h.columns[i].label()) << "\" data-count=\""
        << r.counts[i] << "\">" << (r.counts[i] ? std::to_string(r.counts[i]) : "&middot;")
        << "</td>";
    p << "<td>" << e(seen) << "</td><td>" << (gone.empty() ? "&mdash;" : e(gone))
      << "</td><td><code title=\"" << e(r.rerun) << "\">" << e(r.smallest) << "</code></td></tr>\n";
  }
  p << "</table>\n</body>\n</html>\n";
  return p.str();
}

}  // namespace seqconf::reports
