// Input sets (difffuzz/input_sets.h): another input set of a program builds the same model, so
// that it runs on the structure's prepared model; and a campaign with input sets finds what a
// campaign of single programs finds, deterministically for any number of threads.
#include <gtest/gtest.h>

#include <cstdlib>

#include "difffuzz/campaign.h"
#include "difffuzz/input_sets.h"
#include "reference/proto.h"
#include "runtimes/isolated.h"
#include "runtimes/registry.h"
#include "tests/difffuzz/same_campaign.h"

namespace seqconf::testing {
namespace {

using namespace difffuzz;

std::string inputs_bytes(const BuiltProgram& b) {
  std::string bytes;
  for (const Value& v : b.inputs) bytes += value_to_bytes(v, TensorEncoding::raw_data);
  return bytes;
}

TEST(InputSets, BuildTheSameModel) {
  const auto gen = program_gen();
  size_t checked = 0, other_values = 0;
  for (size_t i = 0; i < 400; ++i) {
    const Program p = campaign_program(gen, 5, i).value();
    if (!takes_input_sets(p)) continue;
    const BuiltProgram b = build(p);
    const std::string model = b.model->SerializeAsString();
    for (size_t j = 1; j <= 4; ++j) {
      const Program q =
          input_set_gen(p)(rc::Random(rc::Random::Key{5, i, j, 0}), static_cast<int>(i % 100))
              .value();
      const BuiltProgram c = build(q);
      ASSERT_EQ(c.model->SerializeAsString(), model) << describe(p) << "\n" << describe(q);
      ASSERT_EQ(c.input_names, b.input_names);
      ++checked;
      other_values += inputs_bytes(c) != inputs_bytes(b);
    }
  }
  EXPECT_GT(checked, 800u);
  // The input sets are other values, not copies (a program of SequenceEmpty and SequenceLength
  // has no value to change).
  EXPECT_GT(other_values, checked * 9 / 10);
}

// keep_valid (drawn for a structure the other side runs): its input sets run on the reference
// too, as far as the generator can tell; without it, a good share is rejected. Both counted
// on the same structures, judged by the reference itself.
TEST(InputSets, KeptValidTheReferenceRunsThem) {
  const auto gen = program_gen();
  auto reference = make_runtime("reference");
  size_t structures = 0, kept_total = 0, kept_run = 0, free_total = 0, free_run = 0;
  for (size_t i = 0; i < 600; ++i) {
    const Program p = campaign_program(gen, 9, i).value();
    if (!takes_input_sets(p)) continue;
    if (!run_on(*reference, build(p)).ok) continue;  // the structure's own values are rejected
    ++structures;
    for (size_t j = 1; j <= 4; ++j) {
      const rc::Random random(rc::Random::Key{9, i, j, 0});
      const Program kept = input_set_gen(p, true)(random, static_cast<int>(i % 100)).value();
      const Program free = input_set_gen(p, false)(random, static_cast<int>(i % 100)).value();
      ++kept_total;
      kept_run += run_on(*reference, build(kept)).ok;
      ++free_total;
      free_run += run_on(*reference, build(free)).ok;
    }
  }
  std::cout << structures << " valid structures: kept valid " << kept_run << "/" << kept_total
            << " run, drawn freely " << free_run << "/" << free_total << " run\n";
  EXPECT_GT(structures, 200u);
  EXPECT_GE(kept_run * 100, kept_total * 97);
  EXPECT_LT(free_run * 100, free_total * 90);
}

TEST(InputSets, InitializerProgramsTakeNone) {
  Program p;
  p.tensors_as = Placement::initializers;
  EXPECT_FALSE(takes_input_sets(p));
  p.tensors_as = Placement::loop_body;
  EXPECT_TRUE(takes_input_sets(p));
}

// A seeded defect that depends on values (a negative position read one off): with input sets the
// campaign runs more programs per structure, finds it, and gives the same findings, counts and
// fixtures with 1 and 2 threads.
TEST(InputSets, FindTheDefectAndDoNotDependOnThreads) {
  FuzzOptions o;
  o.seed = 3;
  o.iterations = 60;
  o.input_sets = 32;
  o.make_runtime = [] { return make_runtime("seeded=at.negative_off_by_one"); };
  auto one = o.make_runtime();
  o.jobs = 1;
  const FuzzResult a = run_campaign(*one, o);
  o.jobs = 2;
  const FuzzResult b = run_campaign(*one, o);
  EXPECT_EQ(a.structures, 60u);
  EXPECT_GT(a.programs, 2 * a.structures);
  ASSERT_FALSE(a.findings.empty());
  expect_same_results(a, b);
  bool from_an_input_set = false;
  for (const auto& f : a.findings) from_an_input_set |= f.input_set > 0;
  EXPECT_TRUE(from_an_input_set);
}

// An isolated runtime's models, run one input set at a time (PreparedModel::run_many's
// default) rather than a chunk in one request.
class OneSetAtATime : public Runtime {
 public:
  explicit OneSetAtATime(std::unique_ptr<Runtime> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  bool out_of_process() const override { return true; }
  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& path,
                                         const onnx::ModelProto& model, RunError* error) override {
    struct Model : PreparedModel {
      std::unique_ptr<PreparedModel> inner;
      RunResult run(const std::vector<Value>& inputs) override { return inner->run(inputs); }
    };
    auto pm = inner_->prepare(path, model, error);
    if (!pm) return nullptr;
    auto m = std::make_unique<Model>();
    m->inner = std::move(pm);
    return m;
  }

 private:
  std::unique_ptr<Runtime> inner_;
};

// A defect that kills its process (SequenceInsert into an empty sequence), in a worker: a chunk
// whose request dies is run again one set at a time, so the campaign's verdicts are those of
// running every input set alone.
TEST(InputSets, ACrashInAChunkIsTheCrashingSets) {
  FuzzOptions o;
  o.seed = 2;
  // Each crash starts a new worker, which costs about nine times as much under the sanitizers
  // (tools/sanitize.sh sets SEQCONF_SANITIZED).
  o.iterations = std::getenv("SEQCONF_SANITIZED") ? 12 : 40;
  o.input_sets = 8;
  const auto isolated = [] {
    return isolate_runtime(make_runtime("seeded=insert.crash_on_empty_sequence"));
  };
  auto chunked = isolated();
  OneSetAtATime alone(isolated());
  const FuzzResult a = run_campaign(*chunked, o);
  const FuzzResult b = run_campaign(alone, o);
  size_t crashes = 0;
  for (const auto& f : a.findings) crashes += f.kind == "crash" ? f.occurrences : 0;
  EXPECT_GT(crashes, 0u);
  EXPECT_GT(a.programs, a.structures);
  expect_same_results(a, b);
}

}  // namespace
}  // namespace seqconf::testing
