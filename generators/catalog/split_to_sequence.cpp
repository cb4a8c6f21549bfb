// SplitToSequence-11 and -24 cases. Version 24 adds bfloat16 to T and S and nothing else: its
// cases repeat a selection of the valid edges of version 11 (absent, scalar and 1-D splits,
// keepdims, negative axis, uneven and zero-length parts) over the 16 types, in models of opset 24.
// ID: SplitToSequence[/opset=24]/split=<absent|scalar_<s>|list_<a,b,..>|rank2_<a,b>>
//     /stype=<type>/axis=<a|default>/keepdims=<k|default>/shape=<dims>/dtype=<T>
// Expected chunks are cut from the input's keys by index arithmetic (chunk_along), independently
// of the reference.
#include <algorithm>
#include <set>

#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSplitToSequence = "SplitToSequence";
const IdKeys kKeys = {"opset", "split", "stype", "axis", "keepdims", "shape", "dtype", "values"};
const SpecPassage kKeepdims =
    spec_passage({"SplitToSequence.keepdims", "SplitToSequence.keepdims_default",
                  "SplitToSequence.keepdims_ignored"});
const SpecPassage kScalar =
    spec_passage({"SplitToSequence.split_scalar", "SplitToSequence.split_scalar_last"});
const SpecPassage kIgnored = spec_passage({"SplitToSequence.keepdims_ignored"});
const SpecPassage kList = spec_passage({"SplitToSequence.split_list"});
const SpecPassage kSum = spec_passage({"SplitToSequence.split_sum"});
const SpecPassage kAxis =
    spec_passage({"SplitToSequence.axis_negative", "SplitToSequence.axis_range"});
const SpecPassage kPositive = spec_passage({"SplitToSequence.split_positive"});
const SpecPassage kShape = spec_passage({"SplitToSequence.split_shape"});
const SpecPassage kIntegral = spec_passage({"SplitToSequence.split_integral"});
const SpecPassage kInputTypes = spec_passage({"SplitToSequence.input_types"});

enum class SplitKind { absent, scalar, list, rank2 };

struct Config {
  Shape shape;
  std::optional<int64_t> axis;
  std::optional<int64_t> keepdims;
  SplitKind kind = SplitKind::absent;
  std::vector<int64_t> split;
  DataType stype = DataType::int64;
  SpecPassage spec;
  std::optional<ErrorCode> error;
  // Ambiguous cases state the strict policy's expectation (error code, or none = outputs).
  bool ambiguous = false;
  std::optional<ErrorCode> strict_error;
  std::string ambiguity;
  DataType dtype = DataType::float32;  // the element type of the input
  int opset = 11;                      // 24: SplitToSequence-24
  bool edge_values = false;            // the input holds the edge values (values=edge)
  const BitsVariant* bits = nullptr;   // the input holds the bits values (values=bits, ...)
};

const std::string kZeroEntries =
    "zero entries in a 1-D split: the summary says " +
    spec_quote("SplitToSequence.split_positive") + ", the input description says " +
    spec_quote("SplitToSequence.split_nonnegative") +
    ", and ONNX's own test_sequence_model8 splits an empty axis with [0, 0, 0]. Lenient policy "
    "(the expectation): each zero entry gives an empty chunk. Strict policy: split_zero.";
const char* const kScalarZero =
    "scalar split 0: \"positive numbers\" versus \">= 0\"; a chunk length of 0 cannot cover the "
    "axis, so both policies reject it (split_zero).";

Config make(Shape shape, std::optional<int64_t> axis, std::optional<int64_t> keepdims,
            SplitKind kind, std::vector<int64_t> split, DataType stype, const SpecPassage& spec) {
  Config k;
  k.shape = std::move(shape);
  k.axis = axis;
  k.keepdims = keepdims;
  k.kind = kind;
  k.split = std::move(split);
  k.stype = stype;
  k.spec = spec;
  return k;
}

Config rejected(Config k, ErrorCode code) {
  k.error = code;
  return k;
}

Config ambiguous(Config k, std::optional<ErrorCode> strict_error, const std::string& note) {
  k.ambiguous = true;
  k.strict_error = strict_error;
  k.ambiguity = note;
  return k;
}

std::string split_label(const Config& k) {
  std::string values;
  for (size_t i = 0; i < k.split.size(); ++i) values += (i ? "," : "") + std::to_string(k.split[i]);
  switch (k.kind) {
    case SplitKind::absent:
      return "absent";
    case SplitKind::scalar:
      return "scalar_" + values;
    case SplitKind::list:
      return "list_" + values;
    case SplitKind::rank2:
      return "rank2_" + values;
  }
  return {};
}

// Expected chunks, by index arithmetic on the input's keys.
std::vector<KeyTensor> expected_chunks(const KeyTensor& input, const Config& k) {
  const auto rank = static_cast<int64_t>(input.shape.size());
  const int64_t axis = k.axis.value_or(0);
  const auto a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  const int64_t d = input.shape[a];
  std::vector<KeyTensor> chunks;
  if (k.kind == SplitKind::absent) {
    for (int64_t j = 0; j < d; ++j) {
      KeyTensor c = chunk_along(input, a, j, 1);
      if (k.keepdims.value_or(1) == 0)
        c.shape.erase(c.shape.begin() + static_cast<std::ptrdiff_t>(a));
      chunks.push_back(std::move(c));
    }
  } else if (k.kind == SplitKind::scalar) {
    const int64_t s = k.split[0];
    for (int64_t start = 0; start < d; start += s)
      chunks.push_back(chunk_along(input, a, start, std::min(s, d - start)));
  } else {
    int64_t start = 0;
    for (int64_t len : k.split) {
      chunks.push_back(chunk_along(input, a, start, len));
      start += len;
    }
  }
  return chunks;
}

std::vector<Config> valid_configs() {
  using SK = SplitKind;
  const auto i32 = DataType::int32;
  const auto i64 = DataType::int64;
  return {
      // split absent: chunks of length 1; keepdims applies.
      make({3, 2}, std::nullopt, std::nullopt, SK::absent, {}, i64, kKeepdims),
      make({3, 2}, 0, 1, SK::absent, {}, i64, kKeepdims),
      make({3, 2}, 0, 0, SK::absent, {}, i64, kKeepdims),
      make({2, 3}, 1, 1, SK::absent, {}, i64, kKeepdims),
      make({2, 3}, -1, 0, SK::absent, {}, i64, kAxis),
      make({2, 3, 2}, 1, 0, SK::absent, {}, i64, kKeepdims),
      make({2, 3, 2}, -2, 1, SK::absent, {}, i64, kAxis),
      make({4}, 0, 0, SK::absent, {}, i64, kKeepdims),
      make({0, 3}, 0, 0, SK::absent, {}, i64, kKeepdims),
      make({2, 0}, 0, 0, SK::absent, {}, i64, kKeepdims),
      make({1, 2, 1, 2}, 3, 0, SK::absent, {}, i64, kKeepdims),
      // split scalar: equal chunks, the last one shorter; keepdims ignored.
      make({5}, 0, std::nullopt, SK::scalar, {2}, i64, kScalar),
      make({5}, 0, 0, SK::scalar, {2}, i64, kIgnored),
      make({2, 4}, 1, 1, SK::scalar, {2}, i64, kScalar),
      make({2, 5}, -1, std::nullopt, SK::scalar, {3}, i64, kScalar),
      make({5}, 0, std::nullopt, SK::scalar, {7}, i64, kScalar),
      make({3}, 0, 0, SK::scalar, {1}, i64, kIgnored),
      make({5}, 0, std::nullopt, SK::scalar, {5}, i64, kScalar),
      make({4}, 0, std::nullopt, SK::scalar, {2}, i32, kScalar),
      make({0, 2}, 0, std::nullopt, SK::scalar, {2}, i64, kScalar),
      make({1, 2, 3, 2}, 2, std::nullopt, SK::scalar, {2}, i64, kScalar),
      // split 1-D: one chunk per entry; keepdims ignored.
      make({5}, 0, 0, SK::list, {2, 3}, i64, kIgnored),
      make({2, 4}, 1, std::nullopt, SK::list, {1, 1, 2}, i64, kList),
      make({3, 2}, 0, std::nullopt, SK::list, {3}, i64, kList),
      make({2, 3}, -1, std::nullopt, SK::list, {1, 2}, i32, kList),
      make({2, 3, 2}, 1, std::nullopt, SK::list, {1, 2}, i64, kList),
      ambiguous(make({3}, 0, std::nullopt, SK::list, {1, 0, 2}, i64, kPositive),
                ErrorCode::split_zero, kZeroEntries),
      ambiguous(make({0, 2}, 0, std::nullopt, SK::list, {0, 0, 0}, i64, kPositive),
                ErrorCode::split_zero, kZeroEntries),
  };
}

std::vector<Config> reject_configs() {
  using SK = SplitKind;
  const auto i64 = DataType::int64;
  return {
      rejected(make({2, 3}, 2, std::nullopt, SK::absent, {}, i64, kAxis),
               ErrorCode::axis_out_of_range),
      rejected(make({2, 3}, -3, std::nullopt, SK::absent, {}, i64, kAxis),
               ErrorCode::axis_out_of_range),
      rejected(make({}, 0, std::nullopt, SK::absent, {}, i64, kAxis), ErrorCode::axis_out_of_range),
      rejected(make({5}, 0, std::nullopt, SK::scalar, {-1}, i64, kPositive),
               ErrorCode::split_negative),
      ambiguous(rejected(make({5}, 0, std::nullopt, SK::scalar, {0}, i64, kPositive),
                         ErrorCode::split_zero),
                ErrorCode::split_zero, kScalarZero),
      rejected(make({5}, 0, std::nullopt, SK::list, {2, -1, 4}, i64, kPositive),
               ErrorCode::split_negative),
      rejected(make({5}, 0, std::nullopt, SK::list, {2, 2}, i64, kSum),
               ErrorCode::split_sum_mismatch),
      rejected(make({5}, 0, std::nullopt, SK::list, {3, 3}, i64, kSum),
               ErrorCode::split_sum_mismatch),
      rejected(make({5}, 0, std::nullopt, SK::list, {}, i64, kSum), ErrorCode::split_empty),
      rejected(make({5}, 0, std::nullopt, SK::rank2, {2, 3}, i64, kShape), ErrorCode::split_rank),
      rejected(make({5}, 0, std::nullopt, SK::scalar, {2}, DataType::float32, kIntegral),
               ErrorCode::split_type),
  };
}

CatalogCase split_case(const Config& k) {
  const DataType dtype = k.dtype;
  CatalogCase c = start_case(kSplitToSequence, k.opset, dtype);
  std::vector<Param> params = {{"split", split_label(k)},
                               {"axis", k.axis ? std::to_string(*k.axis) : "default"},
                               {"keepdims", k.keepdims ? std::to_string(*k.keepdims) : "default"},
                               {"shape", dims_string(k.shape)},
                               {"dtype", type_label(dtype)}};
  if (k.kind != SplitKind::absent) params.push_back({"stype", type_label(k.stype)});
  if (k.opset != 11) params.push_back({"opset", std::to_string(k.opset)});
  if (k.edge_values) params.push_back({"values", "edge"});
  if (k.bits) params.push_back({"values", k.bits->value});
  c.params = kKeys.order(std::move(params));
  c.spec = k.spec;
  c.error = k.error;
  c.ambiguous = k.ambiguous;
  c.strict_error = k.strict_error;
  if (!k.ambiguity.empty()) c.ambiguity = k.ambiguity;

  const KeyTensor input = k.edge_values ? edge_key_tensor(k.shape)
                          : k.bits      ? KeyTensor{k.shape, bits_key_tensor().keys}
                                        : key_tensor(k.shape, 1);
  if (k.bits) c.encoding = k.bits->encoding;
  c.inputs = {{"input", materialize(dtype, input)}};
  std::vector<std::string> node_inputs = {"input"};
  if (k.kind != SplitKind::absent) {
    const auto len = static_cast<int64_t>(k.split.size());
    const Shape split_shape = k.kind == SplitKind::scalar ? Shape{}
                              : k.kind == SplitKind::list ? Shape{len}
                                                          : Shape{len, 1};
    c.inputs.push_back({"split", int_tensor(k.stype, split_shape, k.split)});
    node_inputs.push_back("split");
  }
  c.node = model::node(kSplitToSequence, node_inputs, {"output_sequence"});
  if (k.axis) *c.node.add_attribute() = model::int_attribute("axis", *k.axis);
  if (k.keepdims) *c.node.add_attribute() = model::int_attribute("keepdims", *k.keepdims);
  c.output_names = {"output_sequence"};
  c.output_types = {sequence_type(dtype)};
  if (!k.error) {
    const auto chunks = expected_chunks(input, k);
    c.details["chunks"] = shapes_string(chunks);
    c.outputs = {materialize_sequence(dtype, chunks)};
  }
  return c;
}

// The edges SplitToSequence-24 repeats, by their shape, axis, keepdims and split: absent split
// (default, keepdims 0, negative axis, a zero-length axis, rank 3), scalar split (uneven,
// keepdims ignored, larger than the axis, int32, on an empty tensor), 1-D split (keepdims
// ignored, int32 with a negative axis) and the two zero-length-part splits.
bool repeated_at_24(const Config& k) {
  const std::string label = split_label(k) + "/" + dims_string(k.shape) + "/" +
                            (k.axis ? std::to_string(*k.axis) : "default") + "/" +
                            (k.keepdims ? std::to_string(*k.keepdims) : "default");
  static const std::set<std::string> kEdges = {"absent/3x2/default/default",
                                               "absent/3x2/0/0",
                                               "absent/2x3/-1/0",
                                               "absent/2x3x2/-2/1",
                                               "absent/0x3/0/0",
                                               "scalar_2/5/0/default",
                                               "scalar_2/5/0/0",
                                               "scalar_7/5/0/default",
                                               "scalar_2/4/0/default",
                                               "scalar_2/0x2/0/default",
                                               "list_2,3/5/0/0",
                                               "list_1,2/2x3/-1/default",
                                               "list_1,0,2/3/0/default",
                                               "list_0,0,0/0x2/0/default"};
  return kEdges.count(label) > 0;
}

}  // namespace

void add_split_to_sequence_cases(std::vector<CatalogCase>& out) {
  const auto valid = Params<Config>(valid_configs()).combine(&Config::dtype, kAllDataTypes);
  const auto rejects =
      Params<Config>(reject_configs()).combine(&Config::dtype, kRepresentativeTypes);
  for (const auto& configs : {valid, rejects})
    for (const Config& k : configs) kKeys.add(out, split_case(k));
  // SplitToSequence-24 over the 16 types.
  std::vector<Config> at_24;
  for (Config k : valid_configs())
    if (repeated_at_24(k)) {
      k.opset = 24;
      at_24.push_back(k);
    }
  for (const Config& k : Params<Config>(at_24).combine(&Config::dtype, kCarriedDataTypes)) {
    CatalogCase c = split_case(k);
    c.stage = 1;
    kKeys.add(out, std::move(c));
  }
  // bfloat16 at version 11: T ("Constrain input types to all tensor types.") lists
  // all_tensor_types(), without it.
  Config bf16 = rejected(
      make({3, 2}, std::nullopt, std::nullopt, SplitKind::absent, {}, DataType::int64, kInputTypes),
      ErrorCode::element_type_not_allowed);
  bf16.dtype = DataType::bfloat16;
  CatalogCase c = split_case(bf16);
  c.stage = 1;
  kKeys.add(out, std::move(c));
  // Edge values (values=edge): an input of shape [2, 4] holding the four edge values of each
  // type twice (infinities, NaN, integer extremes, strings with NUL bytes), split along axis 1
  // into [1, 3]: the chunks must hold them unchanged, wherever they start in the input.
  Config edge = make({2, 4}, 1, std::nullopt, SplitKind::list, {1, 3}, DataType::int64, kList);
  edge.edge_values = true;
  for (const Config& k : Params<Config>({edge}).combine(&Config::dtype, kAllDataTypes)) {
    CatalogCase e = split_case(k);
    e.stage = 3;
    kKeys.add(out, std::move(e));
  }
  // Values that show a lossy copy (values=bits, and bits_typed in the typed fields): an input of
  // shape [4, 4] holding the sixteen bits values of each type, split along axis 1 into [1, 3];
  // the chunks must hold them bit for bit. bfloat16 at version 24, the first to allow it.
  for (const BitsVariant& variant : kBitsVariants) {
    Config bits = make({4, 4}, 1, std::nullopt, SplitKind::list, {1, 3}, DataType::int64, kList);
    bits.bits = &variant;
    std::vector<Config> configs;
    for (const Config& k : Params<Config>({bits}).combine(&Config::dtype, kAllDataTypes))
      if (bits_variant_applies(variant, k.dtype)) configs.push_back(k);
    bits.dtype = DataType::bfloat16;
    bits.opset = 24;
    configs.push_back(bits);
    for (const Config& k : configs) {
      CatalogCase b = split_case(k);
      b.stage = 4;
      kKeys.add(out, std::move(b));
    }
  }
}

}  // namespace seqconf::catalog
