// Valgrind memcheck for isolated workers; see memcheck.h.
#include "runtimes/memcheck.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string_view>

#include "runtimes/memcheck_supp.h"

// valgrind's client requests (VALGRIND_COUNT_ERRORS). Without the header (the build says so,
// runtimes/onnxruntime.cmake) workers cannot count errors, and memcheck_unavailable() says why.
#if SEQCONF_HAVE_VALGRIND
#include <valgrind/memcheck.h>
#endif

namespace seqconf {

std::string valgrind_program() {
  if (const char* v = std::getenv("SEQCONF_VALGRIND"); v && *v)
    return ::access(v, X_OK) == 0 ? std::string(v) : std::string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path && *path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/valgrind";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string memcheck_unavailable() {
#if SEQCONF_HAVE_VALGRIND
  if (valgrind_program().empty())
    return "valgrind is not installed (apt-get install valgrind, or $SEQCONF_VALGRIND)";
  return {};
#else
  return "seqconf was built without valgrind's header valgrind/memcheck.h (apt-get install "
         "valgrind, then configure and build again)";
#endif
}

uint64_t memcheck_errors_counted() {
#if SEQCONF_HAVE_VALGRIND
  return VALGRIND_COUNT_ERRORS;
#else
  return 0;
#endif
}

const char* memcheck_suppressions() { return kMemcheckSuppressions; }

std::vector<std::string> memcheck_command(const std::string& valgrind, const std::string& xml_file,
                                          const std::string& suppressions_file) {
  return {valgrind, "--tool=memcheck", "--quiet", "--xml=yes", "--xml-file=" + xml_file,
          // tcmalloc's malloc, free and operator new are replaced as glibc's are (valgrind 3.19
          // also matches libtcmalloc* by itself; the option says so, and keeps it so).
          "--soname-synonyms=somalloc=*tcmalloc*",
          // Every error is counted and written (a request's errors are told by their count).
          "--error-limit=no",
          // Mismatched frees (new with free(), new[] with delete) are not reported: the one kind
          // left out, because with tcmalloc memcheck cannot tell them. In Debian 12's
          // libtcmalloc_minimal.so.4 (gperftools 2.10) free, operator delete and operator
          // delete[] are one address (and the sized deletes another); memcheck replaces a
          // function by its address, so it takes every delete for a free(). Shown, in a run of 9
          // SequenceAt cases on ONNX Runtime 1.30, each worker made 13 at start-up (libonnx's and
          // seqconf's static initialisers) and every case failed with one, a std::string's
          // destructor in serve_runtime: all in code that is right. A program built without
          // tcmalloc (SEQCONF_TCMALLOC=OFF) could check them; it is not measured.
          "--show-mismatched-frees=no", "--leak-check=no", "--num-callers=12",
          "--trace-children=no", "--suppressions=" + suppressions_file};
}

namespace {

std::string unescape(std::string_view s) {
  static const std::pair<std::string_view, char> kEntities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&')
      for (const auto& [entity, c] : kEntities)
        if (s.substr(i, entity.size()) == entity) {
          out += c;
          i += entity.size();
          replaced = true;
          break;
        }
    if (!replaced) out += s[i++];
  }
  return out;
}

// The text of the first <tag>...</tag> in s, unescaped; empty when there is none.
std::string element(std::string_view s, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t b = s.find(open);
  if (b == std::string_view::npos) return {};
  const size_t e = s.find(close, b + open.size());
  if (e == std::string_view::npos) return {};
  return unescape(s.substr(b + open.size(), e - b - open.size()));
}

// The first <tag>...</tag> in s with its tags' contents raw (for nested elements).
std::string_view raw_element(std::string_view s, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t b = s.find(open);
  if (b == std::string_view::npos) return {};
  const size_t e = s.find(close, b + open.size());
  if (e == std::string_view::npos) return {};
  return s.substr(b + open.size(), e - b - open.size());
}

std::string frame_text(std::string_view frame) {
  std::string fn = element(frame, "fn");
  if (fn.empty()) fn = element(frame, "ip");
  std::string where;
  if (const std::string file = element(frame, "file"); !file.empty()) {
    where = file;
    if (const std::string line = element(frame, "line"); !line.empty()) where += ":" + line;
  } else if (std::string obj = element(frame, "obj"); !obj.empty()) {
    where = obj.substr(obj.find_last_of('/') + 1);
  }
  return where.empty() ? fn : fn + " (" + where + ")";
}

}  // namespace

std::vector<MemoryError> parse_memcheck_xml(const std::string& xml, size_t max_frames) {
  std::vector<MemoryError> errors;
  const std::string_view all(xml);
  for (size_t pos = all.find("<error>"); pos != std::string_view::npos;
       pos = all.find("<error>", pos)) {
    const size_t end = all.find("</error>", pos);
    if (end == std::string_view::npos) break;  // still being written
    const std::string_view e = all.substr(pos, end - pos);
    MemoryError m;
    m.kind = element(e, "kind");
    m.description = element(e, "what");
    // Some kinds (leaks, overlapping copies in newer releases) carry their text in <xwhat>.
    if (m.description.empty()) m.description = element(raw_element(e, "xwhat"), "text");
    // The error's own stack is the first; an origin's or an allocation's come after it.
    std::string_view stack = raw_element(e, "stack");
    for (size_t f = stack.find("<frame>");
         f != std::string_view::npos && m.frames.size() < max_frames;
         f = stack.find("<frame>", f + 1)) {
      const size_t fe = stack.find("</frame>", f);
      if (fe == std::string_view::npos) break;
      m.frames.push_back(frame_text(stack.substr(f, fe - f)));
    }
    errors.push_back(std::move(m));
    pos = end;
  }
  return errors;
}

std::string memory_error_text(const MemoryError& m) {
  std::string s = m.kind + ": " + m.description;
  if (!m.frames.empty()) s += ", at " + m.frames.front();
  return s;
}

std::string worker_memory_error_line(const WorkerMemoryError& e) {
  return "WORKER MEMORY ERROR [" + std::string(worker_phase_name(e.phase)) + ", " +
         std::to_string(e.workers) + (e.workers == 1 ? " worker] " : " workers] ") +
         memory_error_text(e.error);
}

}  // namespace seqconf
