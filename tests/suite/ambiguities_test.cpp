// seqconf ambiguities' measurement (suite/ambiguities.h) on the corpus, ONNX's fixtures and the
// exported models: every open question's cases split the two policies, with both run; the other
// questions' cases do not; and an implementation's row is what it did, measured: a runtime that
// takes every strict reading answers "strict", and one seeded with ONNX Runtime's reading of
// keepdims answers that reading on the exported unbind models and departs on the corpus's.
#include <gtest/gtest.h>

#include "reference/open_questions.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/seeded/seeded.h"
#include "suite/ambiguities.h"

namespace seqconf::ambiguities_test {
namespace {

const std::filesystem::path kCorpus = SEQCONF_TEST_CORPUS;
const std::filesystem::path kExported =
    std::filesystem::path(SEQCONF_SOURCE_DIR) / "fixtures" / "exported";

AmbiguityOptions options(std::vector<std::string> questions = {}) {
  AmbiguityOptions o;
  o.corpus = kCorpus;
  o.exported = kExported;
  o.questions = std::move(questions);
  return o;
}

const reports::AmbiguityEntry& entry(const reports::AmbiguitiesReport& r, const std::string& id) {
  for (const auto& e : r.entries)
    if (e.question.id == id) return e;
  throw std::runtime_error("no entry " + id);
}

// The readings one implementation gave on an entry's cases, by case id.
std::map<std::string, std::string> row(const reports::AmbiguityEntry& e, const std::string& impl) {
  std::map<std::string, std::string> out;
  for (const auto& a : e.answers)
    if (a.implementation == impl) out[a.case_id] = a.reading;
  return out;
}

TEST(Ambiguities, OpenQuestionsCasesSplitThePoliciesAndTheOthersDoNot) {
  const reports::AmbiguitiesReport r = measure_ambiguities({}, options());
  ASSERT_EQ(r.entries.size(), open_questions().size());
  for (const auto& e : r.entries) {
    SCOPED_TRACE(e.question.id);
    ASSERT_FALSE(e.cases.empty());
    const auto lenient = row(e, "reference-lenient");
    const auto strict = row(e, "reference-strict");
    for (const auto& c : e.cases) {
      SCOPED_TRACE(c.id);
      if (e.question.split_by_policy()) {
        // The oracle's expectations differ between the policies (ONNX's own tests carry one
        // expectation, their outputs, which is the lenient reading's)...
        if (c.source != "onnx-backend") {
          EXPECT_TRUE(c.splits) << c.lenient << " / " << c.strict;
        }
        // ...and the reference under each policy meets its own policy's only.
        EXPECT_EQ(lenient.at(c.id), "lenient");
        EXPECT_EQ(strict.at(c.id), "strict");
      } else {
        EXPECT_FALSE(c.splits);
        EXPECT_EQ(lenient.at(c.id), "spec");
        EXPECT_EQ(strict.at(c.id), "spec");
      }
    }
    // The lenient reference records the question's ambiguity on some case of an open question
    // (the id is the one Context::note uses), never on another question's.
    bool recorded = false;
    for (const auto& a : e.answers) recorded = recorded || a.recorded;
    EXPECT_EQ(recorded, e.question.split_by_policy());
  }
}

TEST(Ambiguities, ARuntimesRowIsWhatItDid) {
  const auto keepdims = seeded::defect("split.keepdims_with_scalar_split").kernel;
  const std::vector<AmbiguityRuntime> runtimes = {
      {"strict-runtime", [] { return std::make_unique<ReferenceRuntime>(Policy::strict); }},
      {"keepdims-runtime", [keepdims] {
         return std::make_unique<ReferenceRuntime>(
             Policy::lenient, std::make_shared<interp::KernelOverride>(keepdims));
       }}};
  const reports::AmbiguitiesReport r = measure_ambiguities(
      runtimes, options({"position_shape_1", "split_zero_entry", "split_keepdims_with_split"}));
  // A runtime that takes every strict reading.
  for (const std::string id : {"position_shape_1", "split_zero_entry"}) {
    const auto& e = entry(r, id);
    for (const auto& [c, reading] : row(e, "strict-runtime")) EXPECT_EQ(reading, "strict") << c;
    for (const auto& [c, reading] : row(e, "keepdims-runtime")) EXPECT_EQ(reading, "lenient") << c;
  }
  // ONNX Runtime's reading of keepdims, seeded: the exported unbind models' programs compute it,
  // so the runtime meets the programs' results there and departs from the sentence on the
  // corpus's cases.
  const auto& k = entry(r, "split_keepdims_with_split");
  size_t exported = 0;
  for (const auto& c : k.cases) {
    SCOPED_TRACE(c.id);
    const auto seeded_row = row(k, "keepdims-runtime");
    EXPECT_EQ(row(k, "strict-runtime").at(c.id), "spec");
    if (c.source == "exported") {
      ++exported;
      EXPECT_EQ(seeded_row.at(c.id), "scalar_split_drops_axis");
      EXPECT_EQ(row(k, "framework").at(c.id), "scalar_split_drops_axis");
    } else {
      EXPECT_EQ(seeded_row.at(c.id), "neither");
    }
  }
  EXPECT_GE(exported, 5u);
}

}  // namespace
}  // namespace seqconf::ambiguities_test
