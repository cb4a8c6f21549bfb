// The spec clauses the suite cites: each is one sentence of the ONNX operator spec text (an
// operator's description, or the description of one of its inputs, attributes or type
// constraints), named by a stable id. Errors, catalog cases, fuzz findings and reports cite a
// clause by id and print its sentence from this table; no other source spells a sentence.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace seqconf {

struct SpecClause {
  // "<Operator>.<name>" for a sentence of one operator; "position.<name>" for the sentences
  // SequenceAt, SequenceErase and SequenceInsert share. "<Operator>.summary" is the first
  // sentence of the operator's description.
  std::string_view id;
  std::vector<std::string_view> operators;  // the operators whose spec text holds the sentence
  int since_version;                        // the operator version the sentence is quoted from
  std::string_view sentence;                // exactly as the spec text has it
};

// Every clause, in a fixed order (by operator, then as the spec text has them).
const std::vector<SpecClause>& spec_clauses();

// The clause with this id; throws std::out_of_range for an unknown id.
const SpecClause& spec_clause(std::string_view id);

// The clause with this id, or nullptr.
const SpecClause* find_spec_clause(std::string_view id);

// The sentences of the clauses, in the order given, joined by one space (a passage of
// consecutive sentences).
std::string spec_text(std::initializer_list<std::string_view> ids);

// What a case checks: clause ids and their sentences (spec_text of the ids).
struct SpecPassage {
  std::vector<std::string> clauses;
  std::string text;
  bool empty() const { return clauses.empty(); }
};
SpecPassage spec_passage(std::initializer_list<std::string_view> ids);

// True when op is one of the clause's operators.
bool spec_clause_covers(const SpecClause& clause, std::string_view op);

}  // namespace seqconf
