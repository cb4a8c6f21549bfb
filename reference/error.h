// Typed errors. Every invalid input the suite meets ends in an Error with a stable code
// (listed once, here, and in the README) and a message that names the offending values.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace seqconf {

#define SEQCONF_ERROR_CODES(X)                                                            \
  /* positions (SequenceAt, SequenceErase, SequenceInsert) */                             \
  X(position_out_of_range, "position outside the accepted range for the sequence length") \
  X(position_not_scalar, "position is not a scalar (tensor of empty shape)")              \
  X(position_type, "position is not int32 or int64")                                      \
  X(element_type_mismatch, "tensor element type differs from the sequence's")             \
  X(element_type_not_allowed, "element type outside the operator's type constraint")      \
  /* SplitToSequence */                                                                   \
  X(split_negative, "split holds a negative length")                                      \
  X(split_zero, "split holds a zero length where none is accepted")                       \
  X(split_sum_mismatch, "1-D split does not sum to the axis length")                      \
  X(split_empty, "1-D split has no entries")                                              \
  X(split_rank, "split is neither a scalar nor a 1-D tensor")                             \
  X(split_type, "split is not int32 or int64")                                            \
  X(axis_out_of_range, "axis outside [-rank, rank-1]")                                    \
  X(input_rank, "input tensor has a rank the operator does not accept")                   \
  /* SequenceMap */                                                                       \
  X(sequence_length_mismatch, "sequence inputs of SequenceMap differ in length")          \
  X(body_arity_mismatch, "body inputs or outputs do not match the node's")                \
  X(body_output_type, "body output is not a tensor or changes type between samples")      \
  /* values */                                                                            \
  X(not_a_sequence, "a sequence was expected")                                            \
  X(not_a_tensor, "a tensor was expected")                                                \
  X(missing_input, "a required input is absent")                                          \
  X(shape_mismatch, "shapes do not fit together")                                         \
  X(invalid_argument, "an attribute or argument is invalid")                              \
  X(index_out_of_range, "an index outside the bounds of the axis it indexes")             \
  X(undefined_result, "the spec defines no result for these values")                      \
  /* decoding and limits */                                                               \
  X(invalid_proto, "a protobuf message is malformed or inconsistent")                     \
  X(unsupported_type, "an element type the suite does not carry")                         \
  X(limit_exceeded, "a size limit was exceeded")                                          \
  /* graphs */                                                                            \
  X(invalid_model, "a model or graph is malformed")                                       \
  X(not_supported, "an operator, version or domain the reference does not implement")     \
  X(nondeterministic, "the model draws random values: the spec determines no outputs")    \
  X(host_rejected, "the host runtime refused or failed a node the reference delegated")   \
  X(io_error, "a file could not be read or written")

enum class ErrorCode {
#define SEQCONF_ENUM(name, summary) name,
  SEQCONF_ERROR_CODES(SEQCONF_ENUM)
#undef SEQCONF_ENUM
};

std::string_view error_code_name(ErrorCode code);
std::string_view error_code_summary(ErrorCode code);
bool error_code_from_name(std::string_view name, ErrorCode& out);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

  // The node at fault, set by the graph interpreter on the innermost node the error left:
  // its operator ("Identity") and its label ("node 4 (Identity-13 '/Identity') of graph
  // 'torch_jit'"); empty when the error is not a node's (a malformed graph, a missing input).
  const std::string& fault_op() const { return fault_op_; }
  const std::string& fault_node() const { return fault_node_; }
  Error at_node(std::string op, std::string node) const {
    Error e = *this;
    e.fault_op_ = std::move(op);
    e.fault_node_ = std::move(node);
    return e;
  }

 private:
  ErrorCode code_;
  std::string fault_op_;
  std::string fault_node_;
};

}  // namespace seqconf
