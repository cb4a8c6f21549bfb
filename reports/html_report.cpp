#include "reports/html_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "reports/output.h"

namespace seqconf::reports {

namespace {

const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.4em;margin:0 0 .4em}h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.3em 0}th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.meta td:first-child{font-weight:600;background:#fafafa}
.meta td:last-child{white-space:pre-line}
.banner{padding:.6em 1em;margin:.6em 0;border-radius:4px;font-weight:600}
.banner.bad{background:#fde2e1;border:1px solid #e0a3a0}.banner.good{background:#e3f4e1;border:1px solid #9fcf99}
.banner.warn{background:#fff4d6;border:1px solid #e3c567}
.s-pass{background:#c8ecc3}.s-fail{background:#f6b5b0}.s-error{background:#f9d3a5}
.s-not_supported{background:#d5dcea}.s-not_judged{background:#e4e4e4}.s-crash{background:#d99ad9}.s-timeout{background:#f5e38f}
.s-skipped{background:#eee;color:#666}.s-none{background:#fff;color:#aaa}
td.cell{text-align:center;min-width:4.5em;font-variant-numeric:tabular-nums}
details.case{border:1px solid #ddd;border-radius:4px;margin:.25em 0;padding:.2em .6em}
details.case>summary{cursor:pointer;overflow-x:auto}details.case[open]{background:#fcfcfc}
.tag{display:inline-block;padding:0 .45em;border-radius:3px;font-size:.85em;font-weight:600;margin-right:.4em}
pre{background:#f6f6f6;padding:.4em .6em;white-space:pre-wrap;word-break:break-all;margin:.2em 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15em .8em}dt{font-weight:600}dd{margin:0}
blockquote{margin:.2em 0;padding:.2em .7em;border-left:3px solid #9ab;background:#f5f8fb}
code{overflow-wrap:anywhere}code,pre{font-size:.92em}
td.n,td.cell,.nb{white-space:nowrap;overflow-wrap:normal}
table{display:block;max-width:100%;overflow-x:auto}
.fold{container-type:inline-size}
table.departures{display:table;table-layout:fixed;width:100%;max-width:none}
table.departures>tbody>tr>*{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.departures>tbody>tr>td.what{overflow:visible}
col.count{width:5.5em}col.listed{width:4.5em}col.layer{width:11em}col.list{width:10%}
col.case{width:20%}col.programs{width:16%}
details.more>summary{cursor:pointer;overflow:hidden;text-overflow:ellipsis}
details.more>.more-body{white-space:normal;position:relative;z-index:1;background:#fff;
width:calc(100cqw - 1.2em);box-sizing:border-box;padding:.3em 0 .5em;margin-top:.2em;
overflow-x:auto}
details.more dl{margin:0}details.more ul{margin:.2em 0;padding-left:1.4em}
.index-summary th,.index-summary td{padding:3px 5px}.index-summary th{font-size:.9em}
.index-summary tr[data-runtime]>th{overflow-wrap:anywhere}
ul.ids{list-style:none;padding:0 0 0 1.2em;overflow-x:auto}
)";

std::string e(std::string_view s) { return html_escape(s); }
std::string num(int n) { return std::to_string(n); }

// "a, b, c".
std::string list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void summary_table(std::ostringstream& h, const Summary& s) {
  h << "<table class=\"summary\"><tr>";
  const std::pair<const char*, int> cols[] = {{"total", s.total},
                                              {"passed", s.passed},
                                              {"failed", s.failed},
                                              {"errored", s.errored},
                                              {"not supported", s.not_supported},
                                              {"crashed", s.crashed},
                                              {"timed out", s.timed_out},
                                              {"not judged", s.not_judged},
                                              {"skipped", s.skipped},
                                              {"expected failures", s.expected_failures},
                                              {"unexpected failures", s.unexpected_failures},
                                              {"unexpected passes", s.unexpected_passes}};
  for (const auto& c : cols) h << "<th>" << c.first << "</th>";
  h << "</tr><tr>";
  for (const auto& c : cols) {
    h << "<td class=\"n\" data-summary=\"" << e(c.first) << "\">" << c.second << "</td>";
  }
  h << "</tr></table>\n";
}

std::string cell_title(const MatrixCell& c) {
  std::string t = c.op + " / " + c.column + ":";
  for (const auto& [s, n] : c.counts) t += " " + std::string(status_key(s)) + "=" + num(n);
  return t;
}

// The op x column matrix of one report (id matrix-dtype, matrix-context).
void matrix_table(std::ostringstream& h, const std::vector<MatrixCell>& matrix,
                  const MatrixColumn& column) {
  const std::string key(column.key);
  std::vector<std::string> ops, columns;
  for (const auto& c : matrix) {
    if (std::find(ops.begin(), ops.end(), c.op) == ops.end()) ops.push_back(c.op);
    if (std::find(columns.begin(), columns.end(), c.column) == columns.end())
      columns.push_back(c.column);
  }
  std::sort(ops.begin(), ops.end());
  std::sort(columns.begin(), columns.end());
  std::map<std::pair<std::string, std::string>, const MatrixCell*> at;
  for (const auto& c : matrix) at[{c.op, c.column}] = &c;
  h << "<table class=\"matrix\" id=\"matrix-" << e(key) << "\"><tr><th>op \\ " << e(key) << "</th>";
  for (const auto& d : columns) h << "<th>" << e(d) << "</th>";
  h << "</tr>\n";
  for (const auto& op : ops) {
    h << "<tr><th>" << e(op) << "</th>";
    for (const auto& d : columns) {
      const auto it = at.find({op, d});
      if (it == at.end()) {
        h << "<td class=\"cell s-none\">&middot;</td>";
        continue;
      }
      const MatrixCell& c = *it->second;
      const std::string worst(status_key(c.worst()));
      const auto p = c.counts.find(Status::pass);
      const int passed = p == c.counts.end() ? 0 : p->second;
      h << "<td class=\"cell s-" << worst << "\" data-op=\"" << e(op) << "\" data-" << key << "=\""
        << e(d) << "\" data-status=\"" << worst << "\" data-total=\"" << c.total << "\" title=\""
        << e(cell_title(c)) << "\">" << passed << "/" << c.total << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n";
}

void matrix_legend(std::ostringstream& h) {
  h << "<p>Cell: passed/total, coloured by the worst status in it: ";
  for (Status s : {Status::crash, Status::fail, Status::timeout, Status::error,
                   Status::not_supported, Status::pass, Status::not_judged, Status::skipped})
    h << html_status_tag(s);
  h << "</p>\n";
}

const std::vector<MatrixCell>& matrix_of(const Report& r, const MatrixColumn& column) {
  return column.key == kDtypeColumn.key ? r.matrix : r.context_matrix;
}

constexpr const MatrixColumn* kMatrixColumns[] = {&kDtypeColumn, &kContextColumn};
constexpr const char* kContextNote =
    "<p>Graph context: how the model feeds the operator (graph inputs, initializers, Constant "
    "nodes, inside an If branch, a Loop body or a SequenceMap body, chained after another "
    "operator); a case that names none counts as <code>inputs</code>.</p>\n";

// A path as what identifies it: its last three components ("…/1.14.0/libonnxruntime.so.1",
// "…/split_int8/opset=11/model.onnx"), the full path in the title. Paths of three components
// or fewer stay whole.
std::string short_path(const std::string& path) {
  size_t cut = path.size();
  for (int k = 0; k < 3 && cut != std::string::npos && cut > 0; ++k) cut = path.rfind('/', cut - 1);
  if (cut == std::string::npos || cut == 0) return "<span class=\"path\">" + e(path) + "</span>";
  return "<span class=\"path\" title=\"" + e(path) + "\">&hellip;" + e(path.substr(cut)) +
         "</span>";
}

// A message with each absolute path in it shortened (short_path). A path starts with '/' at
// the start or after a space, '=', '(', a quote or a comma, and ends before a space, ':', ',',
// ')' or a quote.
std::string with_short_paths(const std::string& text) {
  const auto starts_after = [](char c) {
    return c == ' ' || c == '=' || c == '(' || c == '\'' || c == '"' || c == ',';
  };
  const auto ends_at = [](char c) {
    return c == ' ' || c == ':' || c == ',' || c == ')' || c == '\'' || c == '"' || c == '\n';
  };
  std::string out;
  size_t done = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '/' || (i > 0 && !starts_after(text[i - 1]))) continue;
    size_t end = i;
    while (end < text.size() && !ends_at(text[end])) ++end;
    out += e(text.substr(done, i - done)) + short_path(text.substr(i, end - i));
    done = i = end;
  }
  return out + e(text.substr(std::min(done, text.size())));
}

void case_details(std::ostringstream& h, const Report& r, const CaseRecord& c) {
  const Outcome& o = c.outcome;
  const std::string verdict(verdict_key(c.verdict));
  h << "<details class=\"case\" data-case-id=\"" << e(o.case_id) << "\" data-status=\""
    << status_key(o.status) << "\" data-verdict=\"" << verdict << "\"><summary>"
    << html_status_tag(o.status) << " <code class=\"nb\">" << e(o.case_id) << "</code>";
  if (o.reason != Reason::none) h << " &mdash; " << e(reason_name(o.reason));
  h << "</summary>\n<dl>";
  const auto row = [&](const char* k, const std::string& v, bool pre = false) {
    if (v.empty()) return;
    h << "<dt>" << k << "</dt><dd>" << (pre ? "<pre>" : "") << e(v) << (pre ? "</pre>" : "")
      << "</dd>";
  };
  row("op", o.op);
  row("dtype", o.dtype);
  row("context", context_column(o));
  row("source", o.source);
  row("verdict", verdict);
  row("message", o.message, true);
  row("comparison", o.comparison);
  row("expected", o.expected, true);
  row("actual", o.actual, true);
  if (c.expectation) {
    std::string statuses(status_key(c.expectation->status));
    for (Status s : c.expectation->also) statuses += " or " + std::string(status_key(s));
    h << "<dt>expectation</dt><dd>" << e(statuses) << ": " << e(c.expectation->reason);
    if (!c.expectation->link.empty())
      h << " (<a href=\"" << e(c.expectation->link) << "\">" << e(c.expectation->link) << "</a>)";
    h << " <small>[entry <code>" << e(c.expectation->id) << "</code>]</small></dd>";
  }
  row("not covered", c.expectation_mismatch);
  if (!c.outcome.spec.empty())
    h << "<dt>spec</dt><dd><blockquote>" << e(c.outcome.spec) << "</blockquote></dd>";
  if (o.exported) {
    const ExportedVerdicts& x = *o.exported;
    row("producer", x.producer + (x.program.empty() ? "" : ", program " + x.program));
    const auto verdict_row = [&](const char* k, const Judgement& v) {
      h << "<dt>" << k << "</dt><dd>" << html_status_tag(v.status);
      if (v.reason != Reason::none) h << " " << e(reason_name(v.reason));
      if (!v.message.empty()) h << " <small>" << e(v.message) << "</small>";
      h << "</dd>";
    };
    verdict_row("exporter (spec vs framework)", x.exporter);
    row("node at fault", x.fault_node);
    if (c.exporter_expectation)
      h << "<dt>exporter expectation</dt><dd>" << e(c.exporter_expectation->clause) << ": "
        << e(c.exporter_expectation->reason) << "</dd>";
    row("exporter expectation not applied", c.exporter_expectation_mismatch);
    verdict_row("runtime (vs spec)", {o.status, o.reason, o.message});
    verdict_row("end to end (vs framework)", x.end_to_end);
    row("end-to-end layer", x.end_to_end_layer);
    if (o.depends_on_departure())
      row("depends", "the runtime matches the framework only because it departs from the spec");
  }
  for (const auto& f : o.findings)
    h << "<dt>" << e(f.check) << "</dt><dd>" << e(f.message) << "</dd>";
  if (!o.static_checks_not_applicable.empty())
    h << "<dt>static checks</dt><dd>not applicable: " << e(o.static_checks_not_applicable)
      << "</dd>";
  if (!o.kept_model.empty())
    h << "<dt>model run</dt><dd>the tool's output model, kept: <a href=\"" << e(o.kept_model)
      << "\"><code>" << short_path(o.kept_model) << "</code></a></dd>";
  if (o.localization) {
    const Localization& l = *o.localization;
    h << "<dt>node at fault</dt><dd data-localization=\"" << e(l.kind) << "\">";
    if (l.kind == "node")
      h << "<code>" << e(l.label) << "</code>" << (l.machinery ? " (its machinery)" : "")
        << ", on the runtime's own values: it got " << e(l.got) << "; the spec gives " << e(l.spec)
        << "; the runtime gave " << e(l.runtime) << ": " << e(l.message);
    else
      h << e(l.message);
    h << "</dd>";
  }
  for (const auto& a : o.ambiguities) {
    h << "<dt>ambiguity</dt><dd><blockquote>" << e(a.spec_sentence) << "</blockquote><small>"
      << e(a.op) << " ambiguity <code>" << e(a.id) << "</code>: " << e(a.detail) << "</small></dd>";
  }
  row("duration", std::to_string(o.duration_ms) + " ms");
  h << "<dt>reproduce</dt><dd><pre>" << e(reproduce_command(r, c)) << "</pre></dd>";
  h << "</dl></details>\n";
}

// Ids that stay on one line, one per line.
void id_list(std::ostringstream& h, const std::vector<std::string>& ids) {
  h << "<ul class=\"ids\">";
  for (const auto& id : ids) h << "<li><code class=\"nb\">" << e(id) << "</code></li>";
  h << "</ul>";
}

// The first cell of a departure's row: its title on one line, and folded under it the rest:
// what `intro` writes, a list of the departure's id and what `rows` writes (<dt>/<dd> pairs),
// then its cases, folded again.
template <typename Intro, typename Rows>
void folded_title(std::ostringstream& h, const Departure& d, const char* cases_noun, Intro intro,
                  Rows rows) {
  h << "<td class=\"what\"><details class=\"more\"><summary title=\"" << e(d.title) << "\">"
    << e(d.title) << "</summary><div class=\"more-body\">";
  intro();
  h << "<dl><dt>departure</dt><dd><code class=\"nb\">" << e(d.id) << "</code></dd>";
  rows();
  h << "</dl><details class=\"case-list\"><summary><span class=\"nb\">" << d.case_ids.size()
    << "</span> " << cases_noun << "</summary>";
  id_list(h, d.case_ids);
  h << "</details></div></details></td>";
}

// A cell that shows one line of text and the whole of it in its title.
void clipped_cell(std::ostringstream& h, const std::string& text, bool code = false) {
  h << "<td title=\"" << e(text) << "\">" << (code ? "<code class=\"nb\">" : "") << e(text)
    << (code ? "</code>" : "") << "</td>";
}

// A departure's layer and why, then the runs that show it (attribution evidence).
void attribution_evidence(std::ostringstream& h, const Attribution& a) {
  h << "<b>" << e(a.layer) << "</b>: " << e(a.why);
  if (a.runs.empty()) return;
  h << "<ul class=\"runs\">";
  for (const auto& run : a.runs) {
    h << "<li>" << e(run.configuration) << ": " << e(status_name(run.status));
    if (run.reason != Reason::none) h << "/" << e(reason_name(run.reason));
    if (!run.message.empty()) h << " <small>" << with_short_paths(run.message) << "</small>";
    if (!run.kept_model.empty())
      h << " <a href=\"" << e(run.kept_model) << "\" title=\"" << e(run.kept_model)
        << "\">model</a>";
    h << "</li>";
  }
  h << "</ul>";
}

// The memory errors the runtime's workers made outside any case (id worker-memory-errors):
// while a worker started and made its runtime, or between cases; nothing when there are none.
void worker_memory_errors_section(std::ostringstream& h, const RunInfo& i) {
  if (i.worker_memory_errors.empty()) return;
  h << "<h2 id=\"worker-memory-errors\">Memory errors outside any case</h2>\n<p>valgrind "
       "memcheck found these in the runtime's worker processes while no case ran: they are the "
       "runtime's, not a case's.</p>\n<ul class=\"worker-memory-errors\">";
  for (const WorkerMemoryError& w : i.worker_memory_errors) {
    h << "<li data-phase=\"" << e(std::string(worker_phase_name(w.phase))) << "\"><b>"
      << e(w.error.kind) << "</b> " << worker_phase_text(w.phase) << " (" << w.workers << " worker"
      << (w.workers == 1 ? "" : "s") << "): " << e(w.error.description);
    if (!w.error.frames.empty()) {
      h << "<pre>";
      for (const auto& f : w.error.frames) h << e(f) << "\n";
      h << "</pre>";
    }
    h << "</li>";
  }
  h << "</ul>\n";
}

// "<runtime> departs from the spec in N ways", then one line per departure (id departures),
// the spec text, attribution evidence, rerun command and cases folded under it.
void departures_section(std::ostringstream& h, const Report& r) {
  int ways = 0;
  for (const auto& d : r.departures) ways += d.run;
  h << "<h2 id=\"departures-title\">" << e(r.info.runtime_name) << " " << e(r.info.runtime_version)
    << " departs from the spec in " << ways << " way" << (ways == 1 ? "" : "s") << "</h2>\n";
  if (r.departures.empty()) return;
  if (ways != static_cast<int>(r.departures.size()))
    h << "<p>Besides, " << r.departures.size() - ways << " group(s) of cases were not run.</p>\n";
  bool attributed = false;
  for (const auto& d : r.departures) attributed |= d.attribution.has_value();
  h << "<div class=\"fold\"><table class=\"departures\" id=\"departures\"><colgroup><col>"
       "<col class=\"count\"><col class=\"list\"><col class=\"list\"><col class=\"case\">"
       "<col class=\"listed\">"
    << (attributed ? "<col class=\"layer\">" : "")
    << "</colgroup><tr><th>departure</th><th>cases</th><th>dtypes</th><th>contexts</th>"
       "<th>smallest case</th><th>listed</th>"
    << (attributed ? "<th>layer</th>" : "") << "</tr>\n";
  for (const auto& d : r.departures) {
    h << "<tr data-departure=\"" << e(d.id) << "\" data-count=\"" << d.case_ids.size()
      << "\" data-listed=\"" << e(d.listed) << "\">";
    const auto intro = [&] {
      if (!d.spec.empty() && d.clauses.size() > 1)
        h << "<blockquote>" << e(d.spec) << "</blockquote>";
      if (!d.ambiguity.empty())
        h << "<p class=\"ambiguous\">Every case is ambiguous under the spec: " << e(d.ambiguity)
          << "</p>";
      if (!d.depending_programs.empty())
        h << "<p class=\"depends\" data-depending=\"" << d.depending_programs.size() << "\">"
          << d.depending_programs.size()
          << " exported program(s) match the framework only through this departure: "
          << e(list(d.depending_programs)) << "</p>";
    };
    folded_title(h, d, "cases", intro, [&] {
      h << "<dt>dtypes</dt><dd>" << e(list(d.dtypes)) << "</dd><dt>contexts</dt><dd>"
        << e(list(d.contexts)) << "</dd><dt>smallest case</dt><dd><code class=\"nb\">"
        << e(d.smallest) << "</code><pre>" << e(d.rerun) << "</pre></dd>";
      if (!d.machinery.empty())
        h << "<dt>machinery</dt><dd>" << e(d.machinery) << " (" << d.explained_cases
          << " context case(s) it explains, " << d.case_ids.size() - d.explained_cases
          << " probe(s))</dd>";
      if (d.attribution) {
        h << "<dt>layer</dt><dd>";
        attribution_evidence(h, *d.attribution);
        h << "</dd>";
      }
    });
    h << "<td class=\"n\">" << d.case_ids.size() << "</td>";
    clipped_cell(h, list(d.dtypes));
    clipped_cell(h, list(d.contexts));
    clipped_cell(h, d.smallest, true);
    h << "<td>" << e(d.listed) << "</td>";
    if (attributed)
      h << "<td" << (d.attribution ? " title=\"" + e(d.attribution->why) + "\"" : "") << "><b>"
        << (d.attribution ? e(d.attribution->layer) : "") << "</b></td>";
    h << "</tr>\n";
  }
  h << "</table></div>\n";
}

// The exported cases' three verdicts and the exporter's departures (id exported); nothing
// without exported cases.
void exported_section(std::ostringstream& h, const Report& r) {
  const ExportedSummary& x = r.exported;
  if (x.cases == 0) return;
  h << "<h2 id=\"exported-title\">Exported models: " << x.cases << " models of " << x.programs
    << " programs, judged three ways</h2>\n<table class=\"exported\" id=\"exported\"><tr>"
       "<th>verdict</th><th>what is compared</th><th>pass</th></tr>\n";
  const auto line = [&](const char* name, const std::string& what, int passed) {
    h << "<tr data-verdict=\"" << name << "\"><td>" << name << "</td><td>" << e(what)
      << "</td><td class=\"n\">" << passed << "/" << x.cases << "</td></tr>\n";
  };
  line("exporter", "the model's meaning under the spec (reference) against the framework",
       x.exporter_passed);
  line("runtime", r.info.runtime_name + " against the spec", x.runtime_passed);
  line("end to end", r.info.runtime_name + " against the framework", x.end_to_end_passed);
  h << "</table>\n";
  if (x.depending > 0)
    h << "<p>" << x.depending << " exported model(s) match the framework only because "
      << e(r.info.runtime_name) << " departs from the spec (the departures above say which).</p>\n";
  if (!r.end_to_end_departures.empty()) {
    h << "<div class=\"fold\"><table class=\"departures end-to-end-departures\" "
         "id=\"end-to-end-departures\"><colgroup><col><col class=\"layer\"><col class=\"count\">"
         "<col class=\"programs\"><col class=\"case\"></colgroup><tr><th>end-to-end departure</th>"
         "<th>layer</th><th>models</th><th>programs</th><th>smallest case</th></tr>\n";
    for (const auto& d : r.end_to_end_departures) {
      h << "<tr data-departure=\"" << e(d.id) << "\" data-count=\"" << d.case_ids.size()
        << "\" data-layer=\"" << e(d.attribution->layer) << "\">";
      folded_title(
          h, d, "models", [] {},
          [&] {
            h << "<dt>layer</dt><dd>";
            attribution_evidence(h, *d.attribution);
            h << "</dd><dt>programs</dt><dd>" << e(list(d.depending_programs))
              << "</dd><dt>smallest case</dt><dd><code class=\"nb\">" << e(d.smallest)
              << "</code><pre>" << e(d.rerun) << "</pre></dd>";
          });
      h << "<td title=\"" << e(d.attribution->why) << "\"><b>" << e(d.attribution->layer)
        << "</b></td><td class=\"n\">" << d.case_ids.size() << "</td>";
      clipped_cell(h, list(d.depending_programs));
      clipped_cell(h, d.smallest, true);
      h << "</tr>\n";
    }
    h << "</table></div>\n";
  }
  if (r.exporter_departures.empty()) return;
  h << "<div class=\"fold\"><table class=\"departures exporter-departures\" "
       "id=\"exporter-departures\"><colgroup><col><col class=\"count\"><col class=\"programs\">"
       "<col class=\"case\"><col class=\"listed\"></colgroup><tr><th>exporter departure</th>"
       "<th>models</th><th>programs</th><th>smallest case</th><th>listed</th></tr>\n";
  for (const auto& d : r.exporter_departures) {
    h << "<tr data-departure=\"" << e(d.id) << "\" data-count=\"" << d.case_ids.size()
      << "\" data-listed=\"" << e(d.listed) << "\">";
    folded_title(
        h, d, "models", [&] { h << "<p><small>" << e(d.spec) << "</small></p>"; },
        [&] {
          h << "<dt>programs</dt><dd>" << e(list(d.depending_programs))
            << "</dd><dt>smallest case</dt><dd><code class=\"nb\">" << e(d.smallest)
            << "</code><pre>" << e(d.rerun) << "</pre></dd>";
        });
    h << "<td class=\"n\">" << d.case_ids.size() << "</td>";
    clipped_cell(h, list(d.depending_programs));
    clipped_cell(h, d.smallest, true);
    h << "<td>" << e(d.listed) << "</td></tr>\n";
  }
  h << "</table></div>\n";
}

// Op x column, one column per runtime inside each cell row (id index-matrix-dtype, ...).
void index_matrix_table(std::ostringstream& h, const std::vector<IndexEntry>& entries,
                        const MatrixColumn& column) {
  const std::string key(column.key);
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& en : entries)
    for (const auto& c : matrix_of(en.report, column)) keys.insert({c.op, c.column});
  h << "<h2>Operator &times; " << e(column.title) << "</h2>\n<table class=\"index-matrix\" "
    << "id=\"index-matrix-" << e(key) << "\"><tr><th>op</th><th>" << e(key) << "</th>";
  for (const auto& en : entries) h << "<th>" << e(en.report.info.runtime_name) << "</th>";
  h << "</tr>\n";
  for (const auto& [op, value] : keys) {
    h << "<tr><th>" << e(op) << "</th><td>" << e(value) << "</td>";
    for (const auto& en : entries) {
      const MatrixCell* cell = nullptr;
      for (const auto& c : matrix_of(en.report, column))
        if (c.op == op && c.column == value) cell = &c;
      if (!cell) {
        h << "<td class=\"cell s-none\">&middot;</td>";
        continue;
      }
      const std::string worst(status_key(cell->worst()));
      const auto p = cell->counts.find(Status::pass);
      h << "<td class=\"cell s-" << worst << "\" data-runtime=\"" << e(en.report.info.runtime_name)
        << "\" data-op=\"" << e(op) << "\" data-" << key << "=\"" << e(value) << "\" data-status=\""
        << worst << "\" title=\"" << e(cell_title(*cell)) << "\">"
        << (p == cell->counts.end() ? 0 : p->second) << "/" << cell->total << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n";
}

}  // namespace

std::string html_status_tag(Status s) {
  const std::string k(status_key(s));
  return "<span class=\"tag s-" + k + "\">" + k + "</span>";
}

std::string html_page_head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         e(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string report_to_html(const Report& r) {
  const RunInfo& i = r.info;
  const Summary& s = r.summary;
  std::ostringstream h;
  h << html_page_head("seqconf: " + i.runtime_name + " " + i.runtime_version);
  h << "<h1>seqconf conformance report: " << e(i.runtime_name) << " " << e(i.runtime_version)
    << "</h1>\n";
  if (!i.complete)
    h << "<div class=\"banner warn\" id=\"incomplete\">Interrupted run: only the cases run before "
         "the interruption are reported.</div>\n";
  // A memory error a worker made outside any case fails the run (exit_code) as an unexpected
  // failure does: the banner says so, and the section below lists them.
  const size_t worker_errors = i.worker_memory_errors.size();
  if (s.has_unexpected() || worker_errors)
    h << "<div class=\"banner bad\" id=\"verdict\">" << s.unexpected_failures
      << " unexpected failure(s), " << s.unexpected_passes << " unexpected pass(es)"
      << (s.unexpected_exporter
              ? ", " + num(s.unexpected_exporter) + " unexpected exporter verdict(s)"
              : std::string())
      << (worker_errors ? ", " + num(static_cast<int>(worker_errors)) +
                              " memory error(s) of the runtime's workers outside any case"
                        : std::string())
      << ".</div>\n";
  else
    h << "<div class=\"banner good\" id=\"verdict\">No unexpected outcome.</div>\n";
  worker_memory_errors_section(h, i);
  departures_section(h, r);
  exported_section(h, r);

  h << "<table class=\"meta\">";
  const auto meta = [&](const char* k, const std::string& v) {
    h << "<tr><td>" << k << "</td><td>" << e(v) << "</td></tr>";
  };
  meta("runtime", i.runtime_name + " " + i.runtime_version);
  meta("runtime path", i.runtime_path);
  meta("suite", i.suite_name + " " + i.suite_version + " (" + i.git_revision + ")");
  meta("machine", i.hostname + ", " + i.os + ", " + num(i.cpu_count) + " CPUs");
  meta("time", i.start_time + " .. " + i.end_time);
  meta("expectations", i.expectations_file.empty() ? "none" : i.expectations_file);
  if (!i.exporter_expectations_file.empty())
    meta("exporter expectations", i.exporter_expectations_file);
  meta("options", i.options.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  // What was not judged, and what the reference's host ran (reports/report.h: judging_text).
  if (const std::string judging = judging_text(r); !judging.empty()) meta("judging", judging);
  if (!i.merged_from.empty()) {
    std::string m;
    for (const auto& f : i.merged_from) m += (m.empty() ? "" : ", ") + f;
    meta("merged from", m);
  }
  h << "</table>\n";

  h << "<h2>Summary</h2>\n";
  summary_table(h, s);

  h << "<h2>Per operator</h2>\n<table class=\"per-op\"><tr><th>op</th><th>passed/total</th>"
       "<th>failed</th><th>errored</th><th>not supported</th><th>crashed</th><th>timed "
       "out</th><th>skipped</th><th>expected</th><th>unexpected</th></tr>\n";
  for (const auto& [op, x] : counts_per_op(r))
    h << "<tr><th>" << e(op) << "</th><td class=\"n\">" << x.passed << "/" << x.total
      << "</td><td class=\"n\">" << x.failed << "</td><td class=\"n\">" << x.errored
      << "</td><td class=\"n\">" << x.not_supported << "</td><td class=\"n\">" << x.crashed
      << "</td><td class=\"n\">" << x.timed_out << "</td><td class=\"n\">" << x.skipped
      << "</td><td class=\"n\">" << x.expected_failures << "</td><td class=\"n\">"
      << x.unexpected_failures + x.unexpected_passes << "</td></tr>\n";
  h << "</table>\n";

  for (const MatrixColumn* column : kMatrixColumns) {
    h << "<h2>Operator &times; " << e(column->title) << "</h2>\n";
    if (column == &kContextColumn) h << kContextNote;
    matrix_table(h, matrix_of(r, *column), *column);
  }
  matrix_legend(h);

  if (!r.findings.empty()) {
    h << "<h2>Findings: spec ambiguities met, static check disagreements</h2>\n<table "
         "class=\"findings\"><tr><th>kind</th><th>op</th><th>id</th><th>spec sentence</th>"
         "<th>detail</th><th>cases</th></tr>\n";
    for (const auto& f : r.findings) {
      h << "<tr data-finding=\"" << e(f.id) << "\" data-kind=\"" << e(f.kind) << "\"><td>"
        << e(f.kind) << "</td><td>" << e(f.op) << "</td><td><code>" << e(f.id)
        << "</code></td><td><blockquote>" << e(f.spec_sentence) << "</blockquote></td><td>";
      for (const auto& d : f.details) h << e(d) << "<br>";
      h << "</td><td class=\"n\" title=\"";
      for (const auto& id : f.case_ids) h << e(id) << " ";
      h << "\">" << f.case_ids.size() << "</td></tr>\n";
    }
    h << "</table>\n";
  }

  const std::pair<Verdict, const char*> groups[] = {
      {Verdict::unexpected_failure, "Unexpected failures"},
      {Verdict::unexpected_pass, "Unexpected passes"},
      {Verdict::expected_failure, "Expected failures"},
      {Verdict::skipped, "Skipped"}};
  for (const auto& [v, title] : groups) {
    int n = 0;
    for (const auto& c : r.cases) n += c.verdict == v;
    if (n == 0) continue;
    h << "<h2 id=\"" << verdict_key(v) << "\">" << title << " (" << n << ")</h2>\n";
    for (const auto& c : r.cases)
      if (c.verdict == v) case_details(h, r, c);
  }
  h << "<p><small>Generated " << e(i.end_time) << " by seqconf " << e(i.suite_version)
    << ".</small></p>\n</body>\n</html>\n";
  return h.str();
}

std::string index_to_html(const std::vector<IndexEntry>& entries,
                          const std::vector<std::pair<std::string, std::string>>& links) {
  std::ostringstream h;
  h << html_page_head("seqconf: runtimes compared");
  h << "<h1>seqconf: runtimes compared</h1>\n";
  for (const auto& [text, href] : links)
    h << "<p class=\"index-link\"><a href=\"" << e(href) << "\">" << e(text) << "</a></p>\n";

  h << "<h2>Summary</h2>\n<table class=\"index-summary\"><tr><th>runtime</th><th>version</th>"
       "<th>complete</th><th>total</th><th>passed</th><th>failed</th><th>errored</th><th>not "
       "supported</th><th>crashed</th><th>timed out</th><th>skipped</th><th>expected "
       "failures</th><th>unexpected failures</th><th>unexpected passes</th><th>reports</th></tr>\n";
  for (const auto& en : entries) {
    const auto& i = en.report.info;
    const auto& s = en.report.summary;
    h << "<tr data-runtime=\"" << e(i.runtime_name) << "\"><th>" << e(i.runtime_name)
      << "</th><td class=\"nb\">" << e(i.runtime_version) << "</td><td>"
      << (i.complete ? "yes" : "NO") << "</td>";
    for (int n : {s.total, s.passed, s.failed, s.errored, s.not_supported, s.crashed, s.timed_out,
                  s.skipped, s.expected_failures, s.unexpected_failures, s.unexpected_passes})
      h << "<td class=\"n\">" << n << "</td>";
    h << "<td>";
    if (!en.html_link.empty()) h << "<a href=\"" << e(en.html_link) << "\">html</a> ";
    if (!en.json_link.empty()) h << "<a href=\"" << e(en.json_link) << "\">json</a>";
    h << "</td></tr>\n";
  }
  h << "</table>\n";

  for (const MatrixColumn* column : kMatrixColumns) index_matrix_table(h, entries, *column);

  // Cases where the runtimes do not all pass.
  std::map<std::string, std::vector<const CaseRecord*>> by_id;
  for (size_t k = 0; k < entries.size(); ++k)
    for (const auto& c : entries[k].report.cases) {
      auto& v = by_id[c.outcome.case_id];
      v.resize(entries.size(), nullptr);
      v[k] = &c;
    }
  int all_pass = 0;
  std::ostringstream rows;
  int differing = 0;
  for (auto& [id, v] : by_id) {
    v.resize(entries.size(), nullptr);
    bool every_pass = true;
    for (const auto* c : v) every_pass = every_pass && c && c->outcome.status == Status::pass;
    if (every_pass) {
      ++all_pass;
      continue;
    }
    ++differing;
    rows << "<tr data-case-id=\"" << e(id) << "\"><td><code class=\"nb\">" << e(id)
         << "</code></td>";
    for (const auto* c : v) {
      if (!c) {
        rows << "<td class=\"s-none\">not run</td>";
        continue;
      }
      const std::string k(status_key(c->outcome.status));
      std::string title(reason_name(c->outcome.reason));
      if (!c->outcome.message.empty()) title += (title.empty() ? "" : ": ") + c->outcome.message;
      if (c->expectation) title += " [expected: " + c->expectation->reason + "]";
      rows << "<td class=\"s-" << k << "\" title=\"" << e(title) << "\">" << k;
      if (c->verdict == Verdict::expected_failure) rows << " (expected)";
      if (c->verdict == Verdict::unexpected_pass) rows << " (unexpected)";
      rows << "</td>";
    }
    rows << "</tr>\n";
  }
  h << "<h2>Cases not passed by every runtime (" << differing << "; " << all_pass
    << " passed by all)</h2>\n<table class=\"index-cases\"><tr><th>case</th>";
  for (const auto& en : entries) h << "<th>" << e(en.report.info.runtime_name) << "</th>";
  h << "</tr>\n" << rows.str() << "</table>\n</body>\n</html>\n";
  return h.str();
}

}  // namespace seqconf::reports
