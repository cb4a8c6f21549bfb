// Exporter patterns: whole graphs that exporters emit around the operators, each a context of
// its own (the `context` ID component), with the operator under test inside a Loop or beside
// the companion operators. The graph is built here, not by in_context: a pattern is not a
// re-expression of one node. Expected values are worked out on the elements' keys.
//
//   list_append            TorchScript's list append: SequenceEmpty (dtype given or absent),
//                          a Loop that carries the list and inserts one row of `data` per
//                          iteration (SequenceInsert at the end, or at the front), then
//                          SequenceLength, ConcatFromSequence (new_axis=1) and SequenceAt(-1)
//                          after the loop. Trip counts 0, 1, 3 and 17.
//   loop_counter_position  the Loop's iteration counter as position: SequenceAt(S, i) and
//                          SequenceAt(S, i - SequenceLength(S)) as scan outputs, SequenceErase
//                          of a carried sequence at i; a trip count that takes the position past
//                          the end in iteration k is rejected.
//   loop_carried           a sequence carried through a Loop of 0, 1, 3 or 17 iterations, each
//                          applying the operator under test to it: SequenceInsert (at the end,
//                          the front, before the last), SequenceErase (the last, the first), or
//                          SplitToSequence then ConcatFromSequence of a carried tensor; erasing
//                          past the sequence's length is rejected in the iteration that does it,
//                          and so is a split that stops summing to the axis (grow=1).
//   scan_of_sequences      a Loop whose scan outputs are built from sequence values: SequenceAt(S,
//   i)
//                          split into chunks of 2, stacked back with ConcatFromSequence and
//                          counted with SequenceLength; one iteration past S is rejected.
//   split_then_gather      torch.unbind / torch.stack: SplitToSequence (keepdims=0) then
//                          SequenceAt at 0 and -1 and ConcatFromSequence (new_axis=1) on the
//                          same axis, which gives the input back.
//
// ID: <Op>/<keys of the pattern>/dtype=<T>/context=<pattern>[/trips=<iterations>]
#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

namespace {

const IdKeys kPatternKeys = {"position", "empty_dtype", "axis",    "shape", "grow",
                             "dtype",    "n",           "context", "trips"};

CatalogCase pattern_case(const std::string& op, DataType dtype, std::vector<Param> params,
                         const std::string& pattern, int trips) {
  CatalogCase c = start_case(op, 13, dtype);  // Loop-13 and If-13 carry sequences
  c.context = pattern;
  c.trips = std::max(trips, 0);
  params.push_back({"dtype", type_label(dtype)});
  params.push_back({"context", pattern});
  if (trips >= 0) params.push_back({"trips", std::to_string(trips)});
  c.params = kPatternKeys.order(std::move(params));
  return c;
}

// ---- list_append ----------------------------------------------------------------------------

struct AppendConfig {
  std::string position = "end";  // end (absent) | 0 (front) | 1 (past the end of the empty list)
  bool empty_dtype = true;       // SequenceEmpty's dtype given
  int trips = 3;
  DataType dtype = DataType::float32;
};

CatalogCase list_append_case(const AppendConfig& k) {
  CatalogCase c =
      pattern_case("SequenceInsert", k.dtype,
                   {{"position", k.position}, {"empty_dtype", k.empty_dtype ? "given" : "absent"}},
                   "list_append", k.trips);
  const KeyTensor data = key_tensor({k.trips, 2}, 1);
  c.inputs = {{"data", materialize(k.dtype, data)}};
  c.context_inputs = {{"trip_count", int_scalar(DataType::int64, k.trips)}};

  onnx::GraphProto g;
  *g.add_input() = model::value_info("data", declared_type(c.inputs[0].value));
  *g.add_input() = model::value_info("trip_count", tensor_type(DataType::int64, {}));
  onnx::NodeProto empty = model::node("SequenceEmpty", {}, {"list_initial"});
  if (k.empty_dtype) empty = with_int(empty, "dtype", static_cast<int64_t>(k.dtype));
  *g.add_node() = empty;

  onnx::GraphProto body = loop_body("append_body");
  *body.add_input() = model::value_info("list_in", sequence_type(k.dtype));
  *body.add_node() = with_int(model::node("Gather", {"data", "iteration"}, {"row"}), "axis", 0);
  std::vector<std::string> insert_inputs = {"list_in", "row"};
  if (k.position != "end") {
    add_int_initializer(g, "insert_position", std::stoll(k.position));
    insert_inputs.push_back("insert_position");
  }
  *body.add_node() = model::node("SequenceInsert", insert_inputs, {"list_out"});
  pass_condition(body);
  *body.add_output() = model::value_info("list_out", sequence_type(k.dtype));
  *g.add_node() = loop_node({"trip_count", "", "list_initial"}, {"list"}, std::move(body));
  *g.add_node() = model::node("SequenceLength", {"list"}, {"length"});
  c.output_names = {"list", "length"};
  c.output_types = {sequence_type(k.dtype), tensor_type(DataType::int64)};
  if (k.trips > 0) {
    add_int_initializer(g, "last_position", -1);
    *g.add_node() =
        with_int(with_int(model::node("ConcatFromSequence", {"list"}, {"stacked"}), "axis", 0),
                 "new_axis", 1);
    *g.add_node() = model::node("SequenceAt", {"list", "last_position"}, {"last"});
    c.output_names.insert(c.output_names.end(), {"stacked", "last"});
    c.output_types.insert(c.output_types.end(), {tensor_type(k.dtype), tensor_type(k.dtype)});
  }

  if (k.position == "1" && k.trips > 0) {
    // Iteration 0 inserts at 1 into the empty list (n = 0).
    c.spec = spec_passage({"SequenceInsert.position_range"});
    c.error = ErrorCode::position_out_of_range;
  } else {
    // Each iteration appends row i (clause SequenceInsert.position_default) or puts it in
    // front (position 0).
    c.spec = k.position == "end"
                 ? spec_passage({"SequenceInsert.summary", "SequenceInsert.position_default"})
                 : spec_passage({"SequenceInsert.summary", "SequenceInsert.position_range"});
    std::vector<KeyTensor> list = rows_of(data);
    if (k.position == "0") std::reverse(list.begin(), list.end());
    c.outputs = {materialize_sequence(k.dtype, list), Value(int_scalar(DataType::int64, k.trips))};
    if (k.trips > 0) {
      c.outputs.push_back(Value(materialize(k.dtype, stack_rows(list, {2}))));
      c.outputs.push_back(Value(materialize(k.dtype, list.back())));
    }
  }
  c.details["pattern"] =
      "SequenceEmpty, then a Loop of trip_count iterations that inserts Gather(data, i) into the "
      "carried list, then SequenceLength, ConcatFromSequence(axis=0, new_axis=1) and "
      "SequenceAt(-1) of the list";
  c.pattern = std::move(g);
  return c;
}

void add_list_append_cases(std::vector<CatalogCase>& out) {
  // dtype given: the 15 types at three iterations, the other trip counts over a float, an
  // integer and string; dtype absent (float, the default); prepending; one must-reject.
  for (const auto& k : Params<AppendConfig>().combine(&AppendConfig::dtype, kAllDataTypes))
    out.push_back(list_append_case(k));
  for (const auto& k : Params<AppendConfig>()
                           .combine(&AppendConfig::trips, {0, 1, 17})
                           .combine(&AppendConfig::dtype, kRepresentativeTypes))
    out.push_back(list_append_case(k));
  for (const auto& k : Params<AppendConfig>()
                           .combine(&AppendConfig::empty_dtype, {false})
                           .combine(&AppendConfig::trips, {0, 1, 3, 17}))
    out.push_back(list_append_case(k));
  for (const auto& k : Params<AppendConfig>()
                           .combine(&AppendConfig::position, {"0", "1"})
                           .combine(&AppendConfig::dtype, kRepresentativeTypes))
    out.push_back(list_append_case(k));
}

// ---- loop_counter_position ------------------------------------------------------------------

struct CounterConfig {
  std::string op = "SequenceAt";
  std::string position = "counter";  // counter | counter_minus_length
  int trips = 5;
  DataType dtype = DataType::float32;
};

constexpr int kCounterLength = 5;  // the sequence S: five tensors of shape [2]

CatalogCase counter_case(const CounterConfig& k) {
  CatalogCase c =
      pattern_case(k.op, k.dtype, {{"position", k.position}, {"n", std::to_string(kCounterLength)}},
                   "loop_counter_position", k.trips);
  std::vector<KeyTensor> elements;
  for (int i = 0; i < kCounterLength; ++i) elements.push_back(key_tensor({2}, 20 * i + 1));
  c.inputs = {{"input_sequence", materialize_sequence(k.dtype, elements)}};
  c.context_inputs = {{"trip_count", int_scalar(DataType::int64, k.trips)}};

  onnx::GraphProto g;
  *g.add_input() = model::value_info("input_sequence", sequence_type(k.dtype));
  *g.add_input() = model::value_info("trip_count", tensor_type(DataType::int64, {}));
  onnx::GraphProto body = loop_body("counter_body");
  pass_condition(body);
  std::vector<std::string> loop_inputs = {"trip_count", ""};
  std::string position = "iteration";
  if (k.op == "SequenceAt") {
    if (k.position == "counter_minus_length") {
      // seq[i - len(seq)]: the same elements through negative positions.
      *body.add_node() = model::node("SequenceLength", {"input_sequence"}, {"length"});
      *body.add_node() = model::node("Sub", {"iteration", "length"}, {"from_back"});
      position = "from_back";
    }
    *body.add_node() = model::node("SequenceAt", {"input_sequence", position}, {"element"});
    *body.add_output() = model::value_info("element", tensor_type(k.dtype));
    c.output_names = {"elements"};
    c.output_types = {tensor_type(k.dtype)};
  } else {
    // SequenceErase at i of the carried sequence.
    *body.add_input() = model::value_info("carried_in", sequence_type(k.dtype));
    *body.add_node() = model::node("SequenceErase", {"carried_in", position}, {"carried_out"});
    *body.add_output() = model::value_info("carried_out", sequence_type(k.dtype));
    loop_inputs.push_back("input_sequence");
    c.output_names = {"remaining"};
    c.output_types = {sequence_type(k.dtype)};
  }
  *g.add_node() = loop_node(loop_inputs, c.output_names, std::move(body));

  if (k.op == "SequenceAt") {
    // Iteration i reads element i (or i - 5, the same element counted from the back); a trip
    // count past the length reads position 5 in iteration 5.
    if (k.trips > kCounterLength) {
      c.spec = spec_passage({"position.range"});
      c.error = ErrorCode::position_out_of_range;
    } else {
      c.spec = k.position == "counter" ? spec_passage({"SequenceAt.summary", "position.range"})
                                       : spec_passage({"SequenceAt.summary", "position.negative"});
      std::vector<KeyTensor> read(elements.begin(), elements.begin() + k.trips);
      c.outputs = {Value(materialize(k.dtype, stack_rows(read, {2})))};
    }
  } else {
    // Iteration i erases position i of what the earlier iterations left: 5, 4, 3, 2 elements
    // at the start of iterations 0..3, so iteration 3 erases position 3 of two.
    std::vector<KeyTensor> left = elements;
    bool out_of_range = false;
    for (int i = 0; i < k.trips && !out_of_range; ++i) {
      if (i >= static_cast<int>(left.size()))
        out_of_range = true;
      else
        left.erase(left.begin() + i);
    }
    if (out_of_range) {
      c.spec = spec_passage({"position.range"});
      c.error = ErrorCode::position_out_of_range;
    } else {
      c.spec = spec_passage({"SequenceErase.summary"});
      c.outputs = {materialize_sequence(k.dtype, left)};
    }
  }
  c.details["pattern"] = k.op == "SequenceAt"
                             ? "a Loop of trip_count iterations whose scan output is "
                               "SequenceAt(input_sequence, position) with the iteration counter "
                               "(or the counter minus SequenceLength) as position"
                             : "a Loop of trip_count iterations that carries input_sequence and "
                               "erases the position the iteration counter names";
  c.pattern = std::move(g);
  return c;
}

void add_loop_counter_cases(std::vector<CatalogCase>& out) {
  for (const auto& k : Params<CounterConfig>()
                           .combine(&CounterConfig::trips, {1, 3, 5, 6})
                           .combine(&CounterConfig::dtype, kRepresentativeTypes))
    out.push_back(counter_case(k));
  for (const auto& k : Params<CounterConfig>()
                           .combine(&CounterConfig::position, {"counter_minus_length"})
                           .combine(&CounterConfig::dtype, kRepresentativeTypes))
    out.push_back(counter_case(k));
  for (const auto& k : Params<CounterConfig>()
                           .combine(&CounterConfig::op, {"SequenceErase"})
                           .combine(&CounterConfig::trips, {0, 2, 3, 4})
                           .combine(&CounterConfig::dtype, kRepresentativeTypes))
    out.push_back(counter_case(k));
}

// ---- loop_carried ---------------------------------------------------------------------------

struct CarriedConfig {
  std::string op = "SequenceInsert";  // SequenceInsert | SequenceErase | SplitToSequence
  std::string position = "absent";    // absent | 0 | -1 (SequenceInsert, SequenceErase)
  int n = 2;                          // the initial sequence's length
  int trips = 3;
  DataType dtype = DataType::float32;
  bool grow = false;  // SplitToSequence: the chunks get chunk 0 again at the end (one more column)
};

// One Loop carrying `carried` (of type `type`) and applying `nodes` to body input
// "carried_in" to give body output "carried_out".
onnx::NodeProto carrying_loop(const onnx::TypeProto& type, std::vector<onnx::NodeProto> nodes,
                              const std::string& initial, const std::string& final_name) {
  onnx::GraphProto body = loop_body("carried_body");
  *body.add_input() = model::value_info("carried_in", type);
  for (auto& n : nodes) *body.add_node() = std::move(n);
  pass_condition(body);
  *body.add_output() = model::value_info("carried_out", type);
  return loop_node({"trip_count", "", initial}, {final_name}, std::move(body));
}

CatalogCase carried_case(const CarriedConfig& k) {
  std::vector<Param> params = {{"n", std::to_string(k.n)}};
  if (k.op != "SplitToSequence") params.push_back({"position", k.position});
  if (k.grow) params.push_back({"grow", "1"});
  CatalogCase c = pattern_case(k.op, k.dtype, std::move(params), "loop_carried", k.trips);
  c.context_inputs = {{"trip_count", int_scalar(DataType::int64, k.trips)}};
  onnx::GraphProto g;
  if (k.op == "SplitToSequence") {
    // X of shape [2, 3]; each iteration splits it on axis 1 into [1, 2] and concatenates the
    // chunks back: X again, whatever the trip count.
    const KeyTensor x = key_tensor({2, 3}, 1);
    c.inputs = {{"input", materialize(k.dtype, x)}};
    *g.add_input() = model::value_info("input", declared_type(c.inputs[0].value));
    *g.add_input() = model::value_info("trip_count", tensor_type(DataType::int64, {}));
    *g.add_initializer() = tensor_to_proto(int_tensor(DataType::int64, {2}, {1, 2}),
                                           TensorEncoding::raw_data, "split");
    std::vector<onnx::NodeProto> nodes;
    nodes.push_back(
        with_int(model::node("SplitToSequence", {"carried_in", "split"}, {"chunks"}), "axis", 1));
    std::string concatenated = "chunks";
    if (k.grow) {
      // Chunk 0 appended again: one column more each iteration, so the split [1, 2] stops
      // summing to the axis length in iteration 1.
      add_int_initializer(g, "first", 0);
      nodes.push_back(model::node("SequenceAt", {"chunks", "first"}, {"chunk_0"}));
      nodes.push_back(model::node("SequenceInsert", {"chunks", "chunk_0"}, {"grown"}));
      concatenated = "grown";
    }
    nodes.push_back(
        with_int(model::node("ConcatFromSequence", {concatenated}, {"carried_out"}), "axis", 1));
    *g.add_node() = carrying_loop(tensor_type(k.dtype), std::move(nodes), "input", "output");
    c.output_names = {"output"};
    c.output_types = {tensor_type(k.dtype)};
    if (k.grow && k.trips >= 2) {
      c.spec = spec_passage({"SplitToSequence.split_sum"});
      c.error = ErrorCode::split_sum_mismatch;
      c.details["rejected_in_iteration"] = 1;
    } else {
      c.spec = spec_passage({"SplitToSequence.split_list", "ConcatFromSequence.summary"});
      // One iteration of grow: the columns 0, 1, 2 and 0 again.
      const KeyTensor out = k.grow && k.trips == 1
                                ? KeyTensor{{2, 4},
                                            {x.keys[0], x.keys[1], x.keys[2], x.keys[0], x.keys[3],
                                             x.keys[4], x.keys[5], x.keys[3]}}
                                : x;
      c.outputs = {Value(materialize(k.dtype, out))};
    }
    c.details["pattern"] =
        std::string(
            "a Loop that carries a [2, 3] tensor, splits it on axis 1 into [1, 2] and "
            "concatenates the chunks back each iteration") +
        (k.grow ? ", with chunk 0 inserted again at the end" : "");
    c.pattern = std::move(g);
    return c;
  }
  // A sequence of n tensors of shape [2] carried through the Loop; SequenceInsert inserts the
  // tensor `inserted` each iteration, SequenceErase erases one.
  std::vector<KeyTensor> list;
  for (int i = 0; i < k.n; ++i) list.push_back(key_tensor({2}, 2 * i + 1));
  const KeyTensor inserted = key_tensor({2}, 100);
  c.inputs = {{"input_sequence", materialize_sequence(k.dtype, list)}};
  *g.add_input() = model::value_info("input_sequence", sequence_type(k.dtype));
  if (k.op == "SequenceInsert") {
    c.inputs.push_back({"tensor", materialize(k.dtype, inserted)});
    *g.add_input() = model::value_info("tensor", declared_type(c.inputs[1].value));
  }
  *g.add_input() = model::value_info("trip_count", tensor_type(DataType::int64, {}));
  std::vector<std::string> inputs = {"carried_in"};
  if (k.op == "SequenceInsert") inputs.push_back("tensor");
  if (k.position != "absent") {
    add_int_initializer(g, "position", std::stoll(k.position));
    inputs.push_back("position");
  }
  std::vector<onnx::NodeProto> nodes;
  nodes.push_back(model::node(k.op, inputs, {"carried_out"}));
  *g.add_node() =
      carrying_loop(sequence_type(k.dtype), std::move(nodes), "input_sequence", "output_sequence");
  c.output_names = {"output_sequence"};
  c.output_types = {sequence_type(k.dtype)};
  // Each iteration applies the operator to what the previous one left, a negative position
  // counted from the back of that sequence (n + p).
  std::optional<int> rejected_in;
  for (int i = 0; i < k.trips && !rejected_in; ++i) {
    const auto n = static_cast<int64_t>(list.size());
    if (k.op == "SequenceInsert") {
      const int64_t p = k.position == "absent" ? n : std::stoll(k.position);
      list.insert(list.begin() + (p < 0 ? p + n : p), inserted);
    } else {
      const int64_t p = k.position == "absent" ? n - 1 : std::stoll(k.position);
      const int64_t at = p < 0 ? p + n : p;
      if (at < 0 || at >= n)
        rejected_in = i;
      else
        list.erase(list.begin() + at);
    }
  }
  if (rejected_in) {
    // Iteration `rejected_in` erases from the empty sequence: [-0, 0 - 1] holds no position.
    c.spec = spec_passage({"position.range"});
    c.error = ErrorCode::position_out_of_range;
    c.details["rejected_in_iteration"] = *rejected_in;
  } else if (k.op == "SequenceInsert") {
    c.spec = k.position == "absent"
                 ? spec_passage({"SequenceInsert.summary", "SequenceInsert.position_default"})
                 : spec_passage({"SequenceInsert.summary", "SequenceInsert.position_range"});
    c.outputs = {materialize_sequence(k.dtype, list)};
  } else {
    c.spec = k.position == "absent"
                 ? spec_passage({"SequenceErase.summary", "SequenceErase.position_default"})
                 : spec_passage({"SequenceErase.summary", "position.range"});
    c.outputs = {materialize_sequence(k.dtype, list)};
  }
  c.details["pattern"] =
      "a Loop of trip_count iterations that carries input_sequence and applies " + k.op +
      " to it each iteration";
  c.pattern = std::move(g);
  return c;
}

void add_loop_carried_cases(std::vector<CatalogCase>& out) {
  // SequenceInsert at the end, the front and before the last, 0, 1, 3 and 17 iterations.
  for (const auto& k : Params<CarriedConfig>()
                           .combine(&CarriedConfig::position, {"absent", "0", "-1"})
                           .combine(&CarriedConfig::trips, {0, 1, 3, 17})
                           .combine(&CarriedConfig::dtype, kRepresentativeTypes))
    out.push_back(carried_case(k));
  // SequenceErase of the last and the first of 18, 0, 1, 3 and 17 iterations; of 2, 3
  // iterations: the third erases from the empty sequence.
  for (const auto& k : Params<CarriedConfig>()
                           .combine(&CarriedConfig::op, {"SequenceErase"})
                           .combine(&CarriedConfig::position, {"absent", "0"})
                           .combine(&CarriedConfig::n, {18})
                           .combine(&CarriedConfig::trips, {0, 1, 3, 17})
                           .combine(&CarriedConfig::dtype, kRepresentativeTypes))
    out.push_back(carried_case(k));
  for (const auto& k : Params<CarriedConfig>()
                           .combine(&CarriedConfig::op, {"SequenceErase"})
                           .combine(&CarriedConfig::position, {"absent", "0"})
                           .combine(&CarriedConfig::dtype, kRepresentativeTypes))
    out.push_back(carried_case(k));
  // SplitToSequence then ConcatFromSequence of a carried tensor; growing by a column each
  // iteration, 1 iteration, and 3, whose second is rejected.
  for (const auto& k : Params<CarriedConfig>()
                           .combine(&CarriedConfig::op, {"SplitToSequence"})
                           .combine(&CarriedConfig::trips, {0, 1, 3, 17})
                           .combine(&CarriedConfig::dtype, kRepresentativeTypes))
    out.push_back(carried_case(k));
  for (const auto& k : Params<CarriedConfig>()
                           .combine(&CarriedConfig::op, {"SplitToSequence"})
                           .combine(&CarriedConfig::grow, {true})
                           .combine(&CarriedConfig::trips, {1, 3})
                           .combine(&CarriedConfig::dtype, kRepresentativeTypes))
    out.push_back(carried_case(k));
}

// ---- scan_of_sequences ----------------------------------------------------------------------

struct ScanConfig {
  int trips = 3;  // iterations; the sequence holds 3 tensors of shape [4]
  DataType dtype = DataType::float32;
};

constexpr int kScanLength = 3;

// Each iteration i takes SequenceAt(S, i), splits it into chunks of 2 and stacks them back
// (ConcatFromSequence, new_axis=1) and counts them (SequenceLength): two scan outputs built from
// sequence values.
CatalogCase scan_case(const ScanConfig& k) {
  CatalogCase c = pattern_case("SplitToSequence", k.dtype, {{"n", std::to_string(kScanLength)}},
                               "scan_of_sequences", k.trips);
  std::vector<KeyTensor> elements;
  for (int i = 0; i < kScanLength; ++i) elements.push_back(key_tensor({4}, 20 * i + 1));
  c.inputs = {{"input_sequence", materialize_sequence(k.dtype, elements)}};
  c.context_inputs = {{"trip_count", int_scalar(DataType::int64, k.trips)}};
  onnx::GraphProto g;
  *g.add_input() = model::value_info("input_sequence", sequence_type(k.dtype));
  *g.add_input() = model::value_info("trip_count", tensor_type(DataType::int64, {}));
  add_int_initializer(g, "chunk", 2);
  onnx::GraphProto body = loop_body("scan_body");
  *body.add_node() = model::node("SequenceAt", {"input_sequence", "iteration"}, {"element"});
  *body.add_node() = model::node("SplitToSequence", {"element", "chunk"}, {"chunks"});
  *body.add_node() =
      with_int(with_int(model::node("ConcatFromSequence", {"chunks"}, {"stacked"}), "axis", 0),
               "new_axis", 1);
  *body.add_node() = model::node("SequenceLength", {"chunks"}, {"count"});
  pass_condition(body);
  *body.add_output() = model::value_info("stacked", tensor_type(k.dtype));
  *body.add_output() = model::value_info("count", tensor_type(DataType::int64));
  *g.add_node() = loop_node({"trip_count", ""}, {"stacked_all", "counts"}, std::move(body));
  c.output_names = {"stacked_all", "counts"};
  c.output_types = {tensor_type(k.dtype), tensor_type(DataType::int64)};
  if (k.trips > kScanLength) {
    // Iteration 3 reads position 3 of a sequence of 3.
    c.spec = spec_passage({"position.range"});
    c.error = ErrorCode::position_out_of_range;
  } else {
    // A tensor [4] split into chunks of 2 and stacked is the tensor as [2, 2]; the scan output
    // stacks one per iteration.
    c.spec = spec_passage({"SplitToSequence.split_scalar", "ConcatFromSequence.new_axis_stack",
                           "SequenceLength.summary"});
    KeyTensor stacked{{k.trips, 2, 2}, {}};
    for (int i = 0; i < k.trips; ++i)
      stacked.keys.insert(stacked.keys.end(), elements[i].keys.begin(), elements[i].keys.end());
    c.outputs = {Value(materialize(k.dtype, stacked)),
                 Value(int_tensor(DataType::int64, {k.trips}, std::vector<int64_t>(k.trips, 2)))};
  }
  c.details["pattern"] =
      "a Loop whose scan outputs are ConcatFromSequence(SplitToSequence(SequenceAt(S, i), 2), "
      "new_axis=1) and SequenceLength of the same chunks";
  c.pattern = std::move(g);
  return c;
}

void add_scan_of_sequences_cases(std::vector<CatalogCase>& out) {
  // 1, 3 and 4 iterations over a float, an integer and string; 3 over the other 12 types.
  for (const auto& k : Params<ScanConfig>()
                           .combine(&ScanConfig::trips, {1, 3, 4})
                           .combine(&ScanConfig::dtype, kRepresentativeTypes))
    out.push_back(scan_case(k));
  for (const auto& k : Params<ScanConfig>().combine(&ScanConfig::dtype, kAllDataTypes))
    if (k.dtype != DataType::float32 && k.dtype != DataType::int64 && k.dtype != DataType::string)
      out.push_back(scan_case(k));
}

// ---- split_then_gather ----------------------------------------------------------------------

struct UnbindConfig {
  Shape shape;
  int64_t axis = 0;
  DataType dtype = DataType::float32;
};

CatalogCase unbind_case(const UnbindConfig& k) {
  CatalogCase c = pattern_case("SplitToSequence", k.dtype,
                               {{"axis", std::to_string(k.axis)}, {"shape", dims_string(k.shape)}},
                               "split_then_gather", -1);
  const KeyTensor input = key_tensor(k.shape, 1);
  c.inputs = {{"input", materialize(k.dtype, input)}};
  onnx::GraphProto g;
  *g.add_input() = model::value_info("input", declared_type(c.inputs[0].value));
  add_int_initializer(g, "first", 0);
  add_int_initializer(g, "last", -1);
  *g.add_node() =
      with_int(with_int(model::node("SplitToSequence", {"input"}, {"slices"}), "axis", k.axis),
               "keepdims", 0);
  *g.add_node() = model::node("SequenceAt", {"slices", "first"}, {"first_slice"});
  *g.add_node() = model::node("SequenceAt", {"slices", "last"}, {"last_slice"});
  *g.add_node() =
      with_int(with_int(model::node("ConcatFromSequence", {"slices"}, {"stacked"}), "axis", k.axis),
               "new_axis", 1);
  c.output_names = {"first_slice", "last_slice", "stacked"};
  c.output_types = {tensor_type(k.dtype), tensor_type(k.dtype), tensor_type(k.dtype)};
  const auto rank = static_cast<int64_t>(k.shape.size());
  const auto a = static_cast<size_t>(k.axis < 0 ? k.axis + rank : k.axis);
  if (k.shape[a] == 0) {
    // No slice: SequenceAt(0) of the empty sequence is out of range.
    c.spec = spec_passage({"position.range"});
    c.error = ErrorCode::position_out_of_range;
  } else {
    // keepdims=0 removes the axis from every slice; stacking on the same axis puts it back.
    c.spec = spec_passage({"SplitToSequence.keepdims", "ConcatFromSequence.new_axis_stack"});
    auto slice = [&](int64_t i) {
      KeyTensor s = chunk_along(input, a, i, 1);
      s.shape.erase(s.shape.begin() + static_cast<std::ptrdiff_t>(a));
      return s;
    };
    c.outputs = {Value(materialize(k.dtype, slice(0))),
                 Value(materialize(k.dtype, slice(k.shape[a] - 1))),
                 Value(materialize(k.dtype, input))};
  }
  c.details["pattern"] =
      "SplitToSequence(keepdims=0), SequenceAt at 0 and -1, ConcatFromSequence(new_axis=1) on "
      "the same axis";
  c.pattern = std::move(g);
  return c;
}

void add_split_then_gather_cases(std::vector<CatalogCase>& out) {
  const std::vector<UnbindConfig> configs = {{{3, 2}, 0},    {{3, 2}, 1}, {{2, 3, 4}, -1},
                                             {{2, 3, 4}, 1}, {{4}, 0},    {{0, 2}, 0}};
  for (const auto& k :
       Params<UnbindConfig>(configs).combine(&UnbindConfig::dtype, kRepresentativeTypes))
    out.push_back(unbind_case(k));
}

}  // namespace

void add_pattern_cases(std::vector<CatalogCase>& out) {
  add_list_append_cases(out);
  add_loop_counter_cases(out);
  add_loop_carried_cases(out);
  add_scan_of_sequences_cases(out);
  add_split_then_gather_cases(out);
}

}  // namespace seqconf::catalog
