// The places where the spec leaves a case open, one entry each: the sentence (or the sentences
// that disagree), the readings met in practice, which reading each policy of the reference takes,
// where ONNX itself takes a side, and a proposed wording. An entry whose readings the two
// policies take differently is an ambiguity the reference records under that id (Context::note);
// the others say why no policy splits them. `seqconf ambiguities` measures every implementation
// against these entries (suite/ambiguities.h).
#pragma once

#include <string>
#include <vector>

namespace seqconf {

struct OpenQuestion {
  // The Ambiguity id the reference records (Context::note) when a policy decides the question;
  // a stable name otherwise.
  std::string id;
  // open: the sentences allow more than one reading, and a policy decides (lenient / strict).
  // wording: the sentence read literally says something nobody does; ONNX's own tests and
  //   shape inference decide it, and both policies follow them (why_not_split says how).
  // disputed: the sentence is clear, practice departs from it; both policies follow the
  //   sentence.
  // silent: no sentence covers the case; both policies take the one reading the spec's
  //   references (numpy) allow.
  std::string status;
  std::string title;  // the question in one line
  struct Operator {
    std::string op;
    std::vector<int> versions;
  };
  std::vector<Operator> operators;
  struct Sentence {
    std::string clause;  // spec clause id (reference/spec_clauses.h); empty: quoted here
    std::string where;   // "SplitToSequence-11, attribute keepdims", "Loop-13 pseudo-code"
    std::string text;    // exactly as the spec has it (from the clause when clause is set)
  };
  std::vector<Sentence> sentences;
  struct Reading {
    std::string name;     // "lenient", "strict", "spec" (both policies) or a reading's name
    std::string policy;   // "lenient", "strict", "both" or "" (no policy takes it)
    std::string meaning;  // what the reading gives
    std::string held_by;  // who is known to take it, from public sources; empty: nobody known
  };
  std::vector<Reading> readings;
  struct OnnxSide {
    std::string file;  // a path in ONNX's repository (or its test data)
    std::string says;  // which reading it takes and how
  };
  std::vector<OnnxSide> onnx;
  // The reading the exported programs' own results take (their outputs depart from the spec's
  // reading the way this one says), when exported models bear on the question; empty otherwise.
  // A runtime that departs from the spec and matches the program's result is read as taking it.
  std::string program_reading;
  std::string why_not_split;  // wording, disputed, silent: why both policies take one reading
  std::string proposal;       // a proposed wording, to be read as a proposal
  // Case id globs (cases/case.h id_matches) of the corpus, ONNX's fixtures and the exported
  // models that bear on the question. For an open question only the cases whose expectations
  // differ between the policies are kept.
  std::vector<std::string> case_globs;

  bool split_by_policy() const { return status == "open"; }
};

// Every question, in a fixed order.
const std::vector<OpenQuestion>& open_questions();

// The question with this id, or nullptr.
const OpenQuestion* find_open_question(const std::string& id);

}  // namespace seqconf
