#include "reference/value.h"

#include <atomic>
#include <limits>
#include <sstream>

namespace seqconf {

namespace {
std::atomic<size_t> g_max_tensor_bytes{size_t{1} << 30};
}

size_t Limits::max_tensor_bytes() { return g_max_tensor_bytes.load(); }
void Limits::set_max_tensor_bytes(size_t n) { g_max_tensor_bytes.store(n); }

std::string shape_to_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

size_t checked_element_count(const Shape& shape) {
  size_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw Error(ErrorCode::invalid_proto,
                  "negative dimension " + std::to_string(d) + " in shape " + shape_to_string(shape));
  }
  for (int64_t d : shape) {
    if (d == 0) return 0;
  }
  for (int64_t d : shape) {
    const auto ud = static_cast<size_t>(d);
    if (n > std::numeric_limits<size_t>::max() / ud)
      throw Error(ErrorCode::limit_exceeded,
                  "element count of shape " + shape_to_string(shape) + " overflows");
    n *= ud;
  }
  return n;
}

namespace {
void check_limit(size_t count, size_t elem_bytes, const Shape& shape) {
  const size_t per = elem_bytes == 0 ? sizeof(std::string) : elem_bytes;
  if (count > Limits::max_tensor_bytes() / per)
    throw Error(ErrorCode::limit_exceeded,
                "tensor of shape " + shape_to_string(shape) + " (" + std::to_string(count) +
                    " elements) exceeds the limit of " + std::to_string(Limits::max_tensor_bytes()) +
                    " bytes");
}
}  // namespace

Tensor::Tensor() : shape_{0}, storage_(std::make_shared<Storage>()) {}

Tensor Tensor::from_bytes(DataType dtype, Shape shape, std::vector<std::byte> bytes) {
  if (!is_supported(dtype) || dtype == DataType::string)
    throw Error(ErrorCode::unsupported_type,
                "from_bytes: element type " + std::string(dtype_name(dtype)) + " is not numeric");
  const size_t count = checked_element_count(shape);
  check_limit(count, element_size(dtype), shape);
  if (bytes.size() != count * element_size(dtype))
    throw Error(ErrorCode::invalid_proto,
                "tensor(" + std::string(dtype_name(dtype)) + ") of shape " +
                    shape_to_string(shape) + " needs " +
                    std::to_string(count * element_size(dtype)) + " bytes, got " +
                    std::to_string(bytes.size()));
  if (dtype == DataType::bool_)
    for (auto& b : bytes) b = std::byte{b != std::byte{0}};
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  auto s = std::make_shared<Storage>();
  s->bytes = std::move(bytes);
  t.storage_ = std::move(s);
  t.count_ = count;
  return t;
}

Tensor Tensor::from_strings(Shape shape, std::vector<std::string> values) {
  const size_t count = checked_element_count(shape);
  check_limit(count, 0, shape);
  if (values.size() != count)
    throw Error(ErrorCode::invalid_proto, "tensor(string) of shape " + shape_to_string(shape) +
                                              " needs " + std::to_string(count) +
                                              " strings, got " + std::to_string(values.size()));
  Tensor t;
  t.dtype_ = DataType::string;
  t.shape_ = std::move(shape);
  auto s = std::make_shared<Storage>();
  s->strings = std::move(values);
  t.storage_ = std::move(s);
  t.count_ = count;
  return t;
}

Tensor Tensor::zeros(DataType dtype, Shape shape) {
  const size_t count = checked_element_count(shape);
  if (dtype == DataType::string) return from_strings(std::move(shape), std::vector<std::string>(count));
  check_limit(count, element_size(dtype), shape);
  return from_bytes(dtype, std::move(shape), std::vector<std::byte>(count * element_size(dtype)));
}

const std::byte* Tensor::bytes() const {
  if (dtype_ == DataType::string) return nullptr;
  return storage_->bytes.data() + offset_ * element_size(dtype_);
}

const std::string& Tensor::string_at(size_t i) const { return storage_->strings[offset_ + i]; }

int64_t Tensor::int_at(size_t i) const {
  return visit_dtype(dtype_, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      return static_cast<int64_t>(data<T>()[i]);
    } else {
      throw Error(ErrorCode::invalid_argument,
                  "int_at on a tensor(" + std::string(dtype_name(dtype_)) + ")");
    }
  });
}

Tensor Tensor::view(Shape shape, size_t element_offset, size_t count) const {
  if (checked_element_count(shape) != count || element_offset + count > count_)
    throw Error(ErrorCode::shape_mismatch, "view of shape " + shape_to_string(shape) +
                                               " does not fit " + describe());
  Tensor t = *this;
  t.shape_ = std::move(shape);
  t.offset_ = offset_ + element_offset;
  t.count_ = count;
  return t;
}

bool Tensor::identical(const Tensor& o) const {
  if (dtype_ != o.dtype_ || shape_ != o.shape_) return false;
  if (dtype_ == DataType::string) {
    for (size_t i = 0; i < count_; ++i)
      if (string_at(i) != o.string_at(i)) return false;
    return true;
  }
  return count_ == 0 || std::memcmp(bytes(), o.bytes(), byte_size()) == 0;
}

std::string Tensor::describe() const {
  return "tensor(" + std::string(dtype_name(dtype_)) + ")" + shape_to_string(shape_);
}

Sequence::Sequence(DataType elem_type) : elem_type_(elem_type) {}

Sequence::Sequence(DataType elem_type, std::vector<Tensor> tensors) : elem_type_(elem_type) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].dtype() != elem_type)
      throw Error(ErrorCode::element_type_mismatch,
                  "tensor " + std::to_string(i) + " is " + tensors[i].describe() +
                      " but the sequence holds tensor(" + std::string(dtype_name(elem_type)) + ")");
  items_ = std::make_shared<const std::vector<Tensor>>(std::move(tensors));
}

const std::vector<Tensor>& Sequence::tensors() const {
  static const std::vector<Tensor> kEmpty;
  return items_ ? *items_ : kEmpty;
}

Sequence Sequence::inserted(size_t index, const Tensor& tensor) const {
  std::vector<Tensor> v;
  v.reserve(size() + 1);
  const auto& cur = tensors();
  v.insert(v.end(), cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(index));
  v.push_back(tensor);
  v.insert(v.end(), cur.begin() + static_cast<std::ptrdiff_t>(index), cur.end());
  return Sequence(elem_type_, std::move(v));
}

Sequence Sequence::erased(size_t index) const {
  std::vector<Tensor> v;
  v.reserve(size());
  const auto& cur = tensors();
  v.insert(v.end(), cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(index));
  v.insert(v.end(), cur.begin() + static_cast<std::ptrdiff_t>(index) + 1, cur.end());
  return Sequence(elem_type_, std::move(v));
}

bool Sequence::identical(const Sequence& o) const {
  if (elem_type_ != o.elem_type_ || size() != o.size()) return false;
  for (size_t i = 0; i < size(); ++i)
    if (!at(i).identical(o.at(i))) return false;
  return true;
}

std::string Sequence::describe() const {
  return "seq(tensor(" + std::string(dtype_name(elem_type_)) + "))[" + std::to_string(size()) +
         "]";
}

const Tensor& Value::tensor(std::string_view what) const {
  if (auto* t = std::get_if<Tensor>(&v)) return *t;
  throw Error(ErrorCode::not_a_tensor,
              std::string(what) + " must be a tensor, got " + describe());
}

const Sequence& Value::sequence(std::string_view what) const {
  if (auto* s = std::get_if<Sequence>(&v)) return *s;
  throw Error(ErrorCode::not_a_sequence,
              std::string(what) + " must be a sequence, got " + describe());
}

const Optional& Value::optional(std::string_view what) const {
  if (auto* o = std::get_if<Optional>(&v)) return *o;
  throw Error(ErrorCode::invalid_argument,
              std::string(what) + " must be an optional, got " + describe());
}

bool Value::identical(const Value& o) const {
  if (v.index() != o.v.index()) return false;
  if (is_tensor()) return tensor().identical(o.tensor());
  if (is_sequence()) return sequence().identical(o.sequence());
  const auto& a = std::get<Optional>(v);
  const auto& b = std::get<Optional>(o.v);
  if (a.holds_sequence != b.holds_sequence || a.elem_type != b.elem_type) return false;
  if (!a.element || !b.element) return !a.element && !b.element;
  return a.element->identical(*b.element);
}

std::string Value::describe() const {
  if (is_tensor()) return tensor().describe();
  if (is_sequence()) return sequence().describe();
  const auto& o = std::get<Optional>(v);
  if (!o.element)
    return std::string("optional(") + (o.holds_sequence ? "seq(" : "") + "tensor(" +
           std::string(dtype_name(o.elem_type)) + (o.holds_sequence ? "))" : ")") + ")=none";
  return "optional(" + o.element->describe() + ")";
}

Optional make_optional(const Value& element) {
  Optional o;
  o.holds_sequence = element.is_sequence();
  o.elem_type = element.is_sequence() ? element.sequence().elem_type() : element.tensor().dtype();
  o.element = std::make_shared<const Value>(element);
  return o;
}

Tensor slice_axis(const Tensor& input, size_t axis, int64_t start, int64_t length) {
  const Shape& in_shape = input.shape();
  const int64_t d = in_shape.at(axis);
  if (start < 0 || length < 0 || start + length > d)
    throw Error(ErrorCode::shape_mismatch, "slice [" + std::to_string(start) + ", " +
                                               std::to_string(start + length) + ") of axis " +
                                               std::to_string(axis) + " of " + input.describe());
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= static_cast<size_t>(in_shape[i]);
  for (size_t i = axis + 1; i < in_shape.size(); ++i) inner *= static_cast<size_t>(in_shape[i]);
  Shape out_shape = in_shape;
  out_shape[axis] = length;
  const size_t block = static_cast<size_t>(length) * inner;
  if (outer <= 1 || block == 0)
    return input.view(std::move(out_shape), outer == 0 ? 0 : static_cast<size_t>(start) * inner,
                      outer == 0 ? 0 : block);
  const size_t in_stride = static_cast<size_t>(d) * inner;
  const size_t first = static_cast<size_t>(start) * inner;
  if (input.dtype() == DataType::string) {
    std::vector<std::string> out;
    out.reserve(outer * block);
    for (size_t o = 0; o < outer; ++o)
      for (size_t k = 0; k < block; ++k) out.push_back(input.string_at(o * in_stride + first + k));
    return Tensor::from_strings(std::move(out_shape), std::move(out));
  }
  const size_t es = element_size(input.dtype());
  std::vector<std::byte> out(outer * block * es);
  for (size_t o = 0; o < outer; ++o)
    std::memcpy(out.data() + o * block * es, input.bytes() + (o * in_stride + first) * es,
                block * es);
  return Tensor::from_bytes(input.dtype(), std::move(out_shape), std::move(out));
}

}  // namespace seqconf
