// Values the operators consume and produce: tensors, sequences of tensors, optionals.
//
// Values are immutable. A Tensor is a view (element offset, shape) into shared storage, so a
// sequence built from another, or a chunk of a split along the outer axis, shares the bytes
// instead of copying them; nothing can write through a shared view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "reference/dtype.h"
#include "reference/error.h"
#include "reference/limits.h"

namespace seqconf {

using Shape = std::vector<int64_t>;

std::string shape_to_string(const Shape& shape);
// Number of elements of a shape; throws invalid_proto / limit_exceeded for negative dims or
// overflow.
size_t checked_element_count(const Shape& shape);
// checked_element_count, and limit_exceeded when a tensor of that shape and type would exceed
// max_tensor_bytes() (reference/limits.h): call before allocating an output tensor's storage.
size_t checked_tensor_elements(DataType dtype, const Shape& shape);

class Tensor {
 public:
  // An empty float tensor of shape [0].
  Tensor();

  // Numeric tensor from little-endian bytes; bytes.size() must equal count * element_size.
  static Tensor from_bytes(DataType dtype, Shape shape, std::vector<std::byte> bytes);
  static Tensor from_strings(Shape shape, std::vector<std::string> values);
  // Typed construction; T must be storage_t<dtype>.
  template <DataType D>
  static Tensor from_values(Shape shape, std::vector<storage_t<D>> values);
  // A tensor of the given type and shape, every element zero (empty string for strings).
  static Tensor zeros(DataType dtype, Shape shape);
  // Numeric tensors of one type and the given shapes whose storage is not zero-filled but
  // written once by fill(p), p[i] pointing to tensor i's byte_size() bytes; fill must write
  // every byte. The tensors do not exist until fill returns, so no view can see or keep a
  // writable pointer: they are as immutable as any other. For outputs whose every byte is
  // copied from elsewhere (SplitToSequence's chunks), where zeros() would write each byte
  // twice. Sizes are checked (limit_exceeded) before anything is allocated.
  template <class Fill>
  static std::vector<Tensor> written_once(DataType dtype, const std::vector<Shape>& shapes,
                                          Fill&& fill) {
    std::vector<std::byte*> p;
    std::vector<Tensor> ts = unfilled(dtype, shapes, &p);
    fill(static_cast<std::byte* const*>(p.data()));
    if (dtype == DataType::bool_) normalize_bools(ts);
    return ts;
  }

  DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  size_t element_count() const { return count_; }
  size_t byte_size() const { return count_ * element_size(dtype_); }

  // Raw little-endian bytes of a numeric tensor (nullptr for string).
  const std::byte* bytes() const;
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(bytes());
  }
  const std::string& string_at(size_t i) const;
  // Element i as int64 (integer and bool types only).
  int64_t int_at(size_t i) const;

  // A tensor of count elements starting at element offset, with a new shape; shares storage.
  Tensor view(Shape shape, size_t element_offset, size_t count) const;
  Tensor reshaped(Shape shape) const { return view(std::move(shape), 0, count_); }
  bool shares_storage_with(const Tensor& other) const { return storage_ == other.storage_; }

  // Exact equality: type, shape and every element's bits (NaN equals itself, -0 != +0).
  bool identical(const Tensor& other) const;
  std::string describe() const;  // "tensor(float)[2,3]"

 private:
  // The storage of written_once: allocated uninitialised; p receives the writable pointers.
  static std::vector<Tensor> unfilled(DataType dtype, const std::vector<Shape>& shapes,
                                      std::vector<std::byte*>* p);
  static void normalize_bools(std::vector<Tensor>& ts);  // bool bytes to 0 or 1

  struct Storage {
    std::vector<std::byte> bytes;
    std::unique_ptr<std::byte[]> raw;  // instead of bytes, for written_once (not zero-filled)
    std::vector<std::string> strings;
    const std::byte* data() const { return raw ? raw.get() : bytes.data(); }
  };
  DataType dtype_ = DataType::float32;
  Shape shape_;
  std::shared_ptr<const Storage> storage_;
  size_t offset_ = 0;  // in elements
  size_t count_ = 0;
};

namespace detail {
struct SequenceNode;
}

// A sequence is a persistent tree of tensors (leaves and inner nodes of at most 32 entries):
// inserting or erasing copies one path of the tree, O(log n), and shares everything else with
// the sequence it came from; values never change after construction.
class Sequence {
 public:
  // An empty sequence keeps its element type.
  explicit Sequence(DataType elem_type = DataType::float32);
  // All tensors must have elem_type (element_type_mismatch otherwise).
  Sequence(DataType elem_type, std::vector<Tensor> tensors);

  DataType elem_type() const { return elem_type_; }
  size_t size() const;
  bool empty() const { return size() == 0; }
  // i < size().
  const Tensor& at(size_t i) const;
  // The tensors in order (a copy of the handles; the data is shared).
  std::vector<Tensor> tensors() const;

  // New sequences; the tensors are shared with this one. index <= size() (insert),
  // index < size() (erase).
  Sequence inserted(size_t index, const Tensor& tensor) const;
  Sequence erased(size_t index) const;

  bool identical(const Sequence& other) const;
  std::string describe() const;  // "seq(tensor(float))[3]"

 private:
  DataType elem_type_;
  std::shared_ptr<const detail::SequenceNode> root_;  // null when empty
};

struct Value;

// ONNX optional(T): either empty or holding a tensor or a sequence. An empty optional still
// knows what it would hold.
struct Optional {
  bool holds_sequence = false;
  DataType elem_type = DataType::float32;
  std::shared_ptr<const Value> element;  // null when empty
};

struct Value {
  std::variant<Tensor, Sequence, Optional> v;

  Value() = default;
  Value(Tensor t) : v(std::move(t)) {}
  Value(Sequence s) : v(std::move(s)) {}
  Value(Optional o) : v(std::move(o)) {}

  bool is_tensor() const { return std::holds_alternative<Tensor>(v); }
  bool is_sequence() const { return std::holds_alternative<Sequence>(v); }
  bool is_optional() const { return std::holds_alternative<Optional>(v); }
  // Throw not_a_tensor / not_a_sequence naming `what` when the kind differs.
  const Tensor& tensor(std::string_view what = "value") const;
  const Sequence& sequence(std::string_view what = "value") const;
  const Optional& optional(std::string_view what = "value") const;

  bool identical(const Value& other) const;
  std::string describe() const;
};

Optional make_optional(const Value& element);

// The elements [start, start + length) of `axis`, all other axes whole. Shares storage when the
// range is contiguous in memory (every axis before `axis` has size 1), copies otherwise.
Tensor slice_axis(const Tensor& input, size_t axis, int64_t start, int64_t length);

template <DataType D>
Tensor Tensor::from_values(Shape shape, std::vector<storage_t<D>> values) {
  if constexpr (D == DataType::string) {
    return from_strings(std::move(shape), std::move(values));
  } else {
    std::vector<std::byte> bytes(values.size() * sizeof(storage_t<D>));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return from_bytes(D, std::move(shape), std::move(bytes));
  }
}

}  // namespace seqconf
