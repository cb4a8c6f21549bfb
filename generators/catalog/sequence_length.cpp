// SequenceLength-11 cases: the number of tensors in the sequence, as an int64 scalar, for
// sequences of 0, 1, 3 and 5 elements of mixed shapes.
// ID: SequenceLength/n=<length>/dtype=<T>
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSequenceLength = "SequenceLength";
const IdKeys kLengthKeys = {"dtype", "n"};
const SpecPassage kLengthSpec = spec_passage({"SequenceLength.summary", "SequenceLength.int64"});

struct LengthConfig {
  size_t n = 0;
  DataType dtype = DataType::float32;
};

CatalogCase length_case(const LengthConfig& k) {
  CatalogCase c = start_case(kSequenceLength, 11, k.dtype);
  c.stage = kCompanionStage;
  c.params = kLengthKeys.order({{"n", std::to_string(k.n)}, {"dtype", type_label(k.dtype)}});
  c.spec = kLengthSpec;
  const std::vector<KeyTensor> elements = mixed_elements(k.n);
  c.details["shapes"] = shapes_string(elements);
  c.inputs = {{"input_sequence", materialize_sequence(k.dtype, elements)}};
  c.node = model::node(kSequenceLength, {"input_sequence"}, {"length"});
  c.output_names = {"length"};
  c.output_types = {tensor_type(DataType::int64)};
  // "Produces a scalar(tensor of empty shape) containing the number of tensors".
  c.outputs = {Value(int_scalar(DataType::int64, static_cast<int64_t>(k.n)))};
  return c;
}

}  // namespace

void add_sequence_length_cases(std::vector<CatalogCase>& out) {
  // Three elements over the 15 types of S; the other lengths over a float, an integer and
  // string.
  for (const LengthConfig& k : Params<LengthConfig>()
                                   .combine(&LengthConfig::n, {3})
                                   .combine(&LengthConfig::dtype, kAllDataTypes))
    kLengthKeys.add(out, length_case(k));
  for (const LengthConfig& k : Params<LengthConfig>()
                                   .combine(&LengthConfig::n, {0, 1, 5})
                                   .combine(&LengthConfig::dtype, kRepresentativeTypes))
    kLengthKeys.add(out, length_case(k));
}

}  // namespace seqconf::catalog
