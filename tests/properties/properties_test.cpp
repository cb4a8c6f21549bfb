// Every property of the registry, run on the reference as an RC_GTEST_PROP (ctest label
// `properties`). The test name is the property id, so RC_PARAMS="reproduce=..." strings from
// the JSON report replay here too.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "properties/properties.h"
#include "properties/runner.h"

namespace seqconf::properties {
namespace {

void check_on_reference(const char* id) {
  static const OpSet ops = reference_ops();
  property(id).check(ops);
}

}  // namespace
}  // namespace seqconf::properties

using seqconf::properties::check_on_reference;

// Positions, defaults, lengths
RC_GTEST_PROP(SequenceInsert, InsertThenEraseIsIdentity, ()) {
  check_on_reference("SequenceInsert/InsertThenEraseIsIdentity");
}
RC_GTEST_PROP(SequenceInsert, InsertDefaultThenEraseDefaultIsIdentity, ()) {
  check_on_reference("SequenceInsert/InsertDefaultThenEraseDefaultIsIdentity");
}
RC_GTEST_PROP(SequenceInsert, AtAfterInsertReturnsInserted, ()) {
  check_on_reference("SequenceInsert/AtAfterInsertReturnsInserted");
}
RC_GTEST_PROP(SequenceInsert, InsertKeepsTheOthersInOrder, ()) {
  check_on_reference("SequenceInsert/InsertKeepsTheOthersInOrder");
}
RC_GTEST_PROP(SequenceAt, NegativePositionCountsFromBack, ()) {
  check_on_reference("SequenceAt/NegativePositionCountsFromBack");
}
RC_GTEST_PROP(SequenceErase, NegativePositionCountsFromBack, ()) {
  check_on_reference("SequenceErase/NegativePositionCountsFromBack");
}
RC_GTEST_PROP(SequenceInsert, NegativePositionCountsFromBack, ()) {
  check_on_reference("SequenceInsert/NegativePositionCountsFromBack");
}
RC_GTEST_PROP(SequenceErase, DefaultErasesTheLast, ()) {
  check_on_reference("SequenceErase/DefaultErasesTheLast");
}
RC_GTEST_PROP(SequenceInsert, DefaultInsertsAtN, ()) {
  check_on_reference("SequenceInsert/DefaultInsertsAtN");
}
RC_GTEST_PROP(Sequence, LengthLaws, ()) { check_on_reference("Sequence/LengthLaws"); }
RC_GTEST_PROP(Position, OutOfRangeRejected, ()) {
  check_on_reference("Position/OutOfRangeRejected");
}

// SplitToSequence
RC_GTEST_PROP(SplitToSequence, ChunksAreSlicesOfInput, ()) {
  check_on_reference("SplitToSequence/ChunksAreSlicesOfInput");
}
RC_GTEST_PROP(SplitToSequence, ScalarSplitChunkLengths, ()) {
  check_on_reference("SplitToSequence/ScalarSplitChunkLengths");
}
RC_GTEST_PROP(SplitToSequence, KeepdimsIgnoredWhenSplitGiven, ()) {
  check_on_reference("SplitToSequence/KeepdimsIgnoredWhenSplitGiven");
}
RC_GTEST_PROP(SplitToSequence, NoSplitGivesUnitChunks, ()) {
  check_on_reference("SplitToSequence/NoSplitGivesUnitChunks");
}
RC_GTEST_PROP(SplitToSequence, InvalidSplitRejected, ()) {
  check_on_reference("SplitToSequence/InvalidSplitRejected");
}
RC_GTEST_PROP(SplitToSequence, ConcatRoundTrip, ()) {
  check_on_reference("SplitToSequence/ConcatRoundTrip");
}
RC_GTEST_PROP(SplitToSequence, StackRoundTrip, ()) {
  check_on_reference("SplitToSequence/StackRoundTrip");
}

// SequenceMap
RC_GTEST_PROP(SequenceMap, IdentityIsIdentity, ()) {
  check_on_reference("SequenceMap/IdentityIsIdentity");
}
RC_GTEST_PROP(SequenceMap, EqualsBodyAppliedPerSample, ()) {
  check_on_reference("SequenceMap/EqualsBodyAppliedPerSample");
}
RC_GTEST_PROP(SequenceMap, EqualsLoopExpansion, ()) {
  check_on_reference("SequenceMap/EqualsLoopExpansion");
}
RC_GTEST_PROP(SequenceMap, StrictRejectsAnyOtherLength, ()) {
  check_on_reference("SequenceMap/StrictRejectsAnyOtherLength");
}
RC_GTEST_PROP(SequenceMap, LenientReadsFirstSamplesOfLonger, ()) {
  check_on_reference("SequenceMap/LenientReadsFirstSamplesOfLonger");
}

// The companion operators
RC_GTEST_PROP(ConcatFromSequence, StackedSlicesAreTheElements, ()) {
  check_on_reference("ConcatFromSequence/StackedSlicesAreTheElements");
}
RC_GTEST_PROP(SequenceConstruct, KeepsTheInputsInOrder, ()) {
  check_on_reference("SequenceConstruct/KeepsTheInputsInOrder");
}
RC_GTEST_PROP(SequenceLength, IsTheNumberOfTensors, ()) {
  check_on_reference("SequenceLength/IsTheNumberOfTensors");
}
RC_GTEST_PROP(SequenceEmpty, IsOfItsDtype, ()) { check_on_reference("SequenceEmpty/IsOfItsDtype"); }

// Values
RC_GTEST_PROP(Types, ElementTypePreserved, ()) { check_on_reference("Types/ElementTypePreserved"); }
RC_GTEST_PROP(Proto, RoundTripBothEncodings, ()) {
  check_on_reference("Proto/RoundTripBothEncodings");
}

// Every property in the registry has an RC_GTEST_PROP above (and no test names a missing one).
TEST(PropertyRegistry, EveryPropertyIsAGoogleTest) {
  std::set<std::string> tests;
  const auto* unit = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    for (int k = 0; k < suite->total_test_count(); ++k)
      tests.insert(std::string(suite->name()) + "/" + suite->GetTestInfo(k)->name());
  }
  for (const auto& p : seqconf::properties::all_properties())
    EXPECT_TRUE(tests.count(p.id)) << p.id << " has no RC_GTEST_PROP";
}

int main(int argc, char** argv) {
  seqconf::properties::apply_default_budget();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
