// The op table: every operator the interpreter runs, its versions, and its kernel (the argument
// plumbing from nodes to the operator functions), Cast and the element-wise operators' legacy
// broadcasting among them; the control-flow kernels are in control_flow.cpp. See interpreter.h.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reference/interpreter/interpreter_internal.h"
#include "reference/interpreter/type_constraints.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"
#include "reference/support/body_ops.h"
#include "reference/support/broadcast.h"
#include "reference/support/support_ops.h"

namespace seqconf::interp {

using namespace detail;

namespace {

std::vector<Value> values_of(std::vector<Value> v) { return v; }

std::vector<Value> one(Value v) { return values_of({std::move(v)}); }

// Cast: "The 'to' argument must be one of the data types specified in the 'DataType' enum field in
//  the TensorProto message." A type T2 does not allow (complex; string before Cast-9; a value of
// no DataType; bfloat16 before Cast-13) makes the model invalid; a type T2 allows that the suite
// does not carry (float8, int4, ...) is not_supported.
// The types T2 allows that the suite does not carry: float8e4m3fn, float8e4m3fnuz, float8e5m2,
// float8e5m2fnuz (17-20) from Cast-19, uint4 and int4 (21, 22) from Cast-21, float4e2m1 (23)
// from Cast-23, float8e8m0 (24) from Cast-24.
bool uncarried_cast_target(int64_t to, int64_t since) {
  return (to >= 17 && to <= 20 && since >= 19) || ((to == 21 || to == 22) && since >= 21) ||
         (to == 23 && since >= 23) || (to == 24 && since >= 24);
}

std::vector<Value> run_cast(const KernelCall& c) {
  int64_t to = 0;
  if (c.since < 6) {
    // Cast-1's `to` is a string: "Strictly must be one of the types from DataType enum in
    // TensorProto", by its name ("FLOAT", "INT64", ...).
    const auto* a = c.attr("to");
    if (!a)
      throw Error(ErrorCode::invalid_model, c.label() + ": required attribute 'to' is absent");
    onnx::TensorProto_DataType d{};
    if (!onnx::TensorProto_DataType_Parse(a->s(), &d))
      throw Error(ErrorCode::invalid_model,
                  c.label() + ": to = \"" + a->s() +
                      "\" is not the name of a type of the DataType enum in TensorProto");
    to = d;
  } else {
    to = c.attr_int("to", std::nullopt);
  }
  const bool carried = to > 0 && to <= INT32_MAX && is_supported(static_cast<DataType>(to));
  const bool complex = to == static_cast<int64_t>(DataType::complex64) ||
                       to == static_cast<int64_t>(DataType::complex128);
  const bool string_before_9 = to == static_cast<int64_t>(DataType::string) && c.since < 9;
  const bool bfloat16_before_13 = to == static_cast<int64_t>(DataType::bfloat16) && c.since < 13;
  if (!carried || complex || string_before_9 || bfloat16_before_13) {
    if (carried || !uncarried_cast_target(to, c.since))
      type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute to)", "T2",
                     "tensor(" +
                         (to <= 0 || to > INT32_MAX ? "type " + std::to_string(to)
                                                    : dtype_name_any(static_cast<int32_t>(to))) +
                         ")");
    throw Error(ErrorCode::not_supported,
                c.label() + ": to = " + dtype_name_any(static_cast<int32_t>(to)) +
                    " is not one of the 16 tensor types the reference carries");
  }
  return one(support::Cast(c.tensor(0), static_cast<DataType>(to), c.since));
}

// Add, Sub, Mul, Div before version 7 and Equal, Less, Greater before 7 take B through the
// limited broadcasting of their attributes `broadcast` and `axis`; later versions broadcast
// both ways (broadcast.h).
template <class Fn>
std::vector<Value> elementwise(const KernelCall& c, Fn fn) {
  const Tensor& a = c.tensor(0);
  if (c.since >= 7) return one(fn(a, c.tensor(1)));
  std::optional<int64_t> axis;
  if (const auto* at = c.attr("axis")) axis = at->i();
  return one(fn(a, support::legacy_broadcast_operand(c.node.op_type(), a, c.tensor(1),
                                                     c.attr_int("broadcast", 0), axis, c.ctx)));
}

}  // namespace

namespace detail {

const std::unordered_map<std::string, OpEntry>& op_table() {
  static const std::unordered_map<std::string, OpEntry> table = {
      {"SequenceAt",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceAt(c.sequence(0), c.tensor(1), c.ctx));
        }}},
      {"SequenceErase",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceErase(c.sequence(0), c.opt_tensor(1), c.ctx));
        }}},
      {"SequenceInsert",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SequenceInsert(c.sequence(0), c.tensor(1), c.opt_tensor(2), c.ctx));
        }}},
      {"SplitToSequence",
       {{11, 24},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::SplitToSequence(c.tensor(0), c.opt_tensor(1), c.attr_int("axis", 0),
                                          c.attr_int("keepdims", 1), c.ctx, c.since));
        }}},
      {"SequenceMap", {{17}, 17, {"body"}, run_sequence_map}},
      {"SequenceConstruct",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          std::vector<Tensor> ts;
          for (size_t i = 0; i < c.in.size(); ++i) ts.push_back(c.tensor(i));
          return one(ops::SequenceConstruct(ts));
        }}},
      {"SequenceEmpty",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          // "(Optional) The data type of the tensors in the output sequence. The default type
          //  is 'float'." The output's type constraint S limits it to the 15 types (not
          //  bfloat16).
          const int64_t d = c.attr_int("dtype", 1);
          const ElemTypeSet allowed = c.pn.signature->constraint("S").allowed(kSequence);
          if (d < 0 || d > INT32_MAX || !is_supported(static_cast<DataType>(d)) ||
              !(allowed & (ElemTypeSet{1} << d)))
            type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute dtype)",
                           "S",
                           "seq(tensor(" +
                               (d < 0 || d > INT32_MAX ? "type " + std::to_string(d)
                                                       : dtype_name_any(static_cast<int32_t>(d))) +
                               "))");
          return one(ops::SequenceEmpty(static_cast<DataType>(d)));
        }}},
      {"SequenceLength",
       {{11}, 11, {}, [](const KernelCall& c) { return one(ops::SequenceLength(c.sequence(0))); }}},
      {"ConcatFromSequence",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(ops::ConcatFromSequence(c.sequence(0), c.attr_int("axis", std::nullopt),
                                             c.attr_int("new_axis", 0)));
        }}},
      {"Identity",
       {{1, 13, 14, 16, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) { return one(support::Identity(c.value(0))); }}},
      {"Add",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Add); }}},
      {"Shape",
       {{1, 13, 15, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::optional<int64_t> start, end;
          if (c.since >= 15) {
            if (const auto* a = c.attr("start")) start = a->i();
            if (const auto* a = c.attr("end")) end = a->i();
          }
          return one(support::Shape(c.tensor(0), start, end));
        }}},
      {"Constant",
       {{1, 9, 11, 12, 13, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          if (c.node.attribute_size() != 1)
            throw Error(ErrorCode::invalid_model,
                        c.label() + ": exactly one value attribute is required, got " +
                            std::to_string(c.node.attribute_size()));
          return one(support::Constant(c.node.attribute(0)));
        }}},
      {"Slice",
       {{1, 10, 11, 13},
        10,
        {},
        [](const KernelCall& c) {
          return one(support::Slice(c.tensor(0), c.tensor(1), c.tensor(2), c.opt_tensor(3),
                                    c.opt_tensor(4)));
        }}},
      {"Unsqueeze",
       {{1, 11, 13, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::vector<int64_t> axes;
          if (c.since < 13) {
            const auto* a = c.attr("axes");
            if (!a)
              throw Error(ErrorCode::invalid_model, c.label() + ": attribute 'axes' is required");
            axes.assign(a->ints().begin(), a->ints().end());
          } else {
            axes = support::read_ints(c.tensor(1), "Unsqueeze: axes");
          }
          return one(support::Unsqueeze(c.tensor(0), axes));
        }}},
      {"Not", {{1}, 1, {}, [](const KernelCall& c) { return one(support::Not(c.tensor(0))); }}},
      {"Optional",
       {{15},
        15,
        {},
        [](const KernelCall& c) {
          const auto* t = c.attr("type");
          return one(support::MakeOptional(c.has(0) ? c.in[0] : std::nullopt,
                                           t && t->has_tp() ? &t->tp() : nullptr));
        }}},
      {"OptionalHasElement",
       {{15, 18},
        15,
        {},
        [](const KernelCall& c) {
          return one(support::OptionalHasElement(c.has(0) ? c.in[0] : std::nullopt, c.since));
        }}},
      {"OptionalGetElement",
       {{15, 18},
        15,
        {},
        [](const KernelCall& c) { return one(support::OptionalGetElement(c.value(0), c.since)); }}},
      // Operators of SequenceMap bodies and loops (reference/support/body_ops.h). Versions 1
      // and 6 of the element-wise ones (legacy broadcast/axis attributes) are not implemented.
      {"Concat",
       {{1, 4, 11, 13},
        1,
        {},
        [](const KernelCall& c) {
          std::vector<Tensor> ts;
          for (size_t i = 0; i < c.in.size(); ++i) ts.push_back(c.tensor(i));
          // Concat-1: "Which axis to concat on.  Default value is 1."; required from Concat-4.
          const int64_t axis =
              c.attr_int("axis", c.since < 4 ? std::optional<int64_t>(1) : std::nullopt);
          return one(support::Concat(ts, axis, c.since));
        }}},
      {"Cast", {{1, 6, 9, 13, 19, 21, 23, 24}, 1, {}, run_cast}},
      {"Gather",
       {{1, 11, 13},
        1,
        {},
        [](const KernelCall& c) {
          return one(support::Gather(c.tensor(0), c.tensor(1), c.attr_int("axis", 0), c.since));
        }}},
      {"Sub",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Sub); }}},
      {"Mul",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Mul); }}},
      {"Div",
       {{1, 6, 7, 13, 14},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Div); }}},
      {"Equal",
       {{1, 7, 11, 13, 19},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Equal); }}},
      {"Less",
       {{1, 7, 9, 13}, 1, {}, [](const KernelCall& c) { return elementwise(c, support::Less); }}},
      {"Greater",
       {{1, 7, 9, 13},
        1,
        {},
        [](const KernelCall& c) { return elementwise(c, support::Greater); }}},
      {"Where",
       {{9, 16},
        9,
        {},
        [](const KernelCall& c) {
          return one(support::Where(c.tensor(0), c.tensor(1), c.tensor(2)));
        }}},
      {"Squeeze",
       {{1, 11, 13, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          std::optional<std::vector<int64_t>> axes;
          if (c.since < 13) {
            if (const auto* a = c.attr("axes")) axes.emplace(a->ints().begin(), a->ints().end());
          } else if (c.has(1)) {
            axes = support::read_ints(c.tensor(1), "Squeeze: axes");
          }
          return one(support::Squeeze(c.tensor(0), axes, c.since));
        }}},
      {"Reshape",
       {{1, 5, 13, 14, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) {
          if (c.since < 5) {
            // Reshape-1: "It takes a tensor as input and an argument `shape`."
            const auto* a = c.attr("shape");
            if (!a)
              throw Error(ErrorCode::invalid_model,
                          c.label() +
                              ": the attribute 'shape' is absent (Reshape-1 takes the "
                              "new shape as an argument)");
            const std::vector<int64_t> dims(a->ints().begin(), a->ints().end());
            const Shape len = {static_cast<int64_t>(dims.size())};
            return one(
                support::Reshape(c.tensor(0), Tensor::from_values<DataType::int64>(len, dims), 0));
          }
          // allowzero exists from Reshape-14.
          const int64_t allowzero = c.since >= 14 ? c.attr_int("allowzero", 0) : 0;
          return one(support::Reshape(c.tensor(0), c.tensor(1), allowzero));
        }}},
      {"Expand",
       {{8, 13},
        8,
        {},
        [](const KernelCall& c) { return one(support::Expand(c.tensor(0), c.tensor(1))); }}},
      {"Size",
       {{1, 13, 19, 21, 23, 24},
        1,
        {},
        [](const KernelCall& c) { return one(support::Size(c.tensor(0))); }}},
      {"ConstantOfShape",
       {{9, 20, 21, 23, 24},
        9,
        {},
        [](const KernelCall& c) {
          std::optional<Tensor> value;
          if (const auto* a = c.attr("value")) {
            value = tensor_from_proto(a->t());
            // The output takes value's type: T2 must allow it.
            const DataType d = value->dtype();
            if (d == DataType::string || d == DataType::complex64 || d == DataType::complex128)
              type_violation(*c.pn.signature, c.node.name(), "output 0 (output, attribute value)",
                             "T2", "tensor(" + std::string(dtype_name(d)) + ")");
          }
          return one(support::ConstantOfShape(c.tensor(0), value));
        }}},
      {"Range",
       {{11},
        11,
        {},
        [](const KernelCall& c) {
          return one(support::Range(c.tensor(0), c.tensor(1), c.tensor(2)));
        }}},
      {"Loop", {{1, 11, 13, 16, 19, 21, 23, 24}, 1, {"body"}, run_loop}},
      {"If", {{1, 11, 13, 16, 19, 21, 23, 24}, 1, {"then_branch", "else_branch"}, run_if}},
      // Scan-8 scans a batch axis of its own; from Scan-9 the scan axes are attributes.
      {"Scan", {{8, 9, 11, 16, 19, 21, 23, 24}, 9, {"body"}, run_scan}},
  };
  return table;
}

}  // namespace detail

std::vector<std::pair<std::string, int64_t>> implemented_operator_versions() {
  std::vector<std::pair<std::string, int64_t>> v;
  for (const auto& [op, e] : op_table())
    for (int64_t s : e.since)
      if (s >= e.min_impl) v.emplace_back(op, s);
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace seqconf::interp
