// Multidirectional (numpy) broadcasting, shared by the element-wise operators (Add, Sub, Mul,
// Div, Equal, Less, Greater, Where). ONNX Broadcasting.md:
//  "In ONNX, a set of tensors are multidirectional broadcastable to the same shape if one of the
//   following is true:
//   - The tensors all have exactly the same shape.
//   - The tensors all have the same number of dimensions and the length of each dimensions is
//     either a common length or 1.
//   - The tensors that have too few dimensions can have their shapes prepended with a dimension
//     of length 1 to satisfy property 2."
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/context.h"
#include "reference/value.h"

namespace seqconf::support {

// The output shape of a set of broadcast inputs, and where each output element reads each input.
class Broadcast {
 public:
  // `op` names the operator in errors: shapes that are not broadcastable are shape_mismatch; an
  // output too large for out_dtype is limit_exceeded (checked before anything is allocated).
  Broadcast(const std::string& op, const std::vector<const Tensor*>& inputs, DataType out_dtype);

  const seqconf::Shape& shape() const { return shape_; }
  size_t count() const { return count_; }

  // Calls f(i, offsets) for every output element i in row-major order, with offsets[k] the
  // element of input k it reads.
  template <class F>
  void for_each(F&& f) const {
    const size_t n_in = strides_.size();
    std::vector<size_t> offsets(n_in, 0);
    if (same_shape_) {
      for (size_t i = 0; i < count_; ++i) {
        for (size_t k = 0; k < n_in; ++k) offsets[k] = i;
        f(i, offsets.data());
      }
      return;
    }
    std::vector<int64_t> coord(shape_.size(), 0);
    for (size_t i = 0; i < count_; ++i) {
      f(i, offsets.data());
      // Odometer: advance the last axis, carrying into the earlier ones.
      for (size_t a = shape_.size(); a-- > 0;) {
        if (++coord[a] < shape_[a]) {
          for (size_t k = 0; k < n_in; ++k) offsets[k] += strides_[k][a];
          break;
        }
        coord[a] = 0;
        for (size_t k = 0; k < n_in; ++k)
          offsets[k] -= strides_[k][a] * static_cast<size_t>(shape_[a] - 1);
      }
    }
  }

 private:
  seqconf::Shape shape_;
  size_t count_ = 0;
  bool same_shape_ = true;
  // Per input, per output axis: its element stride, 0 where the input is broadcast.
  std::vector<std::vector<size_t>> strides_;
};

// Limited broadcasting of Add, Sub, Mul, Div (versions 1 and 6) and Equal, Less, Greater
// (version 1), attributes `broadcast` and `axis`: B reshaped so that multidirectional
// broadcasting gives A's shape, or B itself when the shapes are equal. shape_mismatch for any
// other pair (see the .cpp for the sentences). A dimension of 1 in B where A's is longer is the
// ambiguity legacy_broadcast_size1: expanded under the lenient policy (noted in ctx),
// shape_mismatch under the strict one.
Tensor legacy_broadcast_operand(const std::string& op, const Tensor& a, const Tensor& b,
                                int64_t broadcast, std::optional<int64_t> axis, Context& ctx);

// The parts (of one element type) joined along `axis` into a tensor of out_shape, each part
// read as having shapes[i] (its own shape, or with a stacking axis of length 1 inserted): the
// block copy of Concat and ConcatFromSequence, after their own checks. Sizes are checked
// before anything is allocated.
Tensor concatenate(const std::vector<const Tensor*>& parts,
                   const std::vector<seqconf::Shape>& shapes, size_t axis,
                   const seqconf::Shape& out_shape);

// The element of t at offset i (t's type is D).
template <DataType D>
const storage_t<D>& element_at(const Tensor& t, size_t i) {
  if constexpr (D == DataType::string) {
    return t.string_at(i);
  } else {
    return t.data<storage_t<D>>()[i];
  }
}

// True for the types an arithmetic operator (Add, Sub, Mul, Div) may take: every numeric type
// but complex.
inline bool is_real_numeric(DataType d) {
  return d != DataType::bool_ && d != DataType::string && d != DataType::complex64 &&
         d != DataType::complex128;
}

// A and B of one element type, combined element by element after broadcasting. fn(x, y) returns
// the output element, of out_dtype's storage type when `out` is given (comparisons), else of the
// inputs' type. Callers have checked the element type; types fn cannot take never reach it.
// Numeric inputs are read through pointers taken once, and the output is written once in place:
// equal shapes, and a one-element operand against a tensor, run one tight loop per element type
// with no index arithmetic (the common case of bodies and models); other shapes take the general
// broadcasting path.
template <DataType D, DataType Out, class Fn>
Tensor broadcast_binary(const std::string& op, const Tensor& a, const Tensor& b, Fn&& fn) {
  const Broadcast bc(op, {&a, &b}, Out);
  using O = storage_t<Out>;
  const size_t n = bc.count();
  if constexpr (D != DataType::string && Out != DataType::string) {
    using T = storage_t<D>;
    // Distinct storage: the output is new, so the loops may be vectorized.
    const T* __restrict x = a.data<T>();
    const T* __restrict y = b.data<T>();
    std::vector<Tensor> out = Tensor::written_once(Out, {bc.shape()}, [&](std::byte* const* p) {
      O* __restrict o = reinterpret_cast<O*>(p[0]);
      if (a.shape() == b.shape()) {
        for (size_t i = 0; i < n; ++i) o[i] = fn(x[i], y[i]);
      } else if (a.element_count() == 1 && b.element_count() == n) {
        // A's shape is all ones: the output is B's elements in B's order.
        const T s = x[0];
        for (size_t i = 0; i < n; ++i) o[i] = fn(s, y[i]);
      } else if (b.element_count() == 1 && a.element_count() == n) {
        const T s = y[0];
        for (size_t i = 0; i < n; ++i) o[i] = fn(x[i], s);
      } else {
        bc.for_each([&](size_t i, const size_t* off) { o[i] = fn(x[off[0]], y[off[1]]); });
      }
    });
    return std::move(out.front());
  } else {
    std::vector<O> out(n);
    bc.for_each([&](size_t i, const size_t* off) {
      out[i] = fn(element_at<D>(a, off[0]), element_at<D>(b, off[1]));
    });
    return Tensor::from_values<Out>(bc.shape(), std::move(out));
  }
}

}  // namespace seqconf::support

namespace seqconf::support {

// Add, Sub, Mul, Div: A and B of one numeric type (complex excluded), broadcast, combined by
// fn(x, y) on the storage type. float16 and bfloat16 are computed in float and rounded once to
// their type: float's 24-bit significand is at least twice theirs (11 and 8 bits) plus 2, so
// rounding the float result again gives the correctly rounded sum, difference, product and
// quotient.
template <class Fn>
Tensor arithmetic(const std::string& op, const Tensor& a, const Tensor& b, Fn&& fn) {
  if (a.dtype() != b.dtype())
    throw Error(ErrorCode::element_type_mismatch,
                op + ": A is " + a.describe() + " but B is " + b.describe());
  if (!is_real_numeric(a.dtype()))
    throw Error(ErrorCode::unsupported_type, op + ": type " + std::string(dtype_name(a.dtype())) +
                                                 " is not a numeric type of " + op);
  return visit_dtype(a.dtype(), [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (!std::is_arithmetic_v<T> && !is_half_v<T>) {
      throw Error(ErrorCode::unsupported_type, op + ": unsupported type");
    } else if constexpr (D == DataType::bool_) {
      throw Error(ErrorCode::unsupported_type, op + ": unsupported type");
    } else if constexpr (is_half_v<T>) {
      return broadcast_binary<D, D>(op, a, b, [&](T x, T y) {
        return half_from_float<T>(fn(half_to_float(x), half_to_float(y)));
      });
    } else {
      return broadcast_binary<D, D>(op, a, b, [&](T x, T y) -> T { return fn(x, y); });
    }
  });
}

// Integer results modulo 2^bits (two's complement wrap-around for signed types, what runtimes'
// hardware does), computed in an unsigned type at least as wide as unsigned int so that neither
// signed overflow nor promotion to int can be undefined behaviour. Floating types: op itself.
template <class T, class Op>
T wrapping(T x, T y, Op op) {
  if constexpr (std::is_integral_v<T>) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(
        static_cast<std::make_unsigned_t<T>>(op(static_cast<W>(x), static_cast<W>(y))));
  } else {
    return static_cast<T>(op(x, y));
  }
}

}  // namespace seqconf::support
