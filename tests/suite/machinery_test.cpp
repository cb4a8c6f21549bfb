// Departures of the graph machinery on any runtime: a corpus case that departs in a context while
// its operator passes as a bare node on the same values (its context=inputs case) is the
// machinery's departure, one per machinery, never the operator's. Two seeded defects in the
// reference: a Loop whose condition input is omitted never runs its body (the corpus's Loops all
// omit it), and SequenceInsert at a position equal to the length inserts at the front (an
// operator defect, wrong in every context).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include "reports/html_report.h"
#include "runtimes/reference_runtime.h"
#include "runtimes/seeded/seeded.h"
#include "suite/suite.h"

namespace seqconf::testing {
namespace {

const std::filesystem::path kCorpus = SEQCONF_TEST_CORPUS;

bool loop_without_condition(const interp::NodeCall& c) {
  const auto& n = c.node;
  return n.op_type() == "Loop" && n.input_size() >= 2 && n.input(0) != "" && n.input(1).empty();
}

std::shared_ptr<const interp::KernelOverride> defects(bool loop, bool insert) {
  auto k = std::make_shared<interp::KernelOverride>();
  k->run = [loop, insert](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
    // Loop: "input ("", cond) ... analogous to a for loop": run with the trip count 0 instead.
    if (loop && loop_without_condition(c))
      return c.reference(seeded::with_input(c, 0, seeded::scalar(0)));
    // SequenceInsert: a position equal to n inserts at the front (position 0).
    if (insert && seeded::is_on_sequence(c, "SequenceInsert")) {
      const auto p = seeded::first_int(c, 2);
      if (p && *p > 0 && *p == seeded::sequence_length(c))
        return c.reference(seeded::with_input(c, 2, seeded::scalar(0)));
    }
    return std::nullopt;
  };
  return k;
}

reports::Report run_insert_corpus(bool loop, bool insert) {
  SuiteOptions o;
  o.source = "corpus";
  o.corpus = kCorpus;
  o.filters = {"corpus/SequenceInsert/*"};
  o.quiet = true;
  o.no_expectations = true;
  ReferenceRuntime seeded(Policy::lenient, defects(loop, insert));
  return run_suite(seeded, o).report;
}

bool loop_context(const std::string& context) {
  return context == "loop_body" || context == "loop_carried" || context == "list_append" ||
         context == "loop_counter_position" || context == "scan_of_sequences";
}

// The id of a corpus case's bare-operator sibling: the same parameters in context inputs.
std::string bare_id(const std::string& id) {
  return id.substr(0, id.find("/context=")) + "/context=inputs";
}

TEST(Machinery, ALoopDefectIsOneLoopDeparture) {
  const reports::Report r = run_insert_corpus(true, false);
  std::set<std::string> passing, explained, unexplained;
  for (const auto& c : r.cases)
    if (c.outcome.status == Status::pass) passing.insert(c.outcome.case_id);
  for (const auto& c : r.cases) {
    const Outcome& o = c.outcome;
    if (o.status == Status::pass || !loop_context(o.context)) continue;
    // The exporter patterns (list_append, loop_carried, ...) have no bare sibling.
    (passing.count(bare_id(o.case_id)) ? explained : unexplained).insert(o.case_id);
  }
  ASSERT_GT(explained.size(), 100u);  // the defect shows in the loop_body context
  const auto loop = std::find_if(r.departures.begin(), r.departures.end(),
                                 [](const reports::Departure& d) { return d.op == "Loop"; });
  ASSERT_NE(loop, r.departures.end());
  for (const auto& d : r.departures)
    for (const auto& id : d.case_ids) {
      if (explained.count(id)) {
        EXPECT_EQ(d.op, "Loop") << id << " is in departure " << d.id;
      } else {
        EXPECT_NE(d.op, "Loop") << id << " has no passing bare sibling";
      }
    }
  EXPECT_EQ(loop->case_ids.size(), explained.size());
  EXPECT_NE(loop->spec.find("1 Loop departure explains " + std::to_string(explained.size())),
            std::string::npos)
      << loop->spec;
  // The HTML report says what the departure is named for and how many cases it explains.
  EXPECT_NE(reports::report_to_html(r).find("<dt>machinery</dt><dd>Loop (" +
                                            std::to_string(loop->explained_cases) +
                                            " context case(s) it explains, "),
            std::string::npos);
  EXPECT_EQ(loop->explained_cases, explained.size());
  std::cout << explained.size() << " loop-context failures in the Loop departure, "
            << unexplained.size() << " without a bare sibling\n";
}

TEST(Machinery, AnOperatorDefectStaysTheOperators) {
  const reports::Report r = run_insert_corpus(true, true);
  std::set<std::string> passing;
  for (const auto& c : r.cases)
    if (c.outcome.status == Status::pass) passing.insert(c.outcome.case_id);
  // SequenceInsert at position n departs as a bare node: its departure is the operator's, and
  // holds no case whose bare sibling passes.
  size_t bare_cases = 0;
  for (const auto& d : r.departures) {
    if (d.op != "SequenceInsert") continue;
    for (const auto& id : d.case_ids) {
      bare_cases += id.find("/context=inputs") != std::string::npos;
      EXPECT_FALSE(passing.count(bare_id(id)))
          << id << ": its bare operator passes, so it is not the operator's";
    }
  }
  EXPECT_GT(bare_cases, 0u);
  // The Loop departure is there too, and holds no case whose bare operator fails.
  const auto loop = std::find_if(r.departures.begin(), r.departures.end(),
                                 [](const reports::Departure& d) { return d.op == "Loop"; });
  ASSERT_NE(loop, r.departures.end());
  for (const auto& id : loop->case_ids) EXPECT_TRUE(passing.count(bare_id(id))) << id;
}

TEST(Machinery, TheReferenceHasNoMachineryDeparture) {
  const reports::Report r = run_insert_corpus(false, false);
  EXPECT_TRUE(r.departures.empty());
}

}  // namespace
}  // namespace seqconf::testing

namespace seqconf::testing {
namespace {

Outcome departing(const std::string& id, const std::string& ambiguity) {
  Outcome o;
  o.case_id = id;
  o.source = "corpus";
  o.op = "SequenceAt";
  o.context = "inputs";
  o.clauses = {"position.scalar"};
  o.ambiguity = ambiguity;
  o.status = Status::error;
  o.reason = Reason::invalid_input;
  o.message = "rejected a valid case";
  return o;
}

// A departure whose every case is ambiguous under the spec says so, with the case's sentences
// and what each policy expects; one normative case among them and it does not.
TEST(Ambiguity, ADepartureOfAmbiguousCasesSaysSo) {
  const std::string a =
      "a position of shape [1]: the spec says a scalar; lenient accepts it, strict: "
      "position_not_scalar";
  reports::Report r = reports::make_report({},
                                           {departing("corpus/SequenceAt/p=1/context=inputs", a),
                                            departing("corpus/SequenceAt/p=2/context=inputs", a)},
                                           nullptr);
  ASSERT_EQ(r.departures.size(), 1u);
  EXPECT_EQ(r.departures.front().ambiguity, a);
  EXPECT_NE(reports::departures_text(r).find("every case is ambiguous under the spec: " + a),
            std::string::npos);
  r = reports::make_report({},
                           {departing("corpus/SequenceAt/p=1/context=inputs", a),
                            departing("corpus/SequenceAt/p=3/context=inputs", "")},
                           nullptr);
  ASSERT_EQ(r.departures.size(), 1u);
  EXPECT_TRUE(r.departures.front().ambiguity.empty());
}

}  // namespace
}  // namespace seqconf::testing
