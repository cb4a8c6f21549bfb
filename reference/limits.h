// The size limit: the largest tensor, in bytes, that may be read or computed (the CLI's
// --max-tensor-bytes). It travels in the run's options (RunOptions, IsolationOptions) and in the
// evaluation's Context; the thread that runs a case or an evaluation installs it with a
// TensorLimit, and every allocation of tensor storage on that thread is checked against it.
// There is no process-wide setting: two threads may run with different limits.
#pragma once

#include <cstddef>

namespace seqconf {

inline constexpr size_t kDefaultMaxTensorBytes = size_t{1} << 30;  // 1 GiB

// The limit in force on this thread: the innermost live TensorLimit's, else the default.
size_t max_tensor_bytes();

// Installs a limit on this thread for its lifetime and restores the previous one after.
class TensorLimit {
 public:
  explicit TensorLimit(size_t bytes);
  ~TensorLimit();
  TensorLimit(const TensorLimit&) = delete;
  TensorLimit& operator=(const TensorLimit&) = delete;

 private:
  size_t previous_;
};

}  // namespace seqconf
