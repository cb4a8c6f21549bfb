// Programs as bytes and their structural mutation, the inputs and the custom mutator of the
// libFuzzer differential target (difffuzz/encoding.h, difffuzz/mutate.h):
//  - every drawn program comes back from its bytes as the same model and inputs; bytes that are
//    no program (prefixes, a step without its tensor, another element type...) decode to none;
//  - each mutation changes the part of the program it names and nothing else, and adds no node
//    the runtime does not support; cross-over joins a prefix of one program to a suffix of
//    another;
//  - mutations alone, from a program every defect agrees on, reach seeded defects;
//  - an encoded program runs as a campaign of one program, shrunk to a fixture.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "difffuzz/campaign.h"
#include "difffuzz/encoding.h"
#include "difffuzz/mutate.h"
#include "reference/proto.h"
#include "runtimes/registry.h"

namespace seqconf::testing {
namespace {

using namespace difffuzz;
using json = nlohmann::json;

Program draw(const rc::Gen<Program>& gen, size_t i) {
  return gen(rc::Random(rc::Random::Key{11, i, 0, 0}), static_cast<int>(i % 100)).value();
}

std::optional<Program> decode(const std::string& bytes) {
  return difffuzz::decode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// What a runtime is given: the model and the input values.
std::string model_bytes(const Program& p) {
  const BuiltProgram b = build(p);
  std::string bytes = b.model->SerializeAsString();
  for (const Value& v : b.inputs) bytes += value_to_bytes(v, TensorEncoding::raw_data);
  return bytes;
}

// A step compared as bytes: the encoding of a program holding only it.
std::string step_bytes(const Step& s) {
  Program p;
  p.steps = {s};
  return encode(p);
}

TEST(Encoding, EveryDrawnProgramComesBackAsTheSameModelAndInputs) {
  const auto gen = program_gen(8);
  for (size_t i = 0; i < 600; ++i) {
    const Program p = draw(gen, i);
    const std::string bytes = encode(p);
    const auto q = decode(bytes);
    ASSERT_TRUE(q) << describe(p);
    EXPECT_EQ(describe(*q), describe(p));
    EXPECT_EQ(model_bytes(*q), model_bytes(p)) << describe(p);
    EXPECT_EQ(encode(*q), bytes);
  }
}

TEST(Encoding, BytesThatAreNoProgramDecodeToNone) {
  const Program p = draw(program_gen(8), 7);
  const std::string bytes = encode(p);
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(decode(bytes.substr(0, n))) << "prefix of " << n << " bytes";
  EXPECT_FALSE(decode(std::string("\x01\x02\x03", 3)));
  EXPECT_FALSE(decode(std::string(kProgramMarker) + "not cbor"));

  // Well-formed CBOR that is no program, each one change away from the program.
  const std::string cbor = bytes.substr(kProgramMarker.size());
  const json j = json::from_cbor(cbor.begin(), cbor.end());
  auto changed = [&](const std::function<void(json&)>& change) {
    json k = j;
    change(k);
    const std::vector<uint8_t> c = json::to_cbor(k);
    return std::string(kProgramMarker) + std::string(c.begin(), c.end());
  };
  ASSERT_TRUE(decode(changed([](json&) {})));  // unchanged, it decodes
  const Tensor float_scalar = Tensor::from_values<DataType::float32>({}, {1.0f});
  const std::string float_bytes =
      tensor_to_proto(float_scalar, TensorEncoding::raw_data).SerializeAsString();
  const json float_json =
      json::binary(std::vector<uint8_t>(float_bytes.begin(), float_bytes.end()));
  const std::map<std::string, std::function<void(json&)>> cases = {
      {"no step", [](json& k) { k["steps"] = json::array(); }},
      {"unknown element type", [](json& k) { k["elem"] = 999; }},
      {"bfloat16 (no type of the five operators)", [](json& k) { k["elem"] = 16; }},
      {"unknown context", [](json& k) { k["context"] = 4; }},
      {"unknown source", [](json& k) { k["source"] = 3; }},
      {"unknown step kind", [](json& k) { k["steps"][0]["kind"] = 7; }},
      {"unknown body", [](json& k) { k["steps"][0]["body"] = 5; }},
      {"SequenceInsert without its tensor",
       [](json& k) {
         k["steps"] = json::array({json{{"kind", 0}}});
       }},
      {"SequenceAt without its position",
       [](json& k) {
         k["steps"] = json::array({json{{"kind", 2}}});
       }},
      {"SplitToSequence without its input",
       [](json& k) {
         k["steps"] = json::array({json{{"kind", 5}}});
       }},
      {"a source tensor of another element type",
       [&](json& k) {
         k["elem"] = static_cast<int>(DataType::int64);
         k["tensors"] = json::array({float_json});
       }},
      {"a tensor that is no TensorProto",
       [](json& k) {
         k["steps"] = json::array(
             {json{{"kind", 0}, {"tensor", json::binary(std::vector<uint8_t>{0xff, 0xff})}}});
       }},
      {"more steps than allowed",
       [](json& k) {
         k["steps"] = json::array();
         for (size_t s = 0; s <= kMaxEncodedSteps; ++s) k["steps"].push_back(json{{"kind", 3}});
       }},
  };
  for (const auto& [what, change] : cases) EXPECT_FALSE(decode(changed(change))) << what;
}

TEST(Encoding, CorruptedBytesDecodeToNoneOrToAProgramThatBuilds) {
  // libFuzzer's byte mutations reach the decoder too: whatever decodes must build (a campaign
  // builds programs on its evaluation threads, where an exception would end the process).
  const auto gen = program_gen(8);
  std::mt19937_64 rng(3);
  size_t decoded = 0;
  for (size_t i = 0; i < 3000; ++i) {
    std::string bytes = encode(draw(gen, i % 300));
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips) {
      const size_t at = kProgramMarker.size() + rng() % (bytes.size() - kProgramMarker.size());
      bytes[at] = static_cast<char>(rng());
    }
    const auto p = decode(bytes);
    if (!p) continue;
    ++decoded;
    EXPECT_NO_THROW(build(*p)) << describe(*p);
  }
  EXPECT_GT(decoded, 100u);  // some corruptions change only values, and still decode
}

// Exactly one step of q differs from p's (same count), and that step satisfies `ok`.
::testing::AssertionResult one_step_changed(
    const Program& p, const Program& q, const std::function<bool(const Step&, const Step&)>& ok) {
  if (p.steps.size() != q.steps.size()) return ::testing::AssertionFailure() << "step count";
  size_t changed = 0;
  for (size_t k = 0; k < p.steps.size(); ++k) {
    if (step_bytes(p.steps[k]) == step_bytes(q.steps[k])) continue;
    ++changed;
    if (!ok(p.steps[k], q.steps[k])) return ::testing::AssertionFailure() << "step " << k;
  }
  if (changed != 1) return ::testing::AssertionFailure() << changed << " steps changed";
  return ::testing::AssertionSuccess();
}

// p and q alike but for their steps.
bool same_but_steps(const Program& p, const Program& q) {
  Program a = p, b = q;
  a.steps.clear();
  b.steps.clear();
  a.steps.push_back(Step{});
  b.steps.push_back(Step{});
  return encode(a) == encode(b);
}

// q is p with the step fields `clear` resets changed only.
bool only(const Step& a, const Step& b, const std::function<void(Step&)>& clear) {
  Step x = a, y = b;
  clear(x);
  clear(y);
  return step_bytes(x) == step_bytes(y);
}

std::vector<const Tensor*> all_tensors(const Program& p) {
  std::vector<const Tensor*> out;
  for (const Tensor& t : p.tensors) out.push_back(&t);
  for (const Step& s : p.steps) {
    for (const auto* t : {&s.tensor, &s.position, &s.split})
      if (*t) out.push_back(&**t);
  }
  return out;
}

// p with every tensor (but the additional inputs of SequenceMap) zeros of its type and shape.
Program zeroed(Program p) {
  auto zero = [](Tensor& t) { t = Tensor::zeros(t.dtype(), t.shape()); };
  for (Tensor& t : p.tensors) zero(t);
  for (Step& s : p.steps)
    for (auto* t : {&s.tensor, &s.position, &s.split})
      if (*t) zero(**t);
  return p;
}

::testing::AssertionResult changes_what_it_names(Mutation m, const Program& p, const Program& q) {
  auto expect = [](bool ok, const char* what) {
    return ok ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << what;
  };
  switch (m) {
    case Mutation::insert_step:
    case Mutation::remove_step: {
      const Program& longer = m == Mutation::insert_step ? q : p;
      const Program& shorter = m == Mutation::insert_step ? p : q;
      if (longer.steps.size() != shorter.steps.size() + 1 || !same_but_steps(p, q))
        return expect(false, "not one step more or less");
      for (size_t k = 0; k < longer.steps.size(); ++k) {
        Program x = longer;
        x.steps.erase(x.steps.begin() + static_cast<std::ptrdiff_t>(k));
        if (encode(x) == encode(shorter)) return ::testing::AssertionSuccess();
      }
      return expect(false, "not the same steps but one");
    }
    case Mutation::move_step:
      for (size_t k = 0; k < p.steps.size(); ++k) {
        Program swapped = p, repeated = p;
        if (k + 1 < p.steps.size()) std::swap(swapped.steps[k], swapped.steps[k + 1]);
        repeated.steps.insert(repeated.steps.begin() + static_cast<std::ptrdiff_t>(k), p.steps[k]);
        if ((k + 1 < p.steps.size() && encode(swapped) == encode(q)) ||
            encode(repeated) == encode(q))
          return ::testing::AssertionSuccess();
      }
      return expect(false, "not two neighbours swapped nor a step repeated");
    case Mutation::position:
      return expect(same_but_steps(p, q) &&
                        one_step_changed(p, q,
                                         [](const Step& a, const Step& b) {
                                           return only(a, b, [](Step& s) { s.position.reset(); });
                                         }),
                    "more than one position changed");
    case Mutation::type: {
      if (q.elem != p.elem) {
        // The whole program: the sequence's tensors and the tensors of its type that steps
        // insert or split, of the same shapes in the new type; positions and splits as they were.
        bool ok = p.tensors.size() == q.tensors.size() && p.steps.size() == q.steps.size() &&
                  p.source == q.source && p.tensors_as == q.tensors_as;
        for (size_t k = 0; ok && k < p.tensors.size(); ++k)
          ok = q.tensors[k].dtype() == q.elem && q.tensors[k].shape() == p.tensors[k].shape();
        for (size_t k = 0; ok && k < p.steps.size(); ++k) {
          const Step &a = p.steps[k], &b = q.steps[k];
          ok = a.kind == b.kind && only(a, b, [](Step& s) {
                 s.tensor.reset();
                 s.body = gens::BodyKind::identity;
                 s.extra.reset();
               });
          if (ok && a.tensor)
            ok = b.tensor && b.tensor->shape() == a.tensor->shape() &&
                 (a.tensor->dtype() == p.elem ? b.tensor->dtype() == q.elem
                                              : b.tensor->identical(*a.tensor));
        }
        return expect(ok, "the element type changed, and something else");
      }
      return expect(
          same_but_steps(p, q) &&
              one_step_changed(p, q,
                               [](const Step& a, const Step& b) {
                                 const bool tensor = a.tensor && b.tensor &&
                                                     a.tensor->dtype() != b.tensor->dtype() &&
                                                     a.tensor->shape() == b.tensor->shape();
                                 const bool split = a.split && b.split &&
                                                    a.split->dtype() != b.split->dtype() &&
                                                    a.split->shape() == b.split->shape();
                                 return (tensor && only(a, b, [](Step& s) { s.tensor.reset(); })) ||
                                        (split && only(a, b, [](Step& s) { s.split.reset(); }));
                               }),
          "not one tensor argument of another type");
    }
    case Mutation::split:
      return expect(same_but_steps(p, q) && one_step_changed(p, q,
                                                             [](const Step& a, const Step&) {
                                                               return a.kind == StepKind::split;
                                                             }),
                    "not one SplitToSequence changed");
    case Mutation::context: {
      Program x = q;
      x.tensors_as = p.tensors_as;
      return expect(q.tensors_as != p.tensors_as && encode(x) == encode(p),
                    "not the context alone");
    }
    case Mutation::source: {
      Program x = q;
      x.source = p.source;
      x.tensors = p.tensors;
      return expect(encode(x) == encode(p), "not the source alone");
    }
    case Mutation::values: {
      const auto a = all_tensors(p), b = all_tensors(q);
      if (a.size() != b.size() || encode(zeroed(p)) != encode(zeroed(q)))
        return expect(false, "structure changed");
      size_t changed = 0;
      for (size_t k = 0; k < a.size(); ++k) {
        if (a[k]->dtype() != b[k]->dtype() || a[k]->shape() != b[k]->shape())
          return expect(false, "a type or shape changed");
        changed += !a[k]->identical(*b[k]);
      }
      return expect(changed == 1, "not one tensor's values changed");
    }
    case Mutation::concat:
      return expect(same_but_steps(p, q) && one_step_changed(p, q,
                                                             [](const Step& a, const Step& b) {
                                                               return a.kind == StepKind::concat &&
                                                                      only(a, b, [](Step& s) {
                                                                        s.axis.reset();
                                                                        s.new_axis = 0;
                                                                      });
                                                             }),
                    "not one ConcatFromSequence's axis or new_axis");
    case Mutation::map:
      return expect(
          same_but_steps(p, q) && one_step_changed(p, q,
                                                   [](const Step& a, const Step& b) {
                                                     return a.kind == StepKind::map &&
                                                            only(a, b, [](Step& s) {
                                                              s.body = gens::BodyKind::identity;
                                                              s.extra.reset();
                                                            });
                                                   }),
          "not one SequenceMap's body or additional input");
  }
  return expect(false, "unknown mutation");
}

TEST(Mutate, EachMutationChangesWhatItNamesAndNothingElse) {
  const auto gen = program_gen(8);
  std::map<Mutation, size_t> applied;
  for (size_t i = 0; i < 300; ++i) {
    const Program p = draw(gen, i);
    for (int k = 0; k < kMutations; ++k) {
      const auto m = static_cast<Mutation>(k);
      Program q = p;
      if (!mutate(q, m, i * kMutations + static_cast<size_t>(k), {})) {
        EXPECT_EQ(encode(q), encode(p)) << "not applied, yet changed: " << mutation_name(m);
        continue;
      }
      ++applied[m];
      EXPECT_NE(encode(q), encode(p)) << mutation_name(m) << " changed nothing";
      EXPECT_TRUE(changes_what_it_names(m, p, q))
          << mutation_name(m) << "\n  " << describe(p) << "\n  " << describe(q);
      const auto back = decode(encode(q));
      ASSERT_TRUE(back) << mutation_name(m) << ": " << describe(q);
      EXPECT_FALSE(build(*back).output_names.empty());
    }
  }
  // Every mutation applies to a good share of the programs.
  for (int k = 0; k < kMutations; ++k)
    EXPECT_GT(applied[static_cast<Mutation>(k)], 60u) << mutation_name(static_cast<Mutation>(k));
}

TEST(Mutate, AddsNoNodeTheRuntimeDoesNotSupport) {
  Support support;
  support.not_supported[{"SplitToSequence", DataType::float32}] = "no";
  support.not_supported[{"SequenceEmpty", DataType::float32}] = "no";
  support.not_supported[{"SequenceMap.add_tensor", DataType::float64}] = "no";
  MutateOptions o;
  o.support = support;
  const auto gen = program_gen(8, support);
  size_t float64_maps = 0;
  for (size_t i = 0; i < 300; ++i) {
    Program p = draw(gen, i);
    for (uint64_t round = 0; round < 20; ++round) {
      mutate(p, i * 100 + round, o);
      ASSERT_TRUE(supported(p, support)) << describe(p);
      for (const Step& s : p.steps)
        float64_maps += p.elem == DataType::float64 && s.kind == StepKind::map;
    }
  }
  EXPECT_GT(float64_maps, 20u);  // SequenceMap is still drawn for float64, with other bodies
}

TEST(Mutate, CrossOverJoinsAPrefixOfOneToASuffixOfTheOther) {
  const auto gen = program_gen(8);
  for (size_t i = 0; i < 200; ++i) {
    const Program a = draw(gen, i), b = draw(gen, i + 1000);
    const Program c = cross_over(a, b, i);
    EXPECT_TRUE(same_but_steps(a, c));
    EXPECT_NO_THROW(build(c));
    bool joined = false;
    for (size_t k = 0; k <= a.steps.size() && k <= c.steps.size() && !joined; ++k) {
      bool ok = true;
      for (size_t s = 0; s < k && ok; ++s) ok = step_bytes(a.steps[s]) == step_bytes(c.steps[s]);
      const size_t rest = c.steps.size() - k;
      ok = ok && rest > 0 && rest <= b.steps.size();
      for (size_t s = 0; s < rest && ok; ++s)
        ok = step_bytes(c.steps[k + s]) == step_bytes(b.steps[b.steps.size() - rest + s]);
      joined = ok;
    }
    EXPECT_TRUE(joined) << describe(a) << "\n" << describe(b) << "\n" << describe(c);
  }
}

// A greedy search with mutations only (no generator, no coverage): a corpus that grows by every
// mutated program both sides run to the end alike, until the defect disagrees.
size_t mutations_to_find(Runtime& defect, const Program& start, size_t budget) {
  auto reference = make_runtime("reference");
  std::vector<Program> corpus = {start};
  std::mt19937_64 rng(5);
  for (size_t t = 1; t <= budget; ++t) {
    Program p = corpus[rng() % corpus.size()];
    if (!mutate(p, rng(), {})) continue;
    const Evaluation e = evaluate(p, *reference, defect);
    if (e.verdict == Verdict::disagree) return t;
    if (e.verdict == Verdict::agree_outputs) corpus.push_back(std::move(p));
  }
  return 0;
}

TEST(Mutate, MutationsAloneReachSeededDefects) {
  // A float sequence of two tensors and its length: every defect below agrees on it.
  Program start;
  start.tensors = {Tensor::from_values<DataType::float32>({2}, {1.0f, 2.0f}),
                   Tensor::from_values<DataType::float32>({2}, {3.0f, 4.0f})};
  start.steps = {Step{}};
  auto reference = make_runtime("reference");
  for (const char* defect :
       {"insert.at_length_goes_front", "erase.default_erases_first", "at.negative_off_by_one",
        "split.empty_split_as_absent", "split.keepdims_0_ignored", "map.shorter_read_cyclically"}) {
    auto runtime = make_runtime(std::string("seeded=") + defect);
    ASSERT_EQ(evaluate(start, *reference, *runtime).verdict, Verdict::agree_outputs) << defect;
    const size_t found = mutations_to_find(*runtime, start, 20000);
    EXPECT_GT(found, 0u) << defect << " not reached in 20,000 mutations";
    std::cout << defect << ": found after " << found << " mutations\n";
  }
}

TEST(Mutate, AnEncodedProgramIsShrunkToAFixture) {
  // Two SequenceLength steps around a SequenceInsert at position 3 of a sequence of 3: "Accepted
  // range for 'position' is in `[-n, n]`", so it appends; insert.at_length_goes_front puts the
  // tensor in front, a value mismatch in SequenceInsert's output. Shrinking leaves that node.
  Program p;
  for (int k = 0; k < 3; ++k)
    p.tensors.push_back(Tensor::from_values<DataType::float32>({1}, {static_cast<float>(k)}));
  Step insert;
  insert.kind = StepKind::insert;
  insert.tensor = Tensor::from_values<DataType::float32>({1}, {9.0f});
  insert.position = Tensor::from_values<DataType::int64>({}, {3});
  p.steps = {Step{}, insert, Step{}};
  const auto decoded = decode(encode(p));
  ASSERT_TRUE(decoded);

  const auto out = std::filesystem::temp_directory_path() / "seqconf-mutate-fixture";
  std::filesystem::remove_all(out);
  auto runtime = make_runtime("seeded=insert.at_length_goes_front");
  FuzzOptions o;
  o.program = *decoded;
  o.iterations = 1000;  // a given program runs once whatever the count
  o.out = out;
  o.runtime_spec = "seeded=insert.at_length_goes_front";
  o.replay = "crash-input";
  const FuzzResult r = run_campaign(*runtime, o);
  EXPECT_EQ(r.programs, 1u);
  ASSERT_EQ(r.findings.size(), 1u);
  const FuzzFinding& f = r.findings.front();
  EXPECT_EQ(f.op, "SequenceInsert");
  EXPECT_EQ(f.kind, "value_mismatch");
  EXPECT_EQ(f.nodes, 1u) << f.program;
  EXPECT_TRUE(std::filesystem::exists(out / f.folder / "model.onnx"));
  std::ifstream in(out / f.folder / "case.json");
  const json case_json = json::parse(in);
  EXPECT_NE(case_json.value("reproduce", "").find("--replay crash-input"), std::string::npos);
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace seqconf::testing
