// HTML forms of reports: one self-contained page (inline CSS, no script, no external
// resource) per run, and an index page comparing the runs of several runtimes side by side.
//
// Stable hooks for tools that read the page: every matrix cell is a <td> with data-op,
// data-dtype, data-status (its worst status) and data-total; every non-pass case is a
// <details class="case"> with data-case-id, data-status and data-verdict.
#pragma once

#include <string>
#include <vector>

#include "reports/report.h"

namespace seqconf::reports {

std::string report_to_html(const Report& report);

struct IndexEntry {
  Report report;
  std::string html_link;  // where that runtime's own page is, relative to the index; or empty
  std::string json_link;  // same for its JSON report
};
// links: further pages of the same run, (text, href relative to the index), listed under the
// title (the open questions page of seqconf ambiguities).
std::string index_to_html(const std::vector<IndexEntry>& entries,
                          const std::vector<std::pair<std::string, std::string>>& links = {});

// The parts of these pages that other pages in the same look share (seqconf diff's page):
// the document up to and including <body> (with the shared style sheet), and a status badge
// coloured like the matrices.
std::string html_page_head(const std::string& title);
std::string html_status_tag(Status s);

}  // namespace seqconf::reports
