// ConcatFromSequence-11 cases: concatenation on an existing axis (new_axis 0, numpy.concatenate)
// and stacking on a new one (new_axis 1, numpy.stack), the two axis ranges, their negative ends,
// scalars, zero-length elements, shapes that differ on the axis only, and the rejections.
// ID: ConcatFromSequence/new_axis=<default|0|1>/axis=<a|absent>/shapes=<dims,dims,..|none>
//     /dtype=<T>[/values=bits|bits_typed]
// The expected tensor is assembled from the elements' keys by index arithmetic (concatenated),
// independently of the reference.
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kConcatFromSequence = "ConcatFromSequence";
const IdKeys kConcatKeys = {"new_axis", "axis", "shapes", "dtype", "values"};
const SpecPassage kConcatenate =
    spec_passage({"ConcatFromSequence.summary", "ConcatFromSequence.concatenate"});
const SpecPassage kSameShape = spec_passage({"ConcatFromSequence.same_shape"});
const SpecPassage kAxisRange = spec_passage({"ConcatFromSequence.axis_range"});
const SpecPassage kStack = spec_passage({"ConcatFromSequence.new_axis_stack"});
const SpecPassage kNewAxisRange = spec_passage({"ConcatFromSequence.new_axis_range"});
const SpecPassage kAxisRequired = spec_passage({"ConcatFromSequence.axis_required"});

struct ConcatConfig {
  std::vector<Shape> shapes;        // the sequence's elements
  std::optional<int64_t> axis;      // nullopt: the attribute is absent
  std::optional<int64_t> new_axis;  // nullopt: the attribute is absent (default 0)
  SpecPassage spec;
  std::optional<ErrorCode> error;
  bool ambiguous = false;
  std::optional<ErrorCode> strict_error;
  std::string ambiguity;
  DataType dtype = DataType::float32;
  const BitsVariant* bits = nullptr;  // elements [16] holding the bits values (values=bits, ...)
};

ConcatConfig concat_config(std::vector<Shape> shapes, std::optional<int64_t> axis,
                           std::optional<int64_t> new_axis, const SpecPassage& spec) {
  ConcatConfig k;
  k.shapes = std::move(shapes);
  k.axis = axis;
  k.new_axis = new_axis;
  k.spec = spec;
  return k;
}

ConcatConfig concat_rejected(ConcatConfig k, ErrorCode code) {
  k.error = code;
  return k;
}

const std::string kConcatEmptySequence =
    "an empty input sequence: the spec has no sentence for it. With no tensor there is no rank "
    "r to check the axis against and no shape to give the result (" +
    spec_quote("ConcatFromSequence.same_shape") +
    " presumes one), and numpy.concatenate and numpy.stack, which the spec names, raise on an "
    "empty list. Both policies reject it.";

// The elements' keys: element i from key 20*i + 1, as mixed_elements numbers them; the bits
// variant holds the sixteen bits keys, reversed in every other element.
std::vector<KeyTensor> concat_elements(const ConcatConfig& k) {
  std::vector<KeyTensor> v;
  for (size_t i = 0; i < k.shapes.size(); ++i)
    v.push_back(k.bits ? KeyTensor{k.shapes[i], bits_key_tensor(i % 2 == 1).keys}
                       : key_tensor(k.shapes[i], static_cast<int>(20 * i + 1)));
  return v;
}

// numpy.concatenate of the elements along axis a (of their common rank), numpy.stack when
// stacking (every element viewed with a dimension 1 inserted at a): the output holds, for each
// index of the axes before a, element 0's block along a, then element 1's, and so on.
KeyTensor concatenated(const std::vector<KeyTensor>& elements, size_t a, bool stack) {
  std::vector<Shape> shapes;
  for (const KeyTensor& e : elements) {
    Shape s = e.shape;
    if (stack) s.insert(s.begin() + static_cast<std::ptrdiff_t>(a), 1);
    shapes.push_back(std::move(s));
  }
  KeyTensor out;
  out.shape = shapes[0];
  out.shape[a] = 0;
  for (const Shape& s : shapes) out.shape[a] += s[a];
  const Shape before(shapes[0].begin(), shapes[0].begin() + static_cast<std::ptrdiff_t>(a));
  const auto outer = static_cast<int64_t>(checked_element_count(before));
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < elements.size(); ++i) {
      const auto block = static_cast<int64_t>(checked_element_count(shapes[i])) / outer;
      for (int64_t j = 0; j < block; ++j)
        out.keys.push_back(elements[i].keys[static_cast<size_t>(o * block + j)]);
    }
  return out;
}

std::vector<ConcatConfig> concat_valid_configs() {
  return {
      // new_axis 0 (absent or given): "similar to numpy.concatenate".
      concat_config({{2, 3}, {2, 1}}, 1, std::nullopt, kConcatenate),
      concat_config({{2, 3}, {2, 1}}, 1, 0, kConcatenate),
      concat_config({{2, 3}, {1, 3}, {0, 3}}, 0, std::nullopt, kSameShape),
      concat_config({{2}, {3}, {1}}, 0, std::nullopt, kConcatenate),
      concat_config({{2, 3}}, 0, std::nullopt, kConcatenate),
      concat_config({{2, 1, 2}, {2, 3, 2}}, 1, std::nullopt, kSameShape),
      // Negative axes count from the back: [-r, r - 1].
      concat_config({{2, 3}, {2, 1}}, -1, std::nullopt, kAxisRange),
      concat_config({{2, 3}, {1, 3}}, -2, std::nullopt, kAxisRange),
      concat_config({{2, 1, 2}, {2, 3, 2}}, -2, std::nullopt, kAxisRange),
      // new_axis 1: "similar to numpy.stack", the axis in [-r - 1, r].
      concat_config({{2, 4}, {2, 4}, {2, 4}}, 0, 1, kStack),
      concat_config({{2, 4}, {2, 4}, {2, 4}}, 1, 1, kStack),
      concat_config({{2, 4}, {2, 4}, {2, 4}}, 2, 1, kNewAxisRange),
      concat_config({{2, 4}, {2, 4}, {2, 4}}, -1, 1, kNewAxisRange),
      concat_config({{2, 4}, {2, 4}, {2, 4}}, -3, 1, kNewAxisRange),
      concat_config({{2, 4}}, 0, 1, kStack),
      concat_config({{0, 2}, {0, 2}}, 1, 1, kStack),
      // Scalars stack into a vector (r = 0: the axis in [-1, 0]).
      concat_config({{}, {}, {}}, 0, 1, kNewAxisRange),
      concat_config({{}, {}, {}}, -1, 1, kNewAxisRange),
  };
}

std::vector<ConcatConfig> concat_reject_configs() {
  ConcatConfig empty = concat_rejected(concat_config({}, 0, std::nullopt, kConcatenate),
                                       ErrorCode::invalid_argument);
  empty.ambiguous = true;
  empty.strict_error = ErrorCode::invalid_argument;
  empty.ambiguity = kConcatEmptySequence;
  return {
      // Outside [-r, r - 1].
      concat_rejected(concat_config({{2, 3}, {2, 1}}, 2, std::nullopt, kAxisRange),
                      ErrorCode::axis_out_of_range),
      concat_rejected(concat_config({{2, 3}, {2, 1}}, -3, std::nullopt, kAxisRange),
                      ErrorCode::axis_out_of_range),
      // Outside [-r - 1, r].
      concat_rejected(concat_config({{2, 4}, {2, 4}}, 3, 1, kNewAxisRange),
                      ErrorCode::axis_out_of_range),
      concat_rejected(concat_config({{2, 4}, {2, 4}}, -4, 1, kNewAxisRange),
                      ErrorCode::axis_out_of_range),
      // Scalars without new_axis: [-r, r - 1] is empty for r = 0.
      concat_rejected(concat_config({{}, {}}, 0, std::nullopt, kAxisRange), ErrorCode::input_rank),
      // Shapes that differ off the axis, ranks that differ, and shapes that differ on the axis
      // when stacking (every axis of the stacked tensors is off the new one).
      concat_rejected(concat_config({{2, 3}, {3, 3}}, 1, std::nullopt, kSameShape),
                      ErrorCode::shape_mismatch),
      concat_rejected(concat_config({{2, 3}, {2}}, 0, std::nullopt, kSameShape),
                      ErrorCode::shape_mismatch),
      concat_rejected(concat_config({{2, 3}, {2, 1}}, 1, 1, kStack), ErrorCode::shape_mismatch),
      // axis is a required attribute.
      concat_rejected(concat_config({{2, 3}, {2, 1}}, std::nullopt, std::nullopt, kAxisRequired),
                      ErrorCode::invalid_model),
      empty,
  };
}

CatalogCase concat_case(const ConcatConfig& k) {
  const DataType dtype = k.dtype;
  CatalogCase c = start_case(kConcatFromSequence, 11, dtype);
  c.stage = kCompanionStage;
  const std::vector<KeyTensor> elements = concat_elements(k);
  std::vector<Param> params = {{"new_axis", k.new_axis ? std::to_string(*k.new_axis) : "default"},
                               {"axis", k.axis ? std::to_string(*k.axis) : "absent"},
                               {"shapes", shapes_string(elements)},
                               {"dtype", type_label(dtype)}};
  if (k.bits) params.push_back({"values", k.bits->value});
  c.params = kConcatKeys.order(std::move(params));
  c.spec = k.spec;
  c.error = k.error;
  c.ambiguous = k.ambiguous;
  c.strict_error = k.strict_error;
  if (!k.ambiguity.empty()) c.ambiguity = k.ambiguity;
  if (k.bits) c.encoding = k.bits->encoding;
  c.inputs = {{"input_sequence", materialize_sequence(dtype, elements)}};
  c.node = model::node(kConcatFromSequence, {"input_sequence"}, {"concat_result"});
  if (k.axis) *c.node.add_attribute() = model::int_attribute("axis", *k.axis);
  if (k.new_axis) *c.node.add_attribute() = model::int_attribute("new_axis", *k.new_axis);
  c.output_names = {"concat_result"};
  c.output_types = {tensor_type(dtype)};
  if (!k.error) {
    const bool stack = k.new_axis.value_or(0) == 1;
    // "Accepted range in [-r, r - 1]" and, stacking, "[-r - 1, r]": a negative axis counts
    // from the back of the output's r (r + 1 when stacking) axes.
    const auto out_rank = static_cast<int64_t>(k.shapes[0].size()) + (stack ? 1 : 0);
    const int64_t axis = *k.axis < 0 ? *k.axis + out_rank : *k.axis;
    const KeyTensor result = concatenated(elements, static_cast<size_t>(axis), stack);
    c.details["result_shape"] = dims_string(result.shape);
    c.outputs = {Value(materialize(dtype, result))};
  }
  return c;
}

}  // namespace

void add_concat_from_sequence_cases(std::vector<CatalogCase>& out) {
  // The first configuration over the 15 types of T; the others over a float, an integer and
  // string.
  const std::vector<ConcatConfig> valid = concat_valid_configs();
  for (const ConcatConfig& k :
       Params<ConcatConfig>({valid.front()}).combine(&ConcatConfig::dtype, kAllDataTypes))
    kConcatKeys.add(out, concat_case(k));
  for (const ConcatConfig& k :
       Params<ConcatConfig>(std::vector<ConcatConfig>(valid.begin() + 1, valid.end()))
           .combine(&ConcatConfig::dtype, kRepresentativeTypes))
    kConcatKeys.add(out, concat_case(k));
  for (const ConcatConfig& k : Params<ConcatConfig>(concat_reject_configs())
                                   .combine(&ConcatConfig::dtype, kRepresentativeTypes))
    kConcatKeys.add(out, concat_case(k));
  // Values that show a lossy copy: two elements of shape [16] holding the sixteen bits values
  // (the second reversed), stacked on the last axis, so every value moves to a new offset.
  for (const BitsVariant& variant : kBitsVariants) {
    ConcatConfig bits = concat_config({{16}, {16}}, -1, 1, kStack);
    bits.bits = &variant;
    for (const ConcatConfig& k :
         Params<ConcatConfig>({bits}).combine(&ConcatConfig::dtype, kAllDataTypes))
      if (bits_variant_applies(variant, k.dtype)) kConcatKeys.add(out, concat_case(k));
  }
}

}  // namespace seqconf::catalog
