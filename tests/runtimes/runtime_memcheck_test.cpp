// seqconf run --memcheck (SuiteOptions::memcheck): isolated workers under valgrind memcheck. A
// runtime that reads heap memory it never initialised fails with memory_error, the error naming
// the function that read it; the reference has none; without memcheck nobody says
// memory_error. An error a worker makes while it starts, or while it drops a case's model, is
// the worker's (the report's worker_memory_errors), never a case's. Also the reader of
// memcheck's XML.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "runtimes/isolated.h"
#include "runtimes/memcheck.h"
#include "runtimes/reference_runtime.h"
#include "suite/suite.h"

namespace seqconf {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(SEQCONF_SOURCE_DIR) / "fixtures" / "corpus";

// Why a test that starts valgrind cannot run here, or empty.
std::string why_no_valgrind() {
  if (const char* s = std::getenv("SEQCONF_SANITIZED"); s && *s)
    return "SEQCONF_SANITIZED is set: valgrind cannot run a sanitized program";
  return memcheck_unavailable();
}

// Fills `bytes` from a new heap block that nothing has written, and counts the NaNs it copied
// (a kernel that canonicalises NaNs in what it copies branches the same way): the comparison
// depends on uninitialised memory. The block is in bounds; only its contents are undefined.
// A block of the same size is written and freed first: an allocator that hands out the freed
// block again (tcmalloc does, from its free list) gives memory whose old contents memcheck
// takes as initialised, unless memcheck replaces that allocator (--soname-synonyms).
float* volatile g_escaped = nullptr;
volatile int g_nans_seen = 0;
[[gnu::noinline]] void copy_uninitialised_floats(std::vector<std::byte>& bytes) {
  const size_t n = bytes.size() / sizeof(float);
  {
    std::unique_ptr<float[]> used(new float[n]);
    std::fill_n(used.get(), n, 1.0f);
    g_escaped = used.get();
  }
  std::unique_ptr<float[]> block(new float[n]);
  g_escaped = block.get();
  std::memcpy(bytes.data(), block.get(), n * sizeof(float));
  int nans = 0;
  for (size_t i = 0; i < n; ++i)
    if (std::isnan(block[i])) ++nans;
  g_nans_seen = nans;
}

// Each branches on a heap block that nothing has written: one UninitCondition, in its own frame.
volatile int g_branches = 0;
int* volatile g_escaped_ints = nullptr;
// Called once as a runtime's worker makes it: before any case.
[[gnu::noinline]] void misuse_memory_while_loading() {
  std::unique_ptr<int[]> block(new int[4]);
  g_escaped_ints = block.get();
  if (block[1] > 0) ++g_branches;
}
// Called as a runtime drops a prepared model: after a case's answer, before the next request.
[[gnu::noinline]] void misuse_memory_while_dropping() {
  std::unique_ptr<int[]> block(new int[4]);
  g_escaped_ints = block.get();
  if (block[2] > 0) ++g_branches;
}

// Where a runtime of these tests misuses memory (each a deliberate defect):
struct Misuse {
  bool outputs = false;   // copies a float output from uninitialised heap memory (each run)
  bool loading = false;   // as its worker makes it (misuse_memory_while_loading)
  bool dropping = false;  // while it drops a prepared model (misuse_memory_while_dropping)
  // "outputs,loading": the worker's argument.
  std::string argument() const {
    return std::string(outputs ? "outputs," : "") + (loading ? "loading," : "") +
           (dropping ? "dropping," : "");
  }
  static Misuse from(const std::string& argument) {
    return {argument.find("outputs,") != std::string::npos,
            argument.find("loading,") != std::string::npos,
            argument.find("dropping,") != std::string::npos};
  }
};

// The reference, with the misuses a Misuse names.
class MisusingRuntime : public Runtime {
 public:
  explicit MisusingRuntime(Misuse misuse) : misuse_(misuse) {}
  std::string name() const override { return "misusing memory (" + misuse_.argument() + ")"; }
  std::string version() const override { return "0"; }
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{"memcheck_test.misusing", misuse_.argument()};
  }
  std::unique_ptr<PreparedModel> prepare(const fs::path& path, const onnx::ModelProto& model,
                                         RunError* error) override {
    struct Model : PreparedModel {
      std::unique_ptr<PreparedModel> inner;
      Misuse misuse;
      ~Model() override {
        if (misuse.dropping) misuse_memory_while_dropping();
      }
      RunResult run(const std::vector<Value>& inputs) override {
        RunResult r = inner->run(inputs);
        if (misuse.outputs)
          for (Value& v : r.outputs)
            if (const Tensor* t = std::get_if<Tensor>(&v.v);
                t && t->dtype() == DataType::float32 && t->element_count() > 0) {
              std::vector<std::byte> bytes(t->byte_size());
              copy_uninitialised_floats(bytes);
              v = Tensor::from_bytes(DataType::float32, t->shape(), std::move(bytes));
            }
        return r;
      }
    };
    auto m = std::make_unique<Model>();
    m->misuse = misuse_;
    m->inner = reference_.prepare(path, model, error);
    if (!m->inner) return nullptr;
    return m;
  }

 private:
  Misuse misuse_;
  ReferenceRuntime reference_;
};

const WorkerKind kMisusingWorker("memcheck_test.misusing", [](const std::string& argument) {
  const Misuse misuse = Misuse::from(argument);
  // As the runtime is made in its worker (where ONNX Runtime's library is loaded), before any case.
  if (misuse.loading) misuse_memory_while_loading();
  return serve_runtime(std::make_shared<MisusingRuntime>(misuse));
});

// The reference, except that a float tensor output is replaced by one of the same shape copied
// from uninitialised heap memory.
class UninitialisedOutputRuntime : public MisusingRuntime {
 public:
  UninitialisedOutputRuntime() : MisusingRuntime(Misuse::from("outputs,")) {}
};

// Whether one of the frames names the function.
bool names(const MemoryError& m, const std::string& function) {
  for (const std::string& f : m.frames)
    if (f.find(function) != std::string::npos) return true;
  return false;
}

SuiteOptions corpus_run(std::vector<std::string> filters, bool memcheck) {
  SuiteOptions o;
  o.source = "corpus";
  o.corpus = kCorpus;
  o.filters = std::move(filters);
  o.quiet = true;
  o.isolate = true;
  o.memcheck = memcheck;
  return o;
}

// Two SequenceAt cases whose output is a float tensor of 1 and of more elements.
const std::vector<std::string> kFloatOutputCases = {
    "corpus/SequenceAt/position=0/ptype=int64/dtype=float/n=1/context=inputs",
    "corpus/SequenceAt/position=0/ptype=int64/dtype=float/n=5/context=inputs"};

// A case whose output is an int64 tensor, which the runtime leaves as the reference computes it.
// It runs after the float cases, on the worker started anew after the second one's error: the
// errors of the cases before it are theirs.
const char* const kInt64OutputCase =
    "corpus/SequenceAt/position=0/ptype=int64/dtype=int64/n=5/context=inputs";

TEST(Memcheck, UninitialisedHeapInAnOutputIsAMemoryErrorNamingTheFunction) {
  if (const std::string why = why_no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  UninitialisedOutputRuntime runtime;
  std::vector<std::string> filters = kFloatOutputCases;
  filters.push_back(kInt64OutputCase);
  const SuiteResult r = run_suite(runtime, corpus_run(filters, true));
  ASSERT_EQ(r.report.cases.size(), 3u);
  for (const auto& c : r.report.cases) {
    const Outcome& o = c.outcome;
    if (o.case_id == kInt64OutputCase) {
      EXPECT_EQ(o.status, Status::pass) << o.message;
      EXPECT_FALSE(o.memory_error.has_value()) << o.message;
      continue;
    }
    SCOPED_TRACE(o.case_id + ": " + o.message);
    EXPECT_EQ(o.status, Status::fail);
    EXPECT_EQ(o.reason, Reason::memory_error);
    ASSERT_TRUE(o.memory_error.has_value());
    // The first use of the block is the NaN test, a conditional jump.
    EXPECT_EQ(o.memory_error->kind, "UninitCondition");
    EXPECT_NE(o.memory_error->description.find("uninitialised"), std::string::npos);
    EXPECT_TRUE(names(*o.memory_error, "copy_uninitialised_floats"))
        << "no frame names copy_uninitialised_floats";
    EXPECT_NE(o.message.find("UninitCondition"), std::string::npos);
  }
  EXPECT_EQ(r.report.info.options.value("memcheck", false), true);
  EXPECT_TRUE(r.report.info.worker_memory_errors.empty());
}

// A runtime that misuses memory once while it is made, in its worker before any case: a start-up
// error of the worker, reported once, and no case has a memory error; the run exits 1 for it.
TEST(Memcheck, AnErrorWhileTheWorkerLoadsIsTheWorkersNotACases) {
  if (const std::string why = why_no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  MisusingRuntime runtime(Misuse::from("loading,"));
  std::ostringstream log;
  SuiteOptions o = corpus_run(kFloatOutputCases, true);
  o.quiet = false;
  o.log = &log;
  std::ostringstream notes;
  o.notes = &notes;
  const SuiteResult r = run_suite(runtime, o);
  ASSERT_EQ(r.report.cases.size(), 2u);
  for (const auto& c : r.report.cases) {
    EXPECT_EQ(c.outcome.status, Status::pass) << c.outcome.case_id << ": " << c.outcome.message;
    EXPECT_FALSE(c.outcome.memory_error.has_value()) << c.outcome.case_id;
  }
  ASSERT_EQ(r.report.info.worker_memory_errors.size(), 1u);
  const WorkerMemoryError& e = r.report.info.worker_memory_errors.front();
  EXPECT_EQ(e.phase, WorkerPhase::startup);
  EXPECT_EQ(e.workers, 1);
  EXPECT_EQ(e.error.kind, "UninitCondition");
  EXPECT_TRUE(names(e.error, "misuse_memory_while_loading")) << memory_error_text(e.error);
  EXPECT_EQ(r.exit_code, 1);
  // One console line says it, as the worker's.
  const std::string text = log.str();
  const size_t at = text.find("WORKER MEMORY ERROR [startup, 1 worker] UninitCondition");
  EXPECT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.find("WORKER MEMORY ERROR", at + 1), std::string::npos) << text;
}

// The same start-up error on every worker, the first started anew after each case with a memory
// error of its own: one entry counting the three workers; each float case has its own error,
// never the start-up one, and the int64 case none.
TEST(Memcheck, AStartUpErrorThatRecursIsReportedOnceAndOnNoCase) {
  if (const std::string why = why_no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  MisusingRuntime runtime(Misuse::from("outputs,loading,"));
  std::vector<std::string> filters = kFloatOutputCases;
  filters.push_back(kInt64OutputCase);
  const SuiteResult r = run_suite(runtime, corpus_run(filters, true));
  ASSERT_EQ(r.report.cases.size(), 3u);
  for (const auto& c : r.report.cases) {
    const Outcome& o = c.outcome;
    SCOPED_TRACE(o.case_id + ": " + o.message);
    if (o.case_id == kInt64OutputCase) {
      EXPECT_EQ(o.status, Status::pass);
      EXPECT_FALSE(o.memory_error.has_value());
      continue;
    }
    EXPECT_EQ(o.reason, Reason::memory_error);
    ASSERT_TRUE(o.memory_error.has_value());
    EXPECT_TRUE(names(*o.memory_error, "copy_uninitialised_floats"));
    EXPECT_FALSE(names(*o.memory_error, "misuse_memory_while_loading"));
  }
  ASSERT_EQ(r.report.info.worker_memory_errors.size(), 1u);
  const WorkerMemoryError& e = r.report.info.worker_memory_errors.front();
  EXPECT_EQ(e.phase, WorkerPhase::startup);
  // The cases run in the order of their ids: the two float cases, then the int64 one.
  EXPECT_EQ(e.workers, 3);
  EXPECT_TRUE(names(e.error, "misuse_memory_while_loading")) << memory_error_text(e.error);
}

// A runtime that misuses memory as it drops a case's model (a request without an answer): an
// error between cases, the worker's; the case after it has none.
TEST(Memcheck, AnErrorWhileDroppingAModelIsBetweenCases) {
  if (const std::string why = why_no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  MisusingRuntime runtime(Misuse::from("dropping,"));
  const SuiteResult r = run_suite(runtime, corpus_run(kFloatOutputCases, true));
  ASSERT_EQ(r.report.cases.size(), 2u);
  for (const auto& c : r.report.cases) {
    EXPECT_EQ(c.outcome.status, Status::pass) << c.outcome.case_id << ": " << c.outcome.message;
    EXPECT_FALSE(c.outcome.memory_error.has_value()) << c.outcome.case_id;
  }
  ASSERT_EQ(r.report.info.worker_memory_errors.size(), 1u);
  const WorkerMemoryError& e = r.report.info.worker_memory_errors.front();
  EXPECT_EQ(e.phase, WorkerPhase::between_cases);
  EXPECT_EQ(e.workers, 1);
  EXPECT_TRUE(names(e.error, "misuse_memory_while_dropping")) << memory_error_text(e.error);
}

TEST(Memcheck, WithoutMemcheckNoOutcomeIsAMemoryError) {
  UninitialisedOutputRuntime runtime;
  const SuiteResult r = run_suite(runtime, corpus_run(kFloatOutputCases, false));
  ASSERT_EQ(r.report.cases.size(), 2u);
  for (const auto& c : r.report.cases) {
    EXPECT_NE(c.outcome.reason, Reason::memory_error) << c.outcome.case_id;
    EXPECT_FALSE(c.outcome.memory_error.has_value()) << c.outcome.case_id;
  }
  EXPECT_FALSE(r.report.info.options.contains("memcheck"));
}

TEST(Memcheck, TheReferenceHasNoMemoryError) {
  if (const std::string why = why_no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  ReferenceRuntime reference;
  // SequenceAt with float and string elements, and SplitToSequence, in two graph contexts each.
  const SuiteResult r = run_suite(
      reference, corpus_run({"corpus/SequenceAt/position=0/ptype=int64/dtype=float/n=5/*",
                             "corpus/SequenceAt/position=0/ptype=int64/dtype=string/n=5/*",
                             "corpus/SplitToSequence/*/dtype=float/*context=inputs"},
                            true));
  ASSERT_GE(r.report.cases.size(), 6u);
  for (const auto& c : r.report.cases) {
    EXPECT_FALSE(c.outcome.memory_error.has_value())
        << c.outcome.case_id << ": " << c.outcome.message;
    EXPECT_EQ(c.outcome.status, Status::pass) << c.outcome.case_id << ": " << c.outcome.message;
  }
  // Nor at start-up or between cases.
  for (const WorkerMemoryError& e : r.report.info.worker_memory_errors)
    ADD_FAILURE() << worker_memory_error_line(e);
  EXPECT_EQ(r.exit_code, 0);
}

// memcheck's XML as valgrind 3.19 writes it (abridged): a complete error, then one being written.
TEST(Memcheck, ReadsTheCompleteErrorsOfItsXml) {
  const std::string xml = R"(<?xml version="1.0"?>
<valgrindoutput>
<error>
  <unique>0x0</unique>
  <tid>1</tid>
  <kind>InvalidRead</kind>
  <what>Invalid read of size 4</what>
  <stack>
    <frame><ip>0x10</ip><obj>/usr/lib/libx.so.1</obj><fn>gather&lt;std::string&gt;</fn></frame>
    <frame><ip>0x20</ip><obj>/bin/p</obj><fn>main</fn><dir>/src</dir><file>p.cpp</file><line>7</line></frame>
    <frame><ip>0x30</ip><obj>/usr/lib/libc.so.6</obj></frame>
  </stack>
  <auxwhat>Address 0x5 is 0 bytes after a block of size 4 alloc'd</auxwhat>
  <stack>
    <frame><ip>0x40</ip><fn>malloc</fn></frame>
  </stack>
</error>
<error>
  <unique>0x1</unique>
  <kind>UninitCondition</kind>
  <what>Conditional jump)";
  const std::vector<MemoryError> errors = parse_memcheck_xml(xml);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, "InvalidRead");
  EXPECT_EQ(errors[0].description, "Invalid read of size 4");
  // The error's own stack only (not the allocation's); file:line when known, else the library.
  EXPECT_EQ(errors[0].frames, (std::vector<std::string>{"gather<std::string> (libx.so.1)",
                                                        "main (p.cpp:7)", "0x30 (libc.so.6)"}));
  EXPECT_EQ(memory_error_text(errors[0]),
            "InvalidRead: Invalid read of size 4, at gather<std::string> (libx.so.1)");
}

}  // namespace
}  // namespace seqconf
