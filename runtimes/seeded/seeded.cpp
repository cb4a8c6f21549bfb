#include "runtimes/seeded/seeded.h"

#include "reference/error.h"
#include "runtimes/host.h"
#include "runtimes/isolated.h"
#include "runtimes/reference_runtime.h"

namespace seqconf::seeded {

const std::vector<Defect>& defects() {
  static const std::vector<Defect> all = [] {
    std::vector<Defect> v;
    for (auto part : {sequence_at_defects, sequence_erase_defects, sequence_insert_defects,
                      sequence_map_defects, split_to_sequence_defects, concat_from_sequence_defects,
                      sequence_construct_defects, sequence_empty_defects, sequence_length_defects,
                      value_defects, bits_defects})
      for (Defect& d : part()) v.push_back(std::move(d));
    return v;
  }();
  return all;
}

const Defect& defect(const std::string& id) {
  std::string ids;
  for (const Defect& d : defects()) {
    if (d.id == id) return d;
    ids += (ids.empty() ? "" : ", ") + d.id;
  }
  throw Error(ErrorCode::invalid_argument,
              "unknown seeded defect '" + id + "' (known: " + ids + ")");
}

bool is(const interp::NodeCall& call, const char* op) { return call.node.op_type() == op; }

bool is_on_sequence(const interp::NodeCall& call, const char* op) {
  return is(call, op) && !call.inputs.empty() && call.inputs[0] && call.inputs[0]->is_sequence();
}

int64_t sequence_length(const interp::NodeCall& call) {
  return static_cast<int64_t>(call.inputs[0]->sequence().size());
}

std::optional<int64_t> first_int(const interp::NodeCall& call, size_t input) {
  if (input >= call.inputs.size() || !call.inputs[input] || !call.inputs[input]->is_tensor())
    return std::nullopt;
  const Tensor& t = call.inputs[input]->tensor();
  if (t.element_count() == 0 || (t.dtype() != DataType::int64 && t.dtype() != DataType::int32))
    return std::nullopt;
  return t.int_at(0);
}

int64_t int_attribute(const interp::NodeCall& call, const std::string& name, int64_t dflt) {
  for (const auto& a : call.node.attribute())
    if (a.name() == name) return a.i();
  return dflt;
}

std::vector<std::optional<Value>> with_input(const interp::NodeCall& call, size_t i,
                                             std::optional<Value> v) {
  std::vector<std::optional<Value>> in = call.inputs;
  if (in.size() <= i) in.resize(i + 1);
  in[i] = std::move(v);
  return in;
}

Tensor scalar(int64_t v) { return Tensor::from_values<DataType::int64>({}, {v}); }

namespace {

// The reference, with the defect's kernel in every evaluation's Context and the host it is given
// for the operators the reference lacks; its worker process makes the same host again, so that it
// runs the exported models the reference judges with that host. Without a host it shares the
// reference's preparation of a model (fuzzing).
class SeededRuntime : public ReferenceRuntime {
 public:
  explicit SeededRuntime(const Defect& d, std::shared_ptr<const interp::HostKernel> host = nullptr)
      : ReferenceRuntime(Policy::lenient, std::make_shared<interp::KernelOverride>(d.kernel),
                         std::move(host)),
        defect_(d) {}
  std::string name() const override { return "seeded=" + defect_.id; }
  std::string location() const override { return defect_.description; }
  bool isolated_by_default() const override { return true; }
  // The defect, then the host (runtimes/host.h: host_argument) the worker makes again.
  std::optional<WorkerRecipe> recipe() const override {
    const std::optional<std::string> host = host_argument(this->host());
    if (!host) return std::nullopt;
    return WorkerRecipe{"seeded", defect_.id + " " + *host};
  }

 private:
  const Defect& defect_;
};

const WorkerKind kSeededWorker("seeded", [](const std::string& argument) {
  const auto space = argument.find(' ');
  return serve_runtime(std::make_shared<SeededRuntime>(
      defect(argument.substr(0, space)),
      host_from_argument(space == std::string::npos ? "no-host" : argument.substr(space + 1))));
});

}  // namespace

std::unique_ptr<Runtime> make_seeded_runtime(const Defect& defect,
                                             std::shared_ptr<const interp::HostKernel> host) {
  return std::make_unique<SeededRuntime>(defect, std::move(host));
}

}  // namespace seqconf::seeded
