#include "difffuzz/mutate.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>

#include "difffuzz/encoding.h"
#include "generators/gen_dtype.h"
#include "generators/gen_split.h"
#include "generators/gen_tensor.h"

namespace seqconf::difffuzz {

const char* mutation_name(Mutation m) {
  switch (m) {
    case Mutation::insert_step:
      return "insert_step";
    case Mutation::remove_step:
      return "remove_step";
    case Mutation::move_step:
      return "move_step";
    case Mutation::position:
      return "position";
    case Mutation::type:
      return "type";
    case Mutation::split:
      return "split";
    case Mutation::context:
      return "context";
    case Mutation::source:
      return "source";
    case Mutation::values:
      return "values";
    case Mutation::concat:
      return "concat";
    case Mutation::map:
      return "map";
  }
  return "?";
}

bool supported(const Program& p, const Support& support) {
  if (p.source == SourceKind::empty && !support.allows("SequenceEmpty", p.elem)) return false;
  if (p.source == SourceKind::construct && !support.allows("SequenceConstruct", p.elem))
    return false;
  for (const Step& s : p.steps)
    if (!support.allows(support_node(s.kind, s.body), p.elem)) return false;
  return true;
}

namespace {

// Draws of one mutation: plain choices from a std::mt19937_64, tensors from the generators of
// program_gen (RapidCheck, keyed by the seed).
struct Draw {
  std::mt19937_64 rng;
  uint64_t seed;
  uint64_t count = 0;
  explicit Draw(uint64_t s) : rng(s), seed(s) {}

  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); }
  int64_t between(int64_t lo, int64_t hi) {  // [lo, hi]
    return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool one_in(size_t n) { return below(n) == 0; }
  template <typename T>
  T from(const rc::Gen<T>& g) {
    return g(rc::Random(rc::Random::Key{seed, ++count, 0x6d757461, 0}), 50).value();
  }
};

// The length of the sequence before each step, and after the last, as far as the program can
// tell (inserts of the element type with a scalar position add one, erases take one).
std::vector<size_t> lengths(const Program& p) {
  std::vector<size_t> out;
  size_t len = p.tensors.size();
  for (const Step& s : p.steps) {
    out.push_back(len);
    if (s.kind == StepKind::insert && s.tensor && s.tensor->dtype() == p.elem) ++len;
    if (s.kind == StepKind::erase && len > 0) --len;
  }
  out.push_back(len);
  return out;
}

// The shape of the sequence's tensors: the first source tensor's, else the first inserted one's.
Shape element_shape(const Program& p, Draw& d) {
  if (!p.tensors.empty()) return p.tensors.front().shape();
  for (const Step& s : p.steps)
    if (s.kind == StepKind::insert && s.tensor) return s.tensor->shape();
  return d.from(gens::shape(0, 3, 16));
}

Tensor int_tensor(DataType type, const Shape& shape, int64_t v) {
  const size_t n = checked_element_count(shape);
  if (type == DataType::int32)
    return Tensor::from_values<DataType::int32>(shape,
                                                std::vector<int32_t>(n, static_cast<int32_t>(v)));
  return Tensor::from_values<DataType::int64>(shape, std::vector<int64_t>(n, v));
}

template <typename Pred>
std::vector<size_t> steps_where(const Program& p, Pred pred) {
  std::vector<size_t> out;
  for (size_t k = 0; k < p.steps.size(); ++k)
    if (pred(p.steps[k])) out.push_back(k);
  return out;
}

bool insert_step(Program& p, Draw& d, const MutateOptions& o) {
  if (p.steps.size() >= kMaxEncodedSteps) return false;
  const size_t at = d.below(p.steps.size() + 1);
  // One draw after the other (in a call's arguments their order would be the compiler's).
  const Shape shape = element_shape(p, d);
  const bool may_be_invalid = d.one_in(4);
  const auto step = d.from(step_gen(o.support, p.elem, shape, may_be_invalid, lengths(p)[at]));
  if (!step) return false;
  p.steps.insert(p.steps.begin() + static_cast<std::ptrdiff_t>(at), *step);
  return true;
}

bool remove_step(Program& p, Draw& d) {
  if (p.steps.size() < 2) return false;
  p.steps.erase(p.steps.begin() + static_cast<std::ptrdiff_t>(d.below(p.steps.size())));
  return true;
}

bool move_step(Program& p, Draw& d) {
  if (d.one_in(2) && p.steps.size() < kMaxEncodedSteps) {
    const size_t k = d.below(p.steps.size());
    p.steps.insert(p.steps.begin() + static_cast<std::ptrdiff_t>(k), p.steps[k]);
    return true;
  }
  if (p.steps.size() < 2) return false;
  const size_t k = d.below(p.steps.size() - 1);
  std::swap(p.steps[k], p.steps[k + 1]);
  return true;
}

// SPEC (SequenceAt, SequenceErase): "Accepted range for 'position' is in `[-n, n - 1]`, where
// `n` is the number of tensors in 'input_sequence'." (SequenceInsert: "... `[-n, n]` ...")
// "It must be a scalar(tensor of empty shape)." Its type is tensor(int32) or tensor(int64);
// SequenceInsert's and SequenceErase's position is optional.
bool position(Program& p, Draw& d) {
  const auto with = steps_where(p, [](const Step& s) {
    return s.kind == StepKind::insert || s.kind == StepKind::erase || s.kind == StepKind::at;
  });
  if (with.empty()) return false;
  const size_t k = with[d.below(with.size())];
  Step& s = p.steps[k];
  const auto n = static_cast<int64_t>(lengths(p)[k]);
  const int64_t hi = s.kind == StepKind::insert ? n : n - 1;
  const DataType type = d.one_in(2) ? DataType::int32 : DataType::int64;
  switch (d.below(6)) {
    case 0:  // in range
      s.position = int_tensor(type, {}, d.between(-n, std::max(hi, -n)));
      break;
    case 1:  // just out of range
      s.position = int_tensor(type, {}, d.one_in(2) ? -n - d.between(1, 3) : hi + d.between(1, 3));
      break;
    case 2: {  // the extremes of the position's type
      const int64_t v = type == DataType::int32
                            ? (d.one_in(2) ? std::numeric_limits<int32_t>::min()
                                           : std::numeric_limits<int32_t>::max())
                            : (d.one_in(2) ? std::numeric_limits<int64_t>::min()
                                           : std::numeric_limits<int64_t>::max());
      s.position = int_tensor(type, {}, v);
      break;
    }
    case 3:  // absent (SequenceAt's is required: the node then lacks an input)
      if (!s.position || s.kind == StepKind::at) return false;
      s.position.reset();
      break;
    case 4: {  // not a scalar
      static const Shape shapes[] = {{1}, {2}, {1, 1}, {0}};
      const Shape& shape = shapes[d.below(4)];
      s.position = int_tensor(type, shape, d.between(-n, std::max(hi, -n)));
      break;
    }
    default: {  // another type than int32 and int64
      static const DataType others[] = {DataType::int16, DataType::uint64, DataType::float32,
                                        DataType::int8,  DataType::string, DataType::bool_};
      s.position = d.from(gens::tensor_of(others[d.below(6)], {}));
      break;
    }
  }
  return true;
}

// Tensors of p's element type get new values of the new type with the same shapes.
void retype(Program& p, DataType to, Draw& d) {
  const DataType from = p.elem;
  auto redo = [&](std::optional<Tensor>& t) {
    if (t && t->dtype() == from) t = d.from(gens::tensor_of(to, t->shape()));
  };
  for (Tensor& t : p.tensors) t = d.from(gens::tensor_of(to, t.shape()));
  const auto bodies = map_bodies(to);
  for (Step& s : p.steps) {
    redo(s.tensor);
    if (s.kind == StepKind::map) {
      if (std::find(bodies.begin(), bodies.end(), s.body) == bodies.end()) {
        s.body = gens::BodyKind::identity;
        s.extra.reset();
      }
      if (s.extra && s.extra->is_tensor() && s.extra->tensor().dtype() == from)
        s.extra = Value(d.from(gens::tensor_of(to, s.extra->tensor().shape())));
      if (s.extra && s.extra->is_sequence() && s.extra->sequence().elem_type() == from) {
        std::vector<Tensor> v;
        for (const Tensor& t : s.extra->sequence().tensors())
          v.push_back(d.from(gens::tensor_of(to, t.shape())));
        s.extra = Value(Sequence(to, std::move(v)));
      }
    }
  }
  p.elem = to;
}

bool type(Program& p, Draw& d) {
  const DataType other = kAllDataTypes[d.below(kAllDataTypes.size())];
  if (d.one_in(2)) {
    if (other == p.elem) return false;
    retype(p, other, d);
    return true;
  }
  // One tensor argument of another type (clause SequenceInsert.same_type, and the type
  // constraints of split and of SplitToSequence's input).
  const auto with = steps_where(p, [](const Step& s) { return s.tensor || s.split; });
  if (with.empty()) return false;
  Step& s = p.steps[with[d.below(with.size())]];
  std::optional<Tensor>& t = s.split && (!s.tensor || d.one_in(2)) ? s.split : s.tensor;
  if (t->dtype() == other) return false;
  t = d.from(gens::tensor_of(other, t->shape()));
  return true;
}

// SPEC (SplitToSequence): "'split' must contain only positive numbers." "If 'split' is a
// scalar, then 'input' will be split into equally sized chunks(if possible)." "In this scenario,
// the sum of entries in 'split' must be equal to the dimension size of input tensor on 'axis'."
// keepdims: "If input 'split' is specified, this attribute is ignored." axis: "Accepted range is
// [-rank, rank-1]."
bool split(Program& p, Draw& d) {
  const auto with = steps_where(p, [](const Step& s) { return s.kind == StepKind::split; });
  if (with.empty()) return false;
  Step& s = p.steps[with[d.below(with.size())]];
  const Shape& shape = s.tensor->shape();
  const auto r = static_cast<int64_t>(shape.size());
  const int64_t axis = s.axis.value_or(0);
  const int64_t dim =
      axis >= -r && axis < r && r > 0 ? shape[static_cast<size_t>(axis < 0 ? axis + r : axis)] : 1;
  switch (d.below(5)) {
    case 0:
      s.split = d.from(gens::valid_split(dim)).split;
      break;
    case 1:
      s.split = d.from(gens::invalid_split(dim)).split;
      break;
    case 2:
      if (r == 0) return false;
      s.axis = d.one_in(4) ? d.from(gens::invalid_axis(shape.size()))
                           : d.from(gens::valid_axis(shape.size()));
      break;
    case 3: {
      const std::optional<int64_t> choices[] = {std::nullopt, 0, 1};
      const auto before = s.keepdims;
      s.keepdims = choices[d.below(3)];
      if (s.keepdims == before) return false;
      break;
    }
    default:
      s.tensor = d.from(gens::tensor_of(s.tensor->dtype(), d.from(gens::shape(0, 3, 16))));
      break;
  }
  return true;
}

bool context(Program& p, Draw& d) {
  const auto next = static_cast<Placement>(d.below(4));
  if (next == p.tensors_as) return false;
  p.tensors_as = next;
  return true;
}

bool source(Program& p, Draw& d) {
  switch (d.below(3)) {
    case 0: {
      const auto next = static_cast<SourceKind>(d.below(3));
      if (next == p.source) return false;
      if (next == SourceKind::empty) p.tensors.clear();
      if (next == SourceKind::construct && p.tensors.empty())
        p.tensors.push_back(d.from(gens::tensor_of(p.elem, element_shape(p, d))));
      p.source = next;
      return true;
    }
    case 1: {
      if (p.source == SourceKind::empty || p.tensors.size() >= kMaxEncodedTensors) return false;
      const size_t at = d.below(p.tensors.size() + 1);
      // Mostly of the sequence's shape (ConcatFromSequence and Add need it), else any.
      Tensor t = d.from(d.one_in(4) ? gens::tensor_of_type(p.elem, 0, 3, 16)
                                    : gens::tensor_of(p.elem, element_shape(p, d)));
      p.tensors.insert(p.tensors.begin() + static_cast<std::ptrdiff_t>(at), std::move(t));
      return true;
    }
    default:
      if (p.tensors.empty() || (p.source == SourceKind::construct && p.tensors.size() == 1))
        return false;
      p.tensors.erase(p.tensors.begin() + static_cast<std::ptrdiff_t>(d.below(p.tensors.size())));
      return true;
  }
}

// The bytes of a tensor (one string of a string tensor) mutated in place.
bool values(Program& p, Draw& d, const MutateOptions& o) {
  std::vector<Tensor*> all;
  for (Tensor& t : p.tensors) all.push_back(&t);
  for (Step& s : p.steps) {
    for (auto* t : {&s.tensor, &s.position, &s.split})
      if (*t) all.push_back(&**t);
  }
  all.erase(std::remove_if(all.begin(), all.end(),
                           [](const Tensor* t) { return t->element_count() == 0; }),
            all.end());
  if (all.empty()) return false;
  Tensor& t = *all[d.below(all.size())];
  auto change = [&](std::vector<uint8_t>& bytes, size_t max_size) {
    if (o.mutate_bytes) {
      const size_t size = bytes.size();
      bytes.resize(std::max(max_size, size));
      bytes.resize(o.mutate_bytes(bytes.data(), size, max_size));
    } else if (!bytes.empty()) {
      // One byte changed (for a bool, its value).
      bytes[d.below(bytes.size())] ^=
          t.dtype() == DataType::bool_ ? uint8_t{1} : static_cast<uint8_t>(1 + d.below(255));
    }
  };
  if (t.dtype() == DataType::string) {
    std::vector<std::string> strings;
    for (size_t i = 0; i < t.element_count(); ++i) strings.push_back(t.string_at(i));
    std::string& s = strings[d.below(strings.size())];
    std::vector<uint8_t> bytes(s.begin(), s.end());
    change(bytes, s.size() + 8);
    s.assign(bytes.begin(), bytes.end());
    t = Tensor::from_strings(t.shape(), std::move(strings));
    return true;
  }
  std::vector<uint8_t> bytes(t.byte_size());
  std::memcpy(bytes.data(), t.bytes(), bytes.size());
  change(bytes, bytes.size());
  bytes.resize(t.byte_size());  // the same shape: a shorter result is padded with zeros
  // A bool element is 0 or 1: another byte is no value of the type, and runtimes may read it
  // either way, which would be a false alarm.
  if (t.dtype() == DataType::bool_)
    for (uint8_t& b : bytes) b = b & 1;
  std::vector<std::byte> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  t = Tensor::from_bytes(t.dtype(), t.shape(), std::move(out));
  return true;
}

// SPEC (ConcatFromSequence): "Accepted range in `[-r, r - 1]`, where `r` is the rank of input
// tensors. When `new_axis` is 1, accepted range is `[-r - 1, r]`."
bool concat(Program& p, Draw& d) {
  const auto with = steps_where(p, [](const Step& s) { return s.kind == StepKind::concat; });
  if (with.empty()) return false;
  Step& s = p.steps[with[d.below(with.size())]];
  if (d.one_in(3)) {
    s.new_axis = 1 - s.new_axis;
  } else {
    const auto r = static_cast<int64_t>(element_shape(p, d).size()) + s.new_axis;
    s.axis = d.between(-r - 2, r + 1);
  }
  return true;
}

// SPEC (SequenceMap): "Inputs can be either tensors or sequences, with the exception of the
// first input which must be a sequence." "Any other sequence inputs should have the same number
// of samples."
bool map(Program& p, Draw& d, const MutateOptions& o) {
  const auto with = steps_where(p, [](const Step& s) { return s.kind == StepKind::map; });
  if (with.empty()) return false;
  const size_t k = with[d.below(with.size())];
  Step& s = p.steps[k];
  const auto bodies = map_bodies(p.elem);
  const gens::BodyKind body = bodies[d.below(bodies.size())];
  if (!o.support.allows(support_node(StepKind::map, body), p.elem)) return false;
  const size_t n = lengths(p)[k];
  s.body = body;
  s.extra.reset();
  if (body == gens::BodyKind::add_tensor) s.extra = Value(d.from(gens::tensor_of(p.elem, {})));
  if (body == gens::BodyKind::add_sequence) {
    // Mostly as many samples as the sequence has, sometimes one more or one less.
    const size_t m = d.one_in(4) ? (d.one_in(2) ? n + 1 : (n > 0 ? n - 1 : 1)) : n;
    std::vector<Tensor> v;
    const Shape shape = element_shape(p, d);
    for (size_t i = 0; i < m; ++i) v.push_back(d.from(gens::tensor_of(p.elem, shape)));
    s.extra = Value(Sequence(p.elem, std::move(v)));
  }
  return true;
}

}  // namespace

bool mutate(Program& p, Mutation m, uint64_t seed, const MutateOptions& options) {
  Program q = p;
  Draw d(seed);
  bool applied = false;
  switch (m) {
    case Mutation::insert_step:
      applied = insert_step(q, d, options);
      break;
    case Mutation::remove_step:
      applied = remove_step(q, d);
      break;
    case Mutation::move_step:
      applied = move_step(q, d);
      break;
    case Mutation::position:
      applied = position(q, d);
      break;
    case Mutation::type:
      applied = type(q, d);
      break;
    case Mutation::split:
      applied = split(q, d);
      break;
    case Mutation::context:
      applied = context(q, d);
      break;
    case Mutation::source:
      applied = source(q, d);
      break;
    case Mutation::values:
      applied = values(q, d, options);
      break;
    case Mutation::concat:
      applied = concat(q, d);
      break;
    case Mutation::map:
      applied = map(q, d, options);
      break;
  }
  // A draw may give back what was there (the same body, the same position): not a mutation.
  if (!applied || !supported(q, options.support) || encode(q) == encode(p)) return false;
  p = std::move(q);
  return true;
}

std::optional<Mutation> mutate(Program& p, uint64_t seed, const MutateOptions& options) {
  std::mt19937_64 rng(seed);
  // Tries mutations in a random order until one applies.
  std::vector<int> order(kMutations);
  for (int k = 0; k < kMutations; ++k) order[static_cast<size_t>(k)] = k;
  std::shuffle(order.begin(), order.end(), rng);
  for (int k : order) {
    const auto m = static_cast<Mutation>(k);
    for (int attempt = 0; attempt < 3; ++attempt)
      if (mutate(p, m, rng(), options)) return m;
  }
  return std::nullopt;
}

Program cross_over(const Program& a, const Program& b, uint64_t seed) {
  Draw d(seed);
  Program out = a;
  const size_t keep = d.below(a.steps.size() + 1);
  const size_t from = d.below(b.steps.size());
  out.steps.resize(keep);
  for (size_t k = from; k < b.steps.size() && out.steps.size() < kMaxEncodedSteps; ++k)
    out.steps.push_back(b.steps[k]);
  if (out.steps.empty()) out.steps = a.steps;
  return out;
}

}  // namespace seqconf::difffuzz
