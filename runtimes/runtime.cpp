#include "runtimes/runtime.h"

#include <atomic>

namespace seqconf {

namespace {
std::atomic<bool (*)()> g_interrupt_check{nullptr};
}  // namespace

void set_interrupt_check(bool (*check)()) { g_interrupt_check.store(check); }

bool interrupt_requested() {
  bool (*check)() = g_interrupt_check.load();
  return check && check();
}

namespace {

// PreparedModel::bind's default: the values are held and run(inputs) is called each time.
class ValueBoundRun : public BoundRun {
 public:
  ValueBoundRun(PreparedModel& model, std::vector<Value> inputs)
      : model_(model), inputs_(std::move(inputs)) {}

  // The previous run's outputs are released first, as a runtime releases its own.
  RunResult run() override {
    last_.clear();
    RunResult r = model_.run(inputs_);
    if (r.ok) last_ = std::move(r.outputs);
    r.outputs.clear();
    return r;
  }
  std::vector<Value> outputs() override { return last_; }

 private:
  PreparedModel& model_;
  std::vector<Value> inputs_;
  std::vector<Value> last_;
};

}  // namespace

std::unique_ptr<BoundRun> PreparedModel::bind(const std::vector<Value>& inputs) {
  return std::make_unique<ValueBoundRun>(*this, inputs);
}

std::vector<RunResult> PreparedModel::run_many(const std::vector<std::vector<Value>>& input_sets) {
  std::vector<RunResult> results;
  results.reserve(input_sets.size());
  for (const auto& inputs : input_sets) results.push_back(run(inputs));
  return results;
}

std::string_view run_error_kind_name(RunError::Kind kind) {
  switch (kind) {
    case RunError::Kind::not_supported:
      return "not_supported";
    case RunError::Kind::invalid_input:
      return "invalid_input";
    case RunError::Kind::internal:
      return "internal";
    case RunError::Kind::crash:
      return "crash";
    case RunError::Kind::timeout:
      return "timeout";
    case RunError::Kind::limit_exceeded:
      return "limit_exceeded";
    case RunError::Kind::tool_failed:
      return "tool_failed";
    case RunError::Kind::tool_crash:
      return "tool_crash";
    case RunError::Kind::tool_timeout:
      return "tool_timeout";
    case RunError::Kind::tool_invalid_model:
      return "tool_invalid_model";
    case RunError::Kind::tool_lost_type:
      return "tool_lost_type";
    case RunError::Kind::answer_unreadable:
      return "answer_unreadable";
  }
  return "internal";
}

}  // namespace seqconf
