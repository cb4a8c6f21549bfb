// The formal inputs, outputs and type constraints of every operator version the interpreter
// runs, as the ONNX operator docs state them (Operators.md / Changelog.md; versions up to 17
// are also checked against the schemas of the installed ONNX library by
// tests/interpreter/type_constraints_test.cpp). One table, keyed by op and since_version.
//
// The interpreter checks every node against its row: the arity and presence of inputs when the
// model is prepared (a required input that is absent, or given as the empty name "", is
// ErrorCode::missing_input), and the kind (tensor, sequence, optional) and element type of every
// input and output value when the node runs (a violation is ErrorCode::invalid_model naming the
// op, version, input or output, the type constraint and its allowed set). The rows of the five
// sequence operators under test are marked checked_by_operator: reference/ops checks their types
// with the suite's own error codes (position_type, split_type, element_type_mismatch, ...), and
// the interpreter uses only their arity.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/value.h"

namespace seqconf::interp {

// Kinds of value, as bits of TypeConstraint::kinds.
enum ValueKind : uint8_t {
  kTensor = 1,            // tensor(T)
  kSequence = 2,          // seq(tensor(T))
  kOptionalTensor = 4,    // optional(tensor(T))
  kOptionalSequence = 8,  // optional(seq(tensor(T)))
};

// Element types as bits (1 << DataType): the subset of the 16 carried types a constraint allows.
using ElemTypeSet = uint32_t;

struct TypeConstraint {
  // The type parameter ("T", "Tind"), or for a formal typed directly (Unsqueeze-13 axes:
  // tensor(int64)) that type's text, with an empty description.
  std::string_view param;
  std::string_view description;  // the spec's sentence, verbatim
  uint8_t kinds;                 // ValueKind bits
  ElemTypeSet elem_types;
  // Element types allowed only as tensor(T), not in sequences or optionals: Identity-14 on
  // lists all_tensor_types_ir4() (with bfloat16) for tensors but all_tensor_sequence_types()
  // (without) for sequences.
  ElemTypeSet tensor_only = 0;
  // The element types allowed for values of this kind.
  ElemTypeSet allowed(uint8_t kind) const {
    return elem_types | (kind == kTensor ? tensor_only : 0);
  }
};

struct FormalParameter {
  enum Option : uint8_t { single, optional, variadic };
  std::string_view name;  // "input_sequence"
  std::string_view type;  // a TypeConstraint::param of the same row
  Option option = single;
  // Variadic only: whether every value has the same type ("homogeneous"), and how many values
  // there must be at least.
  bool homogeneous = true;
  int min_arity = 1;
};

struct OperatorSignature {
  std::string_view op;
  int64_t since_version;
  std::vector<FormalParameter> inputs;
  std::vector<FormalParameter> outputs;
  std::vector<TypeConstraint> constraints;
  bool checked_by_operator = false;  // types checked by reference/ops (the five operators)

  const TypeConstraint& constraint(std::string_view param) const;
  // The formal parameter the i-th actual input (output) binds to; nullptr past the last.
  const FormalParameter* input_formal(size_t i) const;
  const FormalParameter* output_formal(size_t i) const;
  size_t max_inputs() const;  // SIZE_MAX when the last input is variadic
  size_t max_outputs() const;
};

// Every row, in op order then version order.
const std::vector<OperatorSignature>& operator_signatures();
// The row of op at exactly since_version; nullptr when there is none.
const OperatorSignature* find_signature(std::string_view op, int64_t since_version);

// "seq(tensor(float))": the type of a value as the spec writes it (an empty optional has one
// too).
std::string type_text(const Value& v);
// "tensor(bool|int8|...)" per kind, "tensor(all 15 types)" for all_tensor_types(),
// "tensor(all 16 types)" for all_tensor_types_ir4().
std::string allowed_text(const TypeConstraint& c);

// Static checks of a node against its row, for InterpretedModel::prepare. `label` names the node
// ("SequenceErase-11 'erase'"). Too many inputs or outputs, or too few outputs, are
// invalid_model; a required input that is missing or named "" is missing_input.
void check_node_arity(const OperatorSignature& sig, const std::vector<std::string>& inputs,
                      size_t output_count, const std::function<std::string()>& label);

// The types a node's type parameters are bound to while it runs (homogeneous formals only):
// ONNX binds every use of a parameter to one type.
class TypeBindings {
 public:
  struct Bound {
    std::string_view param;
    uint8_t kind;  // ValueKind
    DataType elem_type;
    const char* side;  // "input" or "output"
    size_t index;
    std::string_view formal;
  };
  const Bound* find(std::string_view param) const;
  void bind(const Bound& b) { bound_.push_back(b); }

 private:
  std::vector<Bound> bound_;
};

// Checks the values of a running node; rows marked checked_by_operator are skipped. node_name
// is the node's name (may be empty), used only in messages.
void check_input_types(const OperatorSignature& sig, std::string_view node_name,
                       const std::vector<std::optional<Value>>& inputs, TypeBindings& bindings);
void check_output_types(const OperatorSignature& sig, std::string_view node_name,
                        const std::vector<Value>& outputs, TypeBindings& bindings);

// Throws the invalid_model of a value whose type (`got`, as type_text spells it) the constraint
// `param` of sig does not allow; `where` names it ("output 0 (attribute dtype)").
[[noreturn]] void type_violation(const OperatorSignature& sig, std::string_view node_name,
                                 const std::string& where, std::string_view param,
                                 const std::string& got);

}  // namespace seqconf::interp
