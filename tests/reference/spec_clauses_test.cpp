// The spec-clause table against the spec text of the installed ONNX library: every sentence is
// quoted exactly from the schema of each of its operators, at the version it names.
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include "reference/spec_clauses.h"

namespace seqconf {
namespace {

// Runs of whitespace (line breaks in the schema docs) become one space; no leading or trailing
// space.
std::string fold(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The operator's spec text: the description, then the descriptions of its inputs, outputs,
// attributes and type constraints, each folded and kept apart so no sentence spans two.
std::vector<std::string> schema_texts(const onnx::OpSchema& schema) {
  std::vector<std::string> out;
  out.push_back(fold(schema.doc() ? schema.doc() : ""));
  for (const auto& in : schema.inputs()) out.push_back(fold(in.GetDescription()));
  for (const auto& o : schema.outputs()) out.push_back(fold(o.GetDescription()));
  for (const auto& [name, attr] : schema.attributes()) out.push_back(fold(attr.description));
  for (const auto& tc : schema.typeConstraintParams()) out.push_back(fold(tc.description));
  return out;
}

TEST(SpecClauses, EverySentenceIsQuotedFromItsOperatorsSchema) {
  ASSERT_FALSE(spec_clauses().empty());
  for (const SpecClause& c : spec_clauses()) {
    ASSERT_FALSE(c.operators.empty()) << c.id;
    const std::string sentence(c.sentence);
    EXPECT_EQ(fold(sentence), sentence) << c.id << ": whitespace as the folded spec text has it";
    for (std::string_view op : c.operators) {
      const onnx::OpSchema* schema =
          onnx::OpSchemaRegistry::Schema(std::string(op), c.since_version, "");
      ASSERT_NE(schema, nullptr) << c.id << ": no schema for " << op << "-" << c.since_version;
      EXPECT_EQ(schema->SinceVersion(), c.since_version) << c.id << ": " << op;
      bool found = false;
      for (const std::string& text : schema_texts(*schema))
        found = found || text.find(sentence) != std::string::npos;
      EXPECT_TRUE(found) << c.id << ": \"" << sentence << "\" is not in the spec text of " << op
                         << "-" << c.since_version;
    }
  }
}

TEST(SpecClauses, IdsAndSentencesAreUnique) {
  std::set<std::string_view> ids;
  std::set<std::string_view> sentences;
  for (const SpecClause& c : spec_clauses()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_TRUE(sentences.insert(c.sentence).second) << "sentence spelled twice: " << c.id;
  }
}

TEST(SpecClauses, IdsNameTheirOperator) {
  for (const SpecClause& c : spec_clauses()) {
    const std::string_view prefix = c.id.substr(0, c.id.find('.'));
    if (prefix == "position") {
      for (std::string_view op : c.operators)
        EXPECT_TRUE(op == "SequenceAt" || op == "SequenceErase" || op == "SequenceInsert") << c.id;
    } else {
      ASSERT_EQ(c.operators.size(), 1u) << c.id;
      EXPECT_EQ(c.operators[0], prefix) << c.id;
    }
  }
}

TEST(SpecClauses, LookupByIdAndPassages) {
  EXPECT_EQ(spec_clause("position.negative").sentence,
            find_spec_clause("position.negative")->sentence);
  EXPECT_EQ(find_spec_clause("position.nonexistent"), nullptr);
  EXPECT_THROW(spec_clause("position.nonexistent"), std::out_of_range);
  EXPECT_EQ(spec_text({"position.integral", "position.scalar"}),
            std::string(spec_clause("position.integral").sentence) + " " +
                std::string(spec_clause("position.scalar").sentence));
  EXPECT_TRUE(spec_clause_covers(spec_clause("position.range"), "SequenceErase"));
  EXPECT_FALSE(spec_clause_covers(spec_clause("position.range"), "SequenceInsert"));
  // Every operator the suite runs has a summary clause (the fuzzer's fallback).
  for (const char* op :
       {"SequenceAt", "SequenceErase", "SequenceInsert", "SequenceMap", "SplitToSequence",
        "SequenceEmpty", "SequenceConstruct", "SequenceLength", "ConcatFromSequence"})
    EXPECT_NE(find_spec_clause(std::string(op) + ".summary"), nullptr) << op;
}

}  // namespace
}  // namespace seqconf
