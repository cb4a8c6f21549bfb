// Machinery probes: small whole graphs that test the graph machinery the contexts stand on
// (Loop, If, Scan and SequenceMap's body handling) with as little sequence-operator semantics
// as possible. Each is a context of its own, `machinery`, and runs before the other cases of
// the corpus (cases/loader.cpp); a departure on a probe is named for its machinery
// (reports/report.cpp), and the contexts' departures that its machinery explains are grouped
// with it.
//
//   Loop   trip count given, condition omitted (0, 1 and 3 trips); condition given true, given
//          false (no iteration), and with the trip count omitted (a while loop); scan outputs of
//          rank 0, 1 and 2, and of rank 2 after no iteration; a loop-carried sequence; a body
//          with a Constant; a body with a nested Loop; a body reading the enclosing scope.
//   If     a sequence from each branch; a tensor of the enclosing scope.
//   Scan   forward, an input scanned in reverse, an output on axis 1, an output prepended.
//   SequenceMap  a body reading the enclosing scope; two and three sequence inputs and a tensor
//          input; sequences of different lengths (rejected); a body with a Constant; a body with
//          a nested Loop.
//
// Values are int64 where the body adds (exact), key tensors where it copies. Expected values
// are worked out here from the spec's sentences and pseudo-code, never by running a runtime.
//
// ID: <Loop|If|Scan|SequenceMap>/probe=<name>[/trips=<iterations>]/context=machinery
#include <numeric>

#include "generators/catalog/common.h"
#include "generators/catalog/params.h"

namespace seqconf::catalog {

using namespace detail;

// A namespace of its own: the catalog's files are compiled together (unity build), and the
// patterns' helpers have names like these.
namespace probes {

const IdKeys kProbeKeys = {"probe", "trips", "context"};

// The scan output wording: "Each scan_output is created by concatenating the value of the
// specified output value at the end of each iteration of the loop." Read literally, per-iteration
// values of shape [3, 4] over 2 iterations concatenate to [6, 4]; ONNX's shape inference and
// the operator's own pseudo-code (user_defined_vals[i] = user_defined_val) give one slice per
// iteration on a new first axis, [2, 3, 4], as ONNX Runtime does. Both policies expect the
// stacked form.
const char* kScanWording =
    "Loop-13 body: \"Each scan_output is created by concatenating the value of the specified "
    "output value at the end of each iteration of the loop.\" Concatenating per-iteration values "
    "along their first axis would give [trips * d0, ...]; ONNX's shape inference and the "
    "operator's pseudo-code (\"user_defined_vals[i] = user_defined_val // accumulate scan-output "
    "values\") give one slice per iteration on a new first axis, [trips, d0, ...]. The "
    "expectation is the stacked form under both policies.";

CatalogCase probe_case(const std::string& op, int opset, DataType dtype, const std::string& probe,
                       int trips) {
  CatalogCase c = start_case(op, opset, dtype);
  c.context = "machinery";
  c.trips = std::max(trips, 0);
  std::vector<Param> params = {{"probe", probe}};
  if (trips >= 0) params.push_back({"trips", std::to_string(trips)});
  params.push_back({"context", "machinery"});
  c.params = kProbeKeys.order(std::move(params));
  return c;
}

Tensor i64(const Shape& shape, const std::vector<int64_t>& v) {
  return int_tensor(DataType::int64, shape, v);
}
Tensor i64_scalar(int64_t v) { return int_scalar(DataType::int64, v); }
Tensor bool_scalar(bool v) {
  return Tensor::from_values<DataType::bool_>({}, {static_cast<uint8_t>(v ? 1 : 0)});
}

void add_input(CatalogCase& c, onnx::GraphProto& g, const std::string& name, Value v,
               bool context_input = false) {
  *g.add_input() = model::value_info(name, declared_type(v));
  (context_input ? c.context_inputs : c.inputs).push_back({name, std::move(v)});
}

// ---- Loop -----------------------------------------------------------------------------------

// The counting loop every Loop probe but the shaped ones uses: x (int64 scalar, initial 10) is
// carried and adds the iteration number each iteration; the iteration number is a scan output.
// After t iterations: x = 10 + 0 + 1 + ... + (t - 1), scan = [0, 1, ..., t - 1].
struct CountingLoop {
  std::string m;     // "given" | "omitted"
  std::string cond;  // "omitted" | "true" | "false" | "less" (cond_out = iteration < limit)
  int trips = 3;     // M when given
};

CatalogCase counting_loop_case(const std::string& probe, const CountingLoop& k, int id_trips,
                               const SpecPassage& spec) {
  CatalogCase c = probe_case("Loop", 13, DataType::int64, probe, id_trips);
  onnx::GraphProto g;
  add_input(c, g, "x_initial", Value(i64_scalar(10)));
  std::vector<std::string> loop_inputs = {"", "", "x_initial"};
  if (k.m == "given") {
    add_input(c, g, "trip_count", Value(i64_scalar(k.trips)), true);
    loop_inputs[0] = "trip_count";
  }
  if (k.cond == "true" || k.cond == "false" || k.cond == "less") {
    add_input(c, g, "cond", Value(bool_scalar(k.cond != "false")), true);
    loop_inputs[1] = "cond";
  }
  if (k.cond == "less") add_input(c, g, "limit", Value(i64_scalar(2)), true);

  onnx::GraphProto body = loop_body("counting_body");
  *body.add_input() = model::value_info("x_in", tensor_type(DataType::int64, {}));
  if (k.cond == "less") {
    // The loop goes on while iteration < limit: iterations 0, 1 and 2 run (2 < 2 ends it).
    *body.add_node() = model::node("Less", {"iteration", "limit"}, {"cond_out"});
    *body.add_output() = model::value_info("cond_out", tensor_type(DataType::bool_, {}));
  } else {
    pass_condition(body);
  }
  *body.add_node() = model::node("Add", {"x_in", "iteration"}, {"x_out"});
  *body.add_node() = model::node("Identity", {"iteration"}, {"counter"});
  *body.add_output() = model::value_info("x_out", tensor_type(DataType::int64, {}));
  *body.add_output() = model::value_info("counter", tensor_type(DataType::int64, {}));
  *g.add_node() = loop_node(loop_inputs, {"x_final", "counters"}, std::move(body));

  int runs = k.trips;
  if (k.cond == "false") runs = 0;
  if (k.cond == "less") runs = 3;
  std::vector<int64_t> counters(static_cast<size_t>(runs));
  std::iota(counters.begin(), counters.end(), 0);
  const int64_t x = 10 + std::accumulate(counters.begin(), counters.end(), int64_t{0});
  c.output_names = {"x_final", "counters"};
  c.output_types = {tensor_type(DataType::int64), tensor_type(DataType::int64)};
  c.outputs = {Value(i64_scalar(x)), Value(i64({runs}, counters))};
  c.spec = spec;
  c.details["probe"] = "Loop(M " + k.m + ", cond " + k.cond +
                       ") carrying x = 10 + iteration, with the iteration number as a scan output";
  c.pattern = std::move(g);
  return c;
}

void add_counting_loops(std::vector<CatalogCase>& out) {
  const SpecPassage trip = spec_passage({"Loop.trip_count", "Loop.skip"});
  for (int trips : {0, 1, 3})
    out.push_back(counting_loop_case("cond_omitted", {"given", "omitted", trips}, trips, trip));
  const SpecPassage cond = spec_passage({"Loop.cond_input"});
  out.push_back(counting_loop_case("cond_true", {"given", "true", 3}, 3, cond));
  out.push_back(counting_loop_case("cond_false", {"given", "false", 3}, 0, cond));
  out.push_back(counting_loop_case("trip_count_omitted", {"omitted", "less", 0}, 3,
                                   spec_passage({"Loop.skip", "Loop.cond_output"})));
}

// Scan outputs of rank 1 and 2: slice `iteration` of `data` (Gather on axis 0) each iteration;
// the scan output is data itself, one slice per iteration on a new first axis. Rank 0 is the
// counting loop's. After no iteration the scan output is empty with the slice's declared shape.
CatalogCase scan_rank_case(int rank, int trips) {
  CatalogCase c =
      probe_case("Loop", 13, DataType::float32, "scan_rank" + std::to_string(rank), trips);
  const Shape slice = rank == 1 ? Shape{3} : Shape{3, 4};
  Shape data_shape = slice;
  data_shape.insert(data_shape.begin(), std::max(trips, 1));
  const KeyTensor data = key_tensor(data_shape, 1);
  onnx::GraphProto g;
  add_input(c, g, "data", Value(materialize(DataType::float32, data)));
  add_input(c, g, "trip_count", Value(i64_scalar(trips)), true);
  onnx::GraphProto body = loop_body("slice_body");
  pass_condition(body);
  *body.add_node() = with_int(model::node("Gather", {"data", "iteration"}, {"slice"}), "axis", 0);
  *body.add_output() = model::value_info("slice", tensor_type(DataType::float32, slice));
  *g.add_node() = loop_node({"trip_count", ""}, {"slices"}, std::move(body));
  c.output_names = {"slices"};
  c.output_types = {tensor_type(DataType::float32)};
  KeyTensor expected = trips == 0 ? KeyTensor{} : data;
  if (trips == 0) {
    expected.shape = slice;
    expected.shape.insert(expected.shape.begin(), 0);
  }
  c.outputs = {Value(materialize(DataType::float32, expected))};
  c.spec = spec_passage({"Loop.scan_outputs"});
  c.ambiguous = true;
  c.ambiguity = kScanWording;
  c.details["probe"] = "Loop scan output of rank " + std::to_string(rank) +
                       ": Gather(data, iteration) each iteration, declared " + dims_string(slice);
  c.pattern = std::move(g);
  return c;
}

// A loop-carried sequence: SequenceEmpty, then each iteration inserts row `iteration` of data at
// the end; the final value holds the rows in order.
CatalogCase carried_sequence_case() {
  CatalogCase c = probe_case("Loop", 13, DataType::float32, "carried_sequence", 3);
  const KeyTensor data = key_tensor({3, 2}, 1);
  onnx::GraphProto g;
  add_input(c, g, "data", Value(materialize(DataType::float32, data)));
  add_input(c, g, "trip_count", Value(i64_scalar(3)), true);
  *g.add_node() = with_int(model::node("SequenceEmpty", {}, {"empty"}), "dtype",
                           static_cast<int64_t>(DataType::float32));
  onnx::GraphProto body = loop_body("carry_body");
  *body.add_input() = model::value_info("rows_in", sequence_type(DataType::float32));
  pass_condition(body);
  *body.add_node() = with_int(model::node("Gather", {"data", "iteration"}, {"row"}), "axis", 0);
  *body.add_node() = model::node("SequenceInsert", {"rows_in", "row"}, {"rows_out"});
  *body.add_output() = model::value_info("rows_out", sequence_type(DataType::float32));
  *g.add_node() = loop_node({"trip_count", "", "empty"}, {"rows"}, std::move(body));
  c.output_names = {"rows"};
  c.output_types = {sequence_type(DataType::float32)};
  c.outputs = {materialize_sequence(DataType::float32, rows_of(data))};
  c.spec = spec_passage({"Loop.v_types_13", "Loop.carried"});
  c.details["probe"] = "a sequence carried through 3 iterations, each appending one row of data";
  c.pattern = std::move(g);
  return c;
}

// A body whose scan output is a Constant node's value: each iteration adds the same [2] tensor.
CatalogCase body_constant_case() {
  CatalogCase c = probe_case("Loop", 13, DataType::float32, "body_constant", 2);
  const KeyTensor k = key_tensor({2}, 1);
  onnx::GraphProto g;
  add_input(c, g, "trip_count", Value(i64_scalar(2)), true);
  onnx::GraphProto body = loop_body("constant_body");
  pass_condition(body);
  *body.add_node() = [&] {
    onnx::NodeProto n = model::node("Constant", {}, {"constant"});
    *n.add_attribute() = model::tensor_attribute(
        "value", tensor_to_proto(materialize(DataType::float32, k), TensorEncoding::raw_data, ""));
    return n;
  }();
  *body.add_output() = model::value_info("constant", tensor_type(DataType::float32, {2}));
  *g.add_node() = loop_node({"trip_count", ""}, {"constants"}, std::move(body));
  c.output_names = {"constants"};
  c.output_types = {tensor_type(DataType::float32)};
  c.outputs = {Value(materialize(DataType::float32, stack_rows({k, k}, {2})))};
  c.spec = spec_passage({"Loop.body"});
  c.details["probe"] = "a Constant node in the body as its scan output, 2 iterations";
  c.pattern = std::move(g);
  return c;
}

// A nested Loop: the outer body runs an inner Loop of inner_trips iterations (a graph input two
// scopes up) whose scan output is inner iteration + outer iteration; the outer scan output
// stacks the inner ones: row i is [i, i + 1, i + 2].
CatalogCase nested_loop_case() {
  CatalogCase c = probe_case("Loop", 13, DataType::int64, "nested_loop", 2);
  onnx::GraphProto g;
  add_input(c, g, "trip_count", Value(i64_scalar(2)), true);
  add_input(c, g, "inner_trips", Value(i64_scalar(3)), true);
  onnx::GraphProto inner;
  inner.set_name("inner_body");
  *inner.add_input() = model::value_info("inner_iteration", tensor_type(DataType::int64, {}));
  *inner.add_input() = model::value_info("inner_cond_in", tensor_type(DataType::bool_, {}));
  *inner.add_node() = model::node("Identity", {"inner_cond_in"}, {"inner_cond_out"});
  *inner.add_node() = model::node("Add", {"inner_iteration", "iteration"}, {"sum"});
  *inner.add_output() = model::value_info("inner_cond_out", tensor_type(DataType::bool_, {}));
  *inner.add_output() = model::value_info("sum", tensor_type(DataType::int64, {}));
  onnx::GraphProto body = loop_body("outer_body");
  pass_condition(body);
  *body.add_node() = loop_node({"inner_trips", ""}, {"sums"}, std::move(inner));
  *body.add_output() = model::value_info("sums", tensor_type(DataType::int64, {3}));
  *g.add_node() = loop_node({"trip_count", ""}, {"table"}, std::move(body));
  c.output_names = {"table"};
  c.output_types = {tensor_type(DataType::int64)};
  c.outputs = {Value(i64({2, 3}, {0, 1, 2, 1, 2, 3}))};
  c.spec = spec_passage({"Loop.body", "Loop.enclosing_scope"});
  c.details["probe"] =
      "a Loop in a Loop body: the inner scan output adds the outer iteration number, read from "
      "the enclosing body";
  c.pattern = std::move(g);
  return c;
}

// A body that reads a value of the enclosing graph: scan output iteration + offset.
CatalogCase enclosing_scope_case() {
  CatalogCase c = probe_case("Loop", 13, DataType::int64, "enclosing_scope", 2);
  onnx::GraphProto g;
  add_input(c, g, "offset", Value(i64_scalar(100)));
  add_input(c, g, "trip_count", Value(i64_scalar(2)), true);
  onnx::GraphProto body = loop_body("scope_body");
  pass_condition(body);
  *body.add_node() = model::node("Add", {"iteration", "offset"}, {"shifted"});
  *body.add_output() = model::value_info("shifted", tensor_type(DataType::int64, {}));
  *g.add_node() = loop_node({"trip_count", ""}, {"shifted_all"}, std::move(body));
  c.output_names = {"shifted_all"};
  c.output_types = {tensor_type(DataType::int64)};
  c.outputs = {Value(i64({2}, {100, 101}))};
  c.spec = spec_passage({"Loop.enclosing_scope"});
  c.details["probe"] = "the body adds a graph input (offset = 100) to the iteration number";
  c.pattern = std::move(g);
  return c;
}

// ---- If -------------------------------------------------------------------------------------

// Branches of an If reading tensors a and b of the enclosing graph: then gives the sequence
// [a, b], else [b]; `tensor` gives Identity(a) from then and Identity(b) from else.
CatalogCase if_case(const std::string& probe, bool cond, bool sequences) {
  CatalogCase c = probe_case("If", 13, DataType::float32, probe, -1);
  const KeyTensor a = key_tensor({2}, 1), b = key_tensor({2}, 11);
  onnx::GraphProto g;
  add_input(c, g, "a", Value(materialize(DataType::float32, a)));
  add_input(c, g, "b", Value(materialize(DataType::float32, b)));
  add_input(c, g, "cond", Value(bool_scalar(cond)), true);
  const onnx::TypeProto out_type =
      sequences ? sequence_type(DataType::float32) : tensor_type(DataType::float32, {2});
  onnx::GraphProto then_branch, else_branch;
  then_branch.set_name("then_branch");
  else_branch.set_name("else_branch");
  if (sequences) {
    *then_branch.add_node() = model::node("SequenceConstruct", {"a", "b"}, {"then_out"});
    *else_branch.add_node() = model::node("SequenceConstruct", {"b"}, {"else_out"});
  } else {
    *then_branch.add_node() = model::node("Identity", {"a"}, {"then_out"});
    *else_branch.add_node() = model::node("Identity", {"b"}, {"else_out"});
  }
  *then_branch.add_output() = model::value_info("then_out", out_type);
  *else_branch.add_output() = model::value_info("else_out", out_type);
  onnx::NodeProto n = model::node("If", {"cond"}, {"result"});
  *n.add_attribute() = model::graph_attribute("then_branch", std::move(then_branch));
  *n.add_attribute() = model::graph_attribute("else_branch", std::move(else_branch));
  *g.add_node() = std::move(n);
  c.output_names = {"result"};
  if (sequences) {
    c.output_types = {sequence_type(DataType::float32)};
    c.outputs = {cond ? materialize_sequence(DataType::float32, {a, b})
                      : materialize_sequence(DataType::float32, {b})};
  } else {
    c.output_types = {tensor_type(DataType::float32)};
    c.outputs = {Value(materialize(DataType::float32, cond ? a : b))};
  }
  c.spec = spec_passage({cond ? "If.then_branch" : "If.else_branch"});
  c.details["probe"] =
      std::string(sequences ? "branches returning sequences built from " : "branches returning ") +
      "tensors of the enclosing graph; cond " + (cond ? "true" : "false");
  c.pattern = std::move(g);
  return c;
}

// ---- Scan -----------------------------------------------------------------------------------

// A running sum: state s (initial [0, 0]) adds each scanned row of x = [[1, 2], [3, 4], [5, 6]];
// the scan output is s after each step.
struct ScanConfig {
  std::string probe;
  std::vector<std::pair<std::string, int64_t>> attrs;  // list attributes of one entry
  std::vector<int64_t> final_state;
  Shape out_shape;
  std::vector<int64_t> out;
  const char* clause;
};

CatalogCase scan_case(const ScanConfig& k) {
  CatalogCase c = probe_case("Scan", 16, DataType::int64, k.probe, -1);
  onnx::GraphProto g;
  add_input(c, g, "s_initial", Value(i64({2}, {0, 0})));
  const bool transposed = k.probe == "input_axis1";
  add_input(c, g, "x",
            Value(transposed ? i64({2, 3}, {1, 3, 5, 2, 4, 6}) : i64({3, 2}, {1, 2, 3, 4, 5, 6})));
  onnx::GraphProto body;
  body.set_name("running_sum");
  *body.add_input() = model::value_info("s_in", tensor_type(DataType::int64, {2}));
  *body.add_input() = model::value_info("x_row", tensor_type(DataType::int64, {2}));
  *body.add_node() = model::node("Add", {"s_in", "x_row"}, {"s_out"});
  *body.add_node() = model::node("Identity", {"s_out"}, {"s_step"});
  *body.add_output() = model::value_info("s_out", tensor_type(DataType::int64, {2}));
  *body.add_output() = model::value_info("s_step", tensor_type(DataType::int64, {2}));
  onnx::NodeProto n = model::node("Scan", {"s_initial", "x"}, {"s_final", "steps"});
  *n.add_attribute() = model::graph_attribute("body", std::move(body));
  *n.add_attribute() = model::int_attribute("num_scan_inputs", 1);
  for (const auto& [name, v] : k.attrs) *n.add_attribute() = model::ints_attribute(name, {v});
  *g.add_node() = std::move(n);
  c.output_names = {"s_final", "steps"};
  c.output_types = {tensor_type(DataType::int64), tensor_type(DataType::int64)};
  c.outputs = {Value(i64({2}, k.final_state)), Value(i64(k.out_shape, k.out))};
  c.spec = spec_passage({"Scan.body", k.clause});
  c.details["probe"] = "Scan: a running sum over the rows of x, with the sum after each step";
  c.pattern = std::move(g);
  return c;
}

void add_scan_cases(std::vector<CatalogCase>& out) {
  // Forward: steps [1, 2], [4, 6], [9, 12]. Reverse input: rows 5 6, 3 4, 1 2 give [5, 6],
  // [8, 10], [9, 12]. Output on axis 1: the forward steps as columns. Prepended: the forward
  // steps last to first. Input scanned on axis 1: x transposed, scanned by column, as forward.
  const std::vector<ScanConfig> configs = {
      {"forward", {}, {9, 12}, {3, 2}, {1, 2, 4, 6, 9, 12}, "Scan.scan_output"},
      {"input_axis1",
       {{"scan_input_axes", 1}},
       {9, 12},
       {3, 2},
       {1, 2, 4, 6, 9, 12},
       "Scan.scan_output"},
      {"reverse_input",
       {{"scan_input_directions", 1}},
       {9, 12},
       {3, 2},
       {5, 6, 8, 10, 9, 12},
       "Scan.input_directions"},
      {"output_axis1",
       {{"scan_output_axes", 1}},
       {9, 12},
       {2, 3},
       {1, 4, 9, 2, 6, 12},
       "Scan.output_axes"},
      {"prepend_output",
       {{"scan_output_directions", 1}},
       {9, 12},
       {3, 2},
       {9, 12, 4, 6, 1, 2},
       "Scan.output_directions"},
  };
  for (const auto& k : configs) out.push_back(scan_case(k));
}

// ---- SequenceMap body -----------------------------------------------------------------------

// SequenceMap over int64 sequences of [2] tensors, sample i of sequence input k being
// [100 k + 10 i + 1, 100 k + 10 i + 2] (k from 0).
Sequence int_sequence(int k, int length) {
  std::vector<Tensor> v;
  for (int i = 0; i < length; ++i)
    v.push_back(i64({2}, {100 * k + 10 * i + 1, 100 * k + 10 * i + 2}));
  return Sequence(DataType::int64, std::move(v));
}

struct MapConfig {
  std::string probe;
  int sequences = 1;               // sequence inputs
  std::vector<int> lengths = {2};  // their lengths
  bool tensor_input = false;       // a [2] tensor t = [1000, 2000] after the sequences
  std::string extra;               // "outer" (Add outer bias) | "constant" | "loop" | ""
  SpecPassage spec;
};

CatalogCase map_case(const MapConfig& k) {
  CatalogCase c = probe_case("SequenceMap", 17, DataType::int64, k.probe, -1);
  onnx::GraphProto g;
  std::vector<std::string> map_inputs;
  onnx::GraphProto body;
  body.set_name("map_body");
  for (int s = 0; s < k.sequences; ++s) {
    const std::string name = "s" + std::to_string(s);
    add_input(c, g, name, Value(int_sequence(s, k.lengths[static_cast<size_t>(s)])));
    map_inputs.push_back(name);
    *body.add_input() =
        model::value_info("x" + std::to_string(s), tensor_type(DataType::int64, {2}));
  }
  if (k.tensor_input) {
    add_input(c, g, "t", Value(i64({2}, {1000, 2000})));
    map_inputs.push_back("t");
    *body.add_input() = model::value_info("t_in", tensor_type(DataType::int64, {2}));
  }
  // The body sums its inputs, then applies `extra`.
  std::string acc = "x0";
  const auto add = [&](const std::string& rhs, const std::string& out) {
    *body.add_node() = model::node("Add", {acc, rhs}, {out});
    acc = out;
  };
  for (int s = 1; s < k.sequences; ++s) add("x" + std::to_string(s), "sum" + std::to_string(s));
  if (k.tensor_input) add("t_in", "with_t");
  if (k.extra == "outer") {
    add_input(c, g, "bias", Value(i64({2}, {7, 9})));
    add("bias", "with_bias");
  } else if (k.extra == "constant") {
    onnx::NodeProto n = model::node("Constant", {}, {"ones"});
    *n.add_attribute() = model::tensor_attribute(
        "value", tensor_to_proto(i64({2}, {1, 1}), TensorEncoding::raw_data, ""));
    *body.add_node() = std::move(n);
    add("ones", "with_ones");
  }
  if (k.extra == "loop") {
    // A Loop of 2 iterations (trip count and a true condition from the enclosing graph; the
    // condition given, so that a Loop defect with it omitted stays the Loop probes')
    // stacking the sample.
    add_input(c, g, "copies", Value(i64_scalar(2)), true);
    add_input(c, g, "keep_going", Value(bool_scalar(true)), true);
    onnx::GraphProto inner = loop_body("copy_body");
    pass_condition(inner);
    *inner.add_node() = model::node("Identity", {acc}, {"copy"});
    *inner.add_output() = model::value_info("copy", tensor_type(DataType::int64, {2}));
    *body.add_node() = loop_node({"copies", "keep_going"}, {"stacked"}, std::move(inner));
    acc = "stacked";
  }
  if (acc == "x0")
    *body.add_node() = model::node("Identity", {"x0"}, {"y"});
  else
    *body.add_node() = model::node("Identity", {acc}, {"y"});
  *body.add_output() = model::value_info(
      "y", tensor_type(DataType::int64, k.extra == "loop" ? Shape{2, 2} : Shape{2}));
  onnx::NodeProto n = model::node("SequenceMap", map_inputs, {"mapped"});
  *n.add_attribute() = model::graph_attribute("body", std::move(body));
  *g.add_node() = std::move(n);
  c.output_names = {"mapped"};
  c.output_types = {sequence_type(DataType::int64)};
  c.spec = k.spec;
  const bool same = std::all_of(k.lengths.begin(), k.lengths.end(),
                                [&](int l) { return l == k.lengths.front(); });
  const bool shorter =
      std::any_of(k.lengths.begin(), k.lengths.end(), [&](int l) { return l < k.lengths.front(); });
  if (shorter) {
    // "a sample will be extracted from the input sequence(s) at the i-th position": none past
    // the end of a shorter sequence, under both policies.
    c.error = ErrorCode::sequence_length_mismatch;
  } else {
    if (!same) {
      c.ambiguous = true;
      c.ambiguity = sequence_map_longer_note();
      c.strict_error = ErrorCode::sequence_length_mismatch;
    }
    // Sample i: the sum over sequence inputs k of [100 k + 10 i + 1, 100 k + 10 i + 2], plus t,
    // the bias or the ones; a nested Loop stacks it twice.
    std::vector<Tensor> samples;
    for (int i = 0; i < k.lengths.front(); ++i) {
      std::vector<int64_t> v = {0, 0};
      for (int s = 0; s < k.sequences; ++s)
        for (int e = 0; e < 2; ++e) v[static_cast<size_t>(e)] += 100 * s + 10 * i + 1 + e;
      if (k.tensor_input) v = {v[0] + 1000, v[1] + 2000};
      if (k.extra == "outer") v = {v[0] + 7, v[1] + 9};
      if (k.extra == "constant") v = {v[0] + 1, v[1] + 1};
      samples.push_back(k.extra == "loop" ? i64({2, 2}, {v[0], v[1], v[0], v[1]}) : i64({2}, v));
    }
    c.outputs = {Value(Sequence(DataType::int64, std::move(samples)))};
  }
  c.details["probe"] = "SequenceMap over " + std::to_string(k.sequences) + " sequence input(s)" +
                       (k.tensor_input ? " and a tensor input" : "") +
                       (k.extra.empty() ? "" : ", body with " + k.extra);
  c.pattern = std::move(g);
  return c;
}

void add_sequence_map_probes(std::vector<CatalogCase>& out) {
  const std::vector<MapConfig> configs = {
      {"enclosing_scope", 1, {2}, false, "outer", spec_passage({"SequenceMap.body"})},
      {"two_sequences", 2, {2, 2}, false, "", spec_passage({"SequenceMap.per_sample"})},
      {"three_sequences_tensor", 3, {2, 2, 2}, true, "", spec_passage({"SequenceMap.inputs"})},
      {"lengths_differ", 2, {2, 3}, false, "", spec_passage({"SequenceMap.same_samples"})},
      {"lengths_shorter",
       2,
       {3, 2},
       false,
       "",
       spec_passage({"SequenceMap.same_samples", "SequenceMap.per_sample"})},
      {"body_constant", 1, {2}, false, "constant", spec_passage({"SequenceMap.body"})},
      {"nested_loop", 1, {2}, false, "loop", spec_passage({"SequenceMap.body"})},
  };
  for (const auto& k : configs) out.push_back(map_case(k));
}

}  // namespace probes

void add_machinery_cases(std::vector<CatalogCase>& out) {
  using namespace probes;
  add_counting_loops(out);
  for (int rank : {1, 2}) out.push_back(scan_rank_case(rank, 2));
  out.push_back(scan_rank_case(2, 0));
  out.push_back(carried_sequence_case());
  out.push_back(body_constant_case());
  out.push_back(nested_loop_case());
  out.push_back(enclosing_scope_case());
  out.push_back(if_case("then_sequence", true, true));
  out.push_back(if_case("else_sequence", false, true));
  out.push_back(if_case("enclosing_tensor", true, false));
  add_scan_cases(out);
  add_sequence_map_probes(out);
}

}  // namespace seqconf::catalog
