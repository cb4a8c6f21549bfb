// SequenceAt-11 cases: the position sweep (position.h); a valid position gives the element it
// names.
// ID: SequenceAt/position=<class>/ptype=<int64|int32|...>[/pshape=<dims>]/dtype=<T>/n=<length>
//     [/values=edge]
#include "generators/catalog/position.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

PositionOperator sequence_at() {
  PositionOperator op;
  op.op = "SequenceAt";
  op.keys = {"position", "ptype", "pshape", "dtype", "n", "values"};
  op.spec_valid = spec_passage({"SequenceAt.summary"});
  op.spec_range = spec_passage({"position.range"});
  op.output_is_sequence = false;
  op.result = [](DataType dtype, const std::vector<KeyTensor>& elements, size_t index) {
    return Value(materialize(dtype, elements[index]));
  };
  op.shape_one_position = -1;
  op.shape_one_note = kShapeOneNote;
  return op;
}

}  // namespace

void add_sequence_at_cases(std::vector<CatalogCase>& out) {
  add_position_cases(sequence_at(), out);
}

}  // namespace seqconf::catalog
