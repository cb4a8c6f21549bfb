// Seeded defects of SequenceInsert. The spec: "position: Position in the sequence where the new
// tensor is inserted. It is optional and default is to insert to the back of the sequence.
// Negative value means counting positions from the back. Accepted range in [-n, n], where n is
// the number of tensors in 'input_sequence'. It is an error if any of the index values are out of
// bounds."
#include <csignal>

#include "runtimes/seeded/seeded.h"

namespace seqconf::seeded {

namespace {

bool insert(const interp::NodeCall& c) { return is_on_sequence(c, "SequenceInsert"); }

}  // namespace

std::vector<Defect> sequence_insert_defects() {
  std::vector<Defect> d;
  d.push_back({"insert.at_length_goes_front",
               "SequenceInsert",
               "a position equal to the sequence's length inserts at the front instead of at "
               "the back",
               "ONNX's Python reference evaluator (onnx.reference), whose SequenceInsert "
               "inserts at the front when the position equals the length",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 2);
                 if (!insert(c) || !p || sequence_length(c) == 0 || *p != sequence_length(c))
                   return std::nullopt;
                 return c.reference(with_input(c, 2, scalar(0)));
               }}});
  d.push_back({"insert.out_of_range_wraps",
               "SequenceInsert",
               "an out-of-range position wraps around (modulo n + 1) instead of being rejected",
               "ONNX's Python reference evaluator (onnx.reference), which indexes a Python list",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 2);
                 if (!insert(c) || !p) return std::nullopt;
                 const int64_t n = sequence_length(c);
                 if (*p >= -n && *p <= n) return std::nullopt;
                 return c.reference(with_input(c, 2, scalar(((*p % (n + 1)) + (n + 1)) % (n + 1))));
               }}});
  d.push_back({"insert.negative_inserts_after",
               "SequenceInsert",
               "a negative position inserts after the tensor it names (-1 appends) instead of "
               "before it",
               "an off-by-one in translating negative positions, as hand-written kernels make it",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 const auto p = first_int(c, 2);
                 if (!insert(c) || !p || *p >= 0 || *p < -sequence_length(c)) return std::nullopt;
                 return c.reference(with_input(c, 2, scalar(sequence_length(c) + *p + 1)));
               }}});
  d.push_back({"insert.crash_on_empty_sequence",
               "SequenceInsert",
               "inserting into an empty sequence crashes (SIGSEGV)",
               "null-pointer crashes on inputs without elements, as ONNX Runtime 1.14 to 1.30 "
               "show on an empty constant position",
               {[](const interp::NodeCall& c) -> std::optional<std::vector<Value>> {
                 if (insert(c) && sequence_length(c) == 0) std::raise(SIGSEGV);
                 return std::nullopt;
               }}});
  return d;
}

}  // namespace seqconf::seeded
