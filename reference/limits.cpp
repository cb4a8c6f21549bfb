#include "reference/limits.h"

namespace seqconf {

namespace {
thread_local size_t t_max_tensor_bytes = kDefaultMaxTensorBytes;
}

size_t max_tensor_bytes() { return t_max_tensor_bytes; }

TensorLimit::TensorLimit(size_t bytes) : previous_(t_max_tensor_bytes) {
  t_max_tensor_bytes = bytes;
}

TensorLimit::~TensorLimit() { t_max_tensor_bytes = previous_; }

}  // namespace seqconf
