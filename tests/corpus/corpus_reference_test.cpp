// The reference on the committed corpus (fixtures/corpus): each case is loaded from disk
// (model.onnx, test_data_set_0/*.pb, case.json), its model is run by the reference's graph
// interpreter, and the result must be what case.json expects: the outputs exactly, or the error
// code. Ambiguous cases are also run under the strict policy against "strict_expectation".
// Models of the context "inputs" hold only the node under test: they are also evaluated by
// calling the reference operators directly, which must agree; SequenceMap bodies of Identity and
// Shape are then evaluated by a small interpreter of those two, reading outer-scope names from
// the graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cases/case_json.h"
#include "reference/interpreter/interpreter.h"
#include "reference/ops/ops.h"
#include "reference/proto.h"

namespace seqconf {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = SEQCONF_CORPUS_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<std::string> case_folders() {
  std::vector<std::string> v;
  if (!fs::is_directory(kCorpus)) return v;
  for (const auto& e : fs::directory_iterator(kCorpus))
    if (e.is_directory() && fs::exists(e.path() / "case.json"))
      v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

int64_t int_attr(const onnx::NodeProto& node, const std::string& name, int64_t fallback) {
  for (const auto& a : node.attribute())
    if (a.name() == name) return a.i();
  return fallback;
}

// A SequenceMap body as a callable: runs the body's nodes in order on one sample.
ops::SequenceMapBody body_callable(const onnx::GraphProto& body,
                                   const std::map<std::string, Value>& outer) {
  ops::SequenceMapBody b;
  b.num_inputs = static_cast<size_t>(body.input_size());
  for (const auto& o : body.output())
    b.output_elem_types.push_back(static_cast<DataType>(o.type().tensor_type().elem_type()));
  b.run = [body, outer](const std::vector<Value>& sample) {
    std::map<std::string, Value> env = outer;
    for (int k = 0; k < body.input_size(); ++k) env[body.input(k).name()] = sample.at(k);
    for (const auto& n : body.node()) {
      std::vector<Tensor> in;
      for (const auto& name : n.input()) in.push_back(env.at(name).tensor());
      if (n.op_type() == "Identity") {
        env[n.output(0)] = in.at(0);
      } else if (n.op_type() == "Shape") {
        Shape dims = in.at(0).shape();
        env[n.output(0)] =
            Tensor::from_values<DataType::int64>({static_cast<int64_t>(dims.size())}, dims);
      } else {
        throw Error(ErrorCode::not_supported, "body operator " + n.op_type());
      }
    }
    std::vector<Value> out;
    for (const auto& o : body.output()) out.push_back(env.at(o.name()));
    return out;
  };
  return b;
}

struct Loaded {
  CaseJson meta;
  onnx::ModelProto model;
  std::map<std::string, Value> inputs;  // by graph input name
  std::vector<Value> outputs;           // expected
};

Loaded load(const std::string& folder) {
  Loaded l;
  const fs::path dir = kCorpus / folder;
  l.meta = parse_case_json(read_file(dir / "case.json"));
  if (!l.model.ParseFromString(read_file(dir / "model.onnx")))
    throw std::runtime_error(folder + ": model.onnx does not parse");
  const auto& g = l.model.graph();
  for (int k = 0; k < g.input_size(); ++k) {
    const fs::path p = dir / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb");
    l.inputs[g.input(k).name()] = value_from_bytes(read_file(p), g.input(k).type(), p.string());
  }
  for (int k = 0; k < g.output_size(); ++k) {
    const fs::path p = dir / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb");
    if (!fs::exists(p)) break;
    l.outputs.push_back(value_from_bytes(read_file(p), g.output(k).type(), p.string()));
  }
  return l;
}

// The model run by the graph interpreter, graph inputs fed by name.
std::vector<Value> interpret(const Loaded& l, Policy policy) {
  Context ctx;
  ctx.policy = policy;
  const auto m = interp::InterpretedModel::prepare(l.model);
  std::vector<Value> in;
  for (const auto& name : m.input_names()) in.push_back(l.inputs.at(name));
  return m.run(in, ctx);
}

// The one node of the model by a direct call of its reference operator.
std::vector<Value> evaluate(const Loaded& l, Policy policy) {
  Context ctx;
  ctx.policy = policy;
  const onnx::NodeProto& node = l.model.graph().node(0);
  auto input = [&](int i) -> std::optional<Value> {
    if (i >= node.input_size() || node.input(i).empty()) return std::nullopt;
    return l.inputs.at(node.input(i));
  };
  auto tensor_input = [&](int i) -> std::optional<Tensor> {
    auto v = input(i);
    if (!v) return std::nullopt;
    return v->tensor();
  };
  const std::string& op = node.op_type();
  if (op == "SequenceAt") return {ops::SequenceAt(input(0)->sequence(), *tensor_input(1), ctx)};
  if (op == "SequenceErase")
    return {ops::SequenceErase(input(0)->sequence(), tensor_input(1), ctx)};
  if (op == "SequenceInsert")
    return {ops::SequenceInsert(input(0)->sequence(), *tensor_input(1), tensor_input(2), ctx)};
  if (op == "SplitToSequence") {
    // SplitToSequence-24 in models of opset 24 on, else SplitToSequence-11.
    int64_t opset = 0;
    for (const auto& o : l.model.opset_import())
      if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
    return {ops::SplitToSequence(*tensor_input(0), tensor_input(1), int_attr(node, "axis", 0),
                                 int_attr(node, "keepdims", 1), ctx, opset >= 24 ? 24 : 11)};
  }
  if (op == "SequenceMap") {
    const onnx::GraphProto* body = nullptr;
    for (const auto& a : node.attribute())
      if (a.name() == "body") body = &a.g();
    std::vector<Value> additional;
    for (int i = 1; i < node.input_size(); ++i) additional.push_back(*input(i));
    const auto seqs =
        ops::SequenceMap(input(0)->sequence(), additional, body_callable(*body, l.inputs), ctx);
    return std::vector<Value>(seqs.begin(), seqs.end());
  }
  // The companion operators (reference/ops).
  if (op == "ConcatFromSequence")
    return {ops::ConcatFromSequence(input(0)->sequence(), int_attr(node, "axis", 0),
                                    int_attr(node, "new_axis", 0))};
  if (op == "SequenceConstruct") {
    std::vector<Tensor> tensors;
    for (int i = 0; i < node.input_size(); ++i) tensors.push_back(*tensor_input(i));
    return {ops::SequenceConstruct(tensors)};
  }
  if (op == "SequenceEmpty")
    return {ops::SequenceEmpty(static_cast<DataType>(int_attr(node, "dtype", 1)))};
  if (op == "SequenceLength") return {ops::SequenceLength(input(0)->sequence())};
  throw std::runtime_error("unexpected operator " + op);
}

// The companion operators' type checks (a missing required attribute, a type outside a
// constraint) are the interpreter's, not the operator's: their invalid_model cases are run by
// the interpreter only.
bool checked_by_interpreter_only(const Loaded& l) {
  const std::string& op = l.model.graph().node(0).op_type();
  const bool companion = op == "ConcatFromSequence" || op == "SequenceConstruct" ||
                         op == "SequenceEmpty" || op == "SequenceLength";
  return companion && l.meta.expected_error == std::optional<std::string>("invalid_model");
}

// Checks the evaluation under `policy` against an expectation of case.json (an error code, or
// the expected outputs).
using Evaluation = std::vector<Value> (*)(const Loaded&, Policy);

void check(const Loaded& l, Evaluation evaluation, Policy policy,
           const std::optional<std::string>& expected_error) {
  const bool expect_error = expected_error.has_value();
  try {
    const std::vector<Value> got = evaluation(l, policy);
    ASSERT_FALSE(expect_error) << "no error; expected " << *expected_error;
    ASSERT_EQ(got.size(), l.outputs.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(got[i].identical(l.outputs[i])) << "output " << i << ": got " << got[i].describe()
                                                  << ", expected " << l.outputs[i].describe();
  } catch (const Error& e) {
    ASSERT_TRUE(expect_error) << "unexpected error " << error_code_name(e.code()) << ": "
                              << e.what();
    EXPECT_EQ(std::string(error_code_name(e.code())), *expected_error) << e.what();
  }
}

class CorpusCase : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusCase, ReferenceMatchesExpectation) {
  const Loaded l = load(GetParam());
  const bool must_reject = l.meta.expected_error.has_value();
  // Must-reject cases carry no outputs; valid cases one per graph output.
  EXPECT_EQ(l.outputs.size(),
            must_reject ? 0u : static_cast<size_t>(l.model.graph().output_size()));
  std::vector<Evaluation> evaluations = {interpret};
  // The context "inputs": the model holds the node under test alone.
  const auto context = l.meta.params.find("context");
  ASSERT_NE(context, l.meta.params.end()) << GetParam();
  if (*context == "inputs") {
    ASSERT_EQ(l.model.graph().node_size(), 1) << GetParam();
    // The direct path's SequenceMap bodies: Identity and Shape only.
    bool direct = true;
    for (const auto& a : l.model.graph().node(0).attribute())
      for (const auto& n : a.g().node())
        direct = direct && (n.op_type() == "Identity" || n.op_type() == "Shape");
    if (direct && !checked_by_interpreter_only(l)) evaluations.push_back(evaluate);
  }
  for (Evaluation e : evaluations) {
    check(l, e, Policy::lenient, l.meta.expected_error);
    if (l.meta.clarity == "ambiguous") {
      ASSERT_TRUE(l.meta.has_strict_expectation);
      check(l, e, Policy::strict, l.meta.strict_expected_error);
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusCase, ::testing::ValuesIn(case_folders()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusCase);

// The corpus as a whole: size, must-reject share, every op over the 16 types (bfloat16: valid
// for SplitToSequence-24, must-reject for the others and SplitToSequence-11), the companion
// operators over the 15 of their constraints (SequenceEmpty also bfloat16, must-reject); the
// machinery probes apart.
TEST(Corpus, SizeAndTypeCoverage) {
  const auto folders = case_folders();
  EXPECT_GE(folders.size(), 1000u);
  size_t rejects = 0;
  std::map<std::string, std::set<std::string>> types;
  std::set<std::string> ids;
  std::map<std::string, size_t> probes;  // the machinery probes, per operator
  for (const auto& f : folders) {
    const CaseJson meta = parse_case_json(read_file(kCorpus / f / "case.json"));
    rejects += meta.expected_error.has_value();
    EXPECT_TRUE(ids.insert(meta.id).second) << meta.id;
    if (context_of(meta.params) == kMachineryContext) {
      ++probes[meta.op];
      continue;
    }
    types[meta.op].insert(meta.dtype);
  }
  EXPECT_GE(rejects, 50u);
  // generators/catalog/machinery.cpp: 13 Loop, 3 If, 5 Scan and 7 SequenceMap probes.
  EXPECT_EQ(probes, (std::map<std::string, size_t>{
                        {"If", 3}, {"Loop", 13}, {"Scan", 5}, {"SequenceMap", 7}}));
  EXPECT_EQ(types.size(), 9u);
  for (const auto& [op, t] : types) {
    const bool fifteen =
        op == "ConcatFromSequence" || op == "SequenceConstruct" || op == "SequenceLength";
    EXPECT_EQ(t.size(), fifteen ? 15u : 16u) << op;
  }
}

// Every operator in every context that applies to it (generators/catalog/context.h), and the
// exporter patterns each operator sits in: all eight for SequenceAt; SequenceMap bodies may only
// output tensors, so only SequenceAt (one tensor output) sits in one; SplitToSequence reads no
// sequence, so all_constant is initializers.
TEST(Corpus, ContextsPerOperator) {
  std::map<std::string, std::set<std::string>> contexts;
  for (const auto& f : case_folders()) {
    const CaseJson meta = parse_case_json(read_file(kCorpus / f / "case.json"));
    contexts[meta.op].insert(meta.params.value("context", std::string("(none)")));
  }
  const std::set<std::string> all = {
      "inputs",    "initializers", "constant_nodes",    "all_constant",
      "if_branch", "loop_body",    "sequence_map_body", "chained"};
  auto without = [&](std::set<std::string> s, const std::vector<std::string>& drop) {
    for (const auto& d : drop) s.erase(d);
    return s;
  };
  auto with = [](std::set<std::string> s, const std::vector<std::string>& patterns) {
    s.insert(patterns.begin(), patterns.end());
    return s;
  };
  EXPECT_EQ(contexts["SequenceAt"], with(all, {"loop_counter_position"}));
  EXPECT_EQ(contexts["SequenceErase"],
            with(without(all, {"sequence_map_body"}), {"loop_counter_position", "loop_carried"}));
  EXPECT_EQ(contexts["SequenceInsert"],
            with(without(all, {"sequence_map_body"}), {"list_append", "loop_carried"}));
  EXPECT_EQ(contexts["SequenceMap"], with(without(all, {"sequence_map_body"}), {"machinery"}));
  for (const char* machinery : {"If", "Loop", "Scan"})
    EXPECT_EQ(contexts[machinery], std::set<std::string>{"machinery"}) << machinery;
  EXPECT_EQ(contexts["SplitToSequence"],
            with(without(all, {"sequence_map_body", "all_constant"}),
                 {"split_then_gather", "loop_carried", "scan_of_sequences"}));
  // The companion operators: no tensor operand but SequenceConstruct's (no initializers,
  // constant_nodes), no sequence operand for SequenceConstruct and SequenceEmpty (no
  // all_constant), a tensor output for ConcatFromSequence and SequenceLength only.
  const auto no_tensor_operand = without(all, {"initializers", "constant_nodes"});
  EXPECT_EQ(contexts["ConcatFromSequence"], no_tensor_operand);
  EXPECT_EQ(contexts["SequenceLength"], no_tensor_operand);
  EXPECT_EQ(contexts["SequenceConstruct"], without(all, {"all_constant", "sequence_map_body"}));
  EXPECT_EQ(contexts["SequenceEmpty"],
            without(all, {"initializers", "constant_nodes", "all_constant", "sequence_map_body"}));
}

}  // namespace
}  // namespace seqconf
