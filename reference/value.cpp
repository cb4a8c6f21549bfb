#include "reference/value.h"

#include <limits>
#include <sstream>

namespace seqconf {

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
      throw Error(ErrorCode::invalid_proto, "negative dimension " + std::to_string(d) +
                                                " in shape " + shape_to_string(shape));
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
  const size_t limit = max_tensor_bytes();
  if (count > limit / per)
    throw Error(ErrorCode::limit_exceeded,
                "tensor of shape " + shape_to_string(shape) + " (" + std::to_string(count) +
                    " elements) exceeds the limit of " + std::to_string(limit) + " bytes");
}
}  // namespace

size_t checked_tensor_elements(DataType dtype, const Shape& shape) {
  const size_t count = checked_element_count(shape);
  check_limit(count, element_size(dtype), shape);
  return count;
}

Tensor::Tensor() : shape_{0}, storage_(std::make_shared<Storage>()) {}

Tensor Tensor::from_bytes(DataType dtype, Shape shape, std::vector<std::byte> bytes) {
  if (!is_supported(dtype) || dtype == DataType::string)
    throw Error(ErrorCode::unsupported_type,
                "from_bytes: element type " + std::string(dtype_name(dtype)) + " is not numeric");
  const size_t count = checked_element_count(shape);
  check_limit(count, element_size(dtype), shape);
  if (bytes.size() != count * element_size(dtype))
    throw Error(ErrorCode::invalid_proto, "tensor(" + std::string(dtype_name(dtype)) +
                                              ") of shape " + shape_to_string(shape) + " needs " +
                                              std::to_string(count * element_size(dtype)) +
                                              " bytes, got " + std::to_string(bytes.size()));
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
                                              " needs " + std::to_string(count) + " strings, got " +
                                              std::to_string(values.size()));
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
  const size_t count = checked_tensor_elements(dtype, shape);  // before allocating
  if (dtype == DataType::string)
    return from_strings(std::move(shape), std::vector<std::string>(count));
  check_limit(count, element_size(dtype), shape);
  return from_bytes(dtype, std::move(shape), std::vector<std::byte>(count * element_size(dtype)));
}

std::vector<Tensor> Tensor::unfilled(DataType dtype, const std::vector<Shape>& shapes,
                                     std::vector<std::byte*>* p) {
  if (!is_supported(dtype) || dtype == DataType::string)
    throw Error(ErrorCode::unsupported_type,
                "written_once: element type " + std::string(dtype_name(dtype)) + " is not numeric");
  std::vector<size_t> counts;
  counts.reserve(shapes.size());
  for (const Shape& shape : shapes) counts.push_back(checked_tensor_elements(dtype, shape));
  std::vector<Tensor> ts(shapes.size());
  p->assign(shapes.size(), nullptr);
  for (size_t i = 0; i < shapes.size(); ++i) {
    Tensor& t = ts[i];
    t.dtype_ = dtype;
    t.shape_ = shapes[i];
    t.count_ = counts[i];
    auto s = std::make_shared<Storage>();
    // new std::byte[n] default-initialises: the bytes are left for fill to write.
    if (counts[i]) s->raw.reset(new std::byte[counts[i] * element_size(dtype)]);
    (*p)[i] = s->raw.get();
    t.storage_ = std::move(s);
  }
  return ts;
}

void Tensor::normalize_bools(std::vector<Tensor>& ts) {
  for (Tensor& t : ts)
    if (t.count_) {
      // Only written_once calls this, before the tensors are returned: nothing shares them.
      std::byte* b = t.storage_->raw.get();
      for (size_t i = 0; i < t.count_; ++i) b[i] = std::byte{b[i] != std::byte{0}};
    }
}

const std::byte* Tensor::bytes() const {
  if (dtype_ == DataType::string) return nullptr;
  return storage_->data() + offset_ * element_size(dtype_);
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
    throw Error(ErrorCode::shape_mismatch,
                "view of shape " + shape_to_string(shape) + " does not fit " + describe());
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

namespace detail {

// A node of the persistent sequence tree. A leaf holds tensors; an inner node holds children.
// `size` is the number of tensors below.
struct SequenceNode {
  static constexpr size_t kFanout = 32;
  size_t size = 0;
  std::vector<Tensor> items;                                  // leaf
  std::vector<std::shared_ptr<const SequenceNode>> children;  // inner
  bool leaf() const { return children.empty(); }
};

}  // namespace detail

namespace {

using Node = detail::SequenceNode;
using NodePtr = std::shared_ptr<const Node>;

NodePtr make_leaf(std::vector<Tensor> items) {
  auto n = std::make_shared<Node>();
  n->size = items.size();
  n->items = std::move(items);
  return n;
}

NodePtr make_inner(std::vector<NodePtr> children) {
  auto n = std::make_shared<Node>();
  for (const auto& c : children) n->size += c->size;
  n->children = std::move(children);
  return n;
}

// Child k of an inner node holding position i, and i relative to that child.
size_t locate(const Node& n, size_t& i) {
  size_t k = 0;
  while (i >= n.children[k]->size) i -= n.children[k++]->size;
  return k;
}

// Splits an overfull vector in two halves.
template <class T>
std::pair<std::vector<T>, std::vector<T>> halves(std::vector<T> v) {
  std::vector<T> right(
      std::make_move_iterator(v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2)),
      std::make_move_iterator(v.end()));
  v.resize(v.size() / 2);
  return {std::move(v), std::move(right)};
}

// Inserts at i below n; returns the new node, and a right sibling when n had to split.
std::pair<NodePtr, NodePtr> insert_at(const Node& n, size_t i, const Tensor& t) {
  if (n.leaf()) {
    std::vector<Tensor> items;
    items.reserve(n.items.size() + 1);
    items.insert(items.end(), n.items.begin(), n.items.begin() + static_cast<std::ptrdiff_t>(i));
    items.push_back(t);
    items.insert(items.end(), n.items.begin() + static_cast<std::ptrdiff_t>(i), n.items.end());
    if (items.size() <= Node::kFanout) return {make_leaf(std::move(items)), nullptr};
    auto [l, r] = halves(std::move(items));
    return {make_leaf(std::move(l)), make_leaf(std::move(r))};
  }
  size_t k = n.children.size() - 1;
  if (i < n.size) {
    k = locate(n, i);
  } else {
    i -= n.size - n.children.back()->size;  // append: into the last child
  }
  auto [child, sibling] = insert_at(*n.children[k], i, t);
  std::vector<NodePtr> children = n.children;
  children[k] = std::move(child);
  if (sibling)
    children.insert(children.begin() + static_cast<std::ptrdiff_t>(k) + 1, std::move(sibling));
  if (children.size() <= Node::kFanout) return {make_inner(std::move(children)), nullptr};
  auto [l, r] = halves(std::move(children));
  return {make_inner(std::move(l)), make_inner(std::move(r))};
}

// Erases position i below n; returns null when nothing is left.
NodePtr erase_at(const Node& n, size_t i) {
  if (n.leaf()) {
    if (n.items.size() == 1) return nullptr;
    std::vector<Tensor> items;
    items.reserve(n.items.size() - 1);
    items.insert(items.end(), n.items.begin(), n.items.begin() + static_cast<std::ptrdiff_t>(i));
    items.insert(items.end(), n.items.begin() + static_cast<std::ptrdiff_t>(i) + 1, n.items.end());
    return make_leaf(std::move(items));
  }
  const size_t k = locate(n, i);
  NodePtr child = erase_at(*n.children[k], i);
  std::vector<NodePtr> children = n.children;
  if (child) {
    children[k] = std::move(child);
  } else {
    children.erase(children.begin() + static_cast<std::ptrdiff_t>(k));
  }
  if (children.empty()) return nullptr;
  return make_inner(std::move(children));
}

template <class F>
void for_each_tensor(const Node& n, F&& f) {
  if (n.leaf()) {
    for (const auto& t : n.items) f(t);
  } else {
    for (const auto& c : n.children) for_each_tensor(*c, f);
  }
}

}  // namespace

Sequence::Sequence(DataType elem_type) : elem_type_(elem_type) {}

Sequence::Sequence(DataType elem_type, std::vector<Tensor> tensors) : elem_type_(elem_type) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].dtype() != elem_type)
      throw Error(ErrorCode::element_type_mismatch,
                  "tensor " + std::to_string(i) + " is " + tensors[i].describe() +
                      " but the sequence holds tensor(" + std::string(dtype_name(elem_type)) + ")");
  if (tensors.empty()) return;
  // Bulk load: full leaves, then full inner levels.
  std::vector<NodePtr> level;
  for (size_t i = 0; i < tensors.size(); i += Node::kFanout) {
    const size_t end = std::min(tensors.size(), i + Node::kFanout);
    level.push_back(make_leaf(std::vector<Tensor>(
        std::make_move_iterator(tensors.begin() + static_cast<std::ptrdiff_t>(i)),
        std::make_move_iterator(tensors.begin() + static_cast<std::ptrdiff_t>(end)))));
  }
  while (level.size() > 1) {
    std::vector<NodePtr> up;
    for (size_t i = 0; i < level.size(); i += Node::kFanout) {
      const size_t end = std::min(level.size(), i + Node::kFanout);
      up.push_back(
          make_inner(std::vector<NodePtr>(level.begin() + static_cast<std::ptrdiff_t>(i),
                                          level.begin() + static_cast<std::ptrdiff_t>(end))));
    }
    level = std::move(up);
  }
  root_ = std::move(level.front());
}

size_t Sequence::size() const { return root_ ? root_->size : 0; }

const Tensor& Sequence::at(size_t i) const {
  const Node* n = root_.get();
  while (!n->leaf()) n = n->children[locate(*n, i)].get();
  return n->items[i];
}

std::vector<Tensor> Sequence::tensors() const {
  std::vector<Tensor> v;
  if (!root_) return v;
  v.reserve(root_->size);
  for_each_tensor(*root_, [&](const Tensor& t) { v.push_back(t); });
  return v;
}

Sequence Sequence::inserted(size_t index, const Tensor& tensor) const {
  if (tensor.dtype() != elem_type_)
    throw Error(ErrorCode::element_type_mismatch,
                "cannot insert " + tensor.describe() + " into " + describe());
  if (index > size())
    throw Error(ErrorCode::position_out_of_range,
                "insert index " + std::to_string(index) + " past the end of " + describe());
  Sequence out(elem_type_);
  if (!root_) {
    out.root_ = make_leaf({tensor});
    return out;
  }
  auto [node, sibling] = insert_at(*root_, index, tensor);
  out.root_ = sibling ? make_inner({std::move(node), std::move(sibling)}) : std::move(node);
  return out;
}

Sequence Sequence::erased(size_t index) const {
  if (index >= size())
    throw Error(ErrorCode::position_out_of_range,
                "erase index " + std::to_string(index) + " outside " + describe());
  Sequence out(elem_type_);
  out.root_ = erase_at(*root_, index);
  // Keep the tree shallow: an inner root with one child is replaced by that child.
  while (out.root_ && !out.root_->leaf() && out.root_->children.size() == 1)
    out.root_ = out.root_->children.front();
  return out;
}

bool Sequence::identical(const Sequence& o) const {
  if (elem_type_ != o.elem_type_ || size() != o.size()) return false;
  for (size_t i = 0; i < size(); ++i)
    if (!at(i).identical(o.at(i))) return false;
  return true;
}

std::string Sequence::describe() const {
  return "seq(tensor(" + std::string(dtype_name(elem_type_)) + "))[" + std::to_string(size()) + "]";
}

const Tensor& Value::tensor(std::string_view what) const {
  if (auto* t = std::get_if<Tensor>(&v)) return *t;
  throw Error(ErrorCode::not_a_tensor, std::string(what) + " must be a tensor, got " + describe());
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
