// SplitToSequence-11 and -24 (which adds bfloat16 to T and S, nothing else)
// "Split a tensor into a sequence of tensors, along the specified 'axis'. Lengths of the parts
//  can be specified using argument 'split'. 'split' must contain only positive numbers.
//  'split' is either a scalar (tensor of empty shape), or a 1-D tensor."
#include <cstring>
#include <string>

#include "reference/ops/ops.h"
#include "reference/spec_clauses.h"

namespace seqconf::ops {

void check_split_type(DataType split, const std::function<std::string()>& got) {
  // Type constraint I: "tensor(int32), tensor(int64)".
  if (split != DataType::int32 && split != DataType::int64)
    throw Error(ErrorCode::split_type,
                "SplitToSequence: split must be int32 or int64, got " + got());
}

namespace {

// Clause SplitToSequence.split_positive, cited by the errors and the note on zero entries.
const std::string kPositive(spec_clause("SplitToSequence.split_positive").sentence);

std::string values_to_string(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// A tensor without elements can have an axis of any length: the number of chunks is bounded
// like a tensor's size (each chunk is a tensor handle in the output sequence).
void check_chunk_count(int64_t chunks, int64_t d, const Context& ctx) {
  if (static_cast<uint64_t>(chunks) > ctx.max_tensor_bytes / sizeof(Tensor))
    throw Error(ErrorCode::limit_exceeded, "SplitToSequence: " + std::to_string(chunks) +
                                               " chunks of an axis of length " + std::to_string(d) +
                                               " exceed the limit of " +
                                               std::to_string(ctx.max_tensor_bytes) + " bytes");
}

// Chunk lengths along the axis of length d, or nullopt when split is absent.
std::vector<int64_t> chunk_lengths(const Tensor& split, int64_t d, Context& ctx) {
  check_split_type(split.dtype(), [&] { return split.describe(); });
  if (split.rank() == 0) {
    // "If 'split' is a scalar, then 'input' will be split into equally sized chunks(if
    //  possible). Last chunk will be smaller if the 'input' size along the given axis 'axis' is
    //  not divisible by 'split'."
    const int64_t s = split.int_at(0);
    if (s < 0)
      throw Error(ErrorCode::split_negative,
                  "SplitToSequence: scalar split " + std::to_string(s) + " is negative");
    // The summary says positive, the input description ">= 0"; either way a chunk length of 0
    // cannot cover the axis, so a scalar 0 is rejected under both policies.
    if (s == 0)
      throw Error(ErrorCode::split_zero,
                  "SplitToSequence: scalar split 0 cannot divide an axis of length " +
                      std::to_string(d) + " into chunks (" + kPositive + ")");
    check_chunk_count(d / s + (d % s != 0), d, ctx);
    std::vector<int64_t> lengths;
    for (int64_t start = 0; start < d; start += lengths.back())  // never past d: no overflow
      lengths.push_back(std::min(s, d - start));
    return lengths;
  }
  if (split.rank() != 1)
    throw Error(ErrorCode::split_rank,
                "SplitToSequence: split must be a scalar or a 1-D tensor, got " + split.describe());
  // "Otherwise, the tensor is split into 'size(split)' chunks, with lengths of the parts on
  //  'axis' specified in 'split'. In this scenario, the sum of entries in 'split' must be equal
  //  to the dimension size of input tensor on 'axis'."
  std::vector<int64_t> lengths(split.element_count());
  for (size_t i = 0; i < lengths.size(); ++i) lengths[i] = split.int_at(i);
  if (lengths.empty())
    throw Error(ErrorCode::split_empty,
                "SplitToSequence: 1-D split has no entries, so none can sum to the axis length " +
                    std::to_string(d));
  for (size_t i = 0; i < lengths.size(); ++i)
    if (lengths[i] < 0)
      throw Error(ErrorCode::split_negative,
                  "SplitToSequence: split " + values_to_string(lengths) + " has negative entry " +
                      std::to_string(lengths[i]) + " at index " + std::to_string(i));
  int64_t sum = 0;  // never above d: an entry larger than what is left of d stops the sum
  bool has_zero = false;
  bool over = false;
  for (int64_t len : lengths) {
    has_zero = has_zero || len == 0;
    if (len > d - sum) {
      over = true;
      break;
    }
    sum += len;
  }
  if (over || sum != d)
    throw Error(ErrorCode::split_sum_mismatch,
                "SplitToSequence: split " + values_to_string(lengths) +
                    " does not sum to the axis length " + std::to_string(d));
  // "'split' must contain only positive numbers" (summary) versus "All values must be >= 0"
  // (input description); ONNX's own test_sequence_model8 uses zero entries.
  if (has_zero) {
    if (ctx.policy == Policy::strict)
      throw Error(ErrorCode::split_zero, "SplitToSequence: split " + values_to_string(lengths) +
                                             " has a zero entry (" + kPositive + ")");
    ctx.note({"split_zero_entry", "SplitToSequence", kPositive,
              "1-D split with zero entries accepted: each gives an empty chunk (lenient policy)"});
  }
  return lengths;
}

// The chunks of the given lengths along axis a. When every axis before a has size 1, a chunk
// is a contiguous range of the immutable input and shares its storage. Otherwise each chunk is
// copied, in one pass over the input: each outer index's row feeds every chunk in turn, so the
// input is read in order instead of once per chunk with a stride.
std::vector<Tensor> chunks_along(const Tensor& input, size_t a,
                                 const std::vector<int64_t>& lengths) {
  const Shape& shape = input.shape();
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= static_cast<size_t>(shape[i]);
  for (size_t i = a + 1; i < shape.size(); ++i) inner *= static_cast<size_t>(shape[i]);
  std::vector<Tensor> parts;
  parts.reserve(lengths.size());
  // Without elements (the axes' product can still be huge) every chunk is an empty view.
  if (outer <= 1 || inner == 0 || input.element_count() == 0 || input.dtype() == DataType::string) {
    int64_t start = 0;
    for (int64_t len : lengths) {
      parts.push_back(slice_axis(input, a, start, len));
      start += len;
    }
    return parts;
  }
  const size_t es = element_size(input.dtype());
  std::vector<Shape> shapes(lengths.size(), shape);
  for (size_t c = 0; c < lengths.size(); ++c) shapes[c][a] = lengths[c];
  // Every byte of every chunk is copied from the input, so the chunks' storage is not
  // zero-filled first; each outer row is copied into the chunks in turn, row by row.
  return Tensor::written_once(input.dtype(), shapes, [&](std::byte* const* chunk) {
    std::vector<size_t> row(lengths.size());  // bytes of one outer row of each chunk
    for (size_t c = 0; c < lengths.size(); ++c)
      row[c] = static_cast<size_t>(lengths[c]) * inner * es;
    const std::byte* from = input.bytes();
    for (size_t o = 0; o < outer; ++o)
      for (size_t c = 0; c < lengths.size(); ++c) {
        const size_t n = row[c];
        if (n) std::memcpy(chunk[c] + o * n, from, n);
        from += n;
      }
  });
}

}  // namespace

Sequence SplitToSequence(const Tensor& input, const std::optional<Tensor>& split, int64_t axis,
                         int64_t keepdims, Context& ctx, int64_t since_version) {
  // Clause SplitToSequence.input_types (T, and S of the output): all_tensor_types() at 11;
  // SplitToSequence-24 lists all_tensor_types_ir4(), which adds bfloat16.
  if (!(since_version >= 24 && input.dtype() == DataType::bfloat16))
    check_any_tensor_type(
        "SplitToSequence-" + std::to_string(since_version),
        [&] { return "input is " + input.describe(); }, input.dtype(),
        "SplitToSequence.input_types");
  // axis: "A negative value means counting dimensions from the back. Accepted range is
  //  [-rank, rank-1]."
  const auto rank = static_cast<int64_t>(input.rank());
  if (axis < -rank || axis > rank - 1)
    throw Error(ErrorCode::axis_out_of_range, "SplitToSequence: axis " + std::to_string(axis) +
                                                  " is outside [" + std::to_string(-rank) + ", " +
                                                  std::to_string(rank - 1) + "] for " +
                                                  input.describe());
  const auto a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  const int64_t d = input.shape()[a];
  std::vector<Tensor> parts;
  if (split) {
    // keepdims: "If input 'split' is specified, this attribute is ignored."
    parts = chunks_along(input, a, chunk_lengths(*split, d, ctx));
  } else {
    // Without split every chunk has length 1; keepdims: "Keep the split dimension or not.
    // Default 1, which means we keep split dimension."
    if (keepdims != 0 && keepdims != 1)
      throw Error(ErrorCode::invalid_argument,
                  "SplitToSequence: keepdims must be 0 or 1, got " + std::to_string(keepdims));
    check_chunk_count(d, d, ctx);
    Shape squeezed = input.shape();
    squeezed.erase(squeezed.begin() + static_cast<std::ptrdiff_t>(a));
    parts = chunks_along(input, a, std::vector<int64_t>(static_cast<size_t>(d), 1));
    if (!keepdims)
      for (Tensor& chunk : parts) chunk = chunk.reshaped(squeezed);
  }
  return Sequence(input.dtype(), std::move(parts));
}

}  // namespace seqconf::ops
