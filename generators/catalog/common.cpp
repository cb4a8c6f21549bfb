#include "generators/catalog/common.h"

namespace seqconf::catalog::detail {

std::string spec_quote(std::string_view id) {
  std::string_view s = spec_clause(id).sentence;
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return "\"" + std::string(s) + "\"";
}

std::vector<KeyTensor> mixed_elements(size_t n) {
  const std::vector<Shape> shapes = {{2}, {}, {2, 3}, {0, 2, 1}, {1, 2, 1, 2}};
  std::vector<KeyTensor> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(key_tensor(shapes.at(i), static_cast<int>(20 * i + 1)));
  return v;
}

std::string dims_string(const Shape& s) {
  if (s.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

std::string shapes_string(const std::vector<KeyTensor>& ts) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) out += (i ? "," : "") + dims_string(ts[i].shape);
  return out.empty() ? "none" : out;
}

CatalogCase start_case(const std::string& op, int opset, DataType dtype) {
  CatalogCase c;
  c.op = op;
  c.opset = opset;
  c.dtype = dtype;
  return c;
}

std::string type_label(DataType d) { return std::string(dtype_name(d)); }

DataType other_type(DataType d) {
  return d == DataType::float32 ? DataType::float64 : DataType::float32;
}

}  // namespace seqconf::catalog::detail
