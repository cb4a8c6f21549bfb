#include "reference/interpreter/type_constraints.h"

#include <algorithm>
#include <climits>
#include <tuple>

#include "reference/spec_clauses.h"

namespace seqconf::interp {

namespace {

constexpr ElemTypeSet bit(DataType d) { return ElemTypeSet{1} << static_cast<int>(d); }

constexpr ElemTypeSet all_types() {
  ElemTypeSet s = 0;
  for (DataType d : kAllDataTypes) s |= bit(d);
  return s;
}

// ONNX's all_tensor_types(): the 15 types; all_tensor_types_ir4() and its successors add
// bfloat16 (and types the suite does not carry).
constexpr ElemTypeSet kAll = all_types();
constexpr ElemTypeSet kBFloat16 = bit(DataType::bfloat16);
constexpr ElemTypeSet kAllIr4 = kAll | kBFloat16;
constexpr ElemTypeSet kBool = bit(DataType::bool_);
constexpr ElemTypeSet kInt64 = bit(DataType::int64);
constexpr ElemTypeSet kInt32Int64 = bit(DataType::int32) | bit(DataType::int64);
constexpr ElemTypeSet kFloats =
    bit(DataType::float16) | bit(DataType::float32) | bit(DataType::float64);
// Add-7/13 "high-precision numeric tensors".
constexpr ElemTypeSet kHighPrecision = kFloats | bit(DataType::int32) | bit(DataType::int64) |
                                       bit(DataType::uint32) | bit(DataType::uint64);
// Add-14 "all numeric tensors".
constexpr ElemTypeSet kNumeric = kHighPrecision | bit(DataType::int8) | bit(DataType::int16) |
                                 bit(DataType::uint8) | bit(DataType::uint16);

// Cast-6 T1/T2: the 15 types but string and complex; Cast-9+: but complex.
constexpr ElemTypeSet kCast9 = kAll & ~bit(DataType::complex64) & ~bit(DataType::complex128);
constexpr ElemTypeSet kCast6 = kCast9 & ~bit(DataType::string);
// Equal-7 "integral tensors"; Equal-11/13 add the numeric types; Equal-19 strings.
constexpr ElemTypeSet kEqual7 = kBool | kInt32Int64;
constexpr ElemTypeSet kEqual11 = kNumeric | kBool;
constexpr ElemTypeSet kEqual19 = kCast9;

constexpr uint8_t kTensorOrSequence = kTensor | kSequence;
constexpr uint8_t kOptionals = kOptionalTensor | kOptionalSequence;
constexpr uint8_t kAnyKind = kTensorOrSequence | kOptionals;

using F = FormalParameter;

F in(std::string_view name, std::string_view type) { return {name, type}; }
F opt(std::string_view name, std::string_view type) { return {name, type, F::optional}; }
F variadic(std::string_view name, std::string_view type, bool homogeneous, int min_arity) {
  return {name, type, F::variadic, homogeneous, min_arity};
}

// Sentences shared by several rows.
constexpr std::string_view kAllTensorTypes =
    "Constrain input and output types to all tensor types.";
constexpr std::string_view kPosition =
    "Constrain position to integral tensor. It must be a scalar(tensor of empty shape).";
constexpr std::string_view kOptionalIn =
    "Constrain input type to optional tensor and optional sequence types.";

std::vector<OperatorSignature> build_table() {
  // Sentences of the five operators' type constraints, from the clause table.
  const std::string_view kAnyTensorType = spec_clause("position.any_tensor_type").sentence;
  const std::string_view kSplitInputTypes = spec_clause("SplitToSequence.input_types").sentence;
  const std::string_view kMapSequenceTypes = spec_clause("SequenceMap.sequence_types").sentence;
  const std::string_view kMapAdditionalTypes = spec_clause("SequenceMap.additional_types").sentence;
  std::vector<OperatorSignature> t;
  // ---- the five operators under test: reference/ops checks their types ----
  t.push_back({"SequenceAt",
               11,
               {in("input_sequence", "S"), in("position", "I")},
               {in("tensor", "T")},
               {{"S", kAnyTensorType, kSequence, kAll},
                {"T", kAnyTensorType, kTensor, kAll},
                {"I", kPosition, kTensor, kInt32Int64}},
               true});
  t.push_back({"SequenceErase",
               11,
               {in("input_sequence", "S"), opt("position", "I")},
               {in("output_sequence", "S")},
               {{"S", kAnyTensorType, kSequence, kAll}, {"I", kPosition, kTensor, kInt32Int64}},
               true});
  t.push_back({"SequenceInsert",
               11,
               {in("input_sequence", "S"), in("tensor", "T"), opt("position", "I")},
               {in("output_sequence", "S")},
               {{"T", kAnyTensorType, kTensor, kAll},
                {"S", kAnyTensorType, kSequence, kAll},
                {"I", kPosition, kTensor, kInt32Int64}},
               true});
  // SplitToSequence-24 adds bfloat16 (all_tensor_types_ir4), with the same sentences.
  for (int64_t v : {11, 24})
    t.push_back({"SplitToSequence",
                 v,
                 {in("input", "T"), opt("split", "I")},
                 {in("output_sequence", "S")},
                 {{"T", kSplitInputTypes, kTensor, v == 11 ? kAll : kAllIr4},
                  {"I", "Constrain split size to integral tensor.", kTensor, kInt32Int64},
                  {"S", "Constrain output types to all tensor types.", kSequence,
                   v == 11 ? kAll : kAllIr4}},
                 true});
  t.push_back({"SequenceMap",
               17,
               {in("input_sequence", "S"), variadic("additional_inputs", "V", false, 0)},
               {variadic("out_sequence", "S", false, 1)},
               {{"S", kMapSequenceTypes, kSequence, kAll},
                {"V", kMapAdditionalTypes, kTensorOrSequence, kAll}},
               true});

  // ---- supporting operators ----
  t.push_back({"SequenceConstruct",
               11,
               {variadic("inputs", "T", true, 1)},
               {in("output_sequence", "S")},
               {{"T", "Constrain input types to any tensor type.", kTensor, kAll},
                {"S", "Constrain output types to any tensor type.", kSequence, kAll}}});
  t.push_back({"SequenceEmpty",
               11,
               {},
               {in("output", "S")},
               {{"S", "Constrain output types to any tensor type.", kSequence, kAll}}});
  t.push_back(
      {"SequenceLength",
       11,
       {in("input_sequence", "S")},
       {in("length", "I")},
       {{"S", kAnyTensorType, kSequence, kAll},
        {"I", "Constrain output to integral tensor. It must be a scalar(tensor of empty shape).",
         kTensor, kInt64}}});
  t.push_back({"ConcatFromSequence",
               11,
               {in("input_sequence", "S")},
               {in("concat_result", "T")},
               {{"S", "Constrain input types to any tensor type.", kSequence, kAll},
                {"T", "Constrain output types to any tensor type.", kTensor, kAll}}});
  for (int64_t v : {1, 13})
    t.push_back({"Identity",
                 v,
                 {in("input", "T")},
                 {in("output", "T")},
                 {{"T", kAllTensorTypes, kTensor, v == 1 ? kAll : kAllIr4}}});
  // From 14 on, V's tensors come from all_tensor_types_ir4 and later lists (with bfloat16), its
  // sequences and optionals from all_tensor_sequence_types / all_optional_types (without).
  t.push_back({"Identity",
               14,
               {in("input", "V")},
               {in("output", "V")},
               {{"V", "Constrain input and output types to all tensor and sequence types.",
                 kTensorOrSequence, kAll, kBFloat16}}});
  for (int64_t v : {16, 19, 21, 23, 24})
    t.push_back(
        {"Identity",
         v,
         {in("input", "V")},
         {in("output", "V")},
         {{"V", "Constrain input and output types to all tensor, sequence, and optional types.",
           kAnyKind, kAll, kBFloat16}}});
  // Add-13 and Add-14 add bfloat16 (as Sub, Mul and Div below). Versions 1 and 6 (with the
  // attributes broadcast and axis): float tensors, then high-precision numeric tensors.
  for (std::string_view op : {"Add", "Sub", "Mul", "Div"}) {
    t.push_back({op,
                 1,
                 {in("A", "T"), in("B", "T")},
                 {in("C", "T")},
                 {{"T", "Constrain input and output types to float tensors.", kTensor, kFloats}}});
    t.push_back({op,
                 6,
                 {in("A", "T"), in("B", "T")},
                 {in("C", "T")},
                 {{"T", "Constrain input and output types to high-precision numeric tensors.",
                   kTensor, kHighPrecision}}});
  }
  for (int64_t v : {7, 13})
    t.push_back({"Add",
                 v,
                 {in("A", "T"), in("B", "T")},
                 {in("C", "T")},
                 {{"T", "Constrain input and output types to high-precision numeric tensors.",
                   kTensor, v == 7 ? kHighPrecision : kHighPrecision | kBFloat16}}});
  t.push_back({"Add",
               14,
               {in("A", "T"), in("B", "T")},
               {in("C", "T")},
               {{"T", "Constrain input and output types to all numeric tensors.", kTensor,
                 kNumeric | kBFloat16}}});
  for (int64_t v : {1, 13, 15, 19, 21, 23, 24})
    t.push_back({"Shape",
                 v,
                 {in("data", "T")},
                 {in("shape", "T1")},
                 {{"T", "Input tensor can be of arbitrary type.", kTensor, v == 1 ? kAll : kAllIr4},
                  {"T1", "Constrain output to int64 tensor.", kTensor, kInt64}}});
  t.push_back({"Constant",
               1,
               {},
               {in("output", "T")},
               {{"T", "Constrain input and output types to float tensors.", kTensor, kFloats}}});
  for (int64_t v : {9, 11, 12, 13, 19, 21, 23, 24})
    t.push_back({"Constant",
                 v,
                 {},
                 {in("output", "T")},
                 {{"T", kAllTensorTypes, kTensor, v < 13 ? kAll : kAllIr4}}});
  for (int64_t v : {10, 11, 13})
    t.push_back({"Slice",
                 v,
                 {in("data", "T"), in("starts", "Tind"), in("ends", "Tind"), opt("axes", "Tind"),
                  opt("steps", "Tind")},
                 {in("output", "T")},
                 {{"T", kAllTensorTypes, kTensor, v < 13 ? kAll : kAllIr4},
                  {"Tind", "Constrain indices to integer types", kTensor, kInt32Int64}}});
  for (int64_t v : {1, 11})
    t.push_back({"Unsqueeze",
                 v,
                 {in("data", "T")},
                 {in("expanded", "T")},
                 {{"T", kAllTensorTypes, kTensor, kAll}}});
  for (auto [v, text] : std::vector<std::pair<int64_t, std::string_view>>{
           {13, kAllTensorTypes},
           {21, "Constrain input and output types to all tensor types up to IRv10."},
           {23, "Constrain input and output types to all tensor types up to IRv11."},
           {24, "Constrain input and output types to all tensor types up to IRv12."}})
    t.push_back({"Unsqueeze",
                 v,
                 {in("data", "T"), in("axes", "tensor(int64)")},
                 {in("expanded", "T")},
                 {{"T", text, kTensor, kAllIr4}, {"tensor(int64)", "", kTensor, kInt64}}});
  t.push_back({"Not",
               1,
               {in("X", "T")},
               {in("Y", "T")},
               {{"T", "Constrain input/output to boolean tensors.", kTensor, kBool}}});
  t.push_back(
      {"Optional",
       15,
       {opt("input", "V")},
       {in("output", "O")},
       {{"V", "Constrain input type to all tensor and sequence types.", kTensorOrSequence, kAll},
        {"O", "Constrain output type to all optional tensor or optional sequence types.",
         kOptionals, kAll}}});
  // Version 18 extends O to tensors and sequences, keeping the sentence; OptionalHasElement's
  // input becomes optional.
  for (int64_t v : {15, 18}) {
    const uint8_t o_kinds = v == 15 ? kOptionals : kAnyKind;
    t.push_back({"OptionalHasElement",
                 v,
                 {v == 15 ? in("input", "O") : opt("input", "O")},
                 {in("output", "B")},
                 {{"O", kOptionalIn, o_kinds, kAll},
                  {"B", "Constrain output to a boolean tensor.", kTensor, kBool}}});
    t.push_back({"OptionalGetElement",
                 v,
                 {in("input", "O")},
                 {in("output", "V")},
                 {{"O", kOptionalIn, o_kinds, kAll},
                  {"V", "Constrain output type to all tensor or sequence types.", kTensorOrSequence,
                   kAll}}});
  }

  // ---- operators of SequenceMap bodies and loops (reference/support/body_ops.h) ----
  t.push_back({"Concat",
               1,
               {variadic("inputs", "T", true, 1)},
               {in("concat_result", "T")},
               {{"T", "Constrain output types to float tensors.", kTensor, kFloats}}});
  for (int64_t v : {4, 11, 13})
    t.push_back(
        {"Concat",
         v,
         {variadic("inputs", "T", true, 1)},
         {in("concat_result", "T")},
         {{"T", "Constrain output types to any tensor type.", kTensor, v < 13 ? kAll : kAllIr4}}});
  for (int64_t v : {1, 6})  // Cast-1: `to` a string attribute
    t.push_back(
        {"Cast",
         v,
         {in("input", "T1")},
         {in("output", "T2")},
         {{"T1", "Constrain input types. Casting from strings and complex are not supported.",
           kTensor, kCast6},
          {"T2", "Constrain output types. Casting to strings and complex are not supported.",
           kTensor, kCast6}}});
  for (int64_t v : {9, 13, 19, 21, 23, 24})
    t.push_back({"Cast",
                 v,
                 {in("input", "T1")},
                 {in("output", "T2")},
                 {{"T1", "Constrain input types. Casting from complex is not supported.", kTensor,
                   v < 13 ? kCast9 : kCast9 | kBFloat16},
                  {"T2", "Constrain output types. Casting to complex is not supported.", kTensor,
                   v < 13 ? kCast9 : kCast9 | kBFloat16}}});
  for (int64_t v : {1, 11, 13})
    t.push_back({"Gather",
                 v,
                 {in("data", "T"), in("indices", "Tind")},
                 {in("output", "T")},
                 {{"T", "Constrain input and output types to any tensor type.", kTensor,
                   v < 13 ? kAll : kAllIr4},
                  {"Tind", "Constrain indices to integer types", kTensor, kInt32Int64}}});
  for (std::string_view op : {"Sub", "Mul", "Div"}) {
    for (int64_t v : {7, 13})
      t.push_back({op,
                   v,
                   {in("A", "T"), in("B", "T")},
                   {in("C", "T")},
                   {{"T", "Constrain input and output types to high-precision numeric tensors.",
                     kTensor, v == 7 ? kHighPrecision : kHighPrecision | kBFloat16}}});
    t.push_back({op,
                 14,
                 {in("A", "T"), in("B", "T")},
                 {in("C", "T")},
                 {{"T", "Constrain input and output types to all numeric tensors.", kTensor,
                   kNumeric | kBFloat16}}});
  }
  constexpr std::string_view kBoolOut = "Constrain output to boolean tensor.";
  for (auto [v, text, types] : std::vector<std::tuple<int64_t, std::string_view, ElemTypeSet>>{
           {1, "Constrain input to integral tensors.", kEqual7},
           {7, "Constrain input to integral tensors.", kEqual7},
           {11, "Constrain input types to all numeric tensors.", kEqual11},
           {13, "Constrain input types to all numeric tensors.", kEqual11 | kBFloat16},
           {19, "Constrain input types to all (non-complex) tensors.", kEqual19 | kBFloat16}})
    t.push_back({"Equal",
                 v,
                 {in("A", "T"), in("B", "T")},
                 {in("C", "T1")},
                 {{"T", text, kTensor, types}, {"T1", kBoolOut, kTensor, kBool}}});
  for (std::string_view op : {"Less", "Greater"})
    for (auto [v, text, types] : std::vector<std::tuple<int64_t, std::string_view, ElemTypeSet>>{
             {1, "Constrain input to float tensors.", kFloats},
             {7, "Constrain input to float tensors.", kFloats},
             {9, "Constrain input types to all numeric tensors.", kNumeric},
             {13, "Constrain input types to all numeric tensors.", kNumeric | kBFloat16}})
      t.push_back({op,
                   v,
                   {in("A", "T"), in("B", "T")},
                   {in("C", "T1")},
                   {{"T", text, kTensor, types}, {"T1", kBoolOut, kTensor, kBool}}});
  for (auto [v, text] : std::vector<std::pair<int64_t, std::string_view>>{
           {9, "Constrain input and output types to all tensor types."},
           {16, "Constrain input and output types to all tensor types (including bfloat)."}})
    t.push_back({"Where",
                 v,
                 {in("condition", "B"), in("X", "T"), in("Y", "T")},
                 {in("output", "T")},
                 {{"B", "Constrain to boolean tensors.", kTensor, kBool},
                  {"T", text, kTensor, v == 9 ? kAll : kAllIr4}}});

  for (int64_t v : {1, 11})
    t.push_back({"Squeeze",
                 v,
                 {in("data", "T")},
                 {in("squeezed", "T")},
                 {{"T", "Constrain input and output types to all tensor types.", kTensor, kAll}}});
  for (auto [v, text] : std::vector<std::pair<int64_t, std::string_view>>{
           {13, "Constrain input and output types to all tensor types."},
           {21, "Constrain input and output types to all tensor types up to IRv10."},
           {23, "Constrain input and output types to all tensor types up to IRv11."},
           {24, "Constrain input and output types to all tensor types up to IRv12."}})
    t.push_back({"Squeeze",
                 v,
                 {in("data", "T"), opt("axes", "tensor(int64)")},
                 {in("squeezed", "T")},
                 {{"T", text, kTensor, kAllIr4}, {"tensor(int64)", "", kTensor, kInt64}}});
  // Reshape-1: `shape` an attribute.
  t.push_back({"Reshape",
               1,
               {in("data", "T")},
               {in("reshaped", "T")},
               {{"T", "Constrain input and output types to float tensors.", kTensor, kFloats}}});
  for (int64_t v : {5, 13, 14, 19, 21, 23, 24})
    t.push_back({"Reshape",
                 v,
                 {in("data", "T"), in("shape", "tensor(int64)")},
                 {in("reshaped", "T")},
                 {{"T", "Constrain input and output types to all tensor types.", kTensor,
                   v == 5 ? kAll : kAllIr4},
                  {"tensor(int64)", "", kTensor, kInt64}}});
  for (int64_t v : {1, 13, 19, 21, 23, 24})
    t.push_back({"Size",
                 v,
                 {in("data", "T")},
                 {in("size", "T1")},
                 {{"T", "Input tensor can be of arbitrary type.", kTensor, v == 1 ? kAll : kAllIr4},
                  {"T1", "Constrain output to int64 tensor, which should be a scalar though.",
                   kTensor, kInt64}}});
  for (auto [v, text] : std::vector<std::pair<int64_t, std::string_view>>{
           {9, "Constrain output types to be numerics."},
           {20, "Constrain output types to be numerics."},
           {21, "Constrain output types to be numerics or boolean."},
           {23, "Constrain output types to be numerics or boolean."},
           {24, "Constrain output types to be numerics or boolean."}})
    t.push_back({"ConstantOfShape",
                 v,
                 {in("input", "T1")},
                 {in("output", "T2")},
                 {{"T1", "Constrain input types.", kTensor, kInt64},
                  {"T2", text, kTensor, v == 9 ? kEqual11 : kEqual11 | kBFloat16}}});
  for (int64_t v : {8, 13})
    t.push_back({"Expand",
                 v,
                 {in("input", "T"), in("shape", "tensor(int64)")},
                 {in("output", "T")},
                 {{"T", "Constrain input and output types to all tensors.", kTensor,
                   v == 8 ? kAll : kAllIr4},
                  {"tensor(int64)", "", kTensor, kInt64}}});
  t.push_back({"Range",
               11,
               {in("start", "T"), in("limit", "T"), in("delta", "T")},
               {in("output", "T")},
               {{"T", "Constrain input types to common numeric type tensors.", kTensor,
                 (kFloats & ~bit(DataType::float16)) | bit(DataType::int16) | kInt32Int64}}});

  // ---- control flow: V is heterogeneous, each value checked on its own ----
  // V: all_tensor_types() (and its sequences) up to 13; control_flow_types_ir4() and its
  // successors from 16, whose tensors, sequences and optionals all hold bfloat16.
  struct Flow {
    int64_t since;
    std::string_view v_text;
    uint8_t v_kinds;
  };
  const std::vector<Flow> flow = {
      {1, "All Tensor types", kTensor},
      {11, "All Tensor types", kTensor},
      {13, "All Tensor and Sequence types", kTensorOrSequence},
      {16, "All Tensor, Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types",
       kAnyKind},
      {19,
       "All Tensor, Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types up "
       "to IRv9.",
       kAnyKind},
      {21,
       "All Tensor, Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types up "
       "to IRv10.",
       kAnyKind},
      {23,
       "All Tensor, Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types up "
       "to IRv11.",
       kAnyKind},
      {24,
       "All Tensor, Sequence(Tensor), Optional(Tensor), and Optional(Sequence(Tensor)) types up "
       "to IRv11.",
       kAnyKind},
  };
  for (const Flow& f : flow) {
    // Loop-1 needs at least one loop-carried value; from Loop-11 none is needed.
    t.push_back(
        {"Loop",
         f.since,
         {opt("M", "I"), opt("cond", "B"), variadic("v_initial", "V", false, f.since == 1 ? 1 : 0)},
         {variadic("v_final_and_scan_outputs", "V", false, 1)},
         {{"V", f.v_text, f.v_kinds, f.since < 16 ? kAll : kAllIr4},
          {"I", "tensor of int64, which should be a scalar.", kTensor, kInt64},
          {"B", "tensor of bool, which should be a scalar.", kTensor, kBool}}});
    t.push_back({"If",
                 f.since,
                 {in("cond", "B")},
                 {variadic("outputs", "V", false, 1)},
                 {{"V", f.v_text, f.v_kinds, f.since < 16 ? kAll : kAllIr4},
                  {"B", "Only bool", kTensor, kBool}}});
  }
  // Scan: V is tensors only; all_tensor_types() at 9 and 11, _ir4 from 16 (bfloat16), then its
  // successors.
  for (auto [v, text] :
       std::vector<std::pair<int64_t, std::string_view>>{{9, "All Tensor types"},
                                                         {11, "All Tensor types"},
                                                         {16, "All Tensor types"},
                                                         {19, "All Tensor types up to IRv9."},
                                                         {21, "All Tensor types up to IRv10."},
                                                         {23, "All Tensor types up to IRv11."},
                                                         {24, "All Tensor types up to IRv11."}})
    t.push_back({"Scan",
                 v,
                 {variadic("initial_state_and_scan_inputs", "V", false, 1)},
                 {variadic("final_state_and_scan_outputs", "V", false, 1)},
                 {{"V", text, kTensor, v < 16 ? kAll : kAllIr4}}});
  std::stable_sort(t.begin(), t.end(), [](const OperatorSignature& a, const OperatorSignature& b) {
    return a.op != b.op ? a.op < b.op : a.since_version < b.since_version;
  });
  return t;
}

uint8_t kind_of(const Value& v) {
  if (v.is_tensor()) return kTensor;
  if (v.is_sequence()) return kSequence;
  return v.optional().holds_sequence ? kOptionalSequence : kOptionalTensor;
}

DataType elem_type_of(const Value& v) {
  if (v.is_tensor()) return v.tensor().dtype();
  if (v.is_sequence()) return v.sequence().elem_type();
  return v.optional().elem_type;
}

std::string kind_text(uint8_t kind, std::string_view elem) {
  const std::string e(elem);
  switch (kind) {
    case kTensor:
      return "tensor(" + e + ")";
    case kSequence:
      return "seq(tensor(" + e + "))";
    case kOptionalTensor:
      return "optional(tensor(" + e + "))";
    default:
      return "optional(seq(tensor(" + e + ")))";
  }
}

std::string label_of(const OperatorSignature& sig, std::string_view node_name) {
  return std::string(sig.op) + "-" + std::to_string(sig.since_version) +
         (node_name.empty() ? std::string() : " '" + std::string(node_name) + "'");
}

std::string formal_text(const char* side, size_t i, std::string_view name) {
  return std::string(side) + " " + std::to_string(i) + " (" + std::string(name) + ")";
}

// One value against its formal parameter: allowed set, then binding. Strings are built only
// for a violation.
void check_value(const OperatorSignature& sig, std::string_view node_name, const char* side,
                 size_t i, const FormalParameter& f, const Value& v, TypeBindings& bindings) {
  const TypeConstraint& c = sig.constraint(f.type);
  const uint8_t kind = kind_of(v);
  const DataType elem = elem_type_of(v);
  if (!(kind & c.kinds) || !(bit(elem) & c.allowed(kind)))
    type_violation(sig, node_name, formal_text(side, i, f.name), f.type, type_text(v));
  if (f.option == F::variadic && !f.homogeneous) return;
  const TypeBindings::Bound* b = bindings.find(f.type);
  if (!b) {
    bindings.bind({f.type, kind, elem, side, i, f.name});
    return;
  }
  if (b->kind != kind || b->elem_type != elem)
    throw Error(ErrorCode::invalid_model,
                label_of(sig, node_name) + ": " + formal_text(side, i, f.name) + " is " +
                    type_text(v) + " but " + formal_text(b->side, b->index, b->formal) + " is " +
                    kind_text(b->kind, dtype_name(b->elem_type)) + "; type constraint " +
                    std::string(f.type) + " (\"" + std::string(c.description) +
                    "\") binds both to one type");
}

}  // namespace

const TypeConstraint& OperatorSignature::constraint(std::string_view param) const {
  for (const auto& c : constraints)
    if (c.param == param) return c;
  throw Error(ErrorCode::not_supported, std::string(op) + "-" + std::to_string(since_version) +
                                            ": the type table has no constraint " +
                                            std::string(param));
}

namespace {
const FormalParameter* formal_at(const std::vector<FormalParameter>& formals, size_t i) {
  if (i < formals.size()) return &formals[i];
  if (!formals.empty() && formals.back().option == F::variadic) return &formals.back();
  return nullptr;
}
size_t max_count(const std::vector<FormalParameter>& formals) {
  if (!formals.empty() && formals.back().option == F::variadic) return SIZE_MAX;
  return formals.size();
}
}  // namespace

const FormalParameter* OperatorSignature::input_formal(size_t i) const {
  return formal_at(inputs, i);
}
const FormalParameter* OperatorSignature::output_formal(size_t i) const {
  return formal_at(outputs, i);
}
size_t OperatorSignature::max_inputs() const { return max_count(inputs); }
size_t OperatorSignature::max_outputs() const { return max_count(outputs); }

const std::vector<OperatorSignature>& operator_signatures() {
  static const std::vector<OperatorSignature> table = build_table();
  return table;
}

const OperatorSignature* find_signature(std::string_view op, int64_t since_version) {
  for (const auto& s : operator_signatures())
    if (s.op == op && s.since_version == since_version) return &s;
  return nullptr;
}

std::string type_text(const Value& v) { return kind_text(kind_of(v), dtype_name(elem_type_of(v))); }

std::string allowed_text(const TypeConstraint& c) {
  auto elems_text = [](ElemTypeSet set) {
    if (set == kAll) return std::string("all 15 types");
    if (set == kAllIr4) return std::string("all 16 types");
    std::string elems;
    for (DataType d : kCarriedDataTypes)
      if (set & bit(d)) elems += (elems.empty() ? "" : "|") + std::string(dtype_name(d));
    return elems;
  };
  std::string out;
  for (uint8_t k : {kTensor, kSequence, kOptionalTensor, kOptionalSequence})
    if (c.kinds & k) out += (out.empty() ? "" : ", ") + kind_text(k, elems_text(c.allowed(k)));
  return out;
}

void type_violation(const OperatorSignature& sig, std::string_view node_name,
                    const std::string& where, std::string_view param, const std::string& got) {
  const TypeConstraint& c = sig.constraint(param);
  const std::string rule = c.description.empty()
                               ? "its type is " + std::string(c.param)
                               : "type constraint " + std::string(c.param) + " (\"" +
                                     std::string(c.description) + "\") allows " + allowed_text(c);
  throw Error(ErrorCode::invalid_model,
              label_of(sig, node_name) + ": " + where + " is " + got + ", but " + rule);
}

void check_node_arity(const OperatorSignature& sig, const std::vector<std::string>& inputs,
                      size_t output_count, const std::function<std::string()>& label) {
  // Names for the messages, built only when one is thrown.
  auto name = [&] { return std::string(sig.op) + "-" + std::to_string(sig.since_version); };
  if (inputs.size() > sig.max_inputs())
    throw Error(ErrorCode::invalid_model, label() + ": the node has " +
                                              std::to_string(inputs.size()) + " inputs; " + name() +
                                              " takes at most " + std::to_string(sig.max_inputs()));
  if (output_count > sig.max_outputs())
    throw Error(ErrorCode::invalid_model, label() + ": the node has " +
                                              std::to_string(output_count) + " outputs; " + name() +
                                              " has at most " + std::to_string(sig.max_outputs()));
  size_t min_outputs = 0;
  for (const auto& f : sig.outputs)
    min_outputs += f.option == F::single ? 1 : f.option == F::variadic ? f.min_arity : 0;
  if (output_count < min_outputs)
    throw Error(ErrorCode::invalid_model, label() + ": the node has " +
                                              std::to_string(output_count) + " outputs; " + name() +
                                              " has at least " + std::to_string(min_outputs));
  // An empty input name means the input is absent; every value of a variadic input is required.
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const FormalParameter& f = sig.inputs[i];
    if (f.option == F::optional) continue;
    if (f.option == F::variadic) {
      const size_t given = inputs.size() > i ? inputs.size() - i : 0;
      if (given < static_cast<size_t>(f.min_arity))
        throw Error(ErrorCode::missing_input,
                    label() + ": " + name() + " input " + std::to_string(i) + " (" +
                        std::string(f.name) + ", variadic) needs at least " +
                        std::to_string(f.min_arity) + " value(s), the node gives " +
                        std::to_string(given));
      for (size_t j = i; j < inputs.size(); ++j)
        if (inputs[j].empty())
          throw Error(ErrorCode::missing_input,
                      label() + ": " + name() + " input " + std::to_string(j) + " (" +
                          std::string(f.name) +
                          ", variadic) is the empty name \"\", which means absent; every value "
                          "of a variadic input is required");
      continue;
    }
    if (i >= inputs.size())
      throw Error(ErrorCode::missing_input, label() + ": " + name() + " input " +
                                                std::to_string(i) + " (" + std::string(f.name) +
                                                ") is required but the node has only " +
                                                std::to_string(inputs.size()) + " input(s)");
    if (inputs[i].empty())
      throw Error(ErrorCode::missing_input,
                  label() + ": " + name() + " input " + std::to_string(i) + " (" +
                      std::string(f.name) +
                      ") is required but is the empty name \"\", which means absent");
  }
}

const TypeBindings::Bound* TypeBindings::find(std::string_view param) const {
  for (const auto& b : bound_)
    if (b.param == param) return &b;
  return nullptr;
}

void check_input_types(const OperatorSignature& sig, std::string_view node_name,
                       const std::vector<std::optional<Value>>& inputs, TypeBindings& bindings) {
  if (sig.checked_by_operator) return;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const FormalParameter* f = sig.input_formal(i);
    if (f && inputs[i]) check_value(sig, node_name, "input", i, *f, *inputs[i], bindings);
  }
}

void check_output_types(const OperatorSignature& sig, std::string_view node_name,
                        const std::vector<Value>& outputs, TypeBindings& bindings) {
  if (sig.checked_by_operator) return;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (const FormalParameter* f = sig.output_formal(i))
      check_value(sig, node_name, "output", i, *f, outputs[i], bindings);
}

}  // namespace seqconf::interp
