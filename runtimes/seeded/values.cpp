// Seeded defects in the values the five operators return, whatever the operator: what a
// runtime's own tensor handling loses on the way out.
#include <cmath>
#include <cstring>
#include <limits>

#include "reference/bits.h"
#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

bool under_test(const interp::NodeCall& c) {
  for (const char* op :
       {"SequenceAt", "SequenceErase", "SequenceInsert", "SequenceMap", "SplitToSequence"})
    if (is(c, op)) return true;
  return false;
}

// The node's outputs with f applied to every tensor, in sequences too; nullopt when f changed
// nothing (the reference's answer stands).
template <class F>
std::optional<std::vector<Value>> map_tensors(const interp::NodeCall& c, F f) {
  if (!under_test(c)) return std::nullopt;
  std::vector<Value> out = c.reference(c.inputs);
  bool changed = false;
  auto one = [&](const Tensor& t) {
    std::optional<Tensor> u = f(t);
    changed = changed || u.has_value();
    return u ? *u : t;
  };
  for (Value& v : out) {
    if (v.is_tensor()) {
      v = one(v.tensor());
    } else if (v.is_sequence()) {
      std::vector<Tensor> ts;
      for (const Tensor& t : v.sequence().tensors()) ts.push_back(one(t));
      v = Sequence(v.sequence().elem_type(), std::move(ts));
    }
  }
  if (!changed) return std::nullopt;
  return out;
}

// The tensor with f applied to each float32 and float64 value (complex: to each component);
// nullopt when no bit changed.
template <class F>
std::optional<Tensor> map_floats(const Tensor& t, F f) {
  return visit_dtype(t.dtype(), [&](auto tag) -> std::optional<Tensor> {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::float32 || D == DataType::float64 || D == DataType::complex64 ||
                  D == DataType::complex128) {
      std::vector<T> v(t.data<T>(), t.data<T>() + t.element_count());
      bool changed = false;
      for (T& x : v) {
        T y;
        if constexpr (D == DataType::complex64 || D == DataType::complex128)
          y = T(f(x.real()), f(x.imag()));
        else
          y = f(x);
        changed = changed || std::memcmp(&x, &y, sizeof x) != 0;
        x = y;
      }
      if (!changed) return std::nullopt;
      return Tensor::from_values<D>(t.shape(), std::move(v));
    } else {
      return std::nullopt;
    }
  });
}

// The tensor with f(bits, bfloat16) applied to each float16 or bfloat16 value's bits.
template <class F>
std::optional<Tensor> map_halves(const Tensor& t, F f) {
  return visit_dtype(t.dtype(), [&](auto tag) -> std::optional<Tensor> {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (is_half_v<T>) {
      std::vector<T> v(t.data<T>(), t.data<T>() + t.element_count());
      bool changed = false;
      for (T& x : v) {
        const uint16_t b = f(x.bits, D == DataType::bfloat16);
        changed = changed || b != x.bits;
        x.bits = b;
      }
      if (!changed) return std::nullopt;
      return Tensor::from_values<D>(t.shape(), std::move(v));
    } else {
      return std::nullopt;
    }
  });
}

// The bits of a float or a double.
template <class R>
using bits_t = std::conditional_t<sizeof(R) == 4, uint32_t, uint64_t>;
// IEEE 754: the quiet bit is the first bit of the trailing significand field.
template <class R>
constexpr bits_t<R> kQuietBit = bits_t<R>(1) << (std::numeric_limits<R>::digits - 2);
// float16: exponent 0x7c00, quiet bit 0x0200; bfloat16: exponent 0x7f80, quiet bit 0x0040.
uint16_t half_exponent(bool bf16) { return bf16 ? 0x7f80 : 0x7c00; }
uint16_t half_quiet(bool bf16) { return bf16 ? 0x0040 : 0x0200; }
bool half_is_nan(uint16_t b, bool bf16) {
  const uint16_t e = half_exponent(bf16);
  return (b & e) == e && (b & uint16_t(~e & 0x7fff)) != 0;
}

// A defect in the bits the five operators return, on float types and halves alike.
template <class F, class H>
interp::KernelOverride bits_defect(F on_float, H on_half) {
  return {[on_float, on_half](const interp::NodeCall& c) {
    return map_tensors(c, [&](const Tensor& t) -> std::optional<Tensor> {
      if (auto u = map_floats(t, on_float)) return u;
      return map_halves(t, on_half);
    });
  }};
}

const auto kNoHalves = [](uint16_t b, bool) { return b; };

}  // namespace

// Seeded defects in the bits of copied values: each one a runtime that is right but for one
// lossy copy. The corpus's values=bits cases hold the values each of them changes.
std::vector<Defect> bits_defects() {
  std::vector<Defect> d;
  d.push_back({"bits.negative_zero_lost", "(all five)", "-0.0 comes back as +0.0",
               "copies through an arithmetic path (x + 0.0), or a writer that formats and parses "
               "values",
               bits_defect([](auto x) { return x == 0 ? decltype(x)(0) : x; },
                           [](uint16_t b, bool) { return b == 0x8000 ? uint16_t(0) : b; })});
  d.push_back(
      {"bits.nan_canonicalized", "(all five)",
       "every NaN comes back as the default quiet NaN (positive, payload 0)",
       "copies through float arithmetic or engines that canonicalize NaNs",
       bits_defect(
           [](auto x) { return std::isnan(x) ? std::numeric_limits<decltype(x)>::quiet_NaN() : x; },
           [](uint16_t b, bool bf16) {
             return half_is_nan(b, bf16) ? uint16_t(half_exponent(bf16) | half_quiet(bf16)) : b;
           })});
  d.push_back({"bits.signalling_nan_quieted", "(all five)",
               "a signalling NaN comes back quiet (its quiet bit set, sign and payload kept)",
               "copies through floating-point registers that quiet signalling NaNs (x87 loads, a "
               "conversion to a wider type and back)",
               bits_defect(
                   [](auto x) {
                     using R = decltype(x);
                     if (!std::isnan(x)) return x;
                     return bit_cast<R>(bit_cast<bits_t<R>>(x) | kQuietBit<R>);
                   },
                   [](uint16_t b, bool bf16) {
                     return half_is_nan(b, bf16) ? uint16_t(b | half_quiet(bf16)) : b;
                   })});
  d.push_back({"bits.subnormals_flushed", "(all five)",
               "subnormal values come back as a zero of their sign",
               "denormals-are-zero / flush-to-zero modes (an ONNX Runtime session option; GPU "
               "execution providers by default)",
               bits_defect(
                   [](auto x) {
                     using R = decltype(x);
                     return x != 0 && std::fabs(x) < std::numeric_limits<R>::min()
                                ? std::copysign(R(0), x)
                                : x;
                   },
                   [](uint16_t b, bool bf16) {
                     const bool subnormal = (b & half_exponent(bf16)) == 0 && (b & 0x7fff) != 0;
                     return subnormal ? uint16_t(b & 0x8000) : b;
                   })});
  d.push_back({"bits.float16_low_bits_dropped", "(all five)",
               "finite float16 and bfloat16 values lose the low 3 bits of their significand",
               "float16 widened to float32 for a kernel and narrowed back by truncation to a "
               "shorter significand",
               bits_defect([](auto x) { return x; },
                           [](uint16_t b, bool bf16) {
                             const uint16_t e = half_exponent(bf16);
                             return (b & e) == e ? b : uint16_t(b & ~uint16_t{7});
                           })});
  d.push_back({"bits.double_through_float", "(all five)",
               "double values pass through float (rounded to nearest, NaN payloads cut)",
               "bindings or kernels that hold double tensors as float",
               bits_defect(
                   [](auto x) {
                     if constexpr (sizeof(x) == 8)
                       return static_cast<double>(static_cast<float>(x));
                     else
                       return x;
                   },
                   kNoHalves)});
  d.push_back({"bits.one_ulp", "(all five)",
               "finite non-zero float and double values come back 1 ulp larger in magnitude",
               "an arithmetic copy (x * 1 rounded in another mode, a fused multiply-add path)",
               bits_defect(
                   [](auto x) {
                     using R = decltype(x);
                     if (!std::isfinite(x) || x == 0) return x;
                     return std::nextafter(x, std::copysign(std::numeric_limits<R>::infinity(), x));
                   },
                   kNoHalves)});
  d.push_back({"bits.scaled", "(all five)",
               "finite float and double values come back multiplied by (1 + 1e-5)",
               "a scale folded into a copy (quantization or normalization applied to the wrong "
               "tensor); within ONNX's usual rtol 1e-3",
               bits_defect(
                   [](auto x) {
                     using R = decltype(x);
                     return std::isfinite(x) ? static_cast<R>(x * R(1.00001)) : x;
                   },
                   kNoHalves)});
  return d;
}

std::vector<Defect> value_defects() {
  std::vector<Defect> d;
  d.push_back({"value.string_cut_at_nul",
               "(all five)",
               "strings are cut at their first NUL byte",
               "ONNX Runtime's C API, which fills string tensors from NUL-terminated C strings "
               "(see expectations/onnxruntime.json)",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.dtype() != DataType::string) return std::nullopt;
                   std::vector<std::string> v;
                   bool cut = false;
                   for (size_t i = 0; i < t.element_count(); ++i) {
                     const std::string& s = t.string_at(i);
                     v.push_back(s.substr(0, s.find('\0')));
                     cut = cut || v.back().size() != s.size();
                   }
                   if (!cut) return std::nullopt;
                   return Tensor::from_strings(t.shape(), std::move(v));
                 });
               }}});
  d.push_back({"value.uint64_read_as_signed",
               "(all five)",
               "uint64 elements of 2^63 and above are read as signed (negative) and clamped to 0",
               "bindings that hold uint64 in a signed 64-bit integer",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.dtype() != DataType::uint64) return std::nullopt;
                   std::vector<uint64_t> v(t.data<uint64_t>(),
                                           t.data<uint64_t>() + t.element_count());
                   bool clamped = false;
                   for (uint64_t& x : v)
                     if (x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
                       x = 0;
                       clamped = true;
                     }
                   if (!clamped) return std::nullopt;
                   return Tensor::from_values<DataType::uint64>(t.shape(), std::move(v));
                 });
               }}});
  d.push_back({"value.empty_tensor_shape_lost",
               "(all five)",
               "a tensor without elements comes back with shape [0] whatever its shape",
               "runtimes that rebuild empty tensors from their (empty) data",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.element_count() != 0 || t.shape() == Shape{0}) return std::nullopt;
                   return Tensor::zeros(t.dtype(), {0});
                 });
               }}});
  return d;
}

}  // namespace seqconf::seeded
