// Fuzz target: each operator called directly with fuzzed arguments (the five sequence operators
// and the supporting operators the interpreter runs around them). Invalid arguments must end in
// seqconf::Error; accepted ones must satisfy the invariants below, each from the spec:
// - SequenceAt returns the tensor at the position ("Negative value means counting positions
//   from the back").
// - SequenceInsert gives n+1 tensors with the new one at the position (absent: at the end).
// - SequenceErase gives n-1 tensors.
// - SplitToSequence's chunks concatenated along the axis give the input back.
#include <cstdint>

#include "fuzz/fuzz_common.h"
#include "reference/ops/ops.h"
#include "reference/support/support_ops.h"

using namespace seqconf;

namespace {

Shape make_shape(fuzz::Reader& in) {
  Shape shape(in.byte() % 4);
  for (auto& d : shape) {
    const uint8_t b = in.byte();
    // Mostly small dimensions; sometimes any 64-bit value (negative, huge, overflowing).
    d = b & 0x80 ? in.i64() : b % 5;
  }
  return shape;
}

Tensor make_tensor(fuzz::Reader& in, DataType dtype) {
  Shape shape = make_shape(in);
  const size_t count = checked_element_count(shape);
  if (dtype == DataType::string) {
    if (count > 64) return Tensor::from_strings(std::move(shape), {});  // rejected by size
    std::vector<std::string> v(count);
    for (auto& s : v) s = in.bytes(in.byte() % 4);
    return Tensor::from_strings(std::move(shape), std::move(v));
  }
  const size_t es = element_size(dtype);
  if (count > 4096) return Tensor::from_bytes(dtype, std::move(shape), {});  // rejected
  std::string raw = in.bytes(count * es);
  raw.resize(count * es);
  std::vector<std::byte> bytes(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) bytes[i] = static_cast<std::byte>(raw[i]);
  return Tensor::from_bytes(dtype, std::move(shape), std::move(bytes));
}

DataType make_dtype(fuzz::Reader& in) { return kAllDataTypes[in.byte() % kAllDataTypes.size()]; }

// Positions and splits: mostly int32/int64 scalars or short vectors, sometimes anything.
Tensor make_index(fuzz::Reader& in) {
  const uint8_t b = in.byte();
  if (b & 0x80) return make_tensor(in, make_dtype(in));
  const int64_t v = static_cast<int8_t>(in.byte());
  const DataType d = b & 1 ? DataType::int64 : DataType::int32;
  if (b & 2) {
    std::vector<int64_t> vs{v};
    for (int n = in.byte() % 4; n > 0; --n) vs.push_back(static_cast<int8_t>(in.byte()));
    Shape shape{static_cast<int64_t>(vs.size())};
    if (d == DataType::int64) return Tensor::from_values<DataType::int64>(shape, vs);
    return Tensor::from_values<DataType::int32>(shape, std::vector<int32_t>(vs.begin(), vs.end()));
  }
  if (d == DataType::int64) return Tensor::from_values<DataType::int64>({}, {v});
  return Tensor::from_values<DataType::int32>({}, {static_cast<int32_t>(v)});
}

Sequence make_sequence(fuzz::Reader& in) {
  const DataType elem = make_dtype(in);
  std::vector<Tensor> ts(in.byte() % 6);
  // Occasionally a tensor of another type, which the Sequence constructor must reject.
  for (auto& t : ts) t = make_tensor(in, in.byte() < 8 ? make_dtype(in) : elem);
  return Sequence(elem, std::move(ts));
}

std::optional<Tensor> maybe(fuzz::Reader& in, Tensor (*make)(fuzz::Reader&)) {
  if (in.byte() & 1) return std::nullopt;
  return make(in);
}

int64_t scalar_position(const Tensor& p) { return p.int_at(0); }

void fuzz_one(fuzz::Reader& in, Context& ctx) {
  switch (in.byte() % 9) {
    case 0: {
      const Sequence s = make_sequence(in);
      const Tensor p = make_index(in);
      const Tensor t = ops::SequenceAt(s, p, ctx);
      const auto n = static_cast<int64_t>(s.size());
      const int64_t pos = scalar_position(p);
      if (pos < -n || pos >= n) fuzz::invariant_failed("SequenceAt accepted", p.describe());
      if (!t.identical(s.at(static_cast<size_t>(pos < 0 ? pos + n : pos))))
        fuzz::invariant_failed("SequenceAt result", t.describe());
      break;
    }
    case 1: {
      const Sequence s = make_sequence(in);
      const auto p = maybe(in, make_index);
      const Sequence out = ops::SequenceErase(s, p, ctx);
      if (out.size() + 1 != s.size()) fuzz::invariant_failed("SequenceErase size", out.describe());
      break;
    }
    case 2: {
      const Sequence s = make_sequence(in);
      const Tensor t = make_tensor(in, in.byte() < 16 ? make_dtype(in) : s.elem_type());
      const auto p = maybe(in, make_index);
      const Sequence out = ops::SequenceInsert(s, t, p, ctx);
      const auto n = static_cast<int64_t>(s.size());
      const int64_t pos = p ? scalar_position(*p) : n;
      if (pos < -n || pos > n) fuzz::invariant_failed("SequenceInsert accepted", p->describe());
      if (out.size() != s.size() + 1 ||
          !out.at(static_cast<size_t>(pos < 0 ? pos + n : pos)).identical(t))
        fuzz::invariant_failed("SequenceInsert result", out.describe());
      break;
    }
    case 3: {
      const Tensor x = make_tensor(in, make_dtype(in));
      const auto split = maybe(in, make_index);
      const int64_t axis = static_cast<int8_t>(in.byte()) % 5;
      const int64_t keepdims = in.byte() % 3;
      const Sequence parts = ops::SplitToSequence(x, split, axis, keepdims, ctx);
      if (parts.empty()) break;
      const int64_t a = axis < 0 ? axis + static_cast<int64_t>(x.rank()) : axis;
      const bool stacked = !split && keepdims == 0;
      const Tensor joined = ops::ConcatFromSequence(parts, a, stacked ? 1 : 0);
      if (!joined.identical(x)) fuzz::invariant_failed("SplitToSequence chunks", x.describe());
      break;
    }
    case 4: {
      const Sequence s = make_sequence(in);
      std::vector<Value> extra;
      for (int k = in.byte() % 3; k > 0; --k) {
        if (in.byte() & 1)
          extra.emplace_back(make_sequence(in));
        else
          extra.emplace_back(make_tensor(in, make_dtype(in)));
      }
      ops::SequenceMapBody body;
      body.num_inputs = (in.byte() % 4 == 0) ? 1 : 1 + extra.size();
      const uint8_t kind = in.byte() % 3;
      body.output_elem_types = {kind == 1 ? DataType::int64 : s.elem_type()};
      body.run = [kind](const std::vector<Value>& sample) -> std::vector<Value> {
        if (kind == 1) return {support::Shape(sample[0].tensor("sample"))};
        if (kind == 2) return {sample[0], sample[0]};  // one output too many
        return {sample[0]};
      };
      const auto out = ops::SequenceMap(s, extra, body, ctx);
      if (out.size() != 1 || out[0].size() != s.size())
        fuzz::invariant_failed("SequenceMap size", out.empty() ? "none" : out[0].describe());
      break;
    }
    case 5: {
      const Sequence s = make_sequence(in);
      (void)ops::ConcatFromSequence(s, static_cast<int8_t>(in.byte()) % 5, in.byte() % 3);
      break;
    }
    case 6: {
      const Tensor a = make_tensor(in, make_dtype(in));
      const Tensor b = make_tensor(in, in.byte() & 1 ? a.dtype() : make_dtype(in));
      (void)support::Add(a, b);
      break;
    }
    case 7: {
      const Tensor x = make_tensor(in, make_dtype(in));
      const Tensor starts = make_index(in), ends = make_index(in);
      const auto axes = maybe(in, make_index);
      const auto steps = maybe(in, make_index);
      (void)support::Slice(x, starts, ends, axes, steps);
      break;
    }
    case 8: {
      const Tensor x = make_tensor(in, make_dtype(in));
      std::vector<int64_t> axes(in.byte() % 4);
      for (auto& a : axes) a = static_cast<int8_t>(in.byte()) % 8;
      (void)support::Unsqueeze(x, axes);
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const TensorLimit limit(fuzz::kFuzzMaxTensorBytes);
  fuzz::Reader in(data, size);
  Context ctx;
  ctx.policy = in.byte() & 1 ? Policy::strict : Policy::lenient;
  try {
    fuzz_one(in, ctx);
  } catch (const Error&) {
  }
  return 0;
}
