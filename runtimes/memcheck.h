// Isolated workers under valgrind memcheck (IsolationOptions::memcheck, seqconf run --memcheck):
// the command that starts a worker under it, and the reader of the errors it writes as XML.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtimes/memory_error.h"

namespace seqconf {

// How much longer than its time limit a request may take under memcheck: valgrind runs a
// program 10 to 50 times as slowly, and a worker loads its runtime under it too.
inline constexpr int kMemcheckSlowdown = 20;

// valgrind's path: $SEQCONF_VALGRIND when set, else valgrind on $PATH; empty when there is none.
std::string valgrind_program();

// Why workers cannot run under memcheck here, or empty when they can: valgrind is not installed,
// or this program was built without valgrind's header (valgrind/memcheck.h, which comes with
// it in Debian's package valgrind), so that its workers cannot count memcheck's errors.
std::string memcheck_unavailable();

// The number of errors memcheck has counted in this process so far (VALGRIND_COUNT_ERRORS),
// repetitions of one error included; 0 when the process does not run under memcheck.
uint64_t memcheck_errors_counted();

// The suppressions of runtimes/memcheck.supp (known noise, each with its reason), compiled in.
const char* memcheck_suppressions();

// The command line before the worker's own arguments: valgrind running memcheck with the
// suppressions in suppressions_file, which writes its errors as XML to xml_file. The CLI allocates
// with tcmalloc: its malloc and free are replaced as glibc's are (--soname-synonyms), so memcheck
// knows which heap memory is allocated and which of it is initialised.
std::vector<std::string> memcheck_command(const std::string& valgrind, const std::string& xml_file,
                                          const std::string& suppressions_file);

// The complete <error> elements of memcheck's XML output (--xml=yes), in the order written; an
// element that valgrind is still writing is left out. At most max_frames frames each.
std::vector<MemoryError> parse_memcheck_xml(const std::string& xml, size_t max_frames = 8);

// "UninitCondition: Conditional jump or move depends on uninitialised value(s), at f (a.cpp:3)"
std::string memory_error_text(const MemoryError& m);

// A console line for an error a worker made outside any case: "WORKER MEMORY ERROR [startup, 3
// workers] " followed by memory_error_text.
std::string worker_memory_error_line(const WorkerMemoryError& e);

}  // namespace seqconf
