// Seeded defects: runtimes that are the reference with one deliberate, realistic defect each,
// named after the runtime or tool whose behaviour they copy. They let a user check the suite
// itself: a corpus or a fuzzer that does not catch one of them has a gap
// (`seqconf selftest`, `seqconf run --runtime seeded=ID`).
//
// A defect replaces the reference's kernel of some nodes (interp::KernelOverride); everything
// else, the type checks of the interpreter included, is the reference's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reference/interpreter/interpreter.h"
#include "runtimes/runtime.h"

namespace seqconf::seeded {

struct Defect {
  std::string id;           // e.g. "insert.at_length_goes_front"
  std::string op;           // the operator it lives in
  std::string description;  // what the runtime does wrong, in one sentence
  std::string copies;       // where this behaviour was seen
  interp::KernelOverride kernel;
};

// Every seeded defect, in a stable order (ids are unique).
const std::vector<Defect>& defects();
// The defect with this id; Error(invalid_argument) naming the known ids otherwise.
const Defect& defect(const std::string& id);

// The reference with the defect (lenient policy), and the host that runs the operators the
// reference lacks (none: such a model is not_supported). Its name is "seeded=<id>". Like any
// runtime under test it is isolated by default, since some defects crash; its worker makes the
// same host again.
std::unique_ptr<Runtime> make_seeded_runtime(
    const Defect& defect, std::shared_ptr<const interp::HostKernel> host = nullptr);

// The defects of one operator (one file each).
std::vector<Defect> sequence_at_defects();
std::vector<Defect> sequence_erase_defects();
std::vector<Defect> sequence_insert_defects();
std::vector<Defect> sequence_map_defects();
std::vector<Defect> split_to_sequence_defects();
std::vector<Defect> concat_from_sequence_defects();
std::vector<Defect> sequence_construct_defects();
std::vector<Defect> sequence_empty_defects();
std::vector<Defect> sequence_length_defects();
std::vector<Defect> value_defects();  // in the values every operator returns
std::vector<Defect> bits_defects();   // in the bits of copied values (values.cpp)

// Helpers for the defect files.
// Whether the node is `op`.
bool is(const interp::NodeCall& call, const char* op);
// Whether the node is `op` and its first input a sequence (else the reference's errors stand).
bool is_on_sequence(const interp::NodeCall& call, const char* op);
// The length of the sequence in the first input; call only when is_on_sequence.
int64_t sequence_length(const interp::NodeCall& call);
// The scalar (or first) element of a position or split input as int64, when present.
std::optional<int64_t> first_int(const interp::NodeCall& call, size_t input);
// The node's integer attribute, or the default.
int64_t int_attribute(const interp::NodeCall& call, const std::string& name, int64_t dflt);
// The inputs with input i replaced.
std::vector<std::optional<Value>> with_input(const interp::NodeCall& call, size_t i,
                                             std::optional<Value> v);
// A scalar int64 tensor.
Tensor scalar(int64_t v);

}  // namespace seqconf::seeded
