#include "reference/support/support_ops.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>

#include "reference/proto.h"
#include "reference/support/broadcast.h"

namespace seqconf::support {

namespace {

// A tensor of `shape` whose element k is element index[k] of src.
Tensor gather(const Tensor& src, const std::vector<size_t>& index, seqconf::Shape shape) {
  return visit_dtype(src.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    std::vector<storage_t<D>> out;
    out.reserve(index.size());
    for (size_t i : index) out.push_back(element_at<D>(src, i));
    return Tensor::from_values<D>(std::move(shape), std::move(out));
  });
}

std::vector<size_t> strides_of(const seqconf::Shape& s) {
  std::vector<size_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * static_cast<size_t>(s[i]);
  return st;
}

std::string ints_to_string(const std::vector<int64_t>& v) { return shape_to_string(v); }

}  // namespace

std::vector<int64_t> read_ints(const Tensor& t, const char* what) {
  if (t.dtype() != DataType::int32 && t.dtype() != DataType::int64)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + " must be int32 or int64, got " + t.describe());
  if (t.rank() > 1)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + " must be a scalar or 1-D, got " + t.describe());
  std::vector<int64_t> v(t.element_count());
  for (size_t i = 0; i < v.size(); ++i) v[i] = t.int_at(i);
  return v;
}

Value Identity(const Value& input) { return input; }

// Add-14: "Performs element-wise binary addition (with Numpy-style broadcasting support)."
// Integers wrap around (two's complement) on overflow.
Tensor Add(const Tensor& a, const Tensor& b) {
  return arithmetic("Add", a, b, [](auto x, auto y) { return wrapping(x, y, std::plus<>()); });
}

// Shape-15: "Optional attributes start and end can be used to compute a slice of the input
//  tensor's shape. ... Negative value means counting dimensions from the back. ... If start
//  axis is out of range, it is clamped ..."
Tensor Shape(const Tensor& data, std::optional<int64_t> start, std::optional<int64_t> end) {
  const auto r = static_cast<int64_t>(data.rank());
  auto clamp = [r](int64_t v) {
    if (v < 0) v += r;
    return std::clamp<int64_t>(v, 0, r);
  };
  const int64_t s = clamp(start.value_or(0)), e = clamp(end.value_or(r));
  std::vector<int64_t> dims;
  for (int64_t k = s; k < e; ++k) dims.push_back(data.shape()[static_cast<size_t>(k)]);
  const auto n = static_cast<int64_t>(dims.size());
  return Tensor::from_values<DataType::int64>({n}, std::move(dims));
}

Tensor Constant(const onnx::AttributeProto& attr) {
  const std::string& name = attr.name();
  auto floats = [](std::vector<float> v, bool scalar) {
    const seqconf::Shape sh =
        scalar ? seqconf::Shape{} : seqconf::Shape{static_cast<int64_t>(v.size())};
    return Tensor::from_values<DataType::float32>(sh, std::move(v));
  };
  if (name == "value") return tensor_from_proto(attr.t());
  if (name == "value_float") return floats({attr.f()}, true);
  if (name == "value_floats") return floats({attr.floats().begin(), attr.floats().end()}, false);
  if (name == "value_int") return Tensor::from_values<DataType::int64>({}, {attr.i()});
  if (name == "value_ints")
    return Tensor::from_values<DataType::int64>({attr.ints_size()},
                                                {attr.ints().begin(), attr.ints().end()});
  if (name == "value_string") return Tensor::from_strings({}, {attr.s()});
  if (name == "value_strings")
    return Tensor::from_strings({attr.strings_size()},
                                {attr.strings().begin(), attr.strings().end()});
  if (name == "sparse_value")
    throw Error(ErrorCode::not_supported, "Constant: sparse_value is not supported");
  throw Error(ErrorCode::invalid_argument, "Constant: unknown attribute '" + name + "'");
}

// Slice-13: "Slice uses the starts, ends, axes and steps inputs to select a sub-tensor of its
//  input data tensor." Out-of-range starts/ends are clamped; negative values count from the
//  back; steps may be negative but not 0; axes must not repeat.
Tensor Slice(const Tensor& data, const Tensor& starts_t, const Tensor& ends_t,
             const std::optional<Tensor>& axes_t, const std::optional<Tensor>& steps_t) {
  const auto starts = read_ints(starts_t, "Slice: starts");
  const auto ends = read_ints(ends_t, "Slice: ends");
  const auto r = static_cast<int64_t>(data.rank());
  std::vector<int64_t> axes, steps;
  if (axes_t) {
    axes = read_ints(*axes_t, "Slice: axes");
  } else {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  steps = steps_t ? read_ints(*steps_t, "Slice: steps") : std::vector<int64_t>(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    throw Error(ErrorCode::invalid_argument, "Slice: starts " + ints_to_string(starts) + ", ends " +
                                                 ints_to_string(ends) + ", axes " +
                                                 ints_to_string(axes) + " and steps " +
                                                 ints_to_string(steps) + " differ in length");
  std::vector<int64_t> begin(static_cast<size_t>(r), 0), step(static_cast<size_t>(r), 1);
  seqconf::Shape out = data.shape();
  std::vector<bool> seen(static_cast<size_t>(r), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = axes[i];
    if (ax < -r || ax >= r)
      throw Error(ErrorCode::axis_out_of_range, "Slice: axis " + std::to_string(ax) +
                                                    " is outside [" + std::to_string(-r) + ", " +
                                                    std::to_string(r - 1) + "]");
    if (ax < 0) ax += r;
    const auto k = static_cast<size_t>(ax);
    if (seen[k])
      throw Error(ErrorCode::invalid_argument, "Slice: axis " + std::to_string(ax) + " repeats");
    seen[k] = true;
    if (steps[i] == 0)
      throw Error(ErrorCode::invalid_argument, "Slice: step 0 on axis " + std::to_string(ax));
    const int64_t d = data.shape()[k];
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += d;
    if (e < 0) e += d;
    if (d == 0) {
      out[k] = 0;  // nothing to select (and [0, d - 1] below would be no range)
    } else if (steps[i] > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      out[k] = e > s ? (e - s - 1) / steps[i] + 1 : 0;  // no overflow for any step
    } else {
      s = std::clamp<int64_t>(s, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      const int64_t back = steps[i] == std::numeric_limits<int64_t>::min()
                               ? std::numeric_limits<int64_t>::max()  // s - e - 1 < both
                               : -steps[i];
      out[k] = s > e ? (s - e - 1) / back + 1 : 0;
    }
    begin[k] = s;
    step[k] = steps[i];
  }
  const size_t n = checked_element_count(out);
  const auto st_in = strides_of(data.shape()), st_out = strides_of(out);
  std::vector<size_t> index(n);
  for (size_t i = 0; i < n; ++i) {
    size_t rem = i, src = 0;
    for (size_t k = 0; k < out.size(); ++k) {
      const auto c = static_cast<int64_t>(rem / st_out[k]);
      rem %= st_out[k];
      src += static_cast<size_t>(begin[k] + c * step[k]) * st_in[k];
    }
    index[i] = src;
  }
  return gather(data, index, out);
}

// Unsqueeze-13: "Insert single-dimensional entries to the shape of an input tensor ... Each
//  value in axes should be within the (inclusive) range [-output_rank , output_rank - 1]. The
//  order of values in axes does not matter and can come in any order." Duplicates are errors.
Tensor Unsqueeze(const Tensor& data, const std::vector<int64_t>& axes) {
  const auto r_out = static_cast<int64_t>(data.rank() + axes.size());
  std::vector<bool> is_new(static_cast<size_t>(r_out), false);
  for (int64_t ax : axes) {
    if (ax < -r_out || ax >= r_out)
      throw Error(ErrorCode::axis_out_of_range, "Unsqueeze: axis " + std::to_string(ax) +
                                                    " is outside [" + std::to_string(-r_out) +
                                                    ", " + std::to_string(r_out - 1) + "]");
    const auto k = static_cast<size_t>(ax < 0 ? ax + r_out : ax);
    if (is_new[k])
      throw Error(ErrorCode::invalid_argument,
                  "Unsqueeze: axes " + ints_to_string(axes) + " repeat axis " + std::to_string(k));
    is_new[k] = true;
  }
  seqconf::Shape out;
  size_t j = 0;
  for (size_t k = 0; k < static_cast<size_t>(r_out); ++k)
    out.push_back(is_new[k] ? 1 : data.shape()[j++]);
  return data.reshaped(out);
}

Tensor Not(const Tensor& x) {
  if (x.dtype() != DataType::bool_)
    throw Error(ErrorCode::unsupported_type, "Not: input must be bool, got " + x.describe());
  std::vector<uint8_t> v(x.element_count());
  for (size_t i = 0; i < v.size(); ++i) v[i] = x.data<uint8_t>()[i] ? 0 : 1;
  return Tensor::from_values<DataType::bool_>(x.shape(), std::move(v));
}

// Optional-15: "Constructs an optional-type value containing either an empty optional of a
//  certain type specified by the attribute, or a non-empty value containing the input element."
Optional MakeOptional(const std::optional<Value>& input, const onnx::TypeProto* type) {
  if (input) {
    if (input->is_optional())
      throw Error(ErrorCode::invalid_argument, "Optional: input is already an optional");
    return make_optional(*input);
  }
  if (!type) throw Error(ErrorCode::invalid_argument, "Optional: no input and no 'type' attribute");
  Optional o;
  if (type->has_tensor_type()) {
    o.holds_sequence = false;
    o.elem_type = dtype_from_onnx(type->tensor_type().elem_type(), "Optional: type");
  } else if (type->has_sequence_type() && type->sequence_type().elem_type().has_tensor_type()) {
    o.holds_sequence = true;
    o.elem_type = dtype_from_onnx(type->sequence_type().elem_type().tensor_type().elem_type(),
                                  "Optional: type");
  } else {
    throw Error(ErrorCode::not_supported,
                "Optional: 'type' is neither a tensor nor a sequence of tensors");
  }
  return o;
}

// OptionalHasElement-18: "Returns true if (1) the input is an optional-type and contains an
//  element, or, (2) the input is a tensor or sequence type. If the input is not provided or is
//  an empty optional-type, this op returns false."
Tensor OptionalHasElement(const std::optional<Value>& input, int64_t since_version) {
  bool has = false;
  if (!input) {
    if (since_version < 18)
      throw Error(ErrorCode::missing_input, "OptionalHasElement-15: input is required");
  } else if (input->is_optional()) {
    has = input->optional().element != nullptr;
  } else {
    if (since_version < 18)
      throw Error(ErrorCode::not_a_tensor,
                  "OptionalHasElement-15: input must be an optional, got " + input->describe());
    has = true;
  }
  return Tensor::from_values<DataType::bool_>({}, {static_cast<uint8_t>(has)});
}

// OptionalGetElement-18: "If the input is a tensor or sequence type, it returns the input. If
//  the input is an optional type, it outputs the element in the input. It is an error if the
//  input is an empty optional-type."
Value OptionalGetElement(const Value& input, int64_t since_version) {
  if (!input.is_optional()) {
    if (since_version < 18)
      throw Error(ErrorCode::not_a_tensor,
                  "OptionalGetElement-15: input must be an optional, got " + input.describe());
    return input;
  }
  if (!input.optional().element)
    throw Error(ErrorCode::missing_input, "OptionalGetElement: the optional is empty");
  return *input.optional().element;
}

}  // namespace seqconf::support
