// The kernels of the control-flow operators, Loop, Scan, If and SequenceMap: each runs its body
// or branch (a GraphProgram of its node) in the scope of the node's graph; see interpreter.h.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/interpreter/interpreter_internal.h"
#include "reference/interpreter/type_constraints.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"
#include "reference/support/body_ops.h"

namespace seqconf::interp {

using namespace detail;

namespace {

const GraphProgram& subgraph(const KernelCall& c, const std::string& name) {
  return *c.pn.subgraphs.at(name);
}

bool read_bool_scalar(const Tensor& t, const std::string& what) {
  if (t.dtype() != DataType::bool_ || t.element_count() != 1)
    throw Error(ErrorCode::invalid_argument, what + " must be a single bool, got " + t.describe());
  return t.data<uint8_t>()[0] != 0;
}

// Every Loop iteration and SequenceMap sample counts against one budget per evaluation, as
// large as the number of tensor handles Context::max_tensor_bytes holds (2^24 for 1 GiB):
// nested loops cannot multiply into an unbounded run.
void count_body_run(const KernelCall& c) {
  const size_t budget = c.ctx.max_tensor_bytes / sizeof(Tensor);
  if (++c.ctx.body_runs > budget)
    throw Error(ErrorCode::limit_exceeded,
                c.label() + ": more than " + std::to_string(budget) +
                    " subgraph runs (Loop iterations and SequenceMap samples) in one evaluation");
  charge_work(c.ctx, Context::kNodeRunWork, [&] { return c.label(); });
}

// The list attribute `name` of a Scan: absent gives `count` copies of dflt; a list of another
// length makes the model invalid.
std::vector<int64_t> scan_flags(const KernelCall& c, const std::string& name, size_t count,
                                int64_t dflt) {
  const auto* a = c.attr(name);
  if (!a) return std::vector<int64_t>(count, dflt);
  if (static_cast<size_t>(a->ints_size()) != count)
    throw Error(ErrorCode::invalid_model, c.label() + ": " + name + " has " +
                                              std::to_string(a->ints_size()) +
                                              " entries, expected " + std::to_string(count));
  return {a->ints().begin(), a->ints().end()};
}

// axis in [-r, r-1] (scan_input_axes, scan_output_axes: "Accepted range is [-r, r-1]"), made
// non-negative.
int64_t scan_axis(const KernelCall& c, const std::string& what, int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw Error(ErrorCode::axis_out_of_range, c.label() + ": " + what + " " + std::to_string(axis) +
                                                  " is outside [-" + std::to_string(r) + ", " +
                                                  std::to_string(r - 1) + "]");
  return axis < 0 ? axis + r : axis;
}

}  // namespace

namespace detail {

std::vector<Value> run_loop(const KernelCall& c) {
  // Loop: "Generic Looping construct ... input ("", cond) // Note this is analogous to a while
  //  loop ... input (trip_count, "") // Note this is analogous to a for loop".
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  const size_t n_carried = c.in.size() > 2 ? c.in.size() - 2 : 0;
  if (static_cast<size_t>(bg.input_size()) != 2 + n_carried)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.input_size()) +
                    " inputs, expected 2 + " + std::to_string(n_carried) + " loop-carried");
  if (static_cast<size_t>(bg.output_size()) < 1 + n_carried)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.output_size()) +
                    " outputs, expected at least 1 + " + std::to_string(n_carried));
  const size_t n_scan = static_cast<size_t>(bg.output_size()) - 1 - n_carried;
  std::optional<int64_t> trip;
  if (c.has(0)) {
    const Tensor& m = c.tensor(0);
    if (m.dtype() != DataType::int64 || m.element_count() != 1)
      throw Error(ErrorCode::invalid_argument,
                  c.label() + ": M must be a single int64, got " + m.describe());
    trip = m.int_at(0);
  }
  bool cond = c.has(1) ? read_bool_scalar(c.tensor(1), c.label() + ": cond") : true;
  std::vector<Value> carried;
  for (size_t k = 0; k < n_carried; ++k) carried.push_back(c.value(2 + k));
  std::vector<std::vector<Tensor>> scans(n_scan);
  for (int64_t i = 0; cond && (!trip || i < *trip); ++i) {
    count_body_run(c);
    std::vector<Value> args;
    args.emplace_back(Tensor::from_values<DataType::int64>({}, {i}));
    args.emplace_back(Tensor::from_values<DataType::bool_>({}, {static_cast<uint8_t>(cond)}));
    for (auto& v : carried) args.push_back(v);
    std::vector<Value> out = body.run(args, &c.scope, c.ctx);
    cond = read_bool_scalar(out[0].tensor(c.label() + ": body output cond"),
                            c.label() + ": body output cond");
    for (size_t k = 0; k < n_carried; ++k) carried[k] = out[1 + k];
    for (size_t k = 0; k < n_scan; ++k) {
      const Value& v = out[1 + n_carried + k];
      auto what = [&] {
        return c.label() + ": scan output " + std::to_string(k) + " (body output " +
               std::to_string(1 + n_carried + k) + ") in iteration " + std::to_string(i);
      };
      // Loop-13 v_final_and_scan_outputs: "Scan outputs must be Tensors."
      if (!v.is_tensor())
        throw Error(ErrorCode::invalid_model,
                    what() + " is " + type_text(v) + "; \"Scan outputs must be Tensors.\"");
      const Tensor& t = v.tensor();
      // body: "It is an error if the dimensions or data type of these scan_outputs change
      //  across loop iterations."
      if (!scans[k].empty() &&
          (t.dtype() != scans[k][0].dtype() || t.shape() != scans[k][0].shape()))
        throw Error(
            t.dtype() != scans[k][0].dtype() ? ErrorCode::invalid_model : ErrorCode::shape_mismatch,
            what() + " is " + t.describe() + " but was " + scans[k][0].describe() +
                " in iteration 0; \"It is an error if the dimensions or data type of these "
                "scan_outputs change across loop iterations.\"");
      scans[k].push_back(t);
    }
  }
  std::vector<Value> result = std::move(carried);
  for (size_t k = 0; k < n_scan; ++k) {
    // "Scan outputs ... the values ... are concatenated"; each iteration adds one slice along
    // a new leading axis.
    const auto& decl = bg.output(static_cast<int>(1 + n_carried + k)).type();
    if (scans[k].empty()) {
      DataType d = DataType::float32;
      Shape shape{0};
      if (decl.has_tensor_type()) {
        d = dtype_from_onnx(decl.tensor_type().elem_type(), c.label() + ": scan output type");
        bool known = decl.tensor_type().has_shape();
        for (const auto& dim : decl.tensor_type().shape().dim())
          known = known && dim.has_dim_value();
        if (known)
          for (const auto& dim : decl.tensor_type().shape().dim()) shape.push_back(dim.dim_value());
      }
      result.emplace_back(Tensor::zeros(d, shape));
    } else {
      const DataType d = scans[k][0].dtype();
      result.emplace_back(ops::ConcatFromSequence(Sequence(d, scans[k]), 0, 1));
    }
  }
  return result;
}

std::vector<Value> run_scan(const KernelCall& c) {
  // Scan-9: "It takes as input the current values of the state_variables and the current
  //  iterated element of the scan_inputs. It must return the (updated) values of the
  //  state_variables and zero or more scan_output_element tensors."
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  const auto m = static_cast<size_t>(c.attr_int("num_scan_inputs", std::nullopt));
  if (m > c.in.size())
    throw Error(ErrorCode::invalid_model, c.label() + ": num_scan_inputs " + std::to_string(m) +
                                              " exceeds its " + std::to_string(c.in.size()) +
                                              " inputs");
  const size_t n = c.in.size() - m;
  if (static_cast<size_t>(bg.input_size()) != n + m)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.input_size()) +
                    " inputs, expected " + std::to_string(n) + " state variables + " +
                    std::to_string(m) + " scan inputs");
  if (static_cast<size_t>(bg.output_size()) < n)
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the body has " + std::to_string(bg.output_size()) +
                    " outputs, fewer than its " + std::to_string(n) + " state variables");
  const size_t k_out = static_cast<size_t>(bg.output_size()) - n;
  const auto in_axes = scan_flags(c, "scan_input_axes", m, 0);
  const auto in_dirs = scan_flags(c, "scan_input_directions", m, 0);
  const auto out_axes = scan_flags(c, "scan_output_axes", k_out, 0);
  const auto out_dirs = scan_flags(c, "scan_output_directions", k_out, 0);

  std::vector<Value> state;
  for (size_t i = 0; i < n; ++i) state.push_back(Value(c.tensor(i)));
  std::vector<int64_t> axes(m);
  std::optional<int64_t> length;
  for (size_t j = 0; j < m; ++j) {
    const Tensor& x = c.tensor(n + j);
    axes[j] = scan_axis(c, "scan_input_axes entry", in_axes[j], x.shape().size());
    const int64_t l = x.shape()[static_cast<size_t>(axes[j])];
    // Scan's pseudo-code: "scan_i.shape[axis_i] is required to be equal to scan_j.shape[axis_j]
    //  for all i,j."
    if (length && *length != l)
      throw Error(ErrorCode::shape_mismatch,
                  c.label() + ": scan input " + std::to_string(j) + " has " + std::to_string(l) +
                      " elements on its scan axis, scan input 0 has " + std::to_string(*length));
    length = l;
  }
  const int64_t iterations = length.value_or(0);
  std::vector<std::vector<Tensor>> scans(k_out);
  for (int64_t i = 0; i < iterations; ++i) {
    count_body_run(c);
    std::vector<Value> args = state;
    for (size_t j = 0; j < m; ++j) {
      // scan_input_directions: "0 indicates forward direction and 1 indicates reverse
      //  direction". "the iterated element passed to the body subgraph does not have a sequence
      //  axis".
      const int64_t at = in_dirs[j] == 1 ? iterations - 1 - i : i;
      args.emplace_back(support::Gather(c.tensor(n + j),
                                        Tensor::from_values<DataType::int64>({}, {at}), axes[j]));
    }
    std::vector<Value> out = body.run(args, &c.scope, c.ctx);
    for (size_t s = 0; s < n; ++s) state[s] = out[s];
    for (size_t k = 0; k < k_out; ++k) {
      const Tensor& t = out[n + k].tensor(c.label() + ": scan output " + std::to_string(k));
      // body: "It is an error if the dimensions of these values change across loop iterations."
      if (!scans[k].empty() && t.shape() != scans[k][0].shape())
        throw Error(ErrorCode::shape_mismatch, c.label() + ": scan output " + std::to_string(k) +
                                                   " is " + t.describe() + " in iteration " +
                                                   std::to_string(i) + " but was " +
                                                   scans[k][0].describe() + " in iteration 0");
      scans[k].push_back(t);
    }
  }
  std::vector<Value> result = std::move(state);
  for (size_t k = 0; k < k_out; ++k) {
    if (scans[k].empty())
      throw Error(ErrorCode::not_supported,
                  c.label() + ": a Scan of no iteration: the shape of scan output " +
                      std::to_string(k) + " is not derived by the reference");
    // scan_output_directions: "0 indicates appending and 1 indicates prepending"; the elements
    // are accumulated along scan_output_axes (a new axis of the output, of rank r + 1).
    if (out_dirs[k] == 1) std::reverse(scans[k].begin(), scans[k].end());
    const int64_t axis =
        scan_axis(c, "scan_output_axes entry", out_axes[k], scans[k][0].shape().size() + 1);
    const DataType d = scans[k][0].dtype();
    result.emplace_back(ops::ConcatFromSequence(Sequence(d, scans[k]), axis, 1));
  }
  return result;
}

std::vector<Value> run_if(const KernelCall& c) {
  const bool cond = read_bool_scalar(c.tensor(0), c.label() + ": cond");
  const GraphProgram& branch = subgraph(c, cond ? "then_branch" : "else_branch");
  if (branch.graph().input_size() != 0)
    throw Error(ErrorCode::invalid_model, c.label() + ": a branch graph has inputs");
  std::vector<Value> out = branch.run({}, &c.scope, c.ctx);
  if (out.size() != static_cast<size_t>(c.node.output_size()))
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the branch has " + std::to_string(out.size()) +
                    " outputs, the node " + std::to_string(c.node.output_size()));
  return out;
}

std::vector<Value> run_sequence_map(const KernelCall& c) {
  const GraphProgram& body = subgraph(c, "body");
  const auto& bg = body.graph();
  // Clause SequenceMap.arity.
  if (bg.output_size() != c.node.output_size())
    throw Error(ErrorCode::body_arity_mismatch,
                c.label() + ": the node has " + std::to_string(c.node.output_size()) +
                    " outputs but the body has " + std::to_string(bg.output_size()));
  ops::SequenceMapBody fn;
  fn.num_inputs = static_cast<size_t>(bg.input_size());
  for (const auto& o : bg.output()) {
    if (!o.type().has_tensor_type())
      throw Error(ErrorCode::body_output_type,
                  c.label() + ": body output '" + o.name() + "' is not declared as a tensor");
    fn.output_elem_types.push_back(dtype_from_onnx(o.type().tensor_type().elem_type(),
                                                   c.label() + ": body output '" + o.name() + "'"));
  }
  fn.run = [&](const std::vector<Value>& sample) {
    count_body_run(c);
    return body.run(sample, &c.scope, c.ctx);
  };
  std::vector<Value> additional;
  for (size_t i = 1; i < c.in.size(); ++i) additional.push_back(c.value(i));
  std::vector<Sequence> seqs = ops::SequenceMap(c.sequence(0), additional, fn, c.ctx);
  return {seqs.begin(), seqs.end()};
}

}  // namespace detail

}  // namespace seqconf::interp
