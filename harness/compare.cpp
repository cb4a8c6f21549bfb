#include "harness/compare.h"
#include "reference/bits.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

namespace seqconf {

namespace {

std::string fmt_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

Comparison fail(Reason reason, std::string message) { return {false, reason, std::move(message)}; }

bool close(double e, double a, const Tolerance& tol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (e == a) return true;  // also equal infinities
  if (std::isinf(e) || std::isinf(a)) return false;
  return std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
}

std::string index_of(size_t flat, const Shape& shape) {
  if (shape.empty()) return "[]";
  Shape idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    const auto d = static_cast<size_t>(shape[k]);
    idx[k] = static_cast<int64_t>(flat % d);
    flat /= d;
  }
  return shape_to_string(idx);
}

// Whether elements i of e and a agree within the tolerance (tensors of one element type).
bool element_equal(const Tensor& e, const Tensor& a, size_t i, const Tolerance& tol) {
  return visit_dtype(e.dtype(), [&](auto tag) -> bool {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::string) {
      return e.string_at(i) == a.string_at(i);
    } else if constexpr (is_half_v<T>) {
      return close(half_to_float(e.data<T>()[i]), half_to_float(a.data<T>()[i]), tol);
    } else if constexpr (D == DataType::float32 || D == DataType::float64) {
      return close(e.data<T>()[i], a.data<T>()[i], tol);
    } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      const T x = e.data<T>()[i], y = a.data<T>()[i];
      return close(x.real(), y.real(), tol) && close(x.imag(), y.imag(), tol);
    } else {
      return e.data<T>()[i] == a.data<T>()[i];
    }
  });
}

// The bit layout of a binary floating type: its quiet-NaN bit (IEEE 754: the first bit of the
// trailing significand field) and its smallest normal magnitude.
template <class Bits>
struct FloatLayout {
  Bits quiet_bit;
  double min_normal;
};
constexpr FloatLayout<uint16_t> kFloat16{0x0200, 6.103515625e-05};  // 2^-14
constexpr FloatLayout<uint16_t> kBFloat16{0x0040, 1.17549435082228750797e-38};
constexpr FloatLayout<uint32_t> kFloat32{0x00400000u, 1.17549435082228750797e-38};
constexpr FloatLayout<uint64_t> kFloat64{0x0008000000000000ull, 2.22507385850720138309e-308};

// What a copy lost in one floating value whose bits differ from the expected ones: e and a the
// values, eb and ab their bits.
template <class Bits>
Reason loss_of(double e, double a, Bits eb, Bits ab, const FloatLayout<Bits>& layout) {
  if (std::isnan(e) && std::isnan(a))
    return (eb & layout.quiet_bit) == 0 && Bits(eb | layout.quiet_bit) == ab ? Reason::nan_quieted
                                                                             : Reason::nan_changed;
  if (e == a) return Reason::zero_sign_changed;  // distinct bits, equal numbers: +-0
  if (e != 0 && std::fabs(e) < layout.min_normal && a == 0) return Reason::subnormal_flushed;
  if (!std::isnan(e) && !std::isnan(a) && close(e, a, Tolerance{})) return Reason::bits_changed;
  return Reason::value_mismatch;
}

// Reason::none when element i of e and a agree bit for bit (byte for byte for strings), else
// what differs (tensors of one element type).
Reason element_loss(const Tensor& e, const Tensor& a, size_t i) {
  return visit_dtype(e.dtype(), [&](auto tag) -> Reason {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::string) {
      return e.string_at(i) == a.string_at(i) ? Reason::none : Reason::value_mismatch;
    } else if constexpr (is_half_v<T>) {
      const T x = e.data<T>()[i], y = a.data<T>()[i];
      if (x.bits == y.bits) return Reason::none;
      return loss_of<uint16_t>(half_to_float(x), half_to_float(y), x.bits, y.bits,
                               D == DataType::float16 ? kFloat16 : kBFloat16);
    } else if constexpr (D == DataType::float32) {
      const uint32_t x = bit_cast<uint32_t>(e.data<T>()[i]), y = bit_cast<uint32_t>(a.data<T>()[i]);
      return x == y ? Reason::none
                    : loss_of<uint32_t>(e.data<T>()[i], a.data<T>()[i], x, y, kFloat32);
    } else if constexpr (D == DataType::float64) {
      const uint64_t x = bit_cast<uint64_t>(e.data<T>()[i]), y = bit_cast<uint64_t>(a.data<T>()[i]);
      return x == y ? Reason::none
                    : loss_of<uint64_t>(e.data<T>()[i], a.data<T>()[i], x, y, kFloat64);
    } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      using R = typename T::value_type;
      using Bits = std::conditional_t<sizeof(R) == 4, uint32_t, uint64_t>;
      const auto& layout = [] {
        if constexpr (sizeof(R) == 4)
          return kFloat32;
        else
          return kFloat64;
      }();
      const T x = e.data<T>()[i], y = a.data<T>()[i];
      // The real part's loss, else the imaginary part's.
      for (const auto& [p, q] : {std::pair<R, R>{x.real(), y.real()}, {x.imag(), y.imag()}}) {
        const Bits pb = bit_cast<Bits>(p), qb = bit_cast<Bits>(q);
        if (pb != qb) return loss_of<Bits>(p, q, pb, qb, layout);
      }
      return Reason::none;
    } else {
      return e.data<T>()[i] == a.data<T>()[i] ? Reason::none : Reason::value_mismatch;
    }
  });
}

// Element i's bits in hex ("0x8000"; complex "(0x..., 0x...)"), for floating types.
std::string element_hex(const Tensor& t, size_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> std::string {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    char buf[64];
    if constexpr (is_half_v<T>) {
      std::snprintf(buf, sizeof buf, "0x%04x", unsigned{t.data<T>()[i].bits});
    } else if constexpr (D == DataType::float32) {
      std::snprintf(buf, sizeof buf, "0x%08x", unsigned{bit_cast<uint32_t>(t.data<T>()[i])});
    } else if constexpr (D == DataType::float64) {
      std::snprintf(buf, sizeof buf, "0x%016llx",
                    static_cast<unsigned long long>(bit_cast<uint64_t>(t.data<T>()[i])));
    } else if constexpr (D == DataType::complex64) {
      const T z = t.data<T>()[i];
      std::snprintf(buf, sizeof buf, "(0x%08x,0x%08x)", unsigned{bit_cast<uint32_t>(z.real())},
                    unsigned{bit_cast<uint32_t>(z.imag())});
    } else if constexpr (D == DataType::complex128) {
      const T z = t.data<T>()[i];
      std::snprintf(buf, sizeof buf, "(0x%016llx,0x%016llx)",
                    static_cast<unsigned long long>(bit_cast<uint64_t>(z.real())),
                    static_cast<unsigned long long>(bit_cast<uint64_t>(z.imag())));
    } else {
      return std::string();
    }
    return buf;
  });
}

// Whether the expected element i, or its first component whose bits differ from the actual
// one's, has its sign bit set (for the message of a zero whose sign changed).
bool expected_sign(const Tensor& e, const Tensor& a, size_t i) {
  return visit_dtype(e.dtype(), [&](auto tag) -> bool {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (is_half_v<T>) {
      return (e.data<T>()[i].bits & 0x8000) != 0;
    } else if constexpr (D == DataType::float32 || D == DataType::float64) {
      return std::signbit(e.data<T>()[i]);
    } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      const T x = e.data<T>()[i], y = a.data<T>()[i];
      return std::memcmp(&x, &y, sizeof(typename T::value_type)) != 0 ? std::signbit(x.real())
                                                                      : std::signbit(x.imag());
    } else {
      return false;
    }
  });
}

// What an exact comparison says of a loss, after the two values.
std::string loss_text(Reason loss, const Tensor& e, const Tensor& a, size_t i) {
  switch (loss) {
    case Reason::zero_sign_changed:
      return expected_sign(e, a, i) ? "-0.0 became +0.0" : "+0.0 became -0.0";
    case Reason::nan_changed:
      return "a NaN's sign or payload changed";
    case Reason::nan_quieted:
      return "a signalling NaN was quieted";
    case Reason::subnormal_flushed:
      return "a subnormal was flushed to zero";
    case Reason::bits_changed:
      return "within ONNX's tolerance, but not the copied bits";
    default:
      return std::string();
  }
}

// A string element as a quoted byte string: printable ASCII as it is, every other byte (NUL,
// invalid UTF-8) as \xNN, and past 48 bytes cut, with the length.
std::string quoted_bytes(const std::string& s) {
  constexpr size_t kShown = 48;
  std::string out = "\"";
  for (size_t k = 0; k < s.size() && k < kShown; ++k) {
    const auto b = static_cast<unsigned char>(s[k]);
    if (b == '"' || b == '\\') {
      out += '\\';
      out += static_cast<char>(b);
    } else if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      out += buf;
    }
  }
  out += '"';
  if (s.size() > kShown) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

// Element i of a tensor as text, for the message of a mismatch.
std::string element_text(const Tensor& t, size_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> std::string {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::string) {
      return quoted_bytes(t.string_at(i));
    } else if constexpr (is_half_v<T>) {
      return fmt_double(half_to_float(t.data<T>()[i]));
    } else if constexpr (D == DataType::float32 || D == DataType::float64) {
      return fmt_double(t.data<T>()[i]);
    } else if constexpr (D == DataType::complex64 || D == DataType::complex128) {
      const T z = t.data<T>()[i];
      return "(" + fmt_double(z.real()) + "," + fmt_double(z.imag()) + ")";
    } else {
      return std::to_string(t.data<T>()[i]);
    }
  });
}

// where() names the tensor in the message: built only when the tensors differ.
template <class Where>
Comparison compare_tensor(const Tensor& e, const Tensor& a, const ComparisonRule& rule,
                          const Where& where) {
  if (e.dtype() != a.dtype())
    return fail(Reason::dtype_mismatch,
                where() + ": expected " + e.describe() + ", got " + a.describe());
  if (e.shape() != a.shape())
    return fail(Reason::shape_mismatch, where() + ": expected shape " + shape_to_string(e.shape()) +
                                            ", got " + shape_to_string(a.shape()) + " (" +
                                            e.describe() + ")");
  if (rule.exact) {
    // Bit for bit: the same bytes are the same values (bools are stored as 0 or 1).
    if (e.dtype() != DataType::string &&
        (e.byte_size() == 0 || std::memcmp(e.bytes(), a.bytes(), e.byte_size()) == 0))
      return {};
    // The first element that differs in value names the failure; where every difference is a
    // loss of bits (a sign of zero, a NaN's payload, ...), the first one does.
    size_t bad = 0, at = 0;
    Reason loss = Reason::none;
    for (size_t i = 0; i < e.element_count(); ++i) {
      const Reason r = element_loss(e, a, i);
      if (r == Reason::none) continue;
      if (bad++ == 0 || (r == Reason::value_mismatch && loss != Reason::value_mismatch)) {
        at = i;
        loss = r;
      }
    }
    if (!bad) return {};
    const std::string he = element_hex(e, at), ha = element_hex(a, at);
    std::string msg = where() + " element " + std::to_string(at) + " " + index_of(at, e.shape()) +
                      ": expected " + element_text(e, at) + (he.empty() ? "" : " (" + he + ")") +
                      ", got " + element_text(a, at) + (ha.empty() ? "" : " (" + ha + ")");
    const std::string lost = loss_text(loss, e, a, at);
    if (!lost.empty()) msg += ": " + lost;
    msg += "; " + std::to_string(bad) + " of " + std::to_string(e.element_count()) +
           " elements differ (compared bit for bit)";
    return fail(loss, msg);
  }
  const Tolerance& tol = rule.tolerance;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < e.element_count(); ++i)
    if (!element_equal(e, a, i, tol) && bad++ == 0) first = i;
  if (!bad) return {};
  std::string msg = where() + " element " + std::to_string(first) + " " +
                    index_of(first, e.shape()) + ": expected " + element_text(e, first) + ", got " +
                    element_text(a, first);
  if (is_floating(e.dtype()))
    msg += " (rtol " + fmt_double(tol.rtol) + ", atol " + fmt_double(tol.atol) + ")";
  msg +=
      "; " + std::to_string(bad) + " of " + std::to_string(e.element_count()) + " elements differ";
  return fail(Reason::value_mismatch, msg);
}

std::string kind_of(const Value& v) {
  return v.is_tensor() ? "tensor" : v.is_sequence() ? "sequence" : "optional";
}

}  // namespace

Comparison compare_value(const Value& e, const Value& a, const ComparisonRule& rule,
                         const std::string& where) {
  if (kind_of(e) != kind_of(a))
    return fail(Reason::kind_mismatch, where + ": expected a " + kind_of(e) + " " + e.describe() +
                                           ", got a " + kind_of(a) + " " + a.describe());
  if (e.is_tensor()) return compare_tensor(e.tensor(), a.tensor(), rule, [&] { return where; });
  if (e.is_sequence()) {
    const Sequence &se = e.sequence(), &sa = a.sequence();
    if (se.elem_type() != sa.elem_type())
      return fail(Reason::dtype_mismatch,
                  where + ": expected " + se.describe() + ", got " + sa.describe());
    if (se.size() != sa.size())
      return fail(Reason::length_mismatch, where + ": expected a sequence of length " +
                                               std::to_string(se.size()) + ", got length " +
                                               std::to_string(sa.size()));
    for (size_t i = 0; i < se.size(); ++i) {
      Comparison c = compare_tensor(se.at(i), sa.at(i), rule,
                                    [&] { return where + " sequence item " + std::to_string(i); });
      if (!c.ok) return c;
    }
    return {};
  }
  const Optional &oe = e.optional(), &oa = a.optional();
  if (static_cast<bool>(oe.element) != static_cast<bool>(oa.element))
    return fail(Reason::kind_mismatch,
                where + ": expected " +
                    (oe.element ? "an optional holding " + oe.element->describe()
                                : std::string("an empty optional")) +
                    ", got " +
                    (oa.element ? "an optional holding " + oa.element->describe()
                                : std::string("an empty optional")));
  if (!oe.element) {
    if (oe.holds_sequence != oa.holds_sequence || oe.elem_type != oa.elem_type)
      return fail(Reason::dtype_mismatch,
                  where + ": expected " + e.describe() + ", got " + a.describe());
    return {};
  }
  return compare_value(*oe.element, *oa.element, rule, where + " (optional element)");
}

Comparison compare_outputs(const std::vector<Value>& expected, const std::vector<Value>& actual,
                           const ComparisonRule& rule) {
  if (expected.size() != actual.size())
    return fail(Reason::output_count_mismatch, "expected " + std::to_string(expected.size()) +
                                                   " outputs, got " +
                                                   std::to_string(actual.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    Comparison c =
        compare_value(expected[i], actual[i], rule.output(i), "output " + std::to_string(i));
    if (!c.ok) return c;
  }
  return {};
}

std::string summarize_values(const std::vector<Value>& values) {
  std::string s;
  for (const auto& v : values) s += (s.empty() ? "" : ", ") + v.describe();
  return s;
}

}  // namespace seqconf
