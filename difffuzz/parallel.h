// The one way fuzzing spreads work over its threads. Every thread it starts runs under the size
// limit of the thread that started it (reference/limits.h: the limit belongs to a thread).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#include "reference/limits.h"

namespace seqconf::difffuzz {

// A thread that runs f under the calling thread's size limit.
inline std::thread thread_with_limit(std::function<void()> f) {
  return std::thread([f = std::move(f), limit = max_tensor_bytes()] {
    const TensorLimit installed(limit);
    f();
  });
}

// Runs work(w, k) for every k in [0, n) on up to `workers` threads, w being the thread's index
// (for the runtimes that are its own); on the calling thread when one thread would do.
inline void for_each_parallel(size_t workers, size_t n,
                              const std::function<void(size_t w, size_t k)>& work) {
  if (workers <= 1 || n <= 1) {
    for (size_t k = 0; k < n; ++k) work(0, k);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (size_t w = 0; w < std::min(workers, n); ++w)
    threads.push_back(thread_with_limit([&, w] {
      for (size_t k; (k = next++) < n;) work(w, k);
    }));
  for (auto& t : threads) t.join();
}

}  // namespace seqconf::difffuzz
