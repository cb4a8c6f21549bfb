// The position input of SequenceAt, SequenceErase and SequenceInsert (spec clauses position.*):
// one sweep of positions for the three, each operator described by a PositionOperator.
// IDs: <Op>/position=<class|default>[/ptype=<type>][/pshape=<dims>][/<op's own keys>]/dtype=<T>
//      /n=<length>
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog::detail {

// One class of position for a sequence of n tensors: the label is the ID value ("0", "1",
// "-1", "mid", "n-1", "-n", "n", "-n-1", "n+1"); classes that fall on the same value as an
// earlier one are dropped, so short sequences keep the first label.
struct PositionClass {
  std::string label;
  int64_t value = 0;
  bool valid = false;
};
// accept_n: SequenceInsert's range [-n, n] instead of [-n, n-1].
std::vector<PositionClass> position_classes(int64_t n, bool accept_n);

// The index a valid position names in a sequence of length n (clause position.negative).
inline size_t position_index(int64_t position, size_t n) {
  return static_cast<size_t>(position < 0 ? position + static_cast<int64_t>(n) : position);
}

struct PositionOperator {
  std::string op;
  IdKeys keys;
  bool accepts_n = false;  // accepted range [-n, n] (SequenceInsert) rather than [-n, n-1]
  SpecPassage spec_valid;  // a valid position inside the sequence
  SpecPassage spec_range;  // a valid position at the end of the range: "mid", "n-1", "n"
  // The output: a tensor named "tensor" (SequenceAt) or a sequence named "output_sequence".
  bool output_is_sequence = true;
  // The operator's inputs between input_sequence and position, with their ID keys and details
  // (none: the position follows the sequence).
  std::function<void(CatalogCase& c)> add_inputs;
  // What a valid position gives: the expected output for the element index it names.
  std::function<Value(DataType dtype, const std::vector<KeyTensor>& elements, size_t index)> result;
  // Without a position input: the index used in a sequence of n, and its clause (empty: the
  // input is required).
  std::function<int64_t(int64_t n)> default_index;
  SpecPassage spec_default;
  // The one-element 1-D position: its value and the note on the ambiguity.
  int64_t shape_one_position = 0;
  std::string shape_one_note;
};

// The note on a one-element 1-D position that SequenceAt and SequenceErase share.
extern const std::string kShapeOneNote;

// The case of op on `elements` (graph input "input_sequence"), before its other inputs and its
// position.
CatalogCase position_start(const PositionOperator& op, DataType dtype,
                           const std::vector<KeyTensor>& elements);
// Completes a case on n elements with its position input (none: left out, the ID says
// "default"), labelled `label` in the ID, and its node.
CatalogCase with_position(const PositionOperator& op, CatalogCase c, size_t n,
                          const std::string& label, const std::optional<Tensor>& position,
                          const std::string& pshape = "");

// Every position case of op: each position class for n in {5, 1, 0} and every element type
// (int64 positions; int32 positions on n = 5), the default position, a one-element 1-D
// position (ambiguous), positions that are not scalars and positions of non-integral types.
void add_position_cases(const PositionOperator& op, std::vector<CatalogCase>& out);

}  // namespace seqconf::catalog::detail
