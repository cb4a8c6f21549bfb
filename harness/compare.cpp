#include "harness/compare.h"

#include <cmath>
#include <cstdio>

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

// Whether elements i of e and a agree (tensors of one element type).
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

// Element i of a tensor as text, for the message of a mismatch.
std::string element_text(const Tensor& t, size_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> std::string {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::string) {
      return "\"" + t.string_at(i) + "\"";
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
Comparison compare_tensor(const Tensor& e, const Tensor& a, const Tolerance& tol,
                          const Where& where) {
  if (e.dtype() != a.dtype())
    return fail(Reason::dtype_mismatch,
                where() + ": expected " + e.describe() + ", got " + a.describe());
  if (e.shape() != a.shape())
    return fail(Reason::shape_mismatch, where() + ": expected shape " + shape_to_string(e.shape()) +
                                            ", got " + shape_to_string(a.shape()) + " (" +
                                            e.describe() + ")");
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

Comparison compare_value(const Value& e, const Value& a, const Tolerance& tol,
                         const std::string& where) {
  if (kind_of(e) != kind_of(a))
    return fail(Reason::kind_mismatch, where + ": expected a " + kind_of(e) + " " + e.describe() +
                                           ", got a " + kind_of(a) + " " + a.describe());
  if (e.is_tensor()) return compare_tensor(e.tensor(), a.tensor(), tol, [&] { return where; });
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
      Comparison c = compare_tensor(se.at(i), sa.at(i), tol,
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
  return compare_value(*oe.element, *oa.element, tol, where + " (optional element)");
}

Comparison compare_outputs(const std::vector<Value>& expected, const std::vector<Value>& actual,
                           const Tolerance& tol) {
  if (expected.size() != actual.size())
    return fail(Reason::output_count_mismatch, "expected " + std::to_string(expected.size()) +
                                                   " outputs, got " +
                                                   std::to_string(actual.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    Comparison c = compare_value(expected[i], actual[i], tol, "output " + std::to_string(i));
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
