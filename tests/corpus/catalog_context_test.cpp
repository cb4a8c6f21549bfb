// The graph contexts of the catalog (generators/catalog/context.h): how each context places the
// node and its operands, the sampling rules, and ONNX's checker on every valid model.
#include "generators/catalog/context.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace seqconf::catalog {
namespace {

// The ID without its element type and context: the parameter set a context sample belongs to.
std::string parameter_set(const CatalogCase& c) {
  std::string s = c.op;
  for (const auto& p : c.params)
    if (p.key != "dtype" && p.key != "context" && p.key != "trips")
      s += "/" + p.key + "=" + p.value;
  return s;
}

std::string label_of(const CatalogCase& c) {
  return c.trips ? c.context + "/trips=" + std::to_string(c.trips) : c.context;
}

const CatalogCase& find(const std::string& id) {
  for (const auto& c : all_cases())
    if (c.id() == id) return c;
  throw std::runtime_error("no case " + id);
}

std::vector<std::string> op_types(const onnx::GraphProto& g) {
  std::vector<std::string> v;
  for (const auto& n : g.node()) v.push_back(n.op_type());
  return v;
}

// "Each valid case exists in at least 4 contexts": every valid parameter set (its element
// types sampled) in at least four, and inputs among them. The exporter patterns are graphs of
// their own, not contexts a parameter set is sampled into.
TEST(CatalogContexts, EveryValidParameterSetInAtLeastFourContexts) {
  std::map<std::string, std::set<std::string>> contexts;
  for (const auto& c : all_cases())
    if (!c.must_reject() && !c.pattern) contexts[parameter_set(c)].insert(label_of(c));
  ASSERT_GT(contexts.size(), 100u);
  for (const auto& [set, labels] : contexts) {
    EXPECT_GE(labels.size(), 4u) << set;
    EXPECT_TRUE(labels.count("inputs")) << set;
  }
}

// "each must-reject case at least in inputs, initializers and all_constant" (where the case has
// a tensor operand to make an initializer and a sequence operand to construct).
TEST(CatalogContexts, EveryMustRejectCaseInInputsInitializersAllConstant) {
  std::map<std::string, std::set<std::string>> contexts;
  std::map<std::string, const CatalogCase*> base;
  for (const auto& c : all_cases()) {
    if (!c.must_reject() || c.pattern) continue;
    std::string id = c.id();
    id = id.substr(0, id.find("/context="));
    contexts[id].insert(c.context);
    if (c.context == "inputs") base[id] = &c;
  }
  ASSERT_GT(contexts.size(), 300u);
  for (const auto& [id, labels] : contexts) {
    ASSERT_TRUE(base.count(id)) << id << " has no case in inputs";
    bool tensor = false, sequence = false;
    for (const auto& in : base[id]->inputs) {
      tensor = tensor || in.value.is_tensor();
      sequence = sequence || in.value.is_sequence();
    }
    // all_constant builds sequences with SequenceConstruct, which takes the 15 types only.
    const bool constructible = is_any_tensor_type(base[id]->dtype);
    EXPECT_TRUE(!tensor || labels.count("initializers")) << id;
    EXPECT_TRUE(!sequence || !constructible || labels.count("all_constant")) << id;
    EXPECT_GE(labels.size(), std::min<size_t>(3, 1 + applicable_contexts(*base[id]).size())) << id;
  }
}

// Expected values do not depend on the context, except where the graph's output changes form.
TEST(CatalogContexts, ExpectedOutputsAreTheBaseCasesOrTheirStatedForm) {
  const CatalogCase& base =
      find("SequenceAt/position=0/ptype=int64/dtype=float/n=5/context=inputs");
  ASSERT_EQ(base.outputs.size(), 1u);
  const Tensor& t = base.outputs[0].tensor();  // element 0 of mixed_elements: shape [2]
  ASSERT_EQ(t.shape(), (Shape{2}));
  const CatalogCase loop = in_context(base, {"loop_body", 3});
  // A scan output: the tensor once per iteration along a new axis 0.
  const Tensor& s = loop.outputs[0].tensor();
  ASSERT_EQ(s.shape(), (Shape{3, 2}));
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(s.data<float>()[i], t.data<float>()[i % 2]);
  const CatalogCase map = in_context(base, {"sequence_map_body"});
  ASSERT_EQ(map.outputs[0].sequence().size(), 1u);
  EXPECT_TRUE(map.outputs[0].sequence().at(0).identical(t));
  for (const std::string ctx :
       {"initializers", "constant_nodes", "all_constant", "if_branch", "chained"})
    EXPECT_TRUE(in_context(base, {ctx}).outputs[0].identical(base.outputs[0])) << ctx;
}

// Where the operands go, context by context.
TEST(CatalogContexts, OperandsAndNodesPerContext) {
  const CatalogCase& base =
      find("SequenceInsert/position=1/ptype=int64/dtype=float/n=5/context=inputs");
  const auto fed = [](const CatalogCase& c) {
    std::vector<std::string> v;
    for (const auto& in : fed_inputs(c)) v.push_back(in.name);
    return v;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(fed(base), (Names{"input_sequence", "tensor", "position"}));

  const CatalogCase init = in_context(base, {"initializers"});
  EXPECT_EQ(fed(init), (Names{"input_sequence"}));
  EXPECT_EQ(build_model(init).graph().initializer_size(), 2);

  const CatalogCase constants = in_context(base, {"constant_nodes"});
  EXPECT_EQ(fed(constants), (Names{"input_sequence"}));
  EXPECT_EQ(op_types(build_model(constants).graph()),
            (Names{"Constant", "Constant", "SequenceInsert"}));

  const CatalogCase folded = in_context(base, {"all_constant"});
  EXPECT_TRUE(fed(folded).empty());
  const auto g = build_model(folded).graph();
  EXPECT_EQ(g.input_size(), 0);
  EXPECT_EQ(op_types(g), (Names{"SequenceConstruct", "SequenceInsert"}));
  EXPECT_EQ(g.initializer_size(), 5 + 2);  // five elements, the tensor, the position

  const CatalogCase branch = in_context(base, {"if_branch"});
  EXPECT_EQ(fed(branch), (Names{"input_sequence", "tensor", "position", "ctx_cond"}));
  EXPECT_EQ(branch.opset, 13);  // a sequence leaves the If: If-13
  EXPECT_EQ(op_types(build_model(branch).graph()), (Names{"If"}));

  const CatalogCase loop = in_context(base, {"loop_body", 1});
  const auto lg = build_model(loop).graph();
  ASSERT_EQ(op_types(lg), (Names{"Loop"}));
  // The sequence is loop-carried: Loop(M, "", input_sequence).
  EXPECT_EQ(lg.node(0).input(2), "input_sequence");
  EXPECT_EQ(lg.node(0).input(1), "");

  const CatalogCase chained = in_context(base, {"chained"});
  EXPECT_EQ(op_types(build_model(chained).graph()),
            (Names{"SequenceInsert", "SequenceErase", "SequenceInsert", "SequenceInsert",
                   "SequenceErase"}));
}

// The lowest opset at which the context is valid.
TEST(CatalogContexts, OpsetIsTheLowestValidForTheContext) {
  const CatalogCase& at = find("SequenceAt/position=0/ptype=int64/dtype=float/n=5/context=inputs");
  EXPECT_EQ(in_context(at, {"if_branch"}).opset, 11);     // a tensor leaves the If: If-11
  EXPECT_EQ(in_context(at, {"loop_body", 3}).opset, 11);  // scan output only
  EXPECT_EQ(in_context(at, {"sequence_map_body"}).opset, 17);
  const CatalogCase& erase =
      find("SequenceErase/position=0/ptype=int64/dtype=float/n=5/context=inputs");
  EXPECT_EQ(in_context(erase, {"loop_body", 3}).opset, 13);  // a loop-carried sequence
}

// An empty input name is the omitted input: same expectation, node input "".
TEST(CatalogContexts, EmptyNameVariantKeepsTheOmittedInputsExpectation) {
  const CatalogCase& omitted =
      find("SequenceErase/position=default/dtype=int64/n=5/context=inputs");
  const CatalogCase& empty =
      find("SequenceErase/position=default/dtype=int64/n=5/absent=empty_name/context=inputs");
  ASSERT_EQ(empty.node.input_size(), 2);
  EXPECT_EQ(empty.node.input(1), "");
  ASSERT_EQ(omitted.outputs.size(), 1u);
  EXPECT_TRUE(empty.outputs[0].identical(omitted.outputs[0]));
}

// "every valid model passes onnx::checker with full type checking": check_model, and strict
// shape inference with the model's declared types.
TEST(CatalogContexts, EveryValidModelPassesTheChecker) {
  size_t checked = 0;
  for (const auto& c : all_cases()) {
    if (c.must_reject()) continue;
    if (!static_checks_not_applicable(build_model(c)).empty()) continue;  // opset 24
    const StaticCheck r = static_check(c);
    EXPECT_TRUE(r.checker_ok) << c.id() << ": " << r.checker_message;
    EXPECT_TRUE(r.inference_ok) << c.id() << ": " << r.inference_message;
    ++checked;
  }
  EXPECT_GT(checked, 3000u);
}

}  // namespace
// bfloat16 cases (SplitToSequence-24 and the must-reject ones) are never written where the
// context builds or passes sequences through SequenceConstruct, SequenceEmpty, SequenceInsert
// or SequenceErase, whose type constraints exclude bfloat16.
TEST(CatalogContexts, BFloat16StaysOutOfContextsThatBuildSequences) {
  size_t bf16 = 0;
  for (const auto& c : all_cases()) {
    if (c.dtype != DataType::bfloat16) continue;
    ++bf16;
    EXPECT_NE(c.context, "all_constant") << c.id();
    EXPECT_NE(c.context, "loop_body") << c.id();
    EXPECT_NE(c.context, "chained") << c.id();
  }
  EXPECT_GE(bf16, 14u + 5u);  // at least the 14 SplitToSequence-24 edges and 5 must-rejects
}

}  // namespace seqconf::catalog
