#include "difffuzz/batch.h"

#include <string>

namespace seqconf::difffuzz {

namespace {

void prefix_name(std::string* name, const std::string& prefix) {
  // An empty name is an absent optional input (ONNX IR), not a value.
  if (!name->empty()) name->insert(0, prefix);
}

// Every value name of the graph and of its subgraphs, prefixed alike.
void prefix_names(onnx::GraphProto& g, const std::string& prefix) {
  for (auto& v : *g.mutable_input()) prefix_name(v.mutable_name(), prefix);
  for (auto& v : *g.mutable_output()) prefix_name(v.mutable_name(), prefix);
  for (auto& v : *g.mutable_value_info()) prefix_name(v.mutable_name(), prefix);
  for (auto& t : *g.mutable_initializer()) prefix_name(t.mutable_name(), prefix);
  for (auto& n : *g.mutable_node()) {
    for (auto& name : *n.mutable_input()) prefix_name(&name, prefix);
    for (auto& name : *n.mutable_output()) prefix_name(&name, prefix);
    prefix_name(n.mutable_name(), prefix);
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) prefix_names(*a.mutable_g(), prefix);
      for (auto& sub : *a.mutable_graphs()) prefix_names(sub, prefix);
    }
  }
}

}  // namespace

PackedPrograms pack(const std::vector<const BuiltProgram*>& programs) {
  PackedPrograms p;
  BuiltProgram& out = p.built;
  onnx::ModelProto model = *programs.front()->model;
  onnx::GraphProto& g = *model.mutable_graph();
  g.clear_input();
  g.clear_output();
  g.clear_initializer();
  g.clear_node();
  g.clear_value_info();
  g.set_name("fuzz_batch");
  p.output_offset.push_back(0);
  for (size_t k = 0; k < programs.size(); ++k) {
    const BuiltProgram& b = *programs[k];
    const std::string prefix = "p" + std::to_string(k) + "_";
    onnx::GraphProto one = b.model->graph();
    prefix_names(one, prefix);
    g.mutable_input()->MergeFrom(one.input());
    g.mutable_output()->MergeFrom(one.output());
    g.mutable_initializer()->MergeFrom(one.initializer());
    g.mutable_node()->MergeFrom(one.node());
    for (const std::string& name : b.input_names) out.input_names.push_back(prefix + name);
    out.inputs.insert(out.inputs.end(), b.inputs.begin(), b.inputs.end());
    for (const std::string& name : b.output_names) out.output_names.push_back(prefix + name);
    out.output_ops.insert(out.output_ops.end(), b.output_ops.begin(), b.output_ops.end());
    out.node_ops.insert(out.node_ops.end(), b.node_ops.begin(), b.node_ops.end());
    out.node_count += b.node_count;
    p.output_offset.push_back(out.output_names.size());
  }
  out.model = std::make_shared<const onnx::ModelProto>(std::move(model));
  return p;
}

std::vector<std::vector<Slot*>> batch_groups(const std::vector<Slot*>& slots, size_t max_batch,
                                             size_t max_batch_nodes) {
  std::vector<std::vector<Slot*>> groups;
  std::vector<Slot*> open;
  size_t open_nodes = 0;
  for (Slot* s : slots) {
    if (max_batch <= 1 || !s->reference.ok) {
      groups.push_back({s});
      continue;
    }
    if (!open.empty() &&
        (open.size() >= max_batch || open_nodes + s->built.node_count > max_batch_nodes)) {
      groups.push_back(std::move(open));
      open.clear();
      open_nodes = 0;
    }
    open.push_back(s);
    open_nodes += s->built.node_count;
  }
  if (!open.empty()) groups.push_back(std::move(open));
  return groups;
}

void evaluate_group(const std::vector<Slot*>& group, Runtime& runtime, BatchCounts* counts,
                    std::string_view oracle) {
  if (group.empty()) return;
  if (group.size() == 1) {
    Slot& s = *group.front();
    ++counts->sessions;
    s.evaluation = judge(s.built, s.reference, run_on(runtime, s.built), oracle);
    return;
  }
  std::vector<const BuiltProgram*> built;
  for (const Slot* s : group) built.push_back(&s->built);
  const PackedPrograms packed = pack(built);
  ++counts->sessions;
  ++counts->batches;
  RunResult together = run_on(runtime, packed.built);
  if (together.ok && together.outputs.size() == packed.built.output_names.size()) {
    for (size_t k = 0; k < group.size(); ++k) {
      Slot& s = *group[k];
      RunResult mine;
      mine.ok = true;
      mine.outputs.assign(
          std::make_move_iterator(together.outputs.begin() +
                                  static_cast<std::ptrdiff_t>(packed.output_offset[k])),
          std::make_move_iterator(together.outputs.begin() +
                                  static_cast<std::ptrdiff_t>(packed.output_offset[k + 1])));
      Evaluation e = judge(s.built, s.reference, std::move(mine), oracle);
      if (e.verdict == Verdict::agree_outputs) {
        s.evaluation = std::move(e);
        ++counts->batched_programs;
      } else {
        // Only agreement is taken from a batch: anything else is the program's own result.
        evaluate_group({&s}, runtime, counts, oracle);
      }
    }
    return;
  }
  ++counts->splits;
  const auto half = group.begin() + static_cast<std::ptrdiff_t>(group.size() / 2);
  evaluate_group(std::vector<Slot*>(group.begin(), half), runtime, counts, oracle);
  evaluate_group(std::vector<Slot*>(half, group.end()), runtime, counts, oracle);
}

}  // namespace seqconf::difffuzz
