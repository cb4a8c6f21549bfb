// Cast-6, 9, 13, 19, 21, 23, 24 among the 14 non-complex types the suite carries (T1/T2:
// "Casting from complex is not supported." / "Casting to complex is not supported."); bfloat16
// from Cast-13, whose T1 and T2 add it. The float8, int4 and float4 types of later versions are
// not carried by the suite.
//
// Rounding to float16 and bfloat16 is to nearest, ties to even. For bfloat16 the spec states
// no rounding (an ambiguity): ONNX 1.12's test_cast_FLOAT_to_BFLOAT16 expects truncation, the
// test as ONNX generates it today (numpy's astype to ml_dtypes.bfloat16) rounds to nearest even.
//
// The rules quoted below are Cast-13's text, the same in 19, 21, 23 and 24 for these types.
// Cast-6 and Cast-9 list no rules (Cast-9: "Conversion from a numerical type to any numerical
// type is always allowed."); the reference reads them with Cast-13's:
//  "Conversion from a numerical type to any numerical type is always allowed. ...
//   * Casting from floating point to:
//     * floating point: +/- infinity if OOR (out of range).
//     * fixed point: undefined if OOR.
//     * bool: +/- 0.0 to False; all else to True.
//   * Casting from fixed point to:
//     * floating point: +/- infinity if OOR. (+ infinity in the case of uint)
//     * fixed point: when OOR, discard higher bits and reinterpret (with respect to two's
//       complement representation for signed types). For example, 200 (int16) -> -56 (int8).
//     * bool: zero to False; nonzero to True.
//   * Casting from bool to:
//     * floating point: `{1.0, 0.0}`.
//     * fixed point: `{1, 0}`.
//     * bool: no change."
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

namespace {

// Types of one class of the rules above.
template <DataType D>
constexpr bool kFloating = D == DataType::bfloat16 || D == DataType::float16 ||
                           D == DataType::float32 || D == DataType::float64;
template <DataType D>
constexpr bool kFixed =
    D == DataType::int8 || D == DataType::int16 || D == DataType::int32 || D == DataType::int64 ||
    D == DataType::uint8 || D == DataType::uint16 || D == DataType::uint32 || D == DataType::uint64;

// double to float16 or bfloat16 rounded once to nearest even: first to float with round-to-odd
// (truncate, then set the last bit when inexact), which float's 13 (16) spare bits make safe
// from double rounding, then half_from_float.
template <class H>
H double_to_half(double d) {
  if (std::isnan(d) || std::isinf(d)) return half_from_float<H>(static_cast<float>(d));
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    bits |= 1u;
    std::memcpy(&f, &bits, sizeof bits);
  }
  return half_from_float<H>(f);
}

// An integer to float16 or bfloat16 rounded once to nearest even: its magnitude rounded to odd
// at float's 24 bits (exactly representable), then half_from_float. (Through double, an int64
// above 2^53 would be rounded twice.)
template <class H, class I>
H integer_to_half(I v) {
  const bool negative = v < 0;
  uint64_t m = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int shift = 0;
  while ((m >> shift) >= (uint64_t{1} << 24)) ++shift;
  uint64_t kept = m >> shift;
  if (shift > 0 && (m & ((uint64_t{1} << shift) - 1)) != 0) kept |= 1u;
  const float f = std::ldexp(static_cast<float>(kept), shift);
  return half_from_float<H>(negative ? -f : f);
}

// A value of a floating type as double (exact for all four).
template <DataType D>
double floating_value(const storage_t<D>& v) {
  if constexpr (is_half_v<storage_t<D>>) {
    return static_cast<double>(half_to_float(v));
  } else {
    return static_cast<double>(v);
  }
}

template <DataType To>
storage_t<To> from_double(double d) {
  if constexpr (is_half_v<storage_t<To>>) {
    return double_to_half<storage_t<To>>(d);
  } else {
    // "floating point: +/- infinity if OOR": IEEE 754 conversion of a double beyond float's
    // range gives the infinity of its sign.
    return static_cast<storage_t<To>>(d);
  }
}

// Floating point to fixed point: truncation toward zero ("converting string "100.5" to an
// integer may yield result 100"); "undefined if OOR", NaN included.
template <DataType To>
storage_t<To> float_to_fixed(double d, const std::string& what) {
  using T = storage_t<To>;
  const double t = std::trunc(d);
  // Bounds as doubles: min is a power of two (exact); max + 1 is a power of two (exact).
  const double lo = static_cast<double>(std::numeric_limits<T>::min());
  const double hi_excl = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
  if (std::isnan(d) || t < lo || t >= hi_excl)
    throw Error(ErrorCode::undefined_result,
                "Cast: " + what + " is out of range for " + std::string(dtype_name(To)) +
                    "; the spec leaves it undefined (\"Casting from floating point to: ... fixed "
                    "point: undefined if OOR.\")");
  return static_cast<T>(t);
}

// "When casting from numeric tensors to string tensors, plain floating-point representation
//  (such as "314.15926") would be used." Floating values: the shortest digits that read back as
// the same value, in plain (not scientific) notation; infinities and NaN as the literals the
// spec reserves ("+INF" (and "INF"), "-INF", and "NaN"). Integers in decimal; bool as its fixed
// point value {1, 0}.
template <DataType D>
std::string to_string_value(const storage_t<D>& v) {
  if constexpr (D == DataType::bool_) {
    return v ? "1" : "0";
  } else if constexpr (kFixed<D>) {
    return std::to_string(v);
  } else {
    using X = std::conditional_t<D == DataType::float64, double, float>;
    X x;
    if constexpr (is_half_v<storage_t<D>>) {
      x = half_to_float(v);
    } else {
      x = v;
    }
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "INF" : "-INF";
    char buf[1100];  // the longest plain double (DBL_MAX, or the smallest subnormal's digits)
    const auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed);
    return std::string(buf, res.ptr);
  }
}

bool iequals(const std::string& a, const char* b) {
  const std::string bs(b);
  return a.size() == bs.size() && std::equal(a.begin(), a.end(), bs.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "Casting from string tensor in plain (e.g., "3.14" and "1000") and scientific numeric
//  representations (e.g., "1e-5" and "1E8") to float types is supported. ... "+INF" (and "INF"),
//  "-INF", and "NaN" are positive infinity, negative infinity, and not-a-number, respectively.
//  Any string which can exactly match "+INF" in a case-insensitive way would be mapped to
//  positive infinite. Similarly, this case-insensitive rule is applied to "INF" and "NaN"."
// Plain or scientific: [+-]digits[.digits][(e|E)[+-]digits] (digits on at least one side of the
// point). Anything else "is an undefined behavior": undefined_result.
template <class T>
T parse_floating(const std::string& s, const char* to_name) {
  if (iequals(s, "+INF") || iequals(s, "INF")) return std::numeric_limits<T>::infinity();
  if (iequals(s, "-INF")) return -std::numeric_limits<T>::infinity();
  if (iequals(s, "NaN")) return std::numeric_limits<T>::quiet_NaN();
  size_t i = 0;
  const bool negative = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const size_t start = i;
  size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  bool ok = digits > 0;
  if (ok && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp_digits;
    ok = exp_digits > 0;
  }
  if (!ok || i != s.size())
    throw Error(ErrorCode::undefined_result,
                "Cast: string \"" + s +
                    "\" is not a plain or scientific numeric representation; "
                    "its cast to " +
                    to_name +
                    " is undefined (\"Converting non-numerical-literal string such as \"Hello "
                    "World!\" is an undefined behavior.\")");
  // Validated above (no hexadecimal, whitespace or other spellings strtod would also read);
  // strtod/strtof round to nearest, and give +/- infinity beyond the type's range ("+/- infinity
  // if OOR").
  const std::string body = s.substr(start);
  T v{};
  if constexpr (std::is_same_v<T, float>) {
    v = std::strtof(body.c_str(), nullptr);
  } else {
    v = std::strtod(body.c_str(), nullptr);
  }
  return negative ? -v : v;
}

// String to a fixed point type: the spec defines only strings holding an integer in the type's
// range ("Cases of converting string representing floating-point arithmetic value, such as
// "2.718", to INT is an undefined behavior.").
template <DataType To>
storage_t<To> parse_fixed(const std::string& s) {
  using T = storage_t<To>;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;  // from_chars takes '-' but not '+'
  T v{};
  const auto res = std::from_chars(b, e, v);
  if (b == e || res.ec != std::errc() || res.ptr != e || (b != s.data() && *b == '-'))
    throw Error(ErrorCode::undefined_result,
                "Cast: string \"" + s + "\" is not an integer of " + std::string(dtype_name(To)) +
                    "; the spec leaves its cast undefined (\"Cases of converting string "
                    "representing floating-point arithmetic value, such as \"2.718\", to INT is "
                    "an undefined behavior.\")");
  return v;
}

template <DataType From, DataType To>
storage_t<To> cast_one(const storage_t<From>& v) {
  using TT = storage_t<To>;
  if constexpr (From == To) {
    return v;
  } else if constexpr (To == DataType::string) {
    return to_string_value<From>(v);
  } else if constexpr (From == DataType::string) {
    if constexpr (To == DataType::float64) {
      return parse_floating<double>(v, "double");
    } else if constexpr (To == DataType::float32) {
      return parse_floating<float>(v, "float");
    } else if constexpr (is_half_v<TT>) {
      return double_to_half<TT>(parse_floating<double>(v, dtype_name(To).data()));
    } else if constexpr (To == DataType::bool_) {
      // The spec's string rules name float and integer targets only; bool is read through the
      // floating rule ("bool: +/- 0.0 to False; all else to True").
      return static_cast<TT>(parse_floating<double>(v, "bool") != 0.0);
    } else {
      return parse_fixed<To>(v);
    }
  } else if constexpr (From == DataType::bool_) {
    // "Casting from bool to: floating point: `{1.0, 0.0}`. fixed point: `{1, 0}`."
    return from_double<To>(v ? 1.0 : 0.0);
  } else if constexpr (kFloating<From>) {
    const double d = floating_value<From>(v);
    if constexpr (To == DataType::bool_) {
      return static_cast<TT>(d != 0.0);  // NaN != 0.0: true
    } else if constexpr (kFloating<To>) {
      return from_double<To>(d);
    } else {
      return float_to_fixed<To>(d, "value " + to_string_value<DataType::float64>(d));
    }
  } else {
    static_assert(kFixed<From>);
    if constexpr (To == DataType::bool_) {
      return static_cast<TT>(v != 0);
    } else if constexpr (is_half_v<TT>) {
      return integer_to_half<TT>(v);
    } else if constexpr (kFloating<To>) {
      // Rounded to nearest by the conversion itself (uint64 and int64 to float, ...).
      return static_cast<TT>(v);
    } else {
      // "discard higher bits and reinterpret": modulo 2^bits of the target.
      return static_cast<TT>(static_cast<std::make_unsigned_t<TT>>(v));
    }
  }
}

bool castable(DataType d, int64_t since_version) {
  if (d == DataType::complex64 || d == DataType::complex128) return false;
  // T1 and T2 list tensor(bfloat16) from Cast-13 on.
  if (d == DataType::bfloat16 && since_version < 13) return false;
  // Cast-6: "Casting from strings and complex are not supported." / "Casting to strings and
  // complex are not supported."
  return !(d == DataType::string && since_version < 9);
}

}  // namespace

Tensor Cast(const Tensor& input, DataType to, int64_t since_version) {
  if (!is_supported(to))
    throw Error(ErrorCode::unsupported_type,
                "Cast: to = " + dtype_name_any(static_cast<int32_t>(to)) +
                    " is not one of the 16 tensor types the suite carries");
  if (!castable(input.dtype(), since_version) || !castable(to, since_version))
    throw Error(
        ErrorCode::unsupported_type,
        "Cast-" + std::to_string(since_version) + ": cannot cast " + input.describe() + " to " +
            std::string(dtype_name(to)) +
            (input.dtype() == DataType::bfloat16 || to == DataType::bfloat16
                 ? " (T1 and T2 hold tensor(bfloat16) from Cast-13 on)"
             : since_version < 9 ? " (\"Casting from strings and complex are not supported.\")"
                                 : " (\"Casting from complex is not supported.\")"));
  // "returns an output tensor of the same size in the converted type"
  const size_t n = checked_tensor_elements(to, input.shape());
  return visit_dtype(input.dtype(), [&](auto from_tag) {
    constexpr DataType From = decltype(from_tag)::value;
    return visit_dtype(to, [&](auto to_tag) -> Tensor {
      constexpr DataType To = decltype(to_tag)::value;
      if constexpr (From == DataType::complex64 || From == DataType::complex128 ||
                    To == DataType::complex64 || To == DataType::complex128) {
        throw Error(ErrorCode::unsupported_type, "Cast: complex");  // excluded above
      } else {
        std::vector<storage_t<To>> out;
        out.reserve(n);
        for (size_t i = 0; i < n; ++i)
          out.push_back(cast_one<From, To>(element_at<From>(input, i)));
        return Tensor::from_values<To>(input.shape(), std::move(out));
      }
    });
  });
}

}  // namespace seqconf::support
