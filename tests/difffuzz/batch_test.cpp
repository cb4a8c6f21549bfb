// Batched evaluation (difffuzz/batch.h):
//  - a packed model computes each program's outputs exactly as the program's own model does,
//    for programs in every graph context (If branches read outer-scope names);
//  - campaigns give the same verdicts, findings, shrink evaluations and fixture files for any
//    batch size and any number of threads as the campaign that runs one program per model, with a
//    seeded defect that gives wrong values and with one that crashes its process inside a batch;
//  - batches do serve most programs (where few crash), and a crashing batch is split;
//  - the campaign's threads run under the caller's size limit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "difffuzz/batch.h"
#include "difffuzz/campaign.h"
#include "difffuzz/parallel.h"
#include "harness/compare.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "tests/difffuzz/same_campaign.h"

namespace seqconf::testing {
namespace {

namespace fs = std::filesystem;
using namespace difffuzz;

// Programs of the campaign with seed 5, drawn as run_campaign draws them.
std::vector<Program> campaign_programs(size_t count) {
  const auto gen = program_gen(8);
  std::vector<Program> out;
  for (size_t i = 0; i < count; ++i)
    out.push_back(gen(rc::Random(rc::Random::Key{5, i, 0, 0}), static_cast<int>(i % 100)).value());
  return out;
}

TEST(Batch, PackedProgramsGiveEachProgramsOwnOutputs) {
  auto reference = make_runtime("reference");
  std::vector<BuiltProgram> built;
  std::vector<RunResult> alone;
  std::set<Placement> contexts;
  for (const Program& p : campaign_programs(1000)) {
    BuiltProgram b = build(p);
    RunResult r = run_on(*reference, b);
    if (!r.ok) continue;
    contexts.insert(p.tensors_as);
    built.push_back(std::move(b));
    alone.push_back(std::move(r));
    if (built.size() >= 40 && contexts.size() == 4) break;
  }
  ASSERT_GE(built.size(), 40u);
  // Programs of every context are in the batch, If branches and Loop bodies among them.
  EXPECT_EQ(contexts.size(), 4u);
  std::vector<const BuiltProgram*> ptrs;
  for (const auto& b : built) ptrs.push_back(&b);
  const PackedPrograms packed = pack(ptrs);
  ASSERT_EQ(packed.output_offset.size(), built.size() + 1);
  const RunResult together = run_on(*reference, packed.built);
  ASSERT_TRUE(together.ok) << together.error.message;
  ASSERT_EQ(together.outputs.size(), packed.output_offset.back());
  for (size_t k = 0; k < built.size(); ++k) {
    ASSERT_EQ(packed.output_offset[k + 1] - packed.output_offset[k], alone[k].outputs.size());
    for (size_t j = 0; j < alone[k].outputs.size(); ++j)
      EXPECT_TRUE(compare_value(alone[k].outputs[j], together.outputs[packed.output_offset[k] + j],
                                ComparisonRule{}, "")
                      .ok)
          << "program " << k << " output " << j;
  }
}

std::map<std::string, std::string> folder_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      files[fs::relative(e.path(), dir).string()] = bytes.str();
    }
  return files;
}

struct Campaign {
  FuzzResult result;
  std::map<std::string, std::string> fixtures;
};

Campaign run(const std::string& spec, uint64_t seed, size_t iterations, size_t batch, size_t jobs) {
  // One folder for every campaign of a runtime: the fixtures name it in their reproduce command.
  // (ctest runs the tests of different runtimes at the same time.)
  const fs::path out = fs::temp_directory_path() / ("seqconf-batch-" + spec);
  fs::remove_all(out);
  fs::create_directories(out);
  FuzzOptions o;
  o.seed = seed;
  o.iterations = iterations;
  o.batch = batch;
  o.jobs = jobs;
  o.out = out;
  o.runtime_spec = spec;
  // As seqconf fuzz makes it: a seeded defect runs in an isolated worker.
  o.make_runtime = [spec] { return isolate_unless_told(make_runtime(spec), std::nullopt); };
  auto runtime = o.make_runtime();
  Campaign c{run_campaign(*runtime, o), {}};
  c.fixtures = folder_files(out);
  return c;
}

// The campaign with every program in a model of its own against batched ones; `saves`: most
// programs both sides run alike are served by batches, in fewer sessions.
void expect_same_campaigns(const std::string& spec, uint64_t seed, size_t iterations, bool saves) {
  const Campaign alone = run(spec, seed, iterations, 1, 1);
  EXPECT_EQ(alone.result.batches, 0u);
  EXPECT_EQ(alone.result.sessions, iterations);
  ASSERT_FALSE(alone.result.findings.empty());
  for (const auto& [batch, jobs] :
       std::vector<std::pair<size_t, size_t>>{{8, 1}, {32, 2}, {5, 3}}) {
    SCOPED_TRACE("batch " + std::to_string(batch) + ", jobs " + std::to_string(jobs));
    const Campaign c = run(spec, seed, iterations, batch, jobs);
    const FuzzResult& a = alone.result;
    const FuzzResult& b = c.result;
    expect_same_results(a, b);
    // The shrunk fixtures are the same files, byte for byte.
    ASSERT_EQ(c.fixtures.size(), alone.fixtures.size());
    for (const auto& [path, bytes] : alone.fixtures) {
      const auto it = c.fixtures.find(path);
      ASSERT_NE(it, c.fixtures.end()) << path;
      EXPECT_TRUE(it->second == bytes) << path << " differs";
    }
    EXPECT_GT(b.batches, 0u);
    if (saves) {
      EXPECT_GE(b.batched_programs * 10, a.agree_outputs * 8)
          << b.batched_programs << " of " << a.agree_outputs;
      EXPECT_LT(b.sessions, a.sessions);
    }
  }
}

TEST(Batch, WrongValuesAreFoundAsWithoutBatches) {
  // A negative SequenceInsert position off by one: the batch gives different values for the
  // programs concerned, which are then judged alone.
  expect_same_campaigns("seeded=insert.negative_inserts_after", 11, 300, true);
}

TEST(Batch, ACrashInABatchIsFoundAsWithoutBatches) {
  // Inserting into an empty sequence kills the (isolated) worker: a batch holding such a
  // program crashes and is split down to the program. Each crash starts a new worker, which
  // under the sanitizers (tools/sanitize.sh sets SEQCONF_SANITIZED) costs about nine times as
  // much (and each crash is shrunk, and confirmed on a new worker): the campaigns are shorter
  // there (60 programs took 160 to 203 s under ASan).
  const size_t programs = std::getenv("SEQCONF_SANITIZED") ? 30 : 300;
  expect_same_campaigns("seeded=insert.crash_on_empty_sequence", 2, programs, false);
  const Campaign c = run("seeded=insert.crash_on_empty_sequence", 2, programs, 32, 1);
  EXPECT_GT(c.result.batch_splits, 0u);
  bool crash = false;
  for (const auto& f : c.result.findings) crash = crash || f.kind == "crash";
  EXPECT_TRUE(crash);
}

TEST(Batch, TheThreadsRunUnderTheCallersSizeLimit) {
  // The limit belongs to a thread (reference/limits.h): a campaign's threads take the caller's,
  // as fuzz_diff's and seqconf run's limits must reach its evaluations.
  const TensorLimit limit(4096);
  std::vector<size_t> seen(6, 0);
  for_each_parallel(3, seen.size(), [&](size_t, size_t k) { seen[k] = max_tensor_bytes(); });
  for (size_t bytes : seen) EXPECT_EQ(bytes, 4096u);
  size_t in_thread = 0;
  thread_with_limit([&] { in_thread = max_tensor_bytes(); }).join();
  EXPECT_EQ(in_thread, 4096u);
}

}  // namespace
}  // namespace seqconf::testing
