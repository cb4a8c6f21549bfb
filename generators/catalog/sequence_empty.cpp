// SequenceEmpty-11 cases: an empty sequence of the type the dtype attribute names, float when it
// is absent; a dtype outside S is rejected.
// ID: SequenceEmpty/dtype_attr=<absent|T>/dtype=<T>
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSequenceEmpty = "SequenceEmpty";
const IdKeys kEmptyKeys = {"dtype_attr", "dtype"};

// attr: the dtype attribute, nullopt when absent; dtype: the sequence's element type.
CatalogCase empty_case(std::optional<DataType> attr, DataType dtype, const SpecPassage& spec) {
  CatalogCase c = start_case(kSequenceEmpty, 11, dtype);
  c.stage = kCompanionStage;
  c.params = kEmptyKeys.order(
      {{"dtype_attr", attr ? type_label(*attr) : "absent"}, {"dtype", type_label(dtype)}});
  c.spec = spec;
  c.node = model::node(kSequenceEmpty, {}, {"output"});
  if (attr) *c.node.add_attribute() = model::int_attribute("dtype", static_cast<int64_t>(*attr));
  c.output_names = {"output"};
  c.output_types = {sequence_type(dtype)};
  return c;
}

}  // namespace

void add_sequence_empty_cases(std::vector<CatalogCase>& out) {
  // "The default type is 'float'."
  CatalogCase absent =
      empty_case(std::nullopt, DataType::float32, spec_passage({"SequenceEmpty.dtype_default"}));
  absent.outputs = {Value(Sequence(DataType::float32))};
  kEmptyKeys.add(out, std::move(absent));
  // Each of the 15 types of S.
  for (DataType d : kAllDataTypes) {
    CatalogCase c = empty_case(d, d, spec_passage({"SequenceEmpty.summary"}));
    c.outputs = {Value(Sequence(d))};
    kEmptyKeys.add(out, std::move(c));
  }
  // bfloat16 is not one of them ("Constrain output types to any tensor type.": the 15 types
  // of all_tensor_types()).
  CatalogCase bf16 =
      empty_case(DataType::bfloat16, DataType::bfloat16, spec_passage({"SequenceEmpty.types"}));
  bf16.error = ErrorCode::invalid_model;
  kEmptyKeys.add(out, std::move(bf16));
}

}  // namespace seqconf::catalog
