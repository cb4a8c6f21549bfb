#include "generators/catalog/common.h"

#include <set>

namespace seqconf::catalog::detail {

std::string spec_quote(std::string_view id) {
  std::string_view s = spec_clause(id).sentence;
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return "\"" + std::string(s) + "\"";
}

std::vector<PositionClass> position_classes(int64_t n, bool accept_n) {
  const std::vector<std::pair<std::string, int64_t>> all = {
      {"0", 0},   {"1", 1}, {"-1", -1},       {"mid", n / 2}, {"n-1", n - 1},
      {"-n", -n}, {"n", n}, {"-n-1", -n - 1}, {"n+1", n + 1}};
  const int64_t hi = accept_n ? n : n - 1;
  std::vector<PositionClass> out;
  std::set<int64_t> seen;
  for (const auto& [label, v] : all) {
    if (label == "n+1" && !accept_n) continue;  // n is already the first value past the end
    if (!seen.insert(v).second) continue;
    out.push_back({label, v, v >= -n && v <= hi});
  }
  return out;
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
