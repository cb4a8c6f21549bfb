// Crash findings of differential fuzzing (ctest label `fuzz`): a crash names no node, so a
// program that crashes is placed (the last step of its shortest prefix that still crashes)
// before it is counted. Two crash defects in different operators are two departures, also when
// their programs end with the same operator, and a finding's program is always a placed one.
#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <set>

#include "difffuzz/campaign.h"
#include "difffuzz/findings.h"
#include "difffuzz/shrink.h"
#include "runtimes/isolated.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/registry.h"
#include "runtimes/seeded/seeded.h"
#include "tests/difffuzz/fuzz_dirs.h"

namespace seqconf::testing {
namespace {

using difffuzz::Evaluation;
using difffuzz::FuzzOptions;
using difffuzz::FuzzResult;
using difffuzz::Program;
using difffuzz::SourceKind;
using difffuzz::Step;
using difffuzz::StepKind;

// The reference with two crash defects: the seeded insert.crash_on_empty_sequence, and
// SequenceErase crashing when it erases the only tensor of a sequence (a kernel that frees the
// sequence's storage with its last element).
class TwoCrashes : public ReferenceRuntime {
 public:
  TwoCrashes() : ReferenceRuntime(Policy::lenient, kernel()) {}
  std::string name() const override { return "two crash defects"; }
  bool isolated_by_default() const override { return true; }
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{"crash_findings_test.two_crashes", ""};
  }

 private:
  static std::shared_ptr<const interp::KernelOverride> kernel() {
    const interp::KernelOverride insert = seeded::defect("insert.crash_on_empty_sequence").kernel;
    return std::make_shared<const interp::KernelOverride>(interp::KernelOverride{
        [insert](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
          if (seeded::is_on_sequence(c, "SequenceErase") && seeded::sequence_length(c) == 1)
            std::raise(SIGSEGV);
          return insert.run(c);
        }});
  }
};

const WorkerKind kTwoCrashesWorker("crash_findings_test.two_crashes", [](const std::string&) {
  return serve_runtime(std::make_shared<TwoCrashes>());
});

std::unique_ptr<Runtime> two_crashes() { return isolate_runtime(std::make_unique<TwoCrashes>()); }

Tensor one_float(float v) { return Tensor::from_values<DataType::float32>({1}, {v}); }

Step insert_step(float v) {
  Step s;
  s.kind = StepKind::insert;
  s.tensor = one_float(v);
  return s;
}

Step erase_step() {
  Step s;
  s.kind = StepKind::erase;
  return s;
}

Step at_front_step() {
  Step s;
  s.kind = StepKind::at;
  s.position = Tensor::from_values<DataType::int64>({}, {0});
  return s;
}

Program made_program(SourceKind source, std::vector<Tensor> tensors, std::vector<Step> steps) {
  Program p;
  p.source = source;
  p.tensors = std::move(tensors);
  p.steps = std::move(steps);
  return p;
}

// The findings of these programs, added in order to one FindingBook as a campaign adds them.
FuzzResult add_all(const std::vector<Program>& programs, FuzzOptions& o, Runtime& reference,
                   Runtime& rt) {
  FuzzResult r;
  difffuzz::Finder finder{{&reference}, {&rt}, o, r, difffuzz::kReferenceOracle};
  difffuzz::FindingBook book(o, r, finder, reference, rt, std::string(difffuzz::kReferenceOracle),
                             [] { return 0.0; });
  for (size_t i = 0; i < programs.size(); ++i) {
    const Program& p = programs[i];
    const Evaluation e = difffuzz::evaluate(p, reference, rt);
    // Each crashes, and as found each blames its last node, SequenceAt, with the same clause:
    // the departures as found are one.
    EXPECT_EQ(e.kind, "crash") << difffuzz::describe(p);
    EXPECT_EQ(e.op, "SequenceAt") << difffuzz::describe(p);
    ++r.disagreements;
    book.add(
        i, 0, [p] { return rc::shrinkable::just(p); }, p, e);
  }
  return r;
}

// Crashes in SequenceInsert (into SequenceEmpty's sequence) and in SequenceErase (of the only
// tensor), each in programs that go on to insert and end with SequenceAt of position 0.
const std::vector<Program>& crashes_ending_in_at() {
  static const std::vector<Program> programs = {
      made_program(SourceKind::empty, {}, {insert_step(1), at_front_step()}),
      made_program(SourceKind::construct, {one_float(1)},
                   {erase_step(), insert_step(2), at_front_step()}),
      made_program(SourceKind::input, {one_float(1)},
                   {erase_step(), insert_step(2), at_front_step()}),
  };
  return programs;
}

std::map<std::string, size_t> occurrences_by_op(const FuzzResult& r) {
  std::map<std::string, size_t> by_op;
  for (const auto& f : r.findings) by_op[f.op] += f.occurrences;
  return by_op;
}

TEST(CrashFindings, CrashesEndingAlikeAreCountedWhereTheyHappen) {
  auto reference = make_runtime("reference");
  const auto rt = two_crashes();
  FuzzOptions o;
  o.out = fresh_fuzz_dir("crash-findings-alike");
  const FuzzResult r = add_all(crashes_ending_in_at(), o, *reference, *rt);
  for (const auto& f : r.findings)
    std::cout << f.id << " (" << f.occurrences << " programs): " << f.program << "\n";
  // The first program crashes in SequenceInsert, the other two in SequenceErase.
  const std::map<std::string, size_t> expected = {{"SequenceErase", 2}, {"SequenceInsert", 1}};
  EXPECT_EQ(occurrences_by_op(r), expected);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.shrinks, 2u);
  EXPECT_EQ(r.unshrunk_departures, 0u);
  // Shrunk to SequenceEmpty and SequenceInsert; SequenceErase's to SequenceConstruct and
  // SequenceErase, then replaced by the third program's crashing prefix, SequenceErase of an
  // input sequence, which is smaller.
  EXPECT_EQ(r.findings[0].nodes, 2u) << r.findings[0].program;
  EXPECT_EQ(r.findings[1].nodes, 1u) << r.findings[1].program;
  EXPECT_EQ(r.findings[1].first_iteration, 1u);
  EXPECT_EQ(fixture_cases(o.out).size(), 2u);
}

// Kept as found (the expectations list it), a crash finding's program is its crashing prefix,
// and a smaller crash in the same operator replaces it with its own crashing prefix.
TEST(CrashFindings, AFindingKeptAsFoundIsPlaced) {
  auto reference = make_runtime("reference");
  const auto rt = two_crashes();
  FuzzOptions o;
  o.out = fresh_fuzz_dir("crash-findings-kept");
  o.listed = [](const difffuzz::FuzzFinding&) { return true; };
  const FuzzResult r = add_all(crashes_ending_in_at(), o, *reference, *rt);
  for (const auto& f : r.findings)
    std::cout << f.id << " (" << f.occurrences << " programs, " << f.nodes
              << " nodes): " << f.program << "\n";
  const std::map<std::string, size_t> expected = {{"SequenceErase", 2}, {"SequenceInsert", 1}};
  EXPECT_EQ(occurrences_by_op(r), expected);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.shrinks, 0u);
  EXPECT_EQ(r.unshrunk_departures, 2u);
  // SequenceEmpty and SequenceInsert: the first program's crashing prefix. The second's,
  // SequenceConstruct and SequenceErase, is replaced by the third's, SequenceErase of an input
  // sequence.
  EXPECT_EQ(r.findings[0].nodes, 2u) << r.findings[0].program;
  EXPECT_EQ(r.findings[1].nodes, 1u) << r.findings[1].program;
  EXPECT_EQ(r.findings[1].first_iteration, 1u);
  EXPECT_EQ(fixture_cases(o.out).size(), 2u);
}

// As `seqconf fuzz` runs by default (1000 programs, 8 input sets), with both defects at once.
TEST(CrashFindings, TwoCrashDefectsAreTwoDepartures) {
  const auto rt = two_crashes();
  FuzzOptions o;
  o.seed = 1;
  o.iterations = 1000;
  o.input_sets = difffuzz::kDefaultInputSets;
  o.out = fresh_fuzz_dir("crash-findings-campaign");
  const FuzzResult r = difffuzz::run_campaign(*rt, o);
  std::set<std::string> ops;
  size_t occurrences = 0;
  for (const auto& f : r.findings) {
    std::cout << f.id << " (" << f.occurrences << " programs, " << f.nodes
              << " nodes): " << f.program << "\n";
    EXPECT_EQ(f.kind, "crash") << f.id;
    EXPECT_LE(f.nodes, 2u) << f.program;
    ops.insert(f.op);
    occurrences += f.occurrences;
  }
  EXPECT_EQ(ops, (std::set<std::string>{"SequenceErase", "SequenceInsert"}));
  EXPECT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(occurrences, r.disagreements);
  EXPECT_EQ(fixture_cases(o.out).size(), r.findings.size());
}

}  // namespace
}  // namespace seqconf::testing
