// Printers for counterexamples and the SequenceMap bodies of gen_body.h.
#include "generators/generators.h"
#include "reference/model_builder.h"

#include <cstdio>
#include <sstream>
#include <type_traits>

namespace seqconf {

namespace {

void print_string(const std::string& s, std::ostream& os) {
  os << '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      os << '\\' << c;
    } else if (c >= 0x20 && c < 0x7f) {
      os << c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      os << buf;
    }
  }
  os << '"';
}

template <class T>
void print_element(const T& v, std::ostream& os) {
  if constexpr (std::is_same_v<T, std::string>) {
    print_string(v, os);
  } else if constexpr (is_half_v<T>) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", v.bits);
    os << buf << "(" << half_to_float(v) << ")";
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    os << static_cast<int>(v);
  } else {
    os << v;
  }
}

}  // namespace

std::string format_tensor(const Tensor& t, size_t max_elements) {
  std::ostringstream os;
  os.precision(9);
  os << t.describe() << "{";
  visit_dtype(t.dtype(), [&](auto tag) {
    constexpr DataType D = decltype(tag)::value;
    for (size_t i = 0; i < t.element_count() && i < max_elements; ++i) {
      if (i) os << ", ";
      if constexpr (D == DataType::string) {
        print_element(t.string_at(i), os);
      } else {
        print_element(t.data<storage_t<D>>()[i], os);
      }
    }
  });
  if (t.element_count() > max_elements) os << ", ...";
  os << "}";
  return os.str();
}

void showValue(DataType d, std::ostream& os) { os << dtype_name(d); }
void showValue(const Tensor& t, std::ostream& os) { os << format_tensor(t); }
void showValue(const Sequence& s, std::ostream& os) {
  os << s.describe() << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << format_tensor(s.at(i));
  os << "]";
}
void showValue(const Value& v, std::ostream& os) {
  if (v.is_tensor()) {
    showValue(v.tensor(), os);
  } else if (v.is_sequence()) {
    showValue(v.sequence(), os);
  } else {
    const Optional& o = v.optional();
    os << "optional(";
    if (o.element) {
      showValue(*o.element, os);
    } else {
      os << "empty " << (o.holds_sequence ? "seq(tensor(" : "tensor(") << dtype_name(o.elem_type)
         << (o.holds_sequence ? "))" : ")");
    }
    os << ")";
  }
}

namespace gens {

const char* split_form_name(SplitInput::Form form) {
  switch (form) {
    case SplitInput::Form::absent:
      return "absent";
    case SplitInput::Form::scalar:
      return "scalar";
    case SplitInput::Form::vector:
      return "1-D";
    default:
      return "other";
  }
}

const char* body_kind_name(BodyKind kind) {
  switch (kind) {
    case BodyKind::identity:
      return "Identity";
    case BodyKind::add_tensor:
      return "Add(sample, tensor)";
    case BodyKind::add_sequence:
      return "Add(sample, sample of a second sequence)";
    case BodyKind::shape:
      return "Shape";
    default:
      return "Identity and Shape (two nodes)";
  }
}

void showValue(const PositionInput& p, std::ostream& os) {
  os << p.value << " as " << format_tensor(p.tensor);
}
void showValue(const SplitInput& s, std::ostream& os) {
  os << "split " << split_form_name(s.form);
  if (s.split) os << " " << format_tensor(*s.split);
}
void showValue(BodyKind k, std::ostream& os) { os << body_kind_name(k); }
void showValue(const MapCase& c, std::ostream& os) {
  os << "body " << body_kind_name(c.kind) << ", input_sequence ";
  seqconf::showValue(c.input_sequence, os);
  for (const Value& v : c.additional_inputs) {
    os << ", additional input ";
    seqconf::showValue(v, os);
  }
}

namespace {

// ONNX Add of two tensors of one numeric type, b of the same shape as a or a scalar
// (broadcast). Integers wrap, as two's complement hardware does.
Tensor add(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || (b.rank() != 0 && a.shape() != b.shape()))
    throw Error(ErrorCode::shape_mismatch, "Add: " + a.describe() + " + " + b.describe());
  return visit_dtype(a.dtype(), [&](auto tag) -> Tensor {
    constexpr DataType D = decltype(tag)::value;
    using T = storage_t<D>;
    if constexpr (D == DataType::float32 || D == DataType::float64 || D == DataType::int32 ||
                  D == DataType::int64) {
      std::vector<T> out(a.element_count());
      for (size_t i = 0; i < out.size(); ++i) {
        const T x = a.data<T>()[i];
        const T y = b.data<T>()[b.rank() == 0 ? 0 : i];
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          out[i] = static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
        } else {
          out[i] = x + y;
        }
      }
      return Tensor::from_values<D>(a.shape(), std::move(out));
    } else {
      throw Error(
          ErrorCode::not_supported,
          "Add body defined here for float, double, int32, int64 only; got " + a.describe());
    }
  });
}

Tensor shape_of(const Tensor& t) {
  return Tensor::from_values<DataType::int64>({static_cast<int64_t>(t.rank())}, t.shape());
}

onnx::ValueInfoProto tensor_info(const std::string& name, DataType elem) {
  return model::value_info(name, model::tensor_type(elem));
}

void add_node(onnx::GraphProto& g, const std::string& op, std::vector<std::string> inputs,
              const std::string& output) {
  *g.add_node() = model::node(op, inputs, {output}, op + "_" + output);
}

}  // namespace

std::vector<Value> apply_body(BodyKind kind, const std::vector<Value>& sample) {
  const Tensor& x = sample.at(0).tensor("body input in0");
  switch (kind) {
    case BodyKind::identity:
      return {x};
    case BodyKind::add_tensor:
    case BodyKind::add_sequence:
      return {add(x, sample.at(1).tensor("body input in1"))};
    case BodyKind::shape:
      return {shape_of(x)};
    default:
      return {x, shape_of(x)};
  }
}

std::vector<DataType> body_output_types(BodyKind kind, DataType elem) {
  switch (kind) {
    case BodyKind::shape:
      return {DataType::int64};
    case BodyKind::two_node:
      return {elem, DataType::int64};
    default:
      return {elem};
  }
}

ops::SequenceMapBody body_callable(BodyKind kind, DataType elem) {
  ops::SequenceMapBody body;
  body.num_inputs = kind == BodyKind::add_tensor || kind == BodyKind::add_sequence ? 2 : 1;
  body.output_elem_types = body_output_types(kind, elem);
  body.run = [kind](const std::vector<Value>& sample) { return apply_body(kind, sample); };
  return body;
}

onnx::GraphProto body_graph(BodyKind kind, DataType elem) {
  onnx::GraphProto g;
  g.set_name(std::string("body_") + body_kind_name(kind));
  *g.add_input() = tensor_info("in0", elem);
  if (kind == BodyKind::add_tensor || kind == BodyKind::add_sequence)
    *g.add_input() = tensor_info("in1", elem);
  switch (kind) {
    case BodyKind::identity:
      add_node(g, "Identity", {"in0"}, "out0");
      break;
    case BodyKind::add_tensor:
    case BodyKind::add_sequence:
      add_node(g, "Add", {"in0", "in1"}, "out0");
      break;
    case BodyKind::shape:
      add_node(g, "Shape", {"in0"}, "out0");
      break;
    default:
      add_node(g, "Identity", {"in0"}, "out0");
      add_node(g, "Shape", {"in0"}, "out1");
      break;
  }
  const auto types = body_output_types(kind, elem);
  for (size_t j = 0; j < types.size(); ++j)
    *g.add_output() = tensor_info("out" + std::to_string(j), types[j]);
  return g;
}

}  // namespace gens
}  // namespace seqconf
