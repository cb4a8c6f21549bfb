// The one way fuzzing spreads work over its threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace seqconf::difffuzz {

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
    threads.emplace_back([&, w] {
      for (size_t k; (k = next++) < n;) work(w, k);
    });
  for (auto& t : threads) t.join();
}

}  // namespace seqconf::difffuzz
