// The open questions report: JSON, Markdown, HTML (reports/ambiguities_report.h).
#include "reports/ambiguities_report.h"

#include <map>
#include <sstream>

#include "reports/output.h"

namespace seqconf::reports {
namespace {

using json = nlohmann::json;

std::string versions_text(const OpenQuestion::Operator& o) {
  std::string s = o.op + "-";
  for (size_t i = 0; i < o.versions.size(); ++i)
    s += (i ? "," : "") + std::to_string(o.versions[i]);
  return s;
}

std::string operators_text(const OpenQuestion& q) {
  std::string s;
  for (const auto& o : q.operators) s += (s.empty() ? "" : ", ") + versions_text(o);
  return s;
}

const char* status_meaning(const std::string& status) {
  if (status == "open") return "open: the sentences allow more than one reading; a policy decides";
  if (status == "wording") return "wording: the sentence read literally says what nobody does";
  if (status == "disputed") return "disputed: the sentence is clear, practice departs from it";
  if (status == "silent") return "silent: no sentence covers the case";
  return "";
}

std::string policy_text(const std::string& policy) {
  if (policy == "both") return "both policies of the reference";
  if (policy.empty()) return "no policy of the reference";
  return "the reference's " + policy + " policy";
}

// The implementations that answered on the entry's cases, in the report's order.
std::vector<const AmbiguityImplementation*> answering(const AmbiguitiesReport& r,
                                                      const AmbiguityEntry& e) {
  std::vector<const AmbiguityImplementation*> out;
  for (const auto& impl : r.implementations)
    for (const auto& a : e.answers)
      if (a.implementation == impl.id) {
        out.push_back(&impl);
        break;
      }
  return out;
}

const AmbiguityAnswer* answer_of(const AmbiguityEntry& e, const std::string& impl,
                                 const std::string& case_id) {
  for (const auto& a : e.answers)
    if (a.implementation == impl && a.case_id == case_id) return &a;
  return nullptr;
}

// "c1", "c2", ... by the entry's case order.
std::string case_label(size_t i) { return "c" + std::to_string(i + 1); }

std::string md_cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

}  // namespace

std::string reading_summary(const AmbiguityEntry& e, const std::string& implementation) {
  std::map<std::string, int> counts;
  int total = 0;
  for (const auto& a : e.answers)
    if (a.implementation == implementation) {
      ++counts[a.reading];
      ++total;
    }
  std::string s;
  for (const auto& [reading, n] : counts)
    s += (s.empty() ? "" : ", ") + reading + " " + std::to_string(n) + "/" + std::to_string(total);
  return s;
}

json ambiguities_to_json(const AmbiguitiesReport& r) {
  json j = {{"schema_version", 1},
            {"seqconf_version", r.seqconf_version},
            {"git_revision", r.git_revision},
            {"start_time", r.start_time},
            {"end_time", r.end_time},
            {"implementations", json::array()},
            {"questions", json::array()},
            {"notes", r.notes}};
  for (const auto& i : r.implementations) {
    json x = {{"id", i.id}, {"name", i.name}, {"kind", i.kind}};
    if (!i.note.empty()) x["note"] = i.note;
    j["implementations"].push_back(std::move(x));
  }
  for (const auto& e : r.entries) {
    const OpenQuestion& q = e.question;
    json x = {{"id", q.id},
              {"status", q.status},
              {"title", q.title},
              {"operators", json::array()},
              {"sentences", json::array()},
              {"readings", json::array()},
              {"onnx", json::array()},
              {"proposal", q.proposal},
              {"cases", json::array()},
              {"answers", json::array()},
              {"summary", json::object()}};
    for (const auto& o : q.operators)
      x["operators"].push_back({{"op", o.op}, {"versions", o.versions}});
    for (const auto& s : q.sentences) {
      json y = {{"where", s.where}, {"text", s.text}};
      if (!s.clause.empty()) y["clause"] = s.clause;
      x["sentences"].push_back(std::move(y));
    }
    for (const auto& rd : q.readings)
      x["readings"].push_back({{"name", rd.name},
                               {"policy", rd.policy.empty() ? json(nullptr) : json(rd.policy)},
                               {"meaning", rd.meaning},
                               {"held_by", rd.held_by}});
    for (const auto& o : q.onnx) x["onnx"].push_back({{"file", o.file}, {"says", o.says}});
    if (!q.why_not_split.empty()) x["why_not_split"] = q.why_not_split;
    if (!q.program_reading.empty()) x["program_reading"] = q.program_reading;
    for (const auto& c : e.cases)
      x["cases"].push_back({{"id", c.id},
                            {"source", c.source},
                            {"op", c.op},
                            {"model", c.model},
                            {"model_bytes", c.model_bytes},
                            {"lenient", c.lenient},
                            {"strict", c.strict},
                            {"splits", c.splits}});
    for (const auto& a : e.answers) {
      json y = {{"implementation", a.implementation},
                {"case", a.case_id},
                {"reading", a.reading},
                {"lenient", status_name(a.lenient)},
                {"strict", status_name(a.strict)}};
      if (!a.message.empty()) y["message"] = valid_utf8(a.message);
      if (a.recorded) y["recorded"] = true;
      x["answers"].push_back(std::move(y));
    }
    for (const auto& impl : r.implementations) {
      const std::string s = reading_summary(e, impl.id);
      if (!s.empty()) x["summary"][impl.id] = s;
    }
    j["questions"].push_back(std::move(x));
  }
  return j;
}

std::string ambiguities_markdown(const AmbiguitiesReport& r) {
  std::ostringstream m;
  m << "# What the spec leaves open\n\n"
    << "Measured by seqconf " << r.seqconf_version << " (" << r.git_revision << ") on "
    << r.start_time << ". Each question below reads as an issue for the spec's repository: the "
    << "sentence, its readings, the smallest models that tell them apart (attached by path), "
    << "what each implementation does on them, and a proposed wording.\n\n"
    << "Implementations asked:\n";
  for (const auto& i : r.implementations)
    m << "- `" << i.id << "`: " << i.name
      << (i.note.empty() ? "" : " (did not answer: " + i.note + ")") << "\n";
  for (const auto& n : r.notes) m << "\nNote: " << n << "\n";
  for (const auto& e : r.entries) {
    const OpenQuestion& q = e.question;
    m << "\n---\n\n## " << q.title << "\n\n"
      << "`" << q.id << "` · " << operators_text(q) << " · " << status_meaning(q.status) << "\n\n"
      << "### What the spec says\n\n";
    for (const auto& s : q.sentences) m << "> " << s.text << "\n>\n> (" << s.where << ")\n\n";
    m << "### Readings\n\n";
    for (const auto& rd : q.readings)
      m << "- **" << rd.name << "** (" << policy_text(rd.policy) << "): " << rd.meaning << "."
        << (rd.held_by.empty() ? "" : " Taken by: " + rd.held_by + ".") << "\n";
    if (!q.onnx.empty()) {
      m << "\n### Where ONNX itself takes a side\n\n";
      for (const auto& o : q.onnx) m << "- `" << o.file << "`: " << o.says << ".\n";
    }
    if (!q.why_not_split.empty())
      m << "\n### Why no policy splits it\n\n" << q.why_not_split << "\n";
    m << "\n### Minimal models\n\n";
    if (e.cases.empty()) {
      m << "No case of this run bears on the question.\n";
    } else {
      m << "| | case | model | lenient policy expects | strict policy expects |\n"
        << "|---|---|---|---|---|\n";
      for (size_t i = 0; i < e.cases.size(); ++i) {
        const auto& c = e.cases[i];
        m << "| " << case_label(i) << " | `" << md_cell(c.id) << "` | `" << md_cell(c.model)
          << "` (" << c.model_bytes << " bytes) | " << md_cell(c.lenient) << " | "
          << md_cell(c.strict) << " |\n";
      }
      m << "\n### What each implementation does\n\n| implementation |";
      for (size_t i = 0; i < e.cases.size(); ++i) m << " " << case_label(i) << " |";
      m << " in short |\n|---|";
      for (size_t i = 0; i < e.cases.size(); ++i) m << "---|";
      m << "---|\n";
      for (const auto* impl : answering(r, e)) {
        m << "| " << md_cell(impl->name) << " |";
        for (const auto& c : e.cases) {
          const AmbiguityAnswer* a = answer_of(e, impl->id, c.id);
          m << " " << (a ? a->reading : "") << " |";
        }
        m << " " << reading_summary(e, impl->id) << " |\n";
      }
      bool details = false;
      for (const auto& a : e.answers)
        if (!a.message.empty()) {
          if (!details)
            m << "\nWhat the implementations gave where they followed no policy's reading:\n\n";
          details = true;
          size_t i = 0;
          while (i < e.cases.size() && e.cases[i].id != a.case_id) ++i;
          m << "- " << a.implementation << " on " << case_label(i) << ": "
            << md_cell(valid_utf8(a.message)) << "\n";
        }
    }
    m << "\n### Proposed wording (a proposal, not the spec)\n\n> " << q.proposal << "\n";
  }
  return m.str();
}

std::string ambiguities_html(const AmbiguitiesReport& r) {
  const auto e = [](const std::string& s) { return html_escape(valid_utf8(s)); };
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    << "<title>seqconf: what the spec leaves open</title><style>"
    << "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em}"
    << "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em "
       ".5em;text-align:left;vertical-align:top}code{word-break:break-all}"
    << "blockquote{border-left:4px solid #88a;margin:.5em 0;padding:.2em 1em;background:#f4f4fa}"
    << ".proposal{border-left-color:#a84;background:#faf6f0}"
    << "td.lenient{background:#e8f4e8}td.strict{background:#e8ecf8}td.neither{background:#fbe9e7}"
    << "</style></head><body>\n<h1>What the spec leaves open</h1>\n<p>Measured by seqconf "
    << e(r.seqconf_version) << " (" << e(r.git_revision) << ") on " << e(r.start_time)
    << ". Each question: its sentence, its readings, the smallest models that tell them apart, "
       "what each implementation does, and a proposed wording.</p>\n<ul>";
  for (const auto& i : r.implementations)
    h << "<li><code>" << e(i.id) << "</code>: " << e(i.name)
      << (i.note.empty() ? "" : " (did not answer: " + e(i.note) + ")") << "</li>";
  h << "</ul>\n";
  for (const auto& n : r.notes) h << "<p class=\"note\">Note: " << e(n) << "</p>\n";
  h << "<h2>Questions</h2>\n<ul>";
  for (const auto& x : r.entries)
    h << "<li><a href=\"#" << e(x.question.id) << "\">" << e(x.question.title) << "</a> ("
      << e(x.question.status) << ")</li>";
  h << "</ul>\n";
  for (const auto& x : r.entries) {
    const OpenQuestion& q = x.question;
    h << "<section id=\"" << e(q.id) << "\" data-question=\"" << e(q.id) << "\"><h2>" << e(q.title)
      << "</h2>\n<p><code>" << e(q.id) << "</code> &middot; " << e(operators_text(q))
      << " &middot; " << e(status_meaning(q.status)) << "</p>\n";
    for (const auto& s : q.sentences)
      h << "<blockquote>" << e(s.text) << "<br><small>" << e(s.where) << "</small></blockquote>\n";
    h << "<h3>Readings</h3>\n<ul>";
    for (const auto& rd : q.readings)
      h << "<li><b>" << e(rd.name) << "</b> (" << e(policy_text(rd.policy))
        << "): " << e(rd.meaning) << "."
        << (rd.held_by.empty() ? "" : " Taken by: " + e(rd.held_by) + ".") << "</li>";
    h << "</ul>\n";
    if (!q.onnx.empty()) {
      h << "<h3>Where ONNX itself takes a side</h3>\n<ul>";
      for (const auto& o : q.onnx)
        h << "<li><code>" << e(o.file) << "</code>: " << e(o.says) << ".</li>";
      h << "</ul>\n";
    }
    if (!q.why_not_split.empty())
      h << "<h3>Why no policy splits it</h3>\n<p>" << e(q.why_not_split) << "</p>\n";
    h << "<h3>Minimal models</h3>\n";
    if (x.cases.empty()) {
      h << "<p>No case of this run bears on the question.</p>\n";
    } else {
      h << "<table><tr><th></th><th>case</th><th>model</th><th>lenient policy expects</th>"
           "<th>strict policy expects</th></tr>\n";
      for (size_t i = 0; i < x.cases.size(); ++i) {
        const auto& c = x.cases[i];
        h << "<tr><td>" << case_label(i) << "</td><td><code>" << e(c.id)
          << "</code></td><td><a href=\"" << e(c.model) << "\">model.onnx</a> (" << c.model_bytes
          << " bytes)</td><td>" << e(c.lenient) << "</td><td>" << e(c.strict) << "</td></tr>\n";
      }
      h << "</table>\n<h3>What each implementation does</h3>\n<table><tr><th>implementation</th>";
      for (size_t i = 0; i < x.cases.size(); ++i) h << "<th>" << case_label(i) << "</th>";
      h << "<th>in short</th></tr>\n";
      for (const auto* impl : answering(r, x)) {
        h << "<tr data-implementation=\"" << e(impl->id) << "\"><td>" << e(impl->name) << "</td>";
        for (const auto& c : x.cases) {
          const AmbiguityAnswer* a = answer_of(x, impl->id, c.id);
          if (!a) {
            h << "<td></td>";
            continue;
          }
          h << "<td class=\"" << e(a->reading) << "\" data-case=\"" << e(c.id)
            << "\" data-reading=\"" << e(a->reading) << "\""
            << (a->message.empty() ? "" : " title=\"" + e(a->message) + "\"") << ">"
            << e(a->reading) << "</td>";
        }
        h << "<td>" << e(reading_summary(x, impl->id)) << "</td></tr>\n";
      }
      h << "</table>\n";
    }
    h << "<h3>Proposed wording (a proposal, not the spec)</h3>\n<blockquote class=\"proposal\">"
      << e(q.proposal) << "</blockquote>\n</section>\n";
  }
  h << "</body></html>\n";
  return h.str();
}

void write_ambiguities(const AmbiguitiesReport& r, const std::filesystem::path& dir) {
  write_file_atomic(dir / "ambiguities.json", ambiguities_to_json(r).dump(2) + "\n");
  write_file_atomic(dir / "ambiguities.md", ambiguities_markdown(r));
  write_file_atomic(dir / "ambiguities.html", ambiguities_html(r));
}

}  // namespace seqconf::reports
