// Runs a runtime in forked children; see isolated.h.
#include "runtimes/isolated.h"

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include "reference/error.h"
#include "reference/proto.h"

namespace seqconf {
namespace {

// Wire format child -> parent: length-prefixed fields. Values travel as their ONNX proto
// (TensorProto, SequenceProto or OptionalProto) next to their TypeProto, so an empty sequence
// keeps its element type.
void put(std::string& out, const std::string& s) {
  const uint64_t n = s.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out += s;
}

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  std::string get() {
    uint64_t n = 0;
    if (s_.size() - pos_ < sizeof n) throw Error(ErrorCode::invalid_proto, "truncated answer");
    std::memcpy(&n, s_.data() + pos_, sizeof n);
    pos_ += sizeof n;
    if (s_.size() - pos_ < n) throw Error(ErrorCode::invalid_proto, "truncated answer");
    std::string r = s_.substr(pos_, n);
    pos_ += n;
    return r;
  }

 private:
  const std::string& s_;
  size_t pos_ = 0;
};

std::string encode(const RunResult& r) {
  std::string out;
  put(out, r.ok ? "1" : "0");
  put(out, std::to_string(static_cast<int>(r.error.kind)));
  put(out, r.error.message);
  put(out, r.error.code);
  put(out, std::to_string(r.outputs.size()));
  for (const Value& v : r.outputs) {
    put(out, type_of(v).SerializeAsString());
    put(out, value_to_bytes(v, TensorEncoding::raw_data));
  }
  put(out, std::to_string(r.ambiguities.size()));
  for (const Ambiguity& a : r.ambiguities) {
    put(out, a.id);
    put(out, a.op);
    put(out, a.spec_sentence);
    put(out, a.detail);
  }
  return out;
}

RunResult decode(const std::string& bytes) {
  Reader in(bytes);
  RunResult r;
  r.ok = in.get() == "1";
  r.error.kind = static_cast<RunError::Kind>(std::stoi(in.get()));
  r.error.message = in.get();
  r.error.code = in.get();
  const size_t n = std::stoul(in.get());
  for (size_t i = 0; i < n; ++i) {
    onnx::TypeProto type;
    if (!type.ParseFromString(in.get())) throw Error(ErrorCode::invalid_proto, "bad TypeProto");
    r.outputs.push_back(value_from_bytes(in.get(), type, "output " + std::to_string(i)));
  }
  const size_t m = std::stoul(in.get());
  for (size_t i = 0; i < m; ++i) {
    Ambiguity a;
    a.id = in.get();
    a.op = in.get();
    a.spec_sentence = in.get();
    a.detail = in.get();
    r.ambiguities.push_back(std::move(a));
  }
  return r;
}

std::string signal_description(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  return std::string(abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig)) +
         (desc ? std::string(" (") + desc + ")" : std::string());
}

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Runs `work` in a forked child and returns its RunResult, or a crash / timeout RunResult.
template <class Work>
RunResult in_child(const std::string& what, int timeout_ms, Work work) {
  int fds[2];
  if (::pipe(fds) != 0)
    return {false,
            {},
            {RunError::Kind::internal, "pipe: " + std::string(std::strerror(errno)), ""},
            {}};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {false,
            {},
            {RunError::Kind::internal, "fork: " + std::string(std::strerror(errno)), ""},
            {}};
  }
  if (pid == 0) {
    // The child: its own process group, so a timeout also ends what it started.
    ::setpgid(0, 0);
    ::close(fds[0]);
    RunResult r;
    try {
      r = work();
    } catch (const Error& e) {
      r = {false,
           {},
           {RunError::Kind::internal, e.what(), std::string(error_code_name(e.code()))},
           {}};
    } catch (const std::exception& e) {
      r = {false, {}, {RunError::Kind::internal, e.what(), ""}, {}};
    }
    std::string bytes;
    try {
      bytes = encode(r);
    } catch (const std::exception& e) {
      bytes = encode({false, {}, {RunError::Kind::internal, e.what(), ""}, {}});
    }
    write_all(fds[1], bytes);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string answer;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buffer[65536];
  for (;;) {
    int wait_ms = -1;
    if (timeout_ms > 0) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
              .count();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left);
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above ends the loop
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  RunResult r;
  if (timed_out) {
    r.error = {
        RunError::Kind::timeout,
        what + ": no answer within " + std::to_string(timeout_ms) + " ms; the process was killed",
        ""};
    return r;
  }
  if (WIFSIGNALED(status)) {
    r.error = {RunError::Kind::crash,
               what + ": the process was terminated by " + signal_description(WTERMSIG(status)),
               ""};
    return r;
  }
  try {
    return decode(answer);
  } catch (const std::exception& e) {
    r.error = {RunError::Kind::crash,
               what + ": the process exited with status " +
                   std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                   " without a complete answer (" + e.what() + ")",
               ""};
    return r;
  }
}

class IsolatedModel : public PreparedModel {
 public:
  IsolatedModel(std::shared_ptr<Runtime> inner, std::filesystem::path path, onnx::ModelProto model,
                IsolationOptions options)
      : inner_(std::move(inner)),
        path_(std::move(path)),
        model_(std::move(model)),
        options_(options) {}

  RunResult run(const std::vector<Value>& inputs) override {
    return in_child(inner_->name() + " run", options_.timeout_ms, [&] {
      RunResult r;
      auto prepared = inner_->prepare(path_, model_, &r.error);
      if (!prepared) return r;
      return prepared->run(inputs);
    });
  }

 private:
  std::shared_ptr<Runtime> inner_;
  std::filesystem::path path_;
  onnx::ModelProto model_;
  IsolationOptions options_;
};

class IsolatedRuntime : public Runtime {
 public:
  IsolatedRuntime(std::shared_ptr<Runtime> inner, IsolationOptions options)
      : inner_(std::move(inner)), options_(options) {}

  std::string name() const override { return inner_->name(); }
  std::string version() const override { return inner_->version(); }
  std::string location() const override { return inner_->location(); }

  std::unique_ptr<PreparedModel> prepare(const std::filesystem::path& model_path,
                                         const onnx::ModelProto& model, RunError* error) override {
    RunResult r = in_child(inner_->name() + " prepare", options_.timeout_ms, [&] {
      RunResult ok;
      ok.ok = inner_->prepare(model_path, model, &ok.error) != nullptr;
      return ok;
    });
    if (!r.ok) {
      if (error) *error = r.error;
      return nullptr;
    }
    return std::make_unique<IsolatedModel>(inner_, model_path, model, options_);
  }

 private:
  std::shared_ptr<Runtime> inner_;
  IsolationOptions options_;
};

}  // namespace

std::unique_ptr<Runtime> make_isolated_runtime(std::shared_ptr<Runtime> inner,
                                               IsolationOptions options) {
  return std::make_unique<IsolatedRuntime>(std::move(inner), options);
}

}  // namespace seqconf
