// run_suite / suite_main on the reference runtime, and where an installed library finds its
// corpus (package_data_dir). Counts are derived from the corpus folders, not from the runner.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cases/data_dir.h"
#include "reference/error.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "suite/suite.h"

namespace seqconf {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = SEQCONF_TEST_CORPUS;

// Case folders of one operator, by the folder prefix the corpus writer uses.
size_t corpus_folders(const std::string& prefix) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(kCorpus))
    if (entry.path().filename().string().rfind(prefix, 0) == 0 &&
        fs::exists(entry.path() / "case.json"))
      ++n;
  return n;
}

// A folder under this process's scratch root; the root is removed when the program ends.
fs::path scratch(const std::string& name) {
  struct Root {
    fs::path path =
        fs::temp_directory_path() / ("seqconf_suite_test_" + std::to_string(::getpid()));
    ~Root() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Root root;
  fs::path dir = root.path / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

SuiteOptions sequence_at_corpus() {
  SuiteOptions o;
  o.source = "corpus";
  o.corpus = kCorpus;
  o.filters = {"corpus/SequenceAt/*"};
  o.quiet = true;
  return o;
}

TEST(RunSuite, ReferenceRunsEveryCaseOfTheSelectionAndPassesThem) {
  const size_t expected = corpus_folders("test_sequence_at__");
  ASSERT_GT(expected, 0u);
  auto reference = make_runtime("reference");
  const SuiteResult r = run_suite(*reference, sequence_at_corpus());
  EXPECT_EQ(r.report.summary.total, static_cast<int>(expected));
  EXPECT_EQ(r.report.summary.passed, static_cast<int>(expected));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.report.info.runtime_name, "reference");
}

TEST(RunSuite, WorkersGiveTheSameCasesAsOne) {
  SuiteOptions o = sequence_at_corpus();
  o.jobs = 2;
  int made = 0;
  const SuiteResult r = run_suite(
      [&made] {
        ++made;
        return make_runtime("reference");
      },
      o);
  EXPECT_EQ(made, 2);  // one runtime per worker
  EXPECT_EQ(r.report.summary.total, static_cast<int>(corpus_folders("test_sequence_at__")));
  EXPECT_EQ(r.report.summary.passed, r.report.summary.total);
}

TEST(RunSuite, AnExpectedFailureThatPassesIsUnexpectedAndExitsOne) {
  const fs::path dir = scratch("unexpected_pass");
  std::ofstream(dir / "expectations.json")
      << R"({"runtime": "reference", "entries": [{"id": "corpus/SequenceAt/*", "status": "fail",)"
      << R"( "reason": "test: every SequenceAt case is expected to fail"}]})";
  SuiteOptions o = sequence_at_corpus();
  o.expectations = dir / "expectations.json";
  auto reference = make_runtime("reference");
  const SuiteResult r = run_suite(*reference, o);
  EXPECT_EQ(r.report.summary.unexpected_passes, r.report.summary.total);
  EXPECT_EQ(r.exit_code, 1);
}

TEST(RunSuite, WritesTheReportsItIsGiven) {
  const fs::path dir = scratch("reports");
  SuiteOptions o = sequence_at_corpus();
  o.json_report = dir / "report.json";
  o.junit_report = dir / "junit.xml";
  o.html_report = dir / "report.html";
  auto reference = make_runtime("reference");
  const SuiteResult r = run_suite(*reference, o);
  const auto j = nlohmann::json::parse(read(o.json_report));
  EXPECT_EQ(j.at("cases").size(), corpus_folders("test_sequence_at__"));
  EXPECT_EQ(j.at("options").at("corpus"), kCorpus.string());
  EXPECT_NE(read(o.junit_report).find("<testsuite"), std::string::npos);
  EXPECT_NE(read(o.html_report).find("<html"), std::string::npos);
}

// A runtime that prepares every model and aborts the process on every run.
class AbortingRuntime : public Runtime {
 public:
  std::string name() const override { return "aborting"; }
  std::string version() const override { return "0"; }
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{"suite_test.aborting", ""};
  }
  std::unique_ptr<PreparedModel> prepare(const fs::path&, const onnx::ModelProto&,
                                         RunError*) override {
    struct Model : PreparedModel {
      RunResult run(const std::vector<Value>&) override { std::abort(); }
    };
    return std::make_unique<Model>();
  }
};

const WorkerKind kAbortingWorker("suite_test.aborting", [](const std::string&) {
  return serve_runtime(std::make_shared<AbortingRuntime>());
});

TEST(RunSuite, IsolatedCrashesAreCrashOutcomesAndTheRunGoesOn) {
  const std::string prefix = "test_sequence_at__position-0__ptype-int64__dtype-float__";
  const size_t expected = corpus_folders(prefix);
  ASSERT_GT(expected, 0u);
  SuiteOptions o = sequence_at_corpus();
  o.filters = {"corpus/SequenceAt/position=0/ptype=int64/dtype=float/*"};
  o.isolate = true;
  AbortingRuntime aborting;
  const SuiteResult r = run_suite(aborting, o);
  EXPECT_EQ(r.report.summary.total, static_cast<int>(expected));
  EXPECT_EQ(r.report.summary.crashed, static_cast<int>(expected));
  EXPECT_EQ(r.exit_code, 1);
}

TEST(RunSuite, BadOptionsThrowErrorsWithCodes) {
  auto reference = make_runtime("reference");
  SuiteOptions o = sequence_at_corpus();
  o.source = "somewhere";
  try {
    run_suite(*reference, o);
    FAIL() << "unknown source accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
  o = sequence_at_corpus();
  o.filters = {"corpus/NoSuchOperator/*"};
  try {
    run_suite(*reference, o);
    FAIL() << "empty selection accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
  o = sequence_at_corpus();
  o.expectations = "/nonexistent/expectations.json";
  try {
    run_suite(*reference, o);
    FAIL() << "missing expectations file accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io_error);
  }
}

TEST(SuiteMain, ExitCodes) {
  auto factory = [] { return make_runtime("reference"); };
  const std::string corpus = kCorpus.string();
  std::vector<std::string> ok = {"prog",
                                 "--source",
                                 "corpus",
                                 "--corpus",
                                 corpus,
                                 "--filter",
                                 "corpus/SequenceAt/position=0/*"};
  std::vector<std::string> bad_option = {"prog", "--no-such-option"};
  std::vector<std::string> bad_root = {"prog", "--source", "corpus", "--corpus", "/nonexistent"};
  auto call = [&](std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return suite_main(static_cast<int>(argv.size()), argv.data(), factory);
  };
  EXPECT_EQ(call(ok), 0);
  EXPECT_EQ(call(bad_option), 2);
  EXPECT_EQ(call(bad_root), 2);
}

TEST(PackageDataDir, DefaultCorpusFollowsTheRegisteredFolderUnlessTheEnvironmentNamesOne) {
  ::unsetenv("SEQCONF_CORPUS");
  const fs::path dir = scratch("share");
  fs::create_directories(dir / "corpus");
  ASSERT_TRUE(set_package_data_dir(dir));
  EXPECT_EQ(package_data_dir(), dir);
  EXPECT_EQ(default_corpus_root(), dir / "corpus");
  ::setenv("SEQCONF_CORPUS", "/some/corpus", 1);
  EXPECT_EQ(default_corpus_root(), fs::path("/some/corpus"));
  ::unsetenv("SEQCONF_CORPUS");
  set_package_data_dir({});
  // A test program of the build tree is not installed: no share/seqconf next to it.
  EXPECT_EQ(package_data_dir(), fs::path());
  EXPECT_EQ(default_corpus_root(), kCorpus);
}

}  // namespace
}  // namespace seqconf
