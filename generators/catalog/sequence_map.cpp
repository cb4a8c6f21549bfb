// SequenceMap-17 cases. Most bodies use only Identity and Shape, which accept the 15 types and
// which every runtime has, so every body runs for every element type; bodies with one output
// per input show which value each iteration received. Two bodies hold constants, where
// runtimes fold or hoist nodes out of the body: `constant` (a Constant node as a body output,
// every type) and `add_folded` (Constant c, Add(c, c), then Add(x0, c + c): a foldable
// subexpression, for the numeric types of Add-14). Three bodies hold the operators that bodies
// exported from frameworks use: `cast_concat` (Reshape to 1-D, Cast to float, Concat a Constant:
// the types Cast takes to float but string), `gather_first` (Reshape to 1-D, Gather index 0:
// every type) and `less_zero` (Reshape to 1-D, Less than a Constant 0: Less-13's numeric types).
// ID: SequenceMap/body=<identity|identity2|identity3|identity_tensor|identity_outer|shape|
//     identity_shape|constant|add_folded|cast_concat|gather_first|less_zero>
//     /inputs=<seq|seq,seq|seq,tensor|seq,seq,seq>/dtype=<T>/n=<samples>[/lengths=<a,b,..>]
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"
#include "reference/proto.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const char* const kSequenceMap = "SequenceMap";
const IdKeys kKeys = {"body", "inputs", "dtype", "n", "lengths", "values"};
const SpecPassage kApplied = spec_passage({"SequenceMap.per_sample"});
const SpecPassage kLength = spec_passage({"SequenceMap.sample_count"});
const SpecPassage kSameSamples = spec_passage({"SequenceMap.same_samples"});
const SpecPassage kTensors = spec_passage({"SequenceMap.inputs"});
const SpecPassage kOrder = spec_passage({"SequenceMap.order"});
const SpecPassage kBody = spec_passage({"SequenceMap.body"});

// A body graph: inputs x0.. (one per node input, typed as one sample), output yj computed by
// nodes[j] = (operator, input) with Identity or Shape; "outer" is a name of the enclosing graph.
struct Body {
  std::string name;
  // (operator, input): Identity or Shape of x<k> or "outer"; Constant (no input) for the
  // constant tensor kConstant; AddFolded for Add(x0, Add(c, c)) with c the scalar kAddend;
  // CastConcat, GatherFirst and LessZero for the node chains of the bodies of the same names.
  std::vector<std::pair<std::string, std::string>> nodes;
  bool tensor_input;                  // the node's last input is a tensor, not a sequence
  std::vector<Shape> further_shapes;  // elements of the further sequence inputs
  SpecPassage spec;
  SpecPassage spec_no_samples;  // for an empty first sequence
};

const Body& body_named(const std::string& name) {
  const std::vector<Shape> mixed = {{1}, {2}, {0}};
  static const std::vector<Body> bodies = {
      {"identity", {{"Identity", "x0"}}, false, mixed, kApplied, kLength},
      {"identity2",
       {{"Identity", "x0"}, {"Identity", "x1"}},
       false,
       {{3}, {0}, {1, 1}},
       kSameSamples,
       kSameSamples},
      {"identity3",
       {{"Identity", "x0"}, {"Identity", "x1"}, {"Identity", "x2"}},
       false,
       mixed,
       kSameSamples,
       kSameSamples},
      // A tensor input is passed whole to every iteration.
      {"identity_tensor",
       {{"Identity", "x0"}, {"Identity", "x1"}},
       true,
       mixed,
       kTensors,
       kTensors},
      {"identity_outer", {{"Identity", "x0"}, {"Identity", "outer"}}, false, mixed, kBody, kBody},
      {"shape", {{"Shape", "x0"}}, false, mixed, kOrder, kLength},
      {"identity_shape", {{"Identity", "x0"}, {"Shape", "x0"}}, false, mixed, kOrder, kLength},
      {"constant", {{"Identity", "x0"}, {"Constant", ""}}, false, mixed, kApplied, kLength},
      {"add_folded", {{"AddFolded", "x0"}}, false, mixed, kApplied, kLength},
      {"cast_concat", {{"CastConcat", "x0"}}, false, mixed, kApplied, kLength},
      {"gather_first", {{"GatherFirst", "x0"}}, false, mixed, kApplied, kLength},
      {"less_zero", {{"LessZero", "x0"}}, false, mixed, kApplied, kLength},
  };
  for (const Body& b : bodies)
    if (b.name == name) return b;
  throw std::logic_error("catalog: no SequenceMap body " + name);
}

// Elements of the k-th further sequence input (k = 1, 2): keys distinct from the first's.
std::vector<KeyTensor> further_elements(const Body& b, size_t k, size_t n) {
  std::vector<KeyTensor> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(key_tensor(b.further_shapes.at(i), static_cast<int>(60 + 20 * (k - 1) + 5 * i)));
  return v;
}

// Add-14's T: every numeric type (not bool, string or complex).
constexpr bool addable_type(DataType d) {
  return d != DataType::string && d != DataType::bool_ && d != DataType::complex64 &&
         d != DataType::complex128;
}

// The value of the body's Constant node, and the scalar c of add_folded.
const KeyTensor kConstant = key_tensor({2}, 98);
constexpr int kAddend = 3;

// x + 2 * kAddend elementwise, on the values of the element type (Add-14's numeric types).
Tensor plus_twice_addend(const Tensor& x) {
  return visit_dtype(x.dtype(), [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (!addable_type(D)) {
      throw std::logic_error("catalog: add_folded on a type Add does not take");
    } else {
      std::vector<T> v;
      for (size_t i = 0; i < x.element_count(); ++i) {
        if constexpr (is_half_v<T>)
          v.push_back(half_from_float<T>(half_to_float(x.data<T>()[i]) + 2 * kAddend));
        else
          v.push_back(static_cast<T>(x.data<T>()[i] + 2 * kAddend));
      }
      return Tensor::from_values<D>(x.shape(), std::move(v));
    }
  });
}

// The scalar c of add_folded.
Tensor addend(DataType d) {
  return visit_dtype(d, [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    if constexpr (is_half_v<storage_t<D>>)
      return Tensor::from_values<D>({},
                                    {half_from_float<storage_t<D>>(static_cast<float>(kAddend))});
    else if constexpr (addable_type(D))
      return Tensor::from_values<D>({}, {static_cast<storage_t<D>>(kAddend)});
    else
      throw std::logic_error("catalog: add_folded on a type Add does not take");
  });
}

Tensor shape_tensor(const Shape& s) {
  return Tensor::from_values<DataType::int64>({static_cast<int64_t>(s.size())}, s);
}

// The Constant that cast_concat appends to each sample.
const Tensor kAppended = Tensor::from_values<DataType::float32>({2}, {0.5f, -2.5f});

// A sample as a 1-D tensor (Reshape to [-1]: "At most one dimension of the new shape can be -1.
// In this case, the value is inferred from the size of the tensor and the remaining
// dimensions."), by its keys.
KeyTensor flat(const KeyTensor& x) { return {{static_cast<int64_t>(x.keys.size())}, x.keys}; }

// fn applied to each element of the flattened sample in type d, in order.
template <class R, class Fn>
std::vector<R> each_element(DataType d, const KeyTensor& x, Fn fn) {
  return visit_dtype(d, [&](auto tag) {
    using T = storage_t<decltype(tag)::value>;
    const Tensor t = materialize(d, flat(x));
    std::vector<R> out;
    for (size_t i = 0; i < t.element_count(); ++i) out.push_back(fn(t.data<T>()[i]));
    return out;
  });
}

// Cast to float (Cast-13: bool "{1.0, 0.0}"; integers and double to the nearest float; float16
// exactly), then the Constant appended (Concat on axis 0).
Tensor cast_concat(DataType d, const KeyTensor& x) {
  std::vector<float> v = each_element<float>(d, x, [](const auto& e) -> float {
    using T = std::decay_t<decltype(e)>;
    if constexpr (is_half_v<T>)
      return half_to_float(e);
    else if constexpr (std::is_arithmetic_v<T>)
      return static_cast<float>(e);
    else
      throw std::logic_error("catalog: cast_concat on a type Cast does not take to float");
  });
  for (size_t i = 0; i < kAppended.element_count(); ++i) v.push_back(kAppended.data<float>()[i]);
  const auto n = static_cast<int64_t>(v.size());
  return Tensor::from_values<DataType::float32>({n}, std::move(v));
}

// Less(x, 0) element by element on the flattened sample: true for the negative values.
Tensor less_zero(DataType d, const KeyTensor& x) {
  std::vector<uint8_t> v = each_element<uint8_t>(d, x, [](const auto& e) -> uint8_t {
    using T = std::decay_t<decltype(e)>;
    if constexpr (is_half_v<T>)
      return half_to_float(e) < 0.0f;
    else if constexpr (std::is_arithmetic_v<T>)  // bool (stored as uint8) never reaches here
      return e < T(0);
    else
      throw std::logic_error("catalog: less_zero on a type Less does not take");
  });
  const auto n = static_cast<int64_t>(v.size());
  return Tensor::from_values<DataType::bool_>({n}, std::move(v));
}

// Types of the three bodies: Cast-13's T1 without complex and string (a string of a key is no
// numeric literal); Less-13's numeric types; Gather every type.
constexpr bool castable_to_float(DataType d) {
  return d != DataType::string && d != DataType::complex64 && d != DataType::complex128;
}
constexpr bool less_type(DataType d) { return addable_type(d); }

// A scalar 0 of a numeric type.
Tensor zero_of(DataType d) {
  return visit_dtype(d, [](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (is_half_v<T>)
      return Tensor::from_values<D>({}, {half_from_float<T>(0.0f)});
    else if constexpr (std::is_arithmetic_v<T>)
      return Tensor::from_values<D>({}, {T(0)});
    else
      throw std::logic_error("catalog: no numeric zero of this type");
  });
}

// The node chain of a body operator that expands to several nodes (input `in`, output `out`).
void add_chain(onnx::GraphProto& g, const std::string& op, const std::string& in,
               const std::string& out, DataType dtype) {
  auto constant = [&](const std::string& name, const Tensor& value) {
    onnx::NodeProto n = model::node("Constant", {}, {name});
    *n.add_attribute() =
        model::tensor_attribute("value", tensor_to_proto(value, TensorEncoding::raw_data));
    *g.add_node() = std::move(n);
  };
  constant(out + "_shape", Tensor::from_values<DataType::int64>({1}, {-1}));
  *g.add_node() = model::node("Reshape", {in, out + "_shape"}, {out + "_flat"});
  if (op == "CastConcat") {
    onnx::NodeProto cast = model::node("Cast", {out + "_flat"}, {out + "_float"});
    *cast.add_attribute() = model::int_attribute("to", static_cast<int64_t>(DataType::float32));
    *g.add_node() = std::move(cast);
    constant(out + "_appended", kAppended);
    onnx::NodeProto concat = model::node("Concat", {out + "_float", out + "_appended"}, {out});
    *concat.add_attribute() = model::int_attribute("axis", 0);
    *g.add_node() = std::move(concat);
  } else if (op == "GatherFirst") {
    constant(out + "_index", Tensor::from_values<DataType::int64>({}, {0}));
    *g.add_node() = model::node("Gather", {out + "_flat", out + "_index"}, {out});
  } else if (op == "LessZero") {
    constant(out + "_zero", zero_of(dtype));
    *g.add_node() = model::node("Less", {out + "_flat", out + "_zero"}, {out});
  } else {
    throw std::logic_error("catalog: no body chain " + op);
  }
}

struct Config {
  std::string body;
  std::vector<size_t> lengths;  // tensors in each sequence input (the first fixes the samples)
  DataType dtype = DataType::float32;
  const BitsVariant* bits = nullptr;  // samples hold the bits values (values=bits, ...)
};

CatalogCase map_case(const Config& config) {
  const Body& body = body_named(config.body);
  const std::vector<size_t>& lengths = config.lengths;
  const DataType dtype = config.dtype;
  CatalogCase c = start_case(kSequenceMap, 17, dtype);
  const size_t n = lengths.at(0);
  const size_t sequences = lengths.size();

  std::string inputs_label = "seq";
  for (size_t k = 1; k < sequences; ++k) inputs_label += ",seq";
  if (body.tensor_input) inputs_label += ",tensor";
  std::vector<Param> params = {{"body", body.name},
                               {"inputs", inputs_label},
                               {"dtype", type_label(dtype)},
                               {"n", std::to_string(n)}};
  bool same = true;
  for (size_t len : lengths) same = same && len == n;
  if (!same) {
    std::string l;
    for (size_t k = 0; k < lengths.size(); ++k) l += (k ? "," : "") + std::to_string(lengths[k]);
    params.push_back({"lengths", l});
  }
  if (config.bits) {
    params.push_back({"values", config.bits->value});
    c.encoding = config.bits->encoding;
  }
  c.params = kKeys.order(std::move(params));

  // Graph inputs: the sequences, the extra tensor, the outer-scope value.
  std::vector<std::vector<KeyTensor>> seqs = {mixed_elements(n)};
  if (config.bits) {
    seqs[0].clear();
    for (size_t i = 0; i < n; ++i) seqs[0].push_back(bits_key_tensor(i % 2 != 0));
  }
  for (size_t k = 1; k < sequences; ++k) seqs.push_back(further_elements(body, k, lengths[k]));
  const KeyTensor extra = key_tensor({2, 1}, 90);
  const KeyTensor outer = key_tensor({3}, 95);
  std::vector<std::string> node_inputs;
  for (size_t k = 0; k < sequences; ++k) {
    const std::string name = k == 0 ? "input_sequence" : "sequence_" + std::to_string(k);
    c.inputs.push_back({name, materialize_sequence(dtype, seqs[k])});
    node_inputs.push_back(name);
  }
  if (body.tensor_input) {
    c.inputs.push_back({"tensor", materialize(dtype, extra)});
    node_inputs.push_back("tensor");
  }
  bool reads_outer = false;
  for (const auto& node : body.nodes) reads_outer = reads_outer || node.second == "outer";
  if (reads_outer) {
    // Not an input of the node: the body reads it by name from the enclosing graph.
    c.inputs.push_back({"outer", materialize(dtype, outer)});
    c.details["outer_scope"] =
        "the body reads 'outer', a graph input of the enclosing graph (ONNX IR: a nested graph "
        "sees the names of its enclosing scopes)";
  }
  c.details["elements"] = shapes_string(seqs[0]);

  onnx::GraphProto g;
  g.set_name("body");
  for (size_t k = 0; k < node_inputs.size(); ++k)
    *g.add_input() = model::value_info("x" + std::to_string(k), tensor_type(dtype));
  std::vector<DataType> out_types;
  for (size_t j = 0; j < body.nodes.size(); ++j) {
    const auto& [op, input] = body.nodes[j];
    const std::string output = "y" + std::to_string(j);
    if (op == "Constant") {
      onnx::NodeProto n = model::node("Constant", {}, {output});
      *n.add_attribute() = model::tensor_attribute(
          "value", tensor_to_proto(materialize(dtype, kConstant), TensorEncoding::raw_data));
      *g.add_node() = std::move(n);
    } else if (op == "AddFolded") {
      onnx::NodeProto n = model::node("Constant", {}, {"c"});
      *n.add_attribute() = model::tensor_attribute(
          "value", tensor_to_proto(addend(dtype), TensorEncoding::raw_data));
      *g.add_node() = std::move(n);
      *g.add_node() = model::node("Add", {"c", "c"}, {"c_twice"});
      *g.add_node() = model::node("Add", {input, "c_twice"}, {output});
    } else if (op == "CastConcat" || op == "GatherFirst" || op == "LessZero") {
      add_chain(g, op, input, output, dtype);
    } else {
      *g.add_node() = model::node(op, {input}, {output});
    }
    out_types.push_back(op == "Shape"        ? DataType::int64
                        : op == "CastConcat" ? DataType::float32
                        : op == "LessZero"   ? DataType::bool_
                                             : dtype);
    *g.add_output() = model::value_info(output, tensor_type(out_types[j]));
    c.output_names.push_back("out_sequence_" + std::to_string(j));
    c.output_types.push_back(sequence_type(out_types[j]));
  }
  c.node = model::node(kSequenceMap, node_inputs, c.output_names);
  *c.node.add_attribute() = model::graph_attribute("body", std::move(g));

  if (!same) {
    c.spec = kSameSamples;
    bool shorter = false;
    for (size_t len : lengths) shorter = shorter || len < n;
    // "a sample will be extracted from the input sequence(s) at the i-th position": a shorter
    // sequence has none past its end, under both policies.
    if (shorter) {
      c.error = ErrorCode::sequence_length_mismatch;
      return c;
    }
    c.ambiguous = true;
    c.ambiguity = sequence_map_longer_note();
    c.strict_error = ErrorCode::sequence_length_mismatch;
  }
  // Expected outputs: the body applied to each sample, derived on keys. In iteration i, x<k>
  // holds sample i of sequence input k, or the whole tensor input after the sequences.
  const auto value_in = [&](const std::string& name, size_t i) -> const KeyTensor& {
    if (name == "outer") return outer;
    const size_t k = std::stoul(name.substr(1));
    return k < sequences ? seqs[k][i] : extra;
  };
  for (size_t j = 0; j < body.nodes.size(); ++j) {
    const auto& [op, input] = body.nodes[j];
    std::vector<Tensor> out;
    for (size_t i = 0; i < n; ++i) {
      if (op == "Constant") {
        out.push_back(materialize(dtype, kConstant));
        continue;
      }
      const KeyTensor& x = value_in(input, i);
      out.push_back(op == "Shape"         ? shape_tensor(x.shape)
                    : op == "AddFolded"   ? plus_twice_addend(materialize(dtype, x))
                    : op == "CastConcat"  ? cast_concat(dtype, x)
                    : op == "LessZero"    ? less_zero(dtype, x)
                    : op == "GatherFirst" ? materialize(dtype, KeyTensor{{}, {x.keys.at(0)}})
                                          : materialize(dtype, x));
    }
    c.outputs.push_back(Sequence(out_types[j], std::move(out)));
  }
  if (same) c.spec = n == 0 ? body.spec_no_samples : body.spec;
  return c;
}

}  // namespace

void add_sequence_map_cases(std::vector<CatalogCase>& out) {
  const auto samples = Params<Config>{
      {"identity", {3}},        {"identity", {0}},        {"identity2", {3, 3}},
      {"identity2", {0, 0}},    {"identity_tensor", {3}}, {"identity_tensor", {0}},
      {"identity3", {3, 3, 3}}, {"identity_outer", {3}},  {"identity_outer", {0}},
      {"shape", {3}},           {"shape", {0}},           {"identity_shape", {3}},
      {"constant", {3}}}.combine(&Config::dtype, kAllDataTypes);
  // Constants in the body: no samples (float only), and the foldable Add on Add's types.
  std::vector<Config> with_constants = {{"constant", {0}, DataType::float32}};
  for (DataType d : kAllDataTypes)
    if (addable_type(d)) with_constants.push_back({"add_folded", {3}, d});
  // Sequence inputs of different lengths: another one shorter than the first (must-reject), or
  // longer (ambiguous: the lenient expectation reads its first n samples).
  const auto mismatched = Params<Config>{
      {"identity2", {3, 2}},
      {"identity2", {2, 3}},
      {"identity2", {0, 1}},
      {"identity3",
       {3, 3, 2}}}.combine(&Config::dtype, kRepresentativeTypes);
  // Bodies of Reshape, Cast, Concat, Gather and Less, on the types each takes.
  std::vector<Config> with_operators;
  for (DataType d : kAllDataTypes) {
    if (castable_to_float(d))
      for (size_t n : {5, 0}) with_operators.push_back({"cast_concat", {n}, d});
    // Gather index 0 needs an element in every sample: the first three samples have some.
    for (size_t n : {3, 0}) with_operators.push_back({"gather_first", {n}, d});
    if (less_type(d))
      for (size_t n : {5, 0}) with_operators.push_back({"less_zero", {n}, d});
  }
  for (const auto& configs : {samples, mismatched, Params<Config>(with_constants)})
    for (const Config& config : configs) kKeys.add(out, map_case(config));
  for (const Config& config : with_operators) {
    CatalogCase c = map_case(config);
    c.stage = 2;
    kKeys.add(out, std::move(c));
  }
  // Values that show a lossy copy (values=bits, and bits_typed in the typed fields): two samples
  // of shape [16] holding the sixteen bits values of each type, in turn and reversed, through
  // the Identity body: the output sequence must hold them bit for bit.
  for (const BitsVariant& variant : kBitsVariants)
    for (DataType d : kAllDataTypes) {
      if (!bits_variant_applies(variant, d)) continue;
      Config config{"identity", {2}, d};
      config.bits = &variant;
      CatalogCase c = map_case(config);
      c.stage = 4;
      kKeys.add(out, std::move(c));
    }
  // bfloat16: S ("Constrain input types to any sequence type.") lists
  // all_tensor_sequence_types(), without it; the Identity body itself would take it.
  CatalogCase bf16 = map_case({"identity", {2}, DataType::bfloat16});
  bf16.outputs.clear();
  bf16.error = ErrorCode::element_type_not_allowed;
  bf16.spec = spec_passage({"SequenceMap.sequence_types"});
  bf16.stage = 1;
  kKeys.add(out, std::move(bf16));
}

}  // namespace seqconf::catalog
