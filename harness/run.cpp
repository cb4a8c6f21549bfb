#include "harness/run.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <ostream>
#include <thread>
#include <vector>

#include "harness/static_checks.h"
#include "reference/error.h"

namespace seqconf {

uint64_t fnv1a64(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

bool Shard::contains(std::string_view case_id) const {
  return static_cast<int>(fnv1a64(case_id) % static_cast<uint64_t>(count)) == index - 1;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  try {
    size_t used = 0;
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("index");
    const std::string n = text.substr(slash + 1);
    s.count = std::stoi(n, &used);
    if (used != n.size()) throw std::invalid_argument("count");
  } catch (const std::exception&) {
    throw Error(ErrorCode::invalid_argument, "--shard " + text + ": expected I/N, e.g. 1/4");
  }
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw Error(ErrorCode::invalid_argument,
                "--shard " + text + ": I must be in [1, N] and N at least 1");
  return s;
}

namespace {
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  if (g_stop_signal.exchange(sig) != 0) {
    // Second signal: give up waiting for the cases in flight.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}
}  // namespace

void install_stop_handlers() {
  // Waits for a runtime's process end when a stop is requested (runtimes/runtime.h).
  set_interrupt_check(&stop_requested);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool stop_requested() { return g_stop_signal.load() != 0; }
int stop_signal() { return g_stop_signal.load(); }
void request_stop() {
  int expected = 0;
  g_stop_signal.compare_exchange_strong(expected, SIGINT);
}

void clear_stop_request() { g_stop_signal.store(0); }

size_t run_indices(size_t count, int jobs,
                   const std::function<void(int worker, size_t index)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<size_t> started{0};
  const auto loop = [&](int worker) {
    for (;;) {
      if (stop_requested()) return;
      const size_t i = next.fetch_add(1);
      if (i >= count) return;
      started.fetch_add(1);
      work(worker, i);
    }
  };
  if (jobs <= 1) {
    loop(0);
  } else {
    std::vector<std::thread> threads;
    for (int w = 0; w < jobs; ++w) threads.emplace_back(loop, w);
    for (auto& t : threads) t.join();
  }
  return started.load();
}

Progress::Progress(size_t total, std::ostream& out)
    : out_(out), total_(total), tty_(::isatty(STDERR_FILENO) == 1) {}
Progress::~Progress() { finish(); }

void Progress::done(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (!tty_) return;
  std::string line =
      "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + terminal_safe(id);
  if (line.size() > 110) line = line.substr(0, 107) + "...";
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::print(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
  out_ << line << std::endl;
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

std::vector<std::optional<Outcome>> run_cases(
    const std::vector<Case>& cases, const std::vector<Runtime*>& runtimes,
    const RunOptions& options, const std::function<void(const Outcome&)>& on_outcome) {
  if (runtimes.empty()) throw Error(ErrorCode::invalid_argument, "run_cases: no runtime");
  std::vector<std::optional<Outcome>> slots(cases.size());
  // One static-check sandbox per worker thread.
  std::vector<std::unique_ptr<StaticCheckSandbox>> sandboxes;
  if (options.static_checks)
    for (size_t w = 0; w < runtimes.size(); ++w)
      sandboxes.push_back(std::make_unique<StaticCheckSandbox>());
  run_indices(cases.size(), static_cast<int>(runtimes.size()), [&](int worker, size_t i) {
    const auto w = static_cast<size_t>(worker);
    Outcome o =
        run_case(cases[i], *runtimes[w], options, sandboxes.empty() ? nullptr : sandboxes[w].get());
    if (stop_requested() && (o.status == Status::crash || o.status == Status::timeout)) return;
    if (on_outcome) on_outcome(o);
    slots[i] = std::move(o);
  });
  return slots;
}

}  // namespace seqconf
