// Seeded defects in the values the five operators return, whatever the operator: what a
// runtime's own tensor handling loses on the way out.
#include <limits>

#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

bool under_test(const interp::NodeCall& c) {
  for (const char* op :
       {"SequenceAt", "SequenceErase", "SequenceInsert", "SequenceMap", "SplitToSequence"})
    if (is(c, op)) return true;
  return false;
}

// The node's outputs with f applied to every tensor, in sequences too; nullopt when f changed
// nothing (the reference's answer stands).
template <class F>
std::optional<std::vector<Value>> map_tensors(const interp::NodeCall& c, F f) {
  if (!under_test(c)) return std::nullopt;
  std::vector<Value> out = c.reference(c.inputs);
  bool changed = false;
  auto one = [&](const Tensor& t) {
    std::optional<Tensor> u = f(t);
    changed = changed || u.has_value();
    return u ? *u : t;
  };
  for (Value& v : out) {
    if (v.is_tensor()) {
      v = one(v.tensor());
    } else if (v.is_sequence()) {
      std::vector<Tensor> ts;
      for (const Tensor& t : v.sequence().tensors()) ts.push_back(one(t));
      v = Sequence(v.sequence().elem_type(), std::move(ts));
    }
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace

std::vector<Defect> value_defects() {
  std::vector<Defect> d;
  d.push_back({"value.string_cut_at_nul",
               "(all five)",
               "strings are cut at their first NUL byte",
               "ONNX Runtime's C API, which fills string tensors from NUL-terminated C strings "
               "(see expectations/onnxruntime.json)",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.dtype() != DataType::string) return std::nullopt;
                   std::vector<std::string> v;
                   bool cut = false;
                   for (size_t i = 0; i < t.element_count(); ++i) {
                     const std::string& s = t.string_at(i);
                     v.push_back(s.substr(0, s.find('\0')));
                     cut = cut || v.back().size() != s.size();
                   }
                   if (!cut) return std::nullopt;
                   return Tensor::from_strings(t.shape(), std::move(v));
                 });
               }}});
  d.push_back({"value.uint64_read_as_signed",
               "(all five)",
               "uint64 elements of 2^63 and above are read as signed (negative) and clamped to 0",
               "bindings that hold uint64 in a signed 64-bit integer",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.dtype() != DataType::uint64) return std::nullopt;
                   std::vector<uint64_t> v(t.data<uint64_t>(),
                                           t.data<uint64_t>() + t.element_count());
                   bool clamped = false;
                   for (uint64_t& x : v)
                     if (x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
                       x = 0;
                       clamped = true;
                     }
                   if (!clamped) return std::nullopt;
                   return Tensor::from_values<DataType::uint64>(t.shape(), std::move(v));
                 });
               }}});
  d.push_back({"value.empty_tensor_shape_lost",
               "(all five)",
               "a tensor without elements comes back with shape [0] whatever its shape",
               "runtimes that rebuild empty tensors from their (empty) data",
               {[](const interp::NodeCall& c) {
                 return map_tensors(c, [](const Tensor& t) -> std::optional<Tensor> {
                   if (t.element_count() != 0 || t.shape() == Shape{0}) return std::nullopt;
                   return Tensor::zeros(t.dtype(), {0});
                 });
               }}});
  return d;
}

}  // namespace seqconf::seeded
