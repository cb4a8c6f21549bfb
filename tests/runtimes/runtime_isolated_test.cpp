// Isolation: a runtime that crashes or hangs ends in a crash / timeout outcome and the run goes
// on; values survive the trip over the pipe unchanged.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "reference/error.h"
#include "runtimes/isolated.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_util.h"

namespace seqconf::testing {
namespace {

enum class Behaviour { echo, segfault, abort_, hang, exit_early, crash_in_prepare, tell_limit };

// A runtime for tests only: returns its inputs as outputs, or misbehaves as told.
class TestRuntime : public Runtime {
 public:
  explicit TestRuntime(Behaviour b) : b_(b) {}
  std::string name() const override { return "test"; }
  std::string version() const override { return "0"; }
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{"isolated_test.behaviour", std::to_string(static_cast<int>(b_))};
  }

  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path&, const onnx::ModelProto&,
                                         RunError*) override {
    if (b_ == Behaviour::crash_in_prepare) ::raise(SIGSEGV);
    return std::make_unique<Model>(b_);
  }

 private:
  class Model : public PreparedModel {
   public:
    explicit Model(Behaviour b) : b_(b) {}
    RunResult run(const std::vector<Value>& inputs) override {
      switch (b_) {
        case Behaviour::segfault:
          ::raise(SIGSEGV);
          break;
        case Behaviour::abort_:
          ::abort();
        case Behaviour::hang:
          std::this_thread::sleep_for(std::chrono::hours(1));
          break;
        case Behaviour::exit_early:
          ::_exit(3);
        case Behaviour::tell_limit: {  // the size limit in force where the model runs
          RunResult r;
          r.ok = true;
          r.outputs = {
              Tensor::from_values<DataType::int64>({}, {static_cast<int64_t>(max_tensor_bytes())})};
          return r;
        }
        default:
          break;
      }
      RunResult r;
      r.ok = true;
      r.outputs = inputs;
      r.ambiguities.push_back({"position_shape_1", "SequenceInsert", "sentence", "detail"});
      return r;
    }

   private:
    Behaviour b_;
  };
  Behaviour b_;
};

const WorkerKind kBehaviourWorker("isolated_test.behaviour", [](const std::string& b) {
  return serve_runtime(std::make_shared<TestRuntime>(static_cast<Behaviour>(std::stoi(b))));
});

IsolationOptions within(int timeout_ms) {
  IsolationOptions o;
  o.timeout_ms = timeout_ms;
  return o;
}

RunResult run_isolated(Behaviour b, const std::vector<Value>& inputs, int timeout_ms = 5000,
                       RunError* prepare_error = nullptr) {
  auto rt = make_isolated_runtime(std::make_shared<TestRuntime>(b), within(timeout_ms));
  RunError error;
  auto model = rt->prepare({}, onnx::ModelProto(), &error);
  if (!model) {
    if (prepare_error) *prepare_error = error;
    return {false, {}, error, {}, {}, {}};
  }
  return model->run(inputs);
}

TEST(Isolated, TheWorkerRunsUnderTheSizeLimitOfItsOptions) {
  // The worker is another process: the limit reaches it through IsolationOptions, not through the
  // limit of the thread that asks.
  const TensorLimit asker(100);
  for (const size_t limit : {size_t{4096}, kDefaultMaxTensorBytes}) {
    IsolationOptions options;
    options.max_tensor_bytes = limit;
    auto rt = make_isolated_runtime(std::make_shared<TestRuntime>(Behaviour::tell_limit), options);
    RunError error;
    auto model = rt->prepare({}, onnx::ModelProto(), &error);
    ASSERT_TRUE(model) << error.message;
    const RunResult r = model->run({});
    ASSERT_TRUE(r.ok) << r.error.message;
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].tensor().int_at(0), static_cast<int64_t>(limit));
  }
}

TEST(Isolated, ValuesComeBackUnchanged) {
  const std::vector<Value> inputs = {
      make_tensor(DataType::float16, {2, 3}, 4),
      Sequence(DataType::string,
               {Tensor::from_strings({2}, {"a", ""}), make_tensor(DataType::string, {0})}),
      Sequence(DataType::complex128),  // empty: keeps its element type
      make_optional(Value(make_tensor(DataType::int8, {}))),
      Optional{true, DataType::uint16, nullptr},
  };
  const RunResult r = run_isolated(Behaviour::echo, inputs);
  ASSERT_TRUE(r.ok) << r.error.message;
  ASSERT_EQ(r.outputs.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    EXPECT_TRUE(r.outputs[i].identical(inputs[i])) << i << ": " << r.outputs[i].describe();
  ASSERT_EQ(r.ambiguities.size(), 1u);
  EXPECT_EQ(r.ambiguities[0].id, "position_shape_1");
}

TEST(Isolated, SegfaultIsACrashNamingTheSignal) {
  const RunResult r = run_isolated(Behaviour::segfault, {iota_f32({2})});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("SIGSEGV"), std::string::npos) << r.error.message;
}

TEST(Isolated, AbortIsACrash) {
  const RunResult r = run_isolated(Behaviour::abort_, {});
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("SIGABRT"), std::string::npos) << r.error.message;
}

TEST(Isolated, ExitWithoutAnswerIsACrash) {
  const RunResult r = run_isolated(Behaviour::exit_early, {});
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("status 3"), std::string::npos) << r.error.message;
}

TEST(Isolated, CrashWhilePreparingIsReportedByPrepare) {
  RunError error;
  run_isolated(Behaviour::crash_in_prepare, {}, 5000, &error);
  EXPECT_EQ(error.kind, RunError::Kind::crash);
  EXPECT_NE(error.message.find("SIGSEGV"), std::string::npos) << error.message;
}

TEST(Isolated, HangIsATimeoutAndTheChildIsKilled) {
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run_isolated(Behaviour::hang, {}, 300);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(r.error.kind, RunError::Kind::timeout);
  EXPECT_LT(ms, 5000);
  EXPECT_GE(ms, 300);
}

// The run goes on: a crash, a hang, then a healthy case on the same process.
TEST(Isolated, TheRunGoesOnAfterCrashAndTimeout) {
  std::vector<RunError::Kind> kinds;
  for (Behaviour b : {Behaviour::segfault, Behaviour::hang, Behaviour::echo}) {
    const RunResult r = run_isolated(b, {i64(7)}, 300);
    kinds.push_back(r.ok ? RunError::Kind::internal : r.error.kind);
    if (b == Behaviour::echo) {
      ASSERT_TRUE(r.ok) << r.error.message;
      EXPECT_TRUE(r.outputs.at(0).identical(i64(7)));
    }
  }
  EXPECT_EQ(kinds[0], RunError::Kind::crash);
  EXPECT_EQ(kinds[1], RunError::Kind::timeout);
}

// A runtime whose models behave as their graph's name says: "pid" returns the id of the
// process that runs it, "segfault" crashes, "complain" writes to stderr and aborts, anything
// else echoes its inputs.
class ByNameRuntime : public Runtime {
 public:
  std::string name() const override { return "by-name"; }
  std::string version() const override { return "0"; }
  std::optional<WorkerRecipe> recipe() const override {
    return WorkerRecipe{"isolated_test.by_name", ""};
  }
  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path&,
                                         const onnx::ModelProto& model, RunError*) override {
    return std::make_unique<Model>(model.graph().name());
  }

 private:
  class Model : public PreparedModel {
   public:
    explicit Model(std::string behaviour) : behaviour_(std::move(behaviour)) {}
    RunResult run(const std::vector<Value>& inputs) override {
      static int runs_in_this_process = 0;
      if (behaviour_ == "segfault_unless_first" && runs_in_this_process > 0) ::raise(SIGSEGV);
      ++runs_in_this_process;
      if (behaviour_.rfind("log_segfault:", 0) == 0) {
        std::ofstream(behaviour_.substr(13), std::ios::app) << "run\n";
        ::raise(SIGSEGV);
      }
      if (behaviour_ == "segfault") ::raise(SIGSEGV);
      if (behaviour_ == "complain") {
        std::fputs("starting\nkernel: invariant broken\n", stderr);
        std::fflush(stderr);
        ::abort();
      }
      RunResult r;
      r.ok = true;
      r.outputs = behaviour_ == "pid" ? std::vector<Value>{i64(::getpid())} : inputs;
      return r;
    }

   private:
    std::string behaviour_;
  };
};

const WorkerKind kByNameWorker("isolated_test.by_name", [](const std::string&) {
  return serve_runtime(std::make_shared<ByNameRuntime>());
});

onnx::ModelProto named_model(const std::string& name) {
  onnx::ModelProto m;
  m.mutable_graph()->set_name(name);
  return m;
}

int64_t pid_of(PreparedModel& model) {
  const RunResult r = model.run({});
  EXPECT_TRUE(r.ok) << r.error.message;
  return r.ok ? r.outputs.at(0).tensor().int_at(0) : -1;
}

// One worker process prepares and runs many models: no new process per run.
TEST(Isolated, OneWorkerServesManyModels) {
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  std::vector<std::unique_ptr<PreparedModel>> models;
  for (int i = 0; i < 5; ++i) {
    models.push_back(rt->prepare({}, named_model("pid"), &error));
    ASSERT_TRUE(models.back()) << error.message;
  }
  const int64_t worker = pid_of(*models[0]);
  EXPECT_NE(worker, static_cast<int64_t>(::getpid()));
  for (auto& m : models)
    for (int run = 0; run < 3; ++run) EXPECT_EQ(pid_of(*m), worker);
}

// After a crash a new worker takes over; a model prepared in the old worker is prepared again
// in the new one and runs.
TEST(Isolated, ModelsPreparedBeforeACrashRunInTheNewWorker) {
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  auto before = rt->prepare({}, named_model("pid"), &error);
  auto crashing = rt->prepare({}, named_model("segfault"), &error);
  ASSERT_TRUE(before && crashing) << error.message;
  const int64_t first = pid_of(*before);
  const RunResult r = crashing->run({i64(1)});
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("SIGSEGV"), std::string::npos) << r.error.message;
  const int64_t second = pid_of(*before);
  EXPECT_GT(second, 0);
  EXPECT_NE(second, first);
  auto after = rt->prepare({}, named_model("echo"), &error);
  ASSERT_TRUE(after) << error.message;
  const RunResult echoed = after->run({i64(9)});
  ASSERT_TRUE(echoed.ok) << echoed.error.message;
  EXPECT_TRUE(echoed.outputs.at(0).identical(i64(9)));
}

const WorkerKind kEchoWorker("isolated_test.echo", [](const std::string&) {
  return [](const std::string& r) { return std::optional<std::string>(r); };
});

// A worker first asked for by a thread that then ends (the static checks run beside each case on
// a thread of their own) serves the next request from another thread: the worker's parent-death
// signal is tied to the thread that started it, which must outlive the requests.
TEST(WorkerProcess, OutlivesTheThreadThatFirstCalledIt) {
  WorkerProcess worker(WorkerRecipe{"isolated_test.echo", ""}, {});
  WorkerProcess::Answer first;
  std::thread([&] { first = worker.call("echo", "one"); }).join();
  ASSERT_TRUE(first.ok) << first.error.message;
  const uint64_t generation = worker.generation();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const WorkerProcess::Answer second = worker.call("echo", "two");
  ASSERT_TRUE(second.ok) << second.error.message;
  EXPECT_EQ(second.bytes, "two");
  EXPECT_EQ(worker.generation(), generation) << "the worker was started anew";
}

// A worker that answers "sleep MS" after that many milliseconds, and anything else at once.
const WorkerKind kSleepingWorker("isolated_test.sleeping", [](const std::string&) {
  return [](const std::string& r) {
    if (r.rfind("sleep ", 0) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(r.substr(6))));
    return std::optional<std::string>(r);
  };
});

// send() and receive() are call() in two halves, and the caller may work in between (run_case
// runs the case while the sandbox checks it): an answer that came within the time limit is read
// even when receive() is called after the limit has passed.
TEST(WorkerProcess, AnAnswerThatCameInTimeIsReadAfterTheCallerWasBusy) {
  WorkerProcess worker(WorkerRecipe{"isolated_test.sleeping", ""}, within(300));
  worker.start();
  const uint64_t generation = worker.generation();
  worker.send("echo", "one");
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  const WorkerProcess::Answer a = worker.receive();
  ASSERT_TRUE(a.ok) << a.error.message;
  EXPECT_EQ(a.bytes, "one");
  const WorkerProcess::Answer b = worker.call("echo", "two");
  ASSERT_TRUE(b.ok) << b.error.message;
  EXPECT_EQ(b.bytes, "two");
  EXPECT_EQ(worker.generation(), generation) << "the worker was started anew";
}

// The time limit counts from send(): a worker that does not answer within it is killed, and the
// next request starts a new one.
TEST(WorkerProcess, TheTimeLimitCountsFromSend) {
  WorkerProcess worker(WorkerRecipe{"isolated_test.sleeping", ""}, within(300));
  worker.start();
  const uint64_t generation = worker.generation();
  const auto t0 = std::chrono::steady_clock::now();
  worker.send("sleep", "sleep 5000");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const WorkerProcess::Answer a = worker.receive();
  const auto waited = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(a.ok);
  EXPECT_EQ(a.error.kind, RunError::Kind::timeout) << a.error.message;
  EXPECT_LT(waited, std::chrono::milliseconds(3000)) << "receive() waited for the worker";
  const WorkerProcess::Answer b = worker.call("echo", "again");
  ASSERT_TRUE(b.ok) << b.error.message;
  EXPECT_EQ(b.bytes, "again");
  EXPECT_NE(worker.generation(), generation);
}

// The worker is this program started again with the worker flag (exec), not a fork of it.
TEST(WorkerProcess, IsThisProgramExecutedAgain) {
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  auto model = rt->prepare({}, named_model("pid"), &error);
  ASSERT_TRUE(model) << error.message;
  const int64_t pid = pid_of(*model);
  ASSERT_GT(pid, 0);
  EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe"),
            std::filesystem::read_symlink("/proc/self/exe"));
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
  std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  EXPECT_NE(cmdline.find(" --seqconf-worker isolated_test.by_name "), std::string::npos) << cmdline;
}

// A worker whose kind this program does not register says so, as a crash of the worker.
TEST(WorkerProcess, AnUnknownKindIsACrashThatSaysSo) {
  WorkerProcess worker(WorkerRecipe{"isolated_test.no_such_kind", ""}, within(5000));
  const WorkerProcess::Answer a = worker.call("echo", "one");
  ASSERT_FALSE(a.ok);
  EXPECT_EQ(a.error.kind, RunError::Kind::crash);
  EXPECT_NE(a.error.message.find("no worker kind 'isolated_test.no_such_kind'"), std::string::npos)
      << a.error.message;
}

// A runtime that cannot be made again in another process cannot be isolated, and says why.
TEST(Isolated, ARuntimeWithoutARecipeIsRefused) {
  class NoRecipe : public ByNameRuntime {
    std::optional<WorkerRecipe> recipe() const override { return std::nullopt; }
  };
  try {
    make_isolated_runtime(std::make_shared<NoRecipe>());
    FAIL() << "isolated without a recipe";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("no recipe"), std::string::npos) << e.what();
  }
  IsolationOptions given;
  given.recipe = WorkerRecipe{"isolated_test.by_name", ""};
  auto rt = make_isolated_runtime(std::make_shared<NoRecipe>(), given);
  RunError error;
  auto model = rt->prepare({}, named_model("pid"), &error);
  ASSERT_TRUE(model) << error.message;
  EXPECT_NE(pid_of(*model), static_cast<int64_t>(::getpid()));
}

// Workers started while other threads of this process hold a lock and keep the allocator busy
// never start with that lock held. The worker's handler takes the same lock (as a runtime takes
// the allocator's, protobuf's or the loader's): a worker forked (without exec) while a busy
// thread held it would wait for it forever, and the call would time out.
std::mutex g_busy;

const WorkerKind kLockingWorker("isolated_test.locking", [](const std::string&) {
  return [](const std::string& r) {
    std::lock_guard<std::mutex> lock(g_busy);
    return std::optional<std::string>(std::string(r) + std::string(1000, 'x'));
  };
});

TEST(WorkerProcess, AThousandStartsBesideBusyThreadsNeverHang) {
  // A worker's start costs about ten times as much under the sanitizers (tools/sanitize.sh sets
  // SEQCONF_SANITIZED; 1,000 took 139 s under ASan): 400 there.
  const int starts = std::getenv("SEQCONF_SANITIZED") ? 400 : 1000;
  std::atomic<bool> done{false};
  std::vector<std::thread> busy;
  for (int t = 0; t < 3; ++t)
    busy.emplace_back([&done] {
      while (!done) {
        std::lock_guard<std::mutex> lock(g_busy);
        std::vector<std::unique_ptr<std::string>> blocks;
        for (int i = 0; i < 64; ++i) blocks.push_back(std::make_unique<std::string>(100 + i, 'b'));
      }
    });
  int answered = 0, timeouts = 0, other = 0;
  std::string first_error;
  for (int i = 0; i < starts; ++i) {
    WorkerProcess worker(WorkerRecipe{"isolated_test.locking", ""}, within(10000));
    const WorkerProcess::Answer a = worker.call("echo", std::to_string(i));
    if (a.ok && a.bytes == std::to_string(i) + std::string(1000, 'x')) {
      ++answered;
      continue;
    }
    (a.error.kind == RunError::Kind::timeout ? timeouts : other)++;
    if (first_error.empty()) first_error = a.error.message;
  }
  done = true;
  for (auto& t : busy) t.join();
  EXPECT_EQ(answered, starts) << timeouts << " timeouts, " << other
                              << " other failures; first: " << first_error;
}

// A crash that depends on what the worker ran before is not reported: it is run again on a new
// worker that has prepared only its model, where this one passes.
TEST(Isolated, ACrashIsConfirmedOnANewWorker) {
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  auto first = rt->prepare({}, named_model("echo"), &error);
  auto second = rt->prepare({}, named_model("segfault_unless_first"), &error);
  ASSERT_TRUE(first && second) << error.message;
  ASSERT_TRUE(first->run({i64(1)}).ok);
  const RunResult r = second->run({i64(2)});
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_TRUE(r.outputs.at(0).identical(i64(2)));
}

// A crash on a worker that has done nothing but prepare the model is confirmed already: the
// model runs once, not twice.
TEST(Isolated, ACrashOnAFreshWorkerRunsOnce) {
  const std::filesystem::path log =
      std::filesystem::temp_directory_path() / ("seqconf-isolated-" + std::to_string(::getpid()));
  std::filesystem::remove(log);
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  auto model = rt->prepare({}, named_model("log_segfault:" + log.string()), &error);
  ASSERT_TRUE(model) << error.message;
  for (int k = 1; k <= 2; ++k) {
    const RunResult r = model->run({});
    EXPECT_EQ(r.error.kind, RunError::Kind::crash);
    std::ifstream in(log);
    const std::string runs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(runs, k == 1 ? "run\n" : "run\nrun\n") << "after " << k << " run(s)";
  }
  std::filesystem::remove(log);
}

// A crash message quotes the last line the worker wrote to stderr (the runtime's own words).
TEST(Isolated, CrashMessageQuotesTheLastLineOnStderr) {
  auto rt = make_isolated_runtime(std::make_shared<ByNameRuntime>(), within(5000));
  RunError error;
  auto model = rt->prepare({}, named_model("complain"), &error);
  ASSERT_TRUE(model) << error.message;
  const RunResult r = model->run({});
  EXPECT_EQ(r.error.kind, RunError::Kind::crash);
  EXPECT_NE(r.error.message.find("SIGABRT"), std::string::npos) << r.error.message;
  EXPECT_NE(r.error.message.find("stderr: kernel: invariant broken"), std::string::npos)
      << r.error.message;
  EXPECT_EQ(r.error.message.find("starting"), std::string::npos) << r.error.message;
}

}  // namespace
}  // namespace seqconf::testing
