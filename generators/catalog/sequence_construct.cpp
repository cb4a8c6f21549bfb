// SequenceConstruct-11 cases: the sequence of the input tensors, in order, whatever their shapes;
// inputs of two element types are rejected.
// ID: SequenceConstruct/shapes=<dims,dims,..>/dtype=<T>[/mixed=<T>]
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSequenceConstruct = "SequenceConstruct";
const IdKeys kConstructKeys = {"shapes", "dtype", "mixed"};

struct ConstructConfig {
  size_t n = 1;
  DataType dtype = DataType::float32;
  bool mixed = false;  // the last input has another element type
};

CatalogCase construct_case(const ConstructConfig& k) {
  CatalogCase c = start_case(kSequenceConstruct, 11, k.dtype);
  c.stage = kCompanionStage;
  const std::vector<KeyTensor> elements = mixed_elements(k.n);
  const DataType last = k.mixed ? other_type(k.dtype) : k.dtype;
  std::vector<Param> params = {{"shapes", shapes_string(elements)}, {"dtype", type_label(k.dtype)}};
  if (k.mixed) params.push_back({"mixed", type_label(last)});
  c.params = kConstructKeys.order(std::move(params));
  std::vector<std::string> names;
  for (size_t i = 0; i < k.n; ++i) {
    names.push_back("input_" + std::to_string(i));
    c.inputs.push_back({names.back(), materialize(i + 1 == k.n ? last : k.dtype, elements[i])});
  }
  c.node = model::node(kSequenceConstruct, names, {"output_sequence"});
  c.output_names = {"output_sequence"};
  c.output_types = {sequence_type(k.dtype)};
  if (k.mixed) {
    // "All tensors in 'inputs' must have the same data type.": one type parameter T binds them
    // all, so the model is invalid.
    c.spec = spec_passage({"SequenceConstruct.same_type"});
    c.error = ErrorCode::invalid_model;
  } else {
    c.spec = spec_passage({"SequenceConstruct.summary"});
    c.outputs = {materialize_sequence(k.dtype, elements)};
  }
  return c;
}

}  // namespace

void add_sequence_construct_cases(std::vector<CatalogCase>& out) {
  // Three inputs of shapes [2], [] and [2, 3] over the 15 types of T; one, two and five inputs
  // (a zero-size and a rank-4 tensor among them) and the mixed types over a float, an integer
  // and string.
  for (const ConstructConfig& k : Params<ConstructConfig>()
                                      .combine(&ConstructConfig::n, {3})
                                      .combine(&ConstructConfig::dtype, kAllDataTypes))
    kConstructKeys.add(out, construct_case(k));
  for (const ConstructConfig& k : Params<ConstructConfig>()
                                      .combine(&ConstructConfig::n, {1, 2, 5})
                                      .combine(&ConstructConfig::dtype, kRepresentativeTypes))
    kConstructKeys.add(out, construct_case(k));
  for (const ConstructConfig& k : Params<ConstructConfig>()
                                      .combine(&ConstructConfig::n, {2})
                                      .combine(&ConstructConfig::dtype, kRepresentativeTypes)
                                      .combine(&ConstructConfig::mixed, {true}))
    kConstructKeys.add(out, construct_case(k));
}

}  // namespace seqconf::catalog
