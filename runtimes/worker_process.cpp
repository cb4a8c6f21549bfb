// The worker process (WorkerProcess) of an isolated runtime or of the sandboxed static checks:
// started by posix_spawn of this program, spoken to over a socket, its stderr read, killed past
// its time limit, and under valgrind memcheck its memory errors read; and the worker's own side
// (serve_if_worker). See isolated.h.
#include "runtimes/isolated.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "reference/error.h"
#include "runtimes/memcheck.h"
#include "runtimes/worker_protocol.h"

namespace seqconf {

using namespace worker_protocol;

namespace {

// Runs f on a thread that lives as long as the process. A worker's parent-death signal fires
// when the thread that started it ends, not the process: started from a short-lived thread (the
// static checks run beside each case on a thread of their own), the worker would be killed as
// soon as that thread returned, and every later request would pay for a new worker.
template <class F>
auto on_spawner_thread(F f) -> decltype(f()) {
  // Never destroyed: the thread waits on them until the process ends (destroying a condition
  // variable with a waiter blocks exit).
  struct Spawner {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::function<void()>> jobs;
  };
  static Spawner* const spawner = [] {
    auto* s = new Spawner;
    std::thread([s] {
      for (;;) {
        std::unique_lock<std::mutex> lock(s->mu);
        s->cv.wait(lock, [s] { return !s->jobs.empty(); });
        std::function<void()> job = std::move(s->jobs.front());
        s->jobs.pop_front();
        lock.unlock();
        job();
      }
    }).detach();
    return s;
  }();
  std::packaged_task<decltype(f())()> task(std::move(f));
  auto result = task.get_future();
  {
    std::lock_guard<std::mutex> lock(spawner->mu);
    spawner->jobs.emplace_back([&task] { task(); });
  }
  spawner->cv.notify_one();
  return result.get();
}

std::string signal_description(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  return std::string(abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig)) +
         (desc ? std::string(" (") + desc + ")" : std::string());
}

using Clock = std::chrono::steady_clock;

// Milliseconds left before the deadline (-1: no deadline), at most `slice` so that the caller
// can look at the worker between waits.
int wait_ms(const std::optional<Clock::time_point>& deadline, int slice) {
  if (!deadline) return slice;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<decltype(left)>(left, 0, slice));
}

// Blocking frame I/O, for the worker's side.
bool read_exact(int fd, char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = ::read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

bool read_frame(int fd, std::string& out) {
  uint64_t n = 0;
  if (!read_exact(fd, reinterpret_cast<char*>(&n), sizeof n)) return false;
  out.resize(n);
  return read_exact(fd, out.data(), n);
}

void write_frame(int fd, const std::string& payload) {
  std::string frame;
  put(frame, payload);
  size_t done = 0;
  while (done < frame.size()) {
    const ssize_t n = ::send(fd, frame.data() + done, frame.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The worker: answers requests with `handle` until the parent closes the socket. Under memcheck
// it writes a frame with the number of errors memcheck has counted so far once it is ready (its
// runtime made), after each answer (taken once the answer is sent: sending outputs the runtime
// never initialised is an error too), and after each request without an answer.
[[noreturn]] void worker_main(int fd, const WorkerProcess::Handler& handle, bool memcheck) {
  const auto count = [&] {
    if (memcheck) write_frame(fd, std::to_string(memcheck_errors_counted()));
  };
  count();
  std::string request;
  while (read_frame(fd, request)) {
    const std::optional<std::string> answer = handle(request);
    if (answer) write_frame(fd, *answer);
    count();
  }
  ::_exit(0);
}

// How a program is started as a worker: argv[1] is this flag, then the kind, its argument, the
// parent's pid and the size limit, and kMemcheckFlag under memcheck. The socket to the parent
// is descriptor kWorkerFd.
constexpr const char* kWorkerFlag = "--seqconf-worker";
constexpr const char* kMemcheckFlag = "memcheck";
constexpr int kWorkerFd = 3;

std::unordered_map<std::string, WorkerFactory>& worker_kinds() {
  static std::unordered_map<std::string, WorkerFactory> kinds;
  return kinds;
}

// Whether this process was started as a worker (its argv[1] is the worker flag). A worker whose
// main() does not call serve_if_worker runs that main instead; it must not start workers of
// its own, which would do the same again without end.
bool started_as_worker() {
  static const bool worker = [] {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string program, first;
    std::getline(in, program, '\0');
    std::getline(in, first, '\0');
    return first == kWorkerFlag;
  }();
  return worker;
}

// A worker that cannot serve says why on stderr (which the parent quotes) and exits with 3.
[[noreturn]] void worker_fails(const std::string& why) {
  std::fprintf(stderr, "seqconf worker: %s\n", why.c_str());
  ::_exit(3);
}

// This program's file, read once: exec of "/proc/self/exe" itself would name the program that
// runs us under valgrind, not ours.
const std::string& program_path() {
  static const std::string path = [] {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
  }();
  return path;
}

}  // namespace

WorkerKind::WorkerKind(const std::string& kind, WorkerFactory make) {
  worker_kinds()[kind] = std::move(make);
}

// Set once this program serves as a worker (serve_if_worker): a worker whose runtime starts a
// worker of its own (the reference's host) then does so knowingly.
std::atomic<bool> serving_as_worker{false};

void serve_if_worker(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], kWorkerFlag) != 0) return;
  if (argc != 6 && !(argc == 7 && std::strcmp(argv[6], kMemcheckFlag) == 0))
    worker_fails("expected: " + std::string(kWorkerFlag) + " KIND ARGUMENT PARENT LIMIT [" +
                 kMemcheckFlag + "]");
  // It ends with the thread that started it (the spawner thread, which lives as long as the
  // parent process), even when the parent is killed with SIGKILL.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (std::to_string(::getppid()) != argv[4]) ::_exit(0);
  const auto kind = worker_kinds().find(argv[2]);
  if (kind == worker_kinds().end())
    worker_fails("this program has no worker kind '" + std::string(argv[2]) + "'");
  try {
    const TensorLimit limit(std::stoull(argv[5]));
    serving_as_worker = true;
    const WorkerProcess::Handler handle = kind->second(argv[3]);
    worker_main(kWorkerFd, handle, argc == 7);
  } catch (const std::exception& e) {
    worker_fails(std::string(argv[2]) + ": " + e.what());
  }
}

// The parent's handle on the worker process: starts it on first use and again after it died
// or was killed. One request at a time.
class WorkerProcess::Process {
 public:
  Process(WorkerRecipe recipe, IsolationOptions options)
      : recipe_(std::move(recipe)), options_(options) {
    if (options_.memcheck && options_.timeout_ms > 0)
      options_.timeout_ms = static_cast<int>(std::min<int64_t>(
          int64_t{options_.timeout_ms} * kMemcheckSlowdown, std::numeric_limits<int>::max()));
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process() {
    stop();
    std::error_code ec;
    if (!xml_dir_.empty()) std::filesystem::remove_all(xml_dir_, ec);
  }

  std::optional<MemoryError> take_memory_error() {
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<MemoryError> m = std::move(memory_error_);
    memory_error_.reset();
    // A new worker has reported nothing yet: each error it counts is a new one in its XML.
    if (m) stop();
    return m;
  }

  std::vector<WorkerMemoryError> take_worker_memory_errors() {
    std::lock_guard<std::mutex> lock(mu_);
    if (options_.memcheck && pid_ > 0 && (!ready_ || owed_ > 0)) {
      what_ = "memcheck: the worker's errors";
      stderr_tail_.clear();
      start_deadline();
      (void)settle();  // a worker that died or hung is gone (what it wrote is read when it died)
    }
    return std::exchange(worker_errors_, {});
  }

  // The worker generation a model prepared now lives in (changes when the worker is restarted).
  uint64_t generation() const { return generation_; }
  uint64_t requests() const { return requests_; }
  bool alive() const { return pid_ > 0; }
  std::string new_id() { return std::to_string(next_id_++); }

  // Sends a request and waits for its answer, or for the worker's death or the time limit.
  Answer call(const std::string& what, const std::string& payload) {
    std::lock_guard<std::mutex> lock(mu_);
    begin_locked(what, payload);
    return answer_locked();
  }

  // The two halves of call(): send() returns once the request is sent (or the worker failed),
  // receive() waits for its answer. The time limit runs from send().
  void send(const std::string& what, const std::string& payload) {
    std::lock_guard<std::mutex> lock(mu_);
    begin_locked(what, payload);
  }
  Answer receive() {
    std::lock_guard<std::mutex> lock(mu_);
    return answer_locked();
  }

  // Starts the worker if there is none (a failure shows on the next call).
  void start() {
    std::lock_guard<std::mutex> lock(mu_);
    if (std::string why; pid_ <= 0) spawn(&why);
  }

  // A request without an answer (dropping a prepared model); ignored when the worker is gone.
  void tell(uint64_t generation, const std::string& payload) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pid_ <= 0 || generation != generation_) return;
    ++requests_;
    std::string frame;
    put(frame, payload);
    // Small enough for the socket buffer; a worker that is gone shows on the next call.
    const ssize_t n = ::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    // Under memcheck the worker answers it with its error count, read before the next request.
    if (options_.memcheck && n == static_cast<ssize_t>(frame.size())) ++owed_;
  }

 private:
  // Starts a request: the worker first if there is none, then the request sent (or the failure
  // that answer_locked() will give).
  void begin_locked(const std::string& what, const std::string& payload) {
    what_ = what;
    failure_.reset();
    frame_.clear();
    put(frame_, payload);
    sent_ = 0;
    if (pid_ <= 0) {
      if (std::string why; !spawn(&why)) {
        failure_ = fault(RunError::Kind::internal, why);
        return;
      }
    }
    ++requests_;
    stderr_tail_.clear();
    // The worker's start-up under memcheck counts in the time limit, as it does without.
    start_deadline();
    if (options_.memcheck)
      if ((failure_ = settle())) return;
    failure_ = exchange(Exchange::send);
  }

  void start_deadline() {
    deadline_.reset();
    if (options_.timeout_ms > 0)
      deadline_ = Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
  }

  // The answer to the request begin_locked() started.
  Answer answer_locked() {
    std::vector<std::string> frames;
    std::optional<Answer> a =
        failure_ ? std::move(failure_)
                 : exchange(Exchange::send_and_receive, options_.memcheck ? 2 : 1, &frames);
    failure_.reset();
    std::string().swap(frame_);
    if (a) return std::move(*a);
    Answer answer;
    answer.ok = true;
    answer.bytes = std::move(frames.front());
    if (options_.memcheck) note_errors(std::stoull(frames.back()));
    return answer;
  }

  // Under memcheck, before a request is sent: reads the counts the worker owes (the one it
  // writes once ready, when it is new; one per request without an answer), while it waits for
  // the request. The errors memcheck wrote until then are the worker's, not the request's.
  // Returns the failure when the worker died, hung or was stopped meanwhile.
  std::optional<Answer> settle() {
    std::optional<Answer> failed;
    if (!ready_) failed = settle_phase(WorkerPhase::startup, 1);
    if (!failed && ready_ && owed_ > 0) failed = settle_phase(WorkerPhase::between_cases, owed_);
    return failed;
  }

  // Reads `count` counts of the worker's, the last of which gives its errors in `phase`.
  std::optional<Answer> settle_phase(WorkerPhase phase, size_t count) {
    std::vector<std::string> frames;
    settling_ = phase;
    std::optional<Answer> failed = exchange(Exchange::receive, count, &frames);
    settling_.reset();
    if (failed) return failed;
    if (phase == WorkerPhase::startup) ready_ = true;
    if (phase == WorkerPhase::between_cases) owed_ = 0;
    note_worker_errors(phase, std::stoull(frames.back()));
    return std::nullopt;
  }

  enum class Exchange {
    send,              // send what remains of the request
    send_and_receive,  // and read the answer's frames
    receive,           // read frames the worker owes, sending nothing
  };

  // Sends what remains of the request (unless Exchange::receive), then (unless Exchange::send)
  // reads `frames` frames into *received, watching the worker's stderr, its death, the time limit
  // and a stop request. Returns the failure, or nullopt.
  std::optional<Answer> exchange(Exchange mode, size_t frames = 0,
                                 std::vector<std::string>* received = nullptr) {
    std::string answer;
    char buffer[65536];
    for (;;) {
      const bool sending = mode != Exchange::receive && sent_ < frame_.size();
      if (!sending && mode == Exchange::send) return std::nullopt;
      pollfd p[2] = {{fd_, static_cast<short>(sending ? POLLOUT : POLLIN), 0},
                     {err_fd_, POLLIN, 0}};
      // Past the time limit the poll does not wait, but an answer that is there is still read:
      // the caller may have been busy elsewhere since send().
      const int ms = wait_ms(deadline_, 50);
      if (interrupt_requested()) {
        stop();
        return fault(RunError::Kind::timeout,
                     what_ + ": the run was stopped while waiting for the worker; it was killed");
      }
      const int ready = ::poll(p, 2, ms);
      if (ready < 0 && errno == EINTR) continue;
      if (ready > 0 && p[1].revents) read_stderr();
      if (ready <= 0 || !p[0].revents) {
        // Also notices a worker that died while a copy of its socket end lives elsewhere.
        if (ready <= 0)
          if (int status = 0; ::waitpid(pid_, &status, WNOHANG) == pid_) return died(what_, status);
        if (deadline_ && Clock::now() >= *deadline_) return timed_out(what_);
        continue;
      }
      if (sending) {
        const ssize_t n = ::send(fd_, frame_.data() + sent_, frame_.size() - sent_, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return died(what_);
        sent_ += static_cast<size_t>(n);
        continue;
      }
      const ssize_t n = ::read(fd_, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) return died(what_);
      answer.append(buffer, static_cast<size_t>(n));
      if (frames_complete(answer, frames)) break;
    }
    Reader in(answer);
    for (size_t k = 0; k < frames; ++k) received->push_back(in.get());
    return std::nullopt;
  }

  // Whether s holds `count` complete frames.
  static bool frames_complete(const std::string& s, size_t count) {
    size_t pos = 0;
    for (size_t k = 0; k < count; ++k) {
      uint64_t n = 0;
      if (s.size() - pos < sizeof n) return false;
      std::memcpy(&n, s.data() + pos, sizeof n);
      pos += sizeof n;
      if (s.size() - pos < n) return false;
      pos += n;
    }
    return true;
  }

  // memcheck's errors in the current worker's XML output, in order.
  std::vector<MemoryError> xml_errors() const {
    std::ifstream in(xml_file_, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return parse_memcheck_xml(text.str());
  }

  // The worker says memcheck has counted `counted` errors so far. When that grew, the first
  // error its XML output holds beyond those already read is the request's (the first of the
  // case's, unless the case already has one).
  void note_errors(uint64_t counted) {
    if (counted <= errors_counted_) return;
    errors_counted_ = counted;
    std::vector<MemoryError> errors = xml_errors();
    MemoryError first;
    if (errors.size() > errors_read_) {
      first = std::move(errors[errors_read_]);
    } else {
      // memcheck writes an error once and counts its repetitions: this one repeats an error
      // of the same case (a worker is replaced after a case with an error).
      first.kind = "Repeated";
      first.description = "memcheck counted again an error it reported earlier in this worker";
    }
    errors_read_ = std::max(errors_read_, errors.size());
    if (!memory_error_) memory_error_ = std::move(first);
  }

  // The worker says memcheck has counted `counted` errors so far, and waits for a request: the
  // errors its XML output holds beyond those already read are its own, made in `phase`. An
  // error counted again (a count that grew with no new error written) was recorded already.
  void note_worker_errors(WorkerPhase phase, uint64_t counted) {
    if (counted <= errors_counted_) return;
    errors_counted_ = counted;
    std::vector<MemoryError> errors = xml_errors();
    for (size_t k = errors_read_; k < errors.size(); ++k)
      add_worker_memory_error(worker_errors_, {phase, std::move(errors[k]), 1});
    errors_read_ = std::max(errors_read_, errors.size());
  }

  // A worker under memcheck that died: the first error it wrote since the last request, if any
  // (memcheck writes an invalid access before the signal it causes kills the worker); the
  // worker's own when it died while it was not answering a request (settle()).
  void note_errors_of_dead_worker() {
    if (!options_.memcheck || xml_file_.empty()) return;
    std::vector<MemoryError> errors = xml_errors();
    if (settling_) {
      for (size_t k = errors_read_; k < errors.size(); ++k)
        add_worker_memory_error(worker_errors_, {*settling_, std::move(errors[k]), 1});
    } else if (errors.size() > errors_read_ && !memory_error_) {
      memory_error_ = std::move(errors[errors_read_]);
    }
    errors_read_ = std::max(errors_read_, errors.size());
  }

  bool spawn(std::string* why) {
    return on_spawner_thread([&] { return spawn_here(why); });
  }

  // Starts the worker: posix_spawn (no fork() of this threaded process) of this program with
  // the recipe, in a process group of its own, its stderr on a pipe to us.
  bool spawn_here(std::string* why) {
    if (program_path().empty()) {
      *why = "cannot start a worker: /proc/self/exe is unreadable";
      return false;
    }
    if (started_as_worker() && !serving_as_worker) {
      *why = "cannot start a worker from a worker: " + program_path() +
             " was started as one, and its main() does not call seqconf::serve_if_worker";
      worker_fails(*why);
    }
    int fds[2], err[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
      *why = "socketpair: " + std::string(std::strerror(errno));
      return false;
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
      *why = "pipe: " + std::string(std::strerror(errno));
      ::close(fds[0]);
      ::close(fds[1]);
      return false;
    }
    // Under memcheck: valgrind, which runs this program, writing its errors to a file of this
    // worker's own.
    std::vector<std::string> args;
    if (options_.memcheck) {
      const std::string unavailable = memcheck_unavailable();
      if (!unavailable.empty() || !make_xml_dir(why)) {
        if (!unavailable.empty()) *why = "cannot start a worker under memcheck: " + unavailable;
        ::close(fds[0]);
        ::close(fds[1]);
        ::close(err[0]);
        ::close(err[1]);
        return false;
      }
      std::error_code ec;
      if (!xml_file_.empty()) std::filesystem::remove(xml_file_, ec);
      xml_file_ = xml_dir_ + "/worker-" + std::to_string(generation_ + 1) + ".xml";
      args = memcheck_command(valgrind_program(), xml_file_, xml_dir_ + "/seqconf.supp");
    }
    args.insert(args.end(),
                {program_path(), kWorkerFlag, recipe_.kind, recipe_.argument,
                 std::to_string(::getpid()), std::to_string(options_.max_tensor_bytes)});
    if (options_.memcheck) args.emplace_back(kMemcheckFlag);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, fds[1], kWorkerFd);
    ::posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    ::posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    ::posix_spawnattr_setsigmask(&attr, &none);
    ::posix_spawnattr_setpgroup(&attr, 0);
    ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    ::close(err[1]);
    if (rc != 0) {
      *why = "posix_spawn " + args.front() + ": " + std::strerror(rc);
      ::close(fds[0]);
      ::close(err[0]);
      return false;
    }
    ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
    pid_ = pid;
    fd_ = fds[0];
    err_fd_ = err[0];
    ++generation_;
    requests_ = 0;
    errors_counted_ = 0;
    errors_read_ = 0;
    ready_ = false;
    owed_ = 0;
    settling_.reset();
    return true;
  }

  // The folder of the workers' memcheck XML files, made once; false (and why) when it cannot be.
  bool make_xml_dir(std::string* why) {
    if (!xml_dir_.empty()) return true;
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/seqconf-memcheck-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
      *why = "mkdtemp " + pattern + ": " + std::strerror(errno);
      return false;
    }
    std::ofstream supp(pattern + "/seqconf.supp", std::ios::binary);
    supp << memcheck_suppressions();
    if (!supp.flush()) {
      *why = "cannot write " + pattern + "/seqconf.supp";
      std::error_code ec;
      std::filesystem::remove_all(pattern, ec);
      return false;
    }
    xml_dir_ = pattern;
    return true;
  }

  // Keeps the last bytes the worker wrote to stderr during the current request.
  void read_stderr() {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(err_fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) {  // the worker is gone: poll() ignores a negative descriptor
        ::close(err_fd_);
        err_fd_ = -1;
      }
      if (n <= 0) return;
      stderr_tail_.append(buffer, static_cast<size_t>(n));
      if (stderr_tail_.size() > 4096) stderr_tail_.erase(0, stderr_tail_.size() - 4096);
    }
  }

  // "; stderr: <its last line>" when the worker wrote something, else empty.
  std::string last_words() {
    if (err_fd_ >= 0) read_stderr();
    std::string s = stderr_tail_;
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    if (s.empty()) return {};
    if (const size_t nl = s.find_last_of('\n'); nl != std::string::npos) s.erase(0, nl + 1);
    if (s.size() > 300) s = s.substr(0, 300) + "...";
    return "; stderr: " + s;
  }

  void stop() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (err_fd_ >= 0) ::close(err_fd_);
    err_fd_ = -1;
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    pid_ = -1;
  }

  static Answer fault(RunError::Kind kind, std::string message) {
    Answer a;
    a.error = {kind, std::move(message), "", {}, {}};
    return a;
  }

  Answer timed_out(const std::string& what) {
    stop();
    return fault(RunError::Kind::timeout, what + ": no answer within " +
                                              std::to_string(options_.timeout_ms) +
                                              " ms; the process was killed");
  }

  // The worker closed its socket or died; status is its wait status when already reaped.
  Answer died(const std::string& what, std::optional<int> reaped = std::nullopt) {
    int status = reaped.value_or(0);
    if (!reaped)
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    const std::string words = last_words();
    note_errors_of_dead_worker();
    ::close(fd_);
    fd_ = -1;
    if (err_fd_ >= 0) ::close(err_fd_);
    err_fd_ = -1;
    pid_ = -1;
    if (WIFSIGNALED(status))
      return fault(RunError::Kind::crash, what + ": the process was terminated by " +
                                              signal_description(WTERMSIG(status)) + words);
    return fault(RunError::Kind::crash,
                 what + ": the process exited with status " +
                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                     " without a complete answer" + words);
  }

  WorkerRecipe recipe_;
  IsolationOptions options_;
  std::mutex mu_;
  pid_t pid_ = -1;
  int fd_ = -1;
  int err_fd_ = -1;  // the worker's stderr
  std::string stderr_tail_;
  uint64_t generation_ = 0;
  uint64_t requests_ = 0;  // sent to the current worker
  uint64_t next_id_ = 1;
  // The request under way (begin_locked, exchange, answer_locked).
  std::string what_;
  std::string frame_;
  size_t sent_ = 0;
  std::optional<Clock::time_point> deadline_;
  std::optional<Answer> failure_;
  // Under memcheck: the current worker's XML file and its folder, the errors the worker has
  // said memcheck counted, the <error> elements already read, and the first error not yet taken.
  std::string xml_dir_;
  std::string xml_file_;
  uint64_t errors_counted_ = 0;
  size_t errors_read_ = 0;
  std::optional<MemoryError> memory_error_;
  // Under memcheck: whether the current worker's ready count is read, the counts it owes for
  // requests without an answer, what settle() is reading (the errors of a worker that dies then
  // are its own), and the workers' errors outside any request not yet taken.
  bool ready_ = false;
  size_t owed_ = 0;
  std::optional<WorkerPhase> settling_;
  std::vector<WorkerMemoryError> worker_errors_;
};

WorkerProcess::WorkerProcess(WorkerRecipe recipe, IsolationOptions options)
    : process_(std::make_unique<Process>(std::move(recipe), options)) {}
WorkerProcess::~WorkerProcess() = default;
WorkerProcess::Answer WorkerProcess::call(const std::string& what, const std::string& payload) {
  return process_->call(what, payload);
}
void WorkerProcess::send(const std::string& what, const std::string& payload) {
  process_->send(what, payload);
}
WorkerProcess::Answer WorkerProcess::receive() { return process_->receive(); }
void WorkerProcess::start() { process_->start(); }
void WorkerProcess::tell(uint64_t generation, const std::string& payload) {
  process_->tell(generation, payload);
}
uint64_t WorkerProcess::generation() const { return process_->generation(); }
uint64_t WorkerProcess::requests() const { return process_->requests(); }
bool WorkerProcess::alive() const { return process_->alive(); }
std::string WorkerProcess::new_id() { return process_->new_id(); }
std::optional<MemoryError> WorkerProcess::take_memory_error() {
  return process_->take_memory_error();
}
std::vector<WorkerMemoryError> WorkerProcess::take_worker_memory_errors() {
  return process_->take_worker_memory_errors();
}

}  // namespace seqconf
