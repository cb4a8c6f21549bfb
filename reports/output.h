// Writing report files: escaping for XML and HTML, UTF-8 repair, shell quoting, atomic write.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace seqconf::reports {

// Replaces every invalid UTF-8 sequence by U+FFFD (runtime messages may carry raw bytes).
std::string valid_utf8(std::string_view s);
// Text or attribute content for XML 1.0: escapes & < > " ' and replaces the control
// characters XML 1.0 forbids (all below 0x20 except tab, newline, carriage return) by U+FFFD.
std::string xml_escape(std::string_view s);
// Text or attribute content for HTML: same rules as xml_escape.
std::string html_escape(std::string_view s);
// A POSIX shell word that stands for s exactly: 'it'\''s'.
std::string shell_quote(std::string_view s);

// Writes content to path through a temporary file in the same directory and a rename, so a
// reader never sees a half-written report. Creates the parent directory. Throws
// Error(io_error) naming the path.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace seqconf::reports
