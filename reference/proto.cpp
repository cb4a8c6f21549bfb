#include "reference/proto.h"

#include <algorithm>
#include <cstring>

#include <google/protobuf/unknown_field_set.h>

namespace seqconf {

namespace {

[[noreturn]] void bad(const std::string& msg) { throw Error(ErrorCode::invalid_proto, msg); }

std::string tensor_label(const onnx::TensorProto& p) {
  return "TensorProto" + (p.name().empty() ? std::string() : " '" + p.name() + "'");
}

template <class Field>
void check_count(const onnx::TensorProto& p, const Field& f, size_t expected, const char* field) {
  if (static_cast<size_t>(f.size()) != expected)
    bad(tensor_label(p) + ": " + field + " holds " + std::to_string(f.size()) + " values, shape " +
        shape_to_string(Shape(p.dims().begin(), p.dims().end())) + " needs " +
        std::to_string(expected));
}

}  // namespace

DataType dtype_from_onnx(int32_t elem_type, const std::string& what) {
  const auto d = static_cast<DataType>(elem_type);
  if (!is_supported(d))
    throw Error(ErrorCode::unsupported_type,
                what + ": element type " + dtype_name_any(elem_type) +
                    " is not one of the 16 tensor types the suite carries");
  return d;
}

Tensor tensor_from_proto(const onnx::TensorProto& p) {
  const std::string label = tensor_label(p);
  if (p.data_location() == onnx::TensorProto::EXTERNAL || p.external_data_size() > 0)
    bad(label + ": external data is not supported");
  if (p.has_segment()) bad(label + ": segmented tensors are not supported");
  const DataType dtype = dtype_from_onnx(p.data_type(), label);
  Shape shape(p.dims().begin(), p.dims().end());
  const size_t count = checked_element_count(shape);  // rejects negative dims and overflow
  const size_t es = element_size(dtype);
  const size_t limit = max_tensor_bytes();
  if (dtype != DataType::string && count > limit / es)
    throw Error(ErrorCode::limit_exceeded,
                label + ": shape " + shape_to_string(shape) + " of " + std::to_string(count) +
                    " elements exceeds the limit of " + std::to_string(limit) + " bytes");

  if (dtype == DataType::string) {
    if (p.has_raw_data()) bad(label + ": a string tensor cannot use raw_data");
    check_count(p, p.string_data(), count, "string_data");
    return Tensor::from_strings(
        std::move(shape), std::vector<std::string>(p.string_data().begin(), p.string_data().end()));
  }
  if (p.has_raw_data()) {
    if (p.raw_data().size() != count * es)
      bad(label + ": raw_data has " + std::to_string(p.raw_data().size()) + " bytes, shape " +
          shape_to_string(shape) + " of " + std::string(dtype_name(dtype)) + " needs " +
          std::to_string(count * es));
    std::vector<std::byte> bytes(p.raw_data().size());
    if (!bytes.empty()) std::memcpy(bytes.data(), p.raw_data().data(), bytes.size());
    return Tensor::from_bytes(dtype, std::move(shape), std::move(bytes));
  }
  std::vector<std::byte> bytes;
  auto put = [&](auto tag, const auto& field, size_t per_element, const char* name) {
    using T = typename decltype(tag)::type;
    check_count(p, field, count * per_element, name);  // before allocating
    bytes.resize(count * es);
    auto* out = reinterpret_cast<T*>(bytes.data());
    for (size_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<T, std::complex<float>> ||
                    std::is_same_v<T, std::complex<double>>)
        out[i] = T(field.Get(static_cast<int>(2 * i)), field.Get(static_cast<int>(2 * i + 1)));
      else if constexpr (is_half_v<T>)
        out[i] = T{static_cast<uint16_t>(field.Get(static_cast<int>(i)))};
      else
        out[i] = static_cast<T>(field.Get(static_cast<int>(i)));
    }
  };
  switch (dtype) {
    case DataType::float32:
      put(DataTypeTag<DataType::float32>{}, p.float_data(), 1, "float_data");
      break;
    case DataType::complex64:
      put(DataTypeTag<DataType::complex64>{}, p.float_data(), 2, "float_data");
      break;
    case DataType::float64:
      put(DataTypeTag<DataType::float64>{}, p.double_data(), 1, "double_data");
      break;
    case DataType::complex128:
      put(DataTypeTag<DataType::complex128>{}, p.double_data(), 2, "double_data");
      break;
    case DataType::int64:
      put(DataTypeTag<DataType::int64>{}, p.int64_data(), 1, "int64_data");
      break;
    case DataType::uint32:
      put(DataTypeTag<DataType::uint32>{}, p.uint64_data(), 1, "uint64_data");
      break;
    case DataType::uint64:
      put(DataTypeTag<DataType::uint64>{}, p.uint64_data(), 1, "uint64_data");
      break;
    case DataType::int32:
      put(DataTypeTag<DataType::int32>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::int16:
      put(DataTypeTag<DataType::int16>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::int8:
      put(DataTypeTag<DataType::int8>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::uint16:
      put(DataTypeTag<DataType::uint16>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::uint8:
      put(DataTypeTag<DataType::uint8>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::bool_:
      put(DataTypeTag<DataType::bool_>{}, p.int32_data(), 1, "int32_data");
      break;
    case DataType::float16:
      put(DataTypeTag<DataType::float16>{}, p.int32_data(), 1, "int32_data");
      break;
    // onnx.proto, int32_data: "When this field is present, the data_type field MUST be INT32,
    // ..., FLOAT16, BFLOAT16, ..."; like float16, each element holds its 16 bits.
    case DataType::bfloat16:
      put(DataTypeTag<DataType::bfloat16>{}, p.int32_data(), 1, "int32_data");
      break;
    default:
      bad(label + ": unexpected element type");
  }
  return Tensor::from_bytes(dtype, std::move(shape), std::move(bytes));
}

onnx::TensorProto tensor_to_proto(const Tensor& t, TensorEncoding encoding,
                                  const std::string& name) {
  onnx::TensorProto p;
  if (!name.empty()) p.set_name(name);
  p.set_data_type(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.shape()) p.add_dims(d);
  const size_t n = t.element_count();
  if (t.dtype() == DataType::string) {
    for (size_t i = 0; i < n; ++i) p.add_string_data(t.string_at(i));
    return p;
  }
  if (encoding == TensorEncoding::raw_data) {
    p.set_raw_data(std::string(reinterpret_cast<const char*>(t.bytes()), t.byte_size()));
    return p;
  }
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = t.data<T>();
    for (size_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
      } else if constexpr (std::is_same_v<T, float>) {
        p.add_float_data(v[i]);
      } else if constexpr (std::is_same_v<T, std::complex<float>>) {
        p.add_float_data(v[i].real());
        p.add_float_data(v[i].imag());
      } else if constexpr (std::is_same_v<T, double>) {
        p.add_double_data(v[i]);
      } else if constexpr (std::is_same_v<T, std::complex<double>>) {
        p.add_double_data(v[i].real());
        p.add_double_data(v[i].imag());
      } else if constexpr (std::is_same_v<T, int64_t>) {
        p.add_int64_data(v[i]);
      } else if constexpr (std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>) {
        p.add_uint64_data(v[i]);
      } else if constexpr (is_half_v<T>) {
        p.add_int32_data(v[i].bits);
      } else {
        p.add_int32_data(static_cast<int32_t>(v[i]));
      }
    }
  });
  return p;
}

Sequence sequence_from_proto(const onnx::SequenceProto& p, std::optional<DataType> declared) {
  const std::string label =
      "SequenceProto" + (p.name().empty() ? std::string() : " '" + p.name() + "'");
  if (p.elem_type() != onnx::SequenceProto::TENSOR &&
      !(p.elem_type() == onnx::SequenceProto::UNDEFINED && p.tensor_values_size() == 0))
    bad(label + ": elem_type " + std::to_string(p.elem_type()) +
        " is not supported (only sequences of tensors)");
  if (p.sequence_values_size() || p.map_values_size() || p.optional_values_size() ||
      p.sparse_tensor_values_size())
    bad(label + ": holds values other than tensors");
  std::vector<Tensor> tensors;
  tensors.reserve(static_cast<size_t>(p.tensor_values_size()));
  for (const auto& tp : p.tensor_values()) tensors.push_back(tensor_from_proto(tp));
  DataType elem;
  if (declared) {
    elem = *declared;
  } else if (!tensors.empty()) {
    elem = tensors.front().dtype();
  } else {
    bad(label + ": an empty sequence with no declared element type");
  }
  return Sequence(elem, std::move(tensors));
}

onnx::SequenceProto sequence_to_proto(const Sequence& s, TensorEncoding encoding,
                                      const std::string& name) {
  onnx::SequenceProto p;
  if (!name.empty()) p.set_name(name);
  p.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto& t : s.tensors()) *p.add_tensor_values() = tensor_to_proto(t, encoding);
  return p;
}

namespace {
std::optional<DataType> declared_seq_elem(const onnx::TypeProto& t, const std::string& what) {
  if (t.has_sequence_type() && t.sequence_type().elem_type().has_tensor_type() &&
      t.sequence_type().elem_type().tensor_type().elem_type() != 0)
    return dtype_from_onnx(t.sequence_type().elem_type().tensor_type().elem_type(), what);
  return std::nullopt;
}
}  // namespace

Optional optional_from_proto(const onnx::OptionalProto& p, const onnx::TypeProto* declared) {
  Optional o;
  const std::string label =
      "OptionalProto" + (p.name().empty() ? std::string() : " '" + p.name() + "'");
  const onnx::TypeProto* inner =
      declared && declared->has_optional_type() ? &declared->optional_type().elem_type() : nullptr;
  switch (p.elem_type()) {
    case onnx::OptionalProto::TENSOR:
      o.holds_sequence = false;
      if (p.has_tensor_value())
        o.element = std::make_shared<const Value>(tensor_from_proto(p.tensor_value()));
      break;
    case onnx::OptionalProto::SEQUENCE:
      o.holds_sequence = true;
      if (p.has_sequence_value())
        o.element = std::make_shared<const Value>(sequence_from_proto(
            p.sequence_value(), inner ? declared_seq_elem(*inner, label) : std::nullopt));
      break;
    case onnx::OptionalProto::UNDEFINED:
      if (!inner) bad(label + ": undefined element type and no declared type");
      o.holds_sequence = inner->has_sequence_type();
      break;
    default:
      bad(label + ": elem_type " + std::to_string(p.elem_type()) + " is not supported");
  }
  if (o.element) {
    o.elem_type =
        o.holds_sequence ? o.element->sequence().elem_type() : o.element->tensor().dtype();
  } else if (inner) {
    if (inner->has_tensor_type())
      o.elem_type = dtype_from_onnx(inner->tensor_type().elem_type(), label);
    else if (auto d = declared_seq_elem(*inner, label))
      o.elem_type = *d;
  }
  return o;
}

onnx::OptionalProto optional_to_proto(const Optional& o, TensorEncoding encoding,
                                      const std::string& name) {
  onnx::OptionalProto p;
  if (!name.empty()) p.set_name(name);
  p.set_elem_type(o.holds_sequence ? onnx::OptionalProto::SEQUENCE : onnx::OptionalProto::TENSOR);
  if (o.element) {
    if (o.holds_sequence)
      *p.mutable_sequence_value() = sequence_to_proto(o.element->sequence(), encoding);
    else
      *p.mutable_tensor_value() = tensor_to_proto(o.element->tensor(), encoding);
  }
  return p;
}

namespace {
// Protobuf parses the bytes of one message type as another without complaint, keeping what
// does not fit as unknown fields. An unknown field whose number the type defines (wrong wire
// type) or leaves unused below its highest number means the file holds another message type;
// numbers above are tolerated (fields of a newer ONNX).
void reject_foreign_fields(const google::protobuf::Message& m, const std::string& what) {
  const auto& unknown = m.GetReflection()->GetUnknownFields(m);
  if (unknown.empty()) return;
  const auto* d = m.GetDescriptor();
  int highest = 0;
  for (int i = 0; i < d->field_count(); ++i) highest = std::max(highest, d->field(i)->number());
  for (int i = 0; i < unknown.field_count(); ++i)
    if (unknown.field(i).number() <= highest)
      bad(what + ": not a valid " + m.GetTypeName() + " message: field " +
          std::to_string(unknown.field(i).number()) +
          " does not fit the type (does the file hold another message type?)");
}

Value decode_value(const std::string& bytes, const onnx::TypeProto& declared,
                   const std::string& what) {
  auto parse = [&](auto& msg) {
    if (!msg.ParseFromString(bytes)) bad(what + ": not a valid " + msg.GetTypeName() + " message");
    reject_foreign_fields(msg, what);
  };
  if (declared.has_sequence_type()) {
    onnx::SequenceProto p;
    parse(p);
    Sequence s = sequence_from_proto(p, declared_seq_elem(declared, what));
    return s;
  }
  if (declared.has_optional_type()) {
    onnx::OptionalProto p;
    parse(p);
    return optional_from_proto(p, &declared);
  }
  if (declared.has_tensor_type()) {
    onnx::TensorProto p;
    parse(p);
    Tensor t = tensor_from_proto(p);
    if (declared.tensor_type().elem_type() != 0 &&
        declared.tensor_type().elem_type() != static_cast<int32_t>(t.dtype()))
      bad(what + ": holds " + t.describe() + " but the graph declares tensor(" +
          dtype_name_any(declared.tensor_type().elem_type()) + ")");
    return t;
  }
  throw Error(ErrorCode::not_supported,
              what + ": declared type is neither a tensor, a sequence nor an optional");
}
}  // namespace

Value value_from_bytes(const std::string& bytes, const onnx::TypeProto& declared,
                       const std::string& what) {
  try {
    return decode_value(bytes, declared, what);
  } catch (const Error& e) {
    // Errors from inside the message (a tensor of a sequence, ...) name the file too.
    const std::string msg = e.what();
    if (msg.rfind(what, 0) == 0) throw;
    throw Error(e.code(), what + ": " + msg);
  }
}

std::string value_to_bytes(const Value& v, TensorEncoding encoding, const std::string& name) {
  if (v.is_tensor()) return tensor_to_proto(v.tensor(), encoding, name).SerializeAsString();
  if (v.is_sequence()) return sequence_to_proto(v.sequence(), encoding, name).SerializeAsString();
  return optional_to_proto(v.optional(), encoding, name).SerializeAsString();
}

onnx::TypeProto type_of(const Value& v) {
  onnx::TypeProto t;
  auto set_tensor = [](onnx::TypeProto* tp, DataType d) {
    tp->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(d));
  };
  if (v.is_tensor()) {
    set_tensor(&t, v.tensor().dtype());
    auto* shape = t.mutable_tensor_type()->mutable_shape();
    for (int64_t d : v.tensor().shape()) shape->add_dim()->set_dim_value(d);
  } else if (v.is_sequence()) {
    set_tensor(t.mutable_sequence_type()->mutable_elem_type(), v.sequence().elem_type());
  } else {
    const auto& o = v.optional();
    auto* inner = t.mutable_optional_type()->mutable_elem_type();
    if (o.holds_sequence)
      set_tensor(inner->mutable_sequence_type()->mutable_elem_type(), o.elem_type);
    else
      set_tensor(inner, o.elem_type);
  }
  return t;
}

}  // namespace seqconf
