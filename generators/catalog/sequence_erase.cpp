// SequenceErase-11 cases: the position sweep (position.h); a valid position gives the sequence
// without the element it names, the default position erases the last one.
// ID: SequenceErase/position=<class|default>[/ptype=<type>][/pshape=<dims>]/dtype=<T>/n=<length>
#include "generators/catalog/position.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

std::vector<KeyTensor> without(std::vector<KeyTensor> v, size_t index) {
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(index));
  return v;
}

PositionOperator sequence_erase() {
  PositionOperator op;
  op.op = "SequenceErase";
  op.keys = {"position", "ptype", "pshape", "dtype", "n", "values"};
  op.spec_valid = spec_passage({"SequenceErase.summary"});
  op.spec_range = spec_passage({"position.range"});
  op.result = [](DataType dtype, const std::vector<KeyTensor>& elements, size_t index) {
    return Value(materialize_sequence(dtype, without(elements, index)));
  };
  // The last tensor; none exists in an empty sequence.
  op.default_index = [](int64_t n) { return n - 1; };
  op.spec_default = spec_passage({"SequenceErase.position_default"});
  op.shape_one_position = 0;
  op.shape_one_note = kShapeOneNote;
  return op;
}

}  // namespace

void add_sequence_erase_cases(std::vector<CatalogCase>& out) {
  add_position_cases(sequence_erase(), out);
}

}  // namespace seqconf::catalog
