// Helpers shared by the property files: expected values built directly from the spec
// sentences (plain vector operations, no reference operator), and error assertions.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "generators/generators.h"
#include "reference/error.h"

namespace seqconf::properties {

inline std::string show(const Sequence& s) {
  std::ostringstream os;
  showValue(s, os);
  return os.str();
}

// The sequence with tensor t placed before index i (i == size appends).
inline Sequence with_inserted(const Sequence& s, size_t i, const Tensor& t) {
  std::vector<Tensor> v = s.empty() ? std::vector<Tensor>{} : s.tensors();
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), t);
  return Sequence(s.elem_type(), std::move(v));
}

// Elements [start, start + len) of axis a of x, every other axis whole, computed with plain
// index arithmetic on the row-major layout: element (outer o, axis k, inner i) of x is at
// (o * d + k) * inner + i.
inline Tensor expected_chunk(const Tensor& x, size_t a, int64_t start, int64_t len,
                             bool keep_axis) {
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= static_cast<size_t>(x.shape()[i]);
  for (size_t i = a + 1; i < x.rank(); ++i) inner *= static_cast<size_t>(x.shape()[i]);
  const auto d = static_cast<size_t>(x.shape()[a]);
  Shape shape = x.shape();
  shape[a] = len;
  if (!keep_axis) shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(a));
  std::vector<size_t> source;  // flat indices of x, in the chunk's order
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = static_cast<size_t>(start); k < static_cast<size_t>(start + len); ++k)
      for (size_t i = 0; i < inner; ++i) source.push_back((o * d + k) * inner + i);
  if (x.dtype() == DataType::string) {
    std::vector<std::string> v;
    for (size_t f : source) v.push_back(x.string_at(f));
    return Tensor::from_strings(shape, std::move(v));
  }
  const size_t es = element_size(x.dtype());
  std::vector<std::byte> bytes(source.size() * es);
  for (size_t j = 0; j < source.size(); ++j)
    std::memcpy(bytes.data() + j * es, x.bytes() + source[j] * es, es);
  return Tensor::from_bytes(x.dtype(), shape, std::move(bytes));
}

inline Sequence without(const Sequence& s, size_t i) {
  std::vector<Tensor> v = s.tensors();
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
  return Sequence(s.elem_type(), std::move(v));
}

// Equal values where NaNs compare equal whatever their sign and payload: the spec leaves the
// NaN an arithmetic operator returns unspecified (and x86 returns either operand's NaN
// depending on how the loop was vectorised), as ONNX's own test comparison does. Every other
// element must match bit for bit.
inline bool same_up_to_nan_payload(const Tensor& a, const Tensor& b) {
  if (a.identical(b)) return true;
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  return visit_dtype(a.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::float32 || D == DataType::float64) {
      for (size_t i = 0; i < a.element_count(); ++i) {
        const T x = a.data<T>()[i], y = b.data<T>()[i];
        if (x != x && y != y) continue;
        if (std::memcmp(&x, &y, sizeof(T)) != 0) return false;
      }
      return true;
    } else {
      return false;
    }
  });
}

inline bool same_up_to_nan_payload(const Sequence& a, const Sequence& b) {
  if (a.elem_type() != b.elem_type() || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_up_to_nan_payload(a.at(i), b.at(i))) return false;
  return true;
}

// Runs f, which must throw seqconf::Error with one of `codes`; any other outcome fails the case.
template <class F>
void assert_error(const std::vector<ErrorCode>& codes, F&& f) {
  std::string outcome;
  bool ok = false;
  try {
    f();
    outcome = "no error";
  } catch (const Error& e) {
    ok = std::find(codes.begin(), codes.end(), e.code()) != codes.end();
    outcome = std::string(error_code_name(e.code())) + ": " + e.what();
  } catch (const std::exception& e) {
    outcome = std::string("an exception that is not seqconf::Error: ") + e.what();
  }
  std::string wanted;
  for (ErrorCode c : codes)
    wanted += (wanted.empty() ? "" : " or ") + std::string(error_code_name(c));
  RC_LOG() << "expected " << wanted << ", got " << outcome << std::endl;
  RC_ASSERT(ok);
}

inline void classify_length(size_t n) {
  RC_CLASSIFY(n == 0, "empty sequence");
  RC_CLASSIFY(n == 1, "one tensor");
}

inline void classify_position(int64_t p, size_t n) {
  RC_CLASSIFY(p < 0, "negative position");
  RC_CLASSIFY(p == static_cast<int64_t>(n), "position n");
  RC_CLASSIFY(p == 0, "position 0");
}

inline void classify_tensor(const Tensor& t) {
  RC_CLASSIFY(t.element_count() == 0, "zero-size tensor");
  RC_CLASSIFY(t.dtype() == DataType::string, "string");
  RC_CLASSIFY(t.dtype() == DataType::float16, "float16");
  RC_CLASSIFY(t.rank() == 0, "scalar");
}

}  // namespace seqconf::properties
