// Shared case-building code of the catalog: keyed values, IDs and folders, models, files,
// static checks (models by reference/model_builder, files by cases/case_json, checks by
// harness/static_checks).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

#include "generators/catalog/catalog.h"
#include "generators/catalog/context.h"
#include "reference/bits.h"
#include "reference/interpreter/interpreter.h"
#include "reference/model_builder.h"
#include "reference/proto.h"

namespace seqconf::catalog {

namespace {

// Keys stay small so every integer type holds the value of every key.
constexpr int kMaxKey = 127;

// The value of key k for type D. Distinct keys give distinct values (bool: a fixed pattern).
// Signs alternate, and the wide integer types use their high bytes, so a runtime that narrows
// or drops the sign is caught.
template <DataType D>
storage_t<D> value_of(int k) {
  using T = storage_t<D>;
  const bool odd = k % 2 != 0;
  if constexpr (D == DataType::string) {
    if (k == 7) return std::string();
    if (k % 5 == 3) return "\xc3\xa9" + std::to_string(k);  // "é<k>": non-ASCII UTF-8
    return "s" + std::to_string(k);
  } else if constexpr (D == DataType::bool_) {
    return static_cast<T>(k % 3 == 1 || k % 5 == 0);
  } else if constexpr (is_half_v<T>) {
    // k + 0.5 is exact in float16 (11 significant bits) and bfloat16 (8) for every k <= 127.
    return half_from_float<T>(odd ? -(static_cast<float>(k) + 0.5f) : static_cast<float>(k) + 0.5f);
  } else if constexpr (D == DataType::float32) {
    return odd ? -(static_cast<float>(k) + 0.25f) : static_cast<float>(k) + 0.25f;
  } else if constexpr (D == DataType::float64) {
    return odd ? -(k + 0.1) : k + 0.1;
  } else if constexpr (D == DataType::complex64) {
    return T(static_cast<float>(k) + 0.25f, -(static_cast<float>(k) + 0.5f));
  } else if constexpr (D == DataType::complex128) {
    return T(k + 0.1, -k);
  } else if constexpr (D == DataType::int64) {
    const int64_t v = (int64_t{k} << 33) + k;
    return odd ? -v : v;
  } else if constexpr (D == DataType::uint64) {
    return (uint64_t(k) << 40) + uint64_t(k);
  } else if constexpr (D == DataType::uint32) {
    return (uint32_t(k) << 20) + uint32_t(k);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(odd ? -k : k);
  } else {
    return static_cast<T>(k);
  }
}

// The edge values: per type, kEdgeKeys values a runtime's own tensor handling is likely to lose
// (the extremes of integer types, infinities and NaN, strings holding NUL bytes and 4-byte
// UTF-8), each to come back unchanged from operators that only move tensors.
template <DataType D>
storage_t<D> edge_value(int j) {
  using T = storage_t<D>;
  if constexpr (D == DataType::string) {
    static const std::string kStrings[kEdgeKeys] = {std::string("nul\0inside", 10),
                                                    std::string(1, '\0'), std::string("tail\0", 5),
                                                    "\xe2\x82\xac\xf0\x9f\x98\x80"};
    return kStrings[j];
  } else if constexpr (D == DataType::bool_) {
    return static_cast<T>(j % 2 == 0);
  } else if constexpr (is_half_v<T>) {
    // Infinities, NaN and the largest finite value (float16 65504, bfloat16 0x7f7f).
    const float largest = D == DataType::float16 ? 65504.0f : 3.38953139e38f;
    const float v[kEdgeKeys] = {std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::quiet_NaN(), -largest};
    return half_from_float<T>(v[j]);
  } else if constexpr (D == DataType::float32 || D == DataType::float64) {
    const T v[kEdgeKeys] = {std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                            std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::lowest()};
    return v[j];
  } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
    using R = typename T::value_type;
    const T v[kEdgeKeys] = {
        T(std::numeric_limits<R>::infinity(), -std::numeric_limits<R>::infinity()),
        T(std::numeric_limits<R>::quiet_NaN(), 1),
        T(std::numeric_limits<R>::max(), std::numeric_limits<R>::lowest()),
        T(1, std::numeric_limits<R>::quiet_NaN())};
    return v[j];
  } else if constexpr (std::is_signed_v<T>) {
    const T v[kEdgeKeys] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(-1),
                            T(std::numeric_limits<T>::min() + 1)};
    return v[j];
  } else {
    // Unsigned: the largest, the top bit alone (2^63 for uint64: negative if read as signed),
    // the top bit and 1, zero.
    const T top = T(T(1) << (8 * sizeof(T) - 1));
    const T v[kEdgeKeys] = {std::numeric_limits<T>::max(), top, T(top + 1), T(0)};
    return v[j];
  }
}

// The values that show a lossy copy (catalog.h, kBitsKey), by their bits where the type is
// floating, so each is exactly the pattern named.
// binary32 and binary64, in the order of the keys: -0.0; quiet NaN with payload 1; negative
// quiet NaN with another payload; signalling NaN with payload 1; negative signalling NaN; the
// smallest subnormal; the largest; the negative smallest; the smallest normal; the largest
// finite; the lowest; 1 - ulp; 1 + ulp; +inf; -inf; an inexact fraction (0.2f, 0.1).
constexpr uint32_t kFloatBits[kBitsKeys] = {0x80000000u, 0x7fc00001u, 0xffc12345u, 0x7f800001u,
                                            0xff812345u, 0x00000001u, 0x007fffffu, 0x80000001u,
                                            0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f7fffffu,
                                            0x3f800001u, 0x7f800000u, 0xff800000u, 0x3e4ccccdu};
constexpr uint64_t kDoubleBits[kBitsKeys] = {
    0x8000000000000000ull, 0x7ff8000000000001ull, 0xfff8000000012345ull, 0x7ff0000000000001ull,
    0xfff0000000012345ull, 0x0000000000000001ull, 0x000fffffffffffffull, 0x8000000000000001ull,
    0x0010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x3fefffffffffffffull,
    0x3ff0000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x3fb999999999999aull};
// binary16 (quiet bit 0x0200) and bfloat16 (quiet bit 0x0040), the same list.
constexpr uint16_t kFloat16Bits[kBitsKeys] = {0x8000, 0x7e01, 0xfe45, 0x7c01, 0xfc45, 0x0001,
                                              0x03ff, 0x8001, 0x0400, 0x7bff, 0xfbff, 0x3bff,
                                              0x3c01, 0x7c00, 0xfc00, 0x3555};
constexpr uint16_t kBFloat16Bits[kBitsKeys] = {0x8000, 0x7fc1, 0xffc5, 0x7f81, 0xff85, 0x0001,
                                               0x007f, 0x8001, 0x0080, 0x7f7f, 0xff7f, 0x3f7f,
                                               0x3f81, 0x7f80, 0xff80, 0x3e4d};

template <DataType D>
storage_t<D> bits_value(int j) {
  using T = storage_t<D>;
  if constexpr (D == DataType::string) {
    static const std::string kStrings[8] = {std::string(),
                                            std::string("nul\0inside", 10),
                                            std::string(1, '\0'),
                                            "\xff\xfe",      // never valid UTF-8
                                            "\xc3",          // a 2-byte sequence cut short
                                            "\xed\xa0\x80",  // a UTF-16 surrogate, invalid in UTF-8
                                            std::string(100000, 'x'),
                                            "\xc0\x80"};  // an overlong NUL
    return j < 8 ? kStrings[j] : "b" + std::to_string(j);
  } else if constexpr (D == DataType::bool_) {
    return static_cast<T>(j % 2 == 0);
  } else if constexpr (D == DataType::float16) {
    return T{kFloat16Bits[j]};
  } else if constexpr (D == DataType::bfloat16) {
    return T{kBFloat16Bits[j]};
  } else if constexpr (D == DataType::float32) {
    return bit_cast<float>(kFloatBits[j]);
  } else if constexpr (D == DataType::float64) {
    return bit_cast<double>(kDoubleBits[j]);
  } else if constexpr (D == DataType::complex64) {
    // Each pattern once as a real part, once as an imaginary part.
    return T(bit_cast<float>(kFloatBits[j]), bit_cast<float>(kFloatBits[kBitsKeys - 1 - j]));
  } else if constexpr (D == DataType::complex128) {
    return T(bit_cast<double>(kDoubleBits[j]), bit_cast<double>(kDoubleBits[kBitsKeys - 1 - j]));
  } else if constexpr (std::is_signed_v<T>) {
    using L = std::numeric_limits<T>;
    const T v[8] = {L::min(),        L::max(), T(-1), T(L::min() + 1),
                    T(L::max() - 1), T(0),     T(1),  T(L::min() / 2)};
    return v[j % 8];
  } else {
    using L = std::numeric_limits<T>;
    const T top = T(T(1) << (8 * sizeof(T) - 1));
    const T v[8] = {L::max(),        top,        T(top + 1),     T(0), T(1),
                    T(L::max() - 1), T(top - 1), T(L::max() / 3)};
    return v[j % 8];
  }
}

size_t count_of(const Shape& s) {
  size_t n = 1;
  for (int64_t d : s) n *= static_cast<size_t>(d);
  return n;
}

std::string snake_case(const std::string& op) {
  std::string s;
  for (char ch : op) {
    if (std::isupper(static_cast<unsigned char>(ch))) {
      if (!s.empty()) s += '_';
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else {
      s += ch;
    }
  }
  return s;
}

}  // namespace

KeyTensor key_tensor(Shape shape, int first_key) {
  KeyTensor t{std::move(shape), {}};
  const size_t n = count_of(t.shape);
  for (size_t i = 0; i < n; ++i) t.keys.push_back(first_key + static_cast<int>(i));
  return t;
}

KeyTensor edge_key_tensor(Shape shape) {
  KeyTensor t{std::move(shape), {}};
  const size_t n = count_of(t.shape);
  for (size_t i = 0; i < n; ++i) t.keys.push_back(kEdgeKey + static_cast<int>(i % kEdgeKeys));
  return t;
}

KeyTensor bits_key_tensor(bool reversed) {
  KeyTensor t{{kBitsKeys}, {}};
  for (int j = 0; j < kBitsKeys; ++j)
    t.keys.push_back(kBitsKey + (reversed ? kBitsKeys - 1 - j : j));
  return t;
}

Tensor materialize(DataType dtype, const KeyTensor& t) {
  if (t.keys.size() != count_of(t.shape))
    throw std::logic_error("catalog: key tensor with " + std::to_string(t.keys.size()) +
                           " keys for shape " + shape_to_string(t.shape));
  return visit_dtype(dtype, [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> v;
    for (int k : t.keys) {
      if (k >= kEdgeKey && k < kEdgeKey + kEdgeKeys) {
        v.push_back(edge_value<D>(k - kEdgeKey));
        continue;
      }
      if (k >= kBitsKey && k < kBitsKey + kBitsKeys) {
        v.push_back(bits_value<D>(k - kBitsKey));
        continue;
      }
      if (k < 0 || k > kMaxKey) throw std::logic_error("catalog: key out of range");
      v.push_back(value_of<D>(k));
    }
    return Tensor::from_values<D>(t.shape, std::move(v));
  });
}

Sequence materialize_sequence(DataType dtype, const std::vector<KeyTensor>& tensors) {
  std::vector<Tensor> v;
  for (const auto& t : tensors) v.push_back(materialize(dtype, t));
  return Sequence(dtype, std::move(v));
}

KeyTensor chunk_along(const KeyTensor& input, size_t axis, int64_t start, int64_t length) {
  // Row-major: element (o, j, i) with o over the axes before `axis`, j along it, i after it.
  size_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= static_cast<size_t>(input.shape[a]);
  for (size_t a = axis + 1; a < input.shape.size(); ++a)
    inner *= static_cast<size_t>(input.shape[a]);
  const auto d = static_cast<size_t>(input.shape[axis]);
  KeyTensor out{input.shape, {}};
  out.shape[axis] = length;
  for (size_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < length; ++j)
      for (size_t i = 0; i < inner; ++i)
        out.keys.push_back(input.keys[(o * d + static_cast<size_t>(start + j)) * inner + i]);
  return out;
}

Tensor int_tensor(DataType dtype, Shape shape, const std::vector<int64_t>& values) {
  if (dtype == DataType::int32) {
    std::vector<int32_t> v(values.begin(), values.end());
    return Tensor::from_values<DataType::int32>(std::move(shape), std::move(v));
  }
  if (dtype == DataType::int16) {
    std::vector<int16_t> v(values.begin(), values.end());
    return Tensor::from_values<DataType::int16>(std::move(shape), std::move(v));
  }
  if (dtype == DataType::float32) {
    std::vector<float> v(values.begin(), values.end());
    return Tensor::from_values<DataType::float32>(std::move(shape), std::move(v));
  }
  return Tensor::from_values<DataType::int64>(std::move(shape), values);
}

Tensor int_scalar(DataType dtype, int64_t v) { return int_tensor(dtype, {}, {v}); }

std::string folder_for_id(const std::string& id) {
  const size_t slash = id.find('/');
  std::string f = "test_" + snake_case(id.substr(0, slash));
  for (size_t i = slash; i != std::string::npos && i < id.size(); ++i) {
    const char ch = id[i];
    if (ch == '/')
      f += "__";
    else if (ch == '=')
      f += '-';
    else if (ch == '-')
      f += 'm';
    else if (ch == ',')
      f += 'x';
    else if (ch == '+')
      f += 'p';
    else
      f += ch;
  }
  return f;
}

std::string CatalogCase::id() const {
  std::string s = op;
  for (const auto& p : params) s += "/" + p.key + "=" + p.value;
  return s;
}

std::string CatalogCase::folder() const { return folder_for_id(id()); }

onnx::ModelProto build_model(const CatalogCase& c) { return build_context_model(c); }

CaseJson case_json(const CatalogCase& c) {
  CaseJson j;
  j.id = c.id();
  j.op = c.op;
  j.opset = c.opset;
  j.dtype = std::string(dtype_name(c.dtype));
  if (c.error) j.expected_error = std::string(error_code_name(*c.error));
  if (c.ambiguous) {
    j.has_strict_expectation = true;
    if (c.strict_error) j.strict_expected_error = std::string(error_code_name(*c.strict_error));
  }
  const onnx::ModelProto model = build_model(c);
  // Valid cases say how their outputs compare: bit for bit unless the model computes values.
  if (!c.error) j.comparison = comparison_rule("corpus", model.graph());
  j.spec = c.spec.text;
  j.clauses = c.spec.clauses;
  j.clarity = c.ambiguous ? "ambiguous" : "normative";
  if (c.ambiguous) j.ambiguity = c.ambiguity;
  // Whether ONNX's static checks already see the problem: a must-reject case that fails them
  // may be rejected when the model is loaded rather than when it runs.
  j.static_not_applicable = static_checks_not_applicable(model);
  if (j.static_not_applicable.empty()) {
    const StaticCheck s = static_check(c);
    j.check_model_passes = s.checker_ok;
    j.shape_inference_passes = s.inference_ok;
  }
  for (const auto& p : c.params) j.params[p.key] = p.value;
  for (const auto& [k, v] : c.details.items()) j.params[k] = v;
  for (const auto& in : fed_inputs(c)) j.inputs.push_back(in.name);
  j.outputs = c.output_names;
  return j;
}

std::map<std::string, std::string> case_files(const CatalogCase& c) {
  std::vector<Value> inputs;
  for (const auto& in : fed_inputs(c)) inputs.push_back(in.value);
  return case_folder_files(build_model(c), inputs, c.outputs, case_json(c), c.encoding);
}

StaticCheck static_check(const CatalogCase& c) {
  // In a sandbox: ONNX 1.12's shape inference divides by zero on a constant scalar split of 0
  // (fixtures/onnx_crashes), which the initializers and constant_nodes contexts build. One
  // sandbox for the process, results kept per case (case.json and the findings both ask).
  static std::mutex mutex;
  static std::unique_ptr<StaticCheckSandbox> sandbox;
  static std::map<std::string, StaticCheck> done;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = done.find(c.id()); it != done.end()) return it->second;
  if (!sandbox) sandbox = std::make_unique<StaticCheckSandbox>();
  return done[c.id()] = sandbox->check(build_model(c), c.outputs);
}

std::vector<std::string> static_findings() {
  std::vector<std::string> out;
  for (const auto& c : all_cases()) {
    if (!static_checks_not_applicable(build_model(c)).empty()) continue;
    const StaticCheck r = static_check(c);
    for (const auto& f : r.crashes) out.push_back(c.id() + ": " + f.check + ": " + f.message);
    if (c.must_reject()) continue;
    if (!r.checker_ok && r.crashes.empty())
      out.push_back(c.id() + ": check_model rejects a valid case: " + r.checker_message);
    if (!r.inference_ok && r.crashes.empty())
      out.push_back(c.id() + ": shape inference fails on a valid case: " + r.inference_message);
    for (const auto& d : r.contradictions) out.push_back(c.id() + ": shape inference: " + d);
  }
  return out;
}

const std::vector<CatalogCase>& all_cases() {
  static const std::vector<CatalogCase> cases = [] {
    std::vector<CatalogCase> v;
    add_sequence_at_cases(v);
    add_sequence_erase_cases(v);
    add_sequence_insert_cases(v);
    add_split_to_sequence_cases(v);
    add_sequence_map_cases(v);
    add_concat_from_sequence_cases(v);
    add_sequence_construct_cases(v);
    add_sequence_empty_cases(v);
    add_sequence_length_cases(v);
    for (size_t i = 0, n = v.size(); i < n; ++i)
      if (auto e = with_empty_name(v[i])) v.push_back(std::move(*e));
    const auto by_id = [](const CatalogCase& a, const CatalogCase& b) { return a.id() < b.id(); };
    std::sort(v.begin(), v.end(), by_id);
    v = in_sampled_contexts(v);
    add_pattern_cases(v);
    add_machinery_cases(v);
    std::sort(v.begin(), v.end(), by_id);
    std::set<std::string> ids, folders;
    for (const auto& c : v) {
      if (!ids.insert(c.id()).second) throw std::logic_error("catalog: duplicate id " + c.id());
      if (!folders.insert(c.folder()).second)
        throw std::logic_error("catalog: two ids map to folder " + c.folder());
    }
    return v;
  }();
  return cases;
}

}  // namespace seqconf::catalog
