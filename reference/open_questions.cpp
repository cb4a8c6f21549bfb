// The spec's open questions (reference/open_questions.h). The facts about other implementations
// come from their public sources and from the measurements `seqconf ambiguities` makes; what
// each policy does is the reference's own (reference/ops/, reference/support/).
#include "reference/open_questions.h"

#include "reference/spec_clauses.h"

namespace seqconf {
namespace {

OpenQuestion::Sentence clause(const std::string& id, const std::string& where) {
  return {id, where, std::string(spec_clause(id).sentence)};
}

std::vector<OpenQuestion> make_questions() {
  std::vector<OpenQuestion> q;

  {
    OpenQuestion e;
    e.id = "position_shape_1";
    e.status = "open";
    e.title = "SequenceAt, SequenceErase, SequenceInsert: is a position of shape [1] a position?";
    e.operators = {{"SequenceAt", {11}}, {"SequenceErase", {11}}, {"SequenceInsert", {11}}};
    e.sentences = {clause("position.scalar",
                          "SequenceAt-11, SequenceErase-11, SequenceInsert-11, "
                          "input position")};
    e.readings = {
        {"lenient", "lenient", "a 1-D position of one element is read as that element",
         "ONNX's own node test test_sequence_insert_at_front; ONNX Runtime (reads the first "
         "element)"},
        {"strict", "strict", "rejected (position_not_scalar): the position is not a scalar", ""},
    };
    e.onnx = {{"onnx/backend/test/data/node/test_sequence_insert_at_front (ONNX 1.12 and 1.23)",
               "passes a position of shape [1] (value 0) and expects the tensor inserted at the "
               "front: the lenient reading"}};
    e.proposal =
        "position: \"It must be a scalar (tensor of empty shape). A 1-D tensor of one element "
        "is read as that element.\" Or, keeping the sentence as it is, give "
        "test_sequence_insert_at_front a scalar position.";
    e.case_globs = {"corpus/SequenceAt/*pshape=1*", "corpus/SequenceErase/*pshape=1*",
                    "corpus/SequenceInsert/*pshape=1*",
                    "onnx-backend/node/test_sequence_insert_at_front"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "split_zero_entry";
    e.status = "open";
    e.title = "SplitToSequence: may a 1-D split hold a zero?";
    e.operators = {{"SplitToSequence", {11}}};
    e.sentences = {clause("SplitToSequence.split_positive", "SplitToSequence-11, description"),
                   clause("SplitToSequence.split_nonnegative", "SplitToSequence-11, input split")};
    e.readings = {
        {"lenient", "lenient", "a zero entry gives an empty chunk (the input's \">= 0\")",
         "ONNX's own test test_sequence_model8 (split [0, 0, 0] of an empty axis); ONNX "
         "Runtime"},
        {"strict", "strict", "rejected (split_zero): the description's \"only positive numbers\"",
         ""},
    };
    e.onnx = {{"onnx/backend/test/data/simple/test_sequence_model8 (ONNX 1.12)",
               "splits an axis of length 0 with split [0, 0, 0] and expects three empty chunks: "
               "the lenient reading"},
              {"onnx/defs/sequence/utils.cc (ONNX 1.23)",
               "shape inference fails for a scalar split <= 0, and says nothing of a zero entry "
               "in a 1-D split"}};
    e.proposal =
        "\"'split' must contain only non-negative numbers; a zero entry gives an empty chunk.\" "
        "(A scalar split of 0 stays an error under both readings: no chunk length of 0 can "
        "cover the axis.)";
    e.case_globs = {"corpus/SplitToSequence/*split=list_*",
                    "onnx-backend/simple/test_sequence_model8"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "sequence_map_lengths";
    e.status = "open";
    e.title = "SequenceMap: may another sequence input hold more samples than the first?";
    e.operators = {{"SequenceMap", {17}}};
    e.sentences = {clause("SequenceMap.sample_count", "SequenceMap-17, description"),
                   clause("SequenceMap.same_samples", "SequenceMap-17, description")};
    e.readings = {
        {"lenient", "lenient",
         "a longer sequence input is read for its first n samples (n: the first input's "
         "length); a shorter one is rejected (sequence_length_mismatch): its sample i cannot "
         "be extracted",
         "ONNX's own function body of SequenceMap-17 (a Loop over the first input's length, "
         "SequenceAt on the others); ONNX Runtime, which runs that function body"},
        {"strict", "strict",
         "every other sequence input must have n samples (\"should\" read as \"must\"): any "
         "other length is rejected (sequence_length_mismatch)",
         ""},
        {"zip", "",
         "the samples are paired up to the shorter sequence: a longer or a shorter sequence is "
         "accepted, and the outputs hold min(lengths) samples",
         "ONNX's Python reference evaluator (onnx/reference/ops/op_sequence_map.py pairs the "
         "first two sequences with zip)"},
    };
    e.onnx = {{"onnx/defs/sequence/defs.cc (BuildSequenceMapBodyFunc)",
               "the function body loops SequenceLength(input_sequence) times and takes "
               "SequenceAt(input, i) of every other sequence input: a longer input is read for "
               "its first n samples, a shorter one fails in SequenceAt: the lenient reading"},
              {"onnx/reference/ops/op_sequence_map.py",
               "zip over the first two sequences: min(lengths) samples, a third reading"}};
    e.proposal =
        "\"Any other sequence inputs must have at least as many samples as the first; only "
        "their first n samples are used.\" Or, to keep every implementation's outputs of one "
        "length: \"Any other sequence inputs must have the same number of samples.\"";
    e.case_globs = {"corpus/SequenceMap/*lengths=*", "corpus/SequenceMap/probe=lengths_differ/*"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "legacy_broadcast_size1";
    e.status = "open";
    e.title = "Add, Sub, Mul, Div 1 and 6 with broadcast=1: does a dimension of 1 in B expand?";
    e.operators = {{"Add", {1, 6}}, {"Sub", {1, 6}}, {"Mul", {1, 6}}, {"Div", {1, 6}},
                   {"Equal", {1}},  {"Less", {1}},   {"Greater", {1}}};
    e.sentences = {{"",
                    "Add-1, Add-6 (and Sub, Mul, Div, Equal, Less, Greater), attribute broadcast",
                    "1-dim expansion doesn't work yet."}};
    e.readings = {
        {"lenient", "lenient", "a dimension of 1 in B expands to A's",
         "ONNX's own tests test_operator_add_size1_broadcast and "
         "test_operator_add_size1_singleton_broadcast (pytorch-operator, opset 6)"},
        {"strict", "strict", "rejected (shape_mismatch): B's shape must be a suffix of A's", ""},
    };
    e.onnx = {
        {"onnx/backend/test/data/pytorch-operator/test_operator_add_size1_broadcast "
         "(ONNX 1.12)",
         "adds B [2, 1] to A [2, 3] with broadcast=1 and expects B expanded: the lenient "
         "reading"}};
    e.proposal =
        "These versions are long superseded (numpy broadcasting from Add-7); a note on the "
        "old pages that ONNX's tests expand a dimension of 1 would settle it.";
    e.case_globs = {"onnx-backend/pytorch-operator/test_operator_add_size1_broadcast",
                    "onnx-backend/pytorch-operator/test_operator_add_size1_singleton_broadcast"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "scan_output_stacking";
    e.status = "wording";
    e.title = "Loop and Scan: is a scan output concatenated or stacked?";
    e.operators = {{"Loop", {11, 13, 16}}, {"Scan", {9, 11, 16}}};
    e.sentences = {clause("Loop.scan_outputs", "Loop-13, description"),
                   {"", "Loop-13, description (pseudo-code)",
                    "user_defined_vals[i] = user_defined_val // accumulate scan-output values"},
                   clause("Scan.scan_output", "Scan-16, description")};
    e.readings = {
        {"spec", "both",
         "stacked: one slice per iteration on a new axis, Loop's first, Scan's scan output "
         "axis (0 by default) ([3, 4] over 2 iterations gives [2, 3, 4])",
         "the pseudo-code; ONNX's shape inference; ONNX's test_loop11 and test_scan9_sum; ONNX "
         "Runtime"},
        {"concatenated", "",
         "concatenated along the values' first axis ([3, 4] over 2 iterations gives [6, 4]): "
         "the sentence read literally",
         ""},
    };
    e.onnx = {{"onnx/backend/test/data/node/test_loop11 (ONNX 1.12)",
               "a scan output of shape [1] per iteration over 5 iterations is expected as [5, 1]: "
               "stacked"},
              {"onnx/backend/test/data/node/test_scan9_sum (ONNX 1.12)",
               "a scan output element of shape [2] over 3 iterations is expected as [3, 2]: "
               "stacked"},
              {"onnx/defs/controlflow/utils.cc",
               "shape inference adds a first dimension for the number of iterations: stacked"}};
    e.why_not_split =
        "ONNX's own node test and shape inference give the stacked form, and no implementation "
        "is known to concatenate: the sentence's wording is loose, the meaning is not open. "
        "Both policies expect the stacked form.";
    e.proposal =
        "\"Each scan_output is created by stacking the value of the specified output value at "
        "the end of each iteration of the loop along a new first axis.\" (Loop), and for "
        "Scan: \"... produced by stacking the scan_output_element values ... along the scan "
        "output axis.\"";
    e.case_globs = {"corpus/Loop/probe=scan_rank*", "corpus/Scan/probe=forward/*",
                    "onnx-backend/node/test_loop11", "onnx-backend/node/test_scan9_sum"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "split_keepdims_with_split";
    e.status = "disputed";
    e.title = "SplitToSequence: does keepdims=0 drop the axis when split is a scalar?";
    e.operators = {{"SplitToSequence", {11}}};
    e.sentences = {
        clause("SplitToSequence.keepdims", "SplitToSequence-11, attribute keepdims"),
        clause("SplitToSequence.keepdims_ignored", "SplitToSequence-11, attribute keepdims")};
    e.readings = {
        {"spec", "both", "keepdims is ignored whenever split is given: every chunk keeps the axis",
         "the sentence"},
        {"scalar_split_drops_axis", "",
         "keepdims=0 applies to a scalar split: chunks of length 1 lose the axis",
         "ONNX Runtime; torch.onnx 1.13, whose export of unbind relies on it (SplitToSequence "
         "with a scalar split of 1 and keepdims=0); a reviewer of the onnxscript exporter "
         "calls the wording ambiguous (onnxscript issue 2533, PR 2536, which omits split)"},
    };
    e.onnx = {{"onnx/backend/test/data/node/test_split_to_sequence_nokeepdims (ONNX 1.23)",
               "keepdims=0 with split absent only: ONNX's tests do not take a side"}};
    e.why_not_split =
        "The sentence is clear (\"this attribute is ignored\"); practice departs from it. "
        "Both policies follow the sentence, and a runtime or exporter that drops the axis "
        "departs.";
    e.proposal =
        "Keep \"If input 'split' is specified, this attribute is ignored.\" and add a node test "
        "with a scalar split of 1 and keepdims=0; or, to follow practice: \"If 'split' is a "
        "scalar of 1, keepdims=0 removes the split dimension.\"";
    e.program_reading = "scalar_split_drops_axis";
    e.case_globs = {"corpus/SplitToSequence/*split=scalar_1/*keepdims=0*", "exported/unbind_*"};
    q.push_back(std::move(e));
  }
  {
    OpenQuestion e;
    e.id = "concat_empty_sequence";
    e.status = "silent";
    e.title = "ConcatFromSequence: what does an empty sequence give?";
    e.operators = {{"ConcatFromSequence", {11}}};
    e.sentences = {clause("ConcatFromSequence.same_shape", "ConcatFromSequence-11, description"),
                   clause("ConcatFromSequence.concatenate",
                          "ConcatFromSequence-11, attribute "
                          "new_axis")};
    e.readings = {
        {"spec", "both",
         "rejected: with no tensor there is no rank to check the axis against and no shape to "
         "give, and numpy.concatenate and numpy.stack, which the spec names, raise on an empty "
         "list",
         "numpy"},
        {"empty_tensor", "", "an empty tensor of some shape", ""},
    };
    e.why_not_split =
        "No sentence covers it; the operations the spec names (numpy.concatenate, numpy.stack) "
        "raise on an empty list, so both policies reject it.";
    e.proposal = "\"The input sequence must not be empty.\"";
    e.case_globs = {"corpus/ConcatFromSequence/*shapes=none*"};
    q.push_back(std::move(e));
  }
  return q;
}

}  // namespace

const std::vector<OpenQuestion>& open_questions() {
  static const std::vector<OpenQuestion> q = make_questions();
  return q;
}

const OpenQuestion* find_open_question(const std::string& id) {
  for (const OpenQuestion& q : open_questions())
    if (q.id == id) return &q;
  return nullptr;
}

}  // namespace seqconf
