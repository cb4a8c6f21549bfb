"""The catalog of list programs: small torch.nn.Modules whose forward uses TorchScript lists.

Each Program names one idiom of PyTorch list code. generate.py scripts the module
(torch.jit.script), exports it to ONNX at opsets 11..17 and writes eager PyTorch's outputs
(the scripted module run by the TorchScript interpreter) as the expected values.

A Program's `make_inputs(dtype)` returns a list of data sets, each a tuple of tensors in the
order of forward's parameters; the first data set is also the export's example input.
"""

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import torch
from torch import Tensor


# ----------------------------------------------------------------------------------------------
# Inputs: small, deterministic, every element distinct (where the dtype has room for it).

def ramp(shape, dtype, start=0):
    """start, start+1, ... laid out in `shape`, cast to dtype (bool: alternating)."""
    n = 1
    for s in shape:
        n *= s
    values = torch.arange(start, start + n, dtype=torch.int64).reshape(shape)
    if dtype == torch.bool:
        return (values % 2) == 1
    return values.to(dtype)


def scalar(value):
    """An int64 scalar tensor (a trip count, an index)."""
    return torch.tensor(value, dtype=torch.int64)


def four(shape):
    """Four inputs a, b, c, d of one shape with disjoint values."""
    n = 1
    for s in shape:
        n *= s

    def make(dtype):
        return [tuple(ramp(shape, dtype, k * n) for k in range(4))]

    return make


def one(*shapes):
    """One input x; one data set per shape."""

    def make(dtype):
        return [(ramp(s, dtype),) for s in shapes]

    return make


def with_count(shape, *counts):
    """Inputs (x, n): x of `shape`, n an int64 scalar; one data set per count."""

    def make(dtype):
        return [(ramp(shape, dtype), scalar(c)) for c in counts]

    return make


# ----------------------------------------------------------------------------------------------
# append / extend in loops

class AppendLoopConst(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(3):
            out.append(x + i)
        return out


class AppendLoopInputTrips(torch.nn.Module):
    def forward(self, x: Tensor, n: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(int(n)):
            out.append(x + i)
        return out


class AppendLoopDimTrips(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(x.size(0)):
            out.append(x[i])
        return out


class ExtendLoopConst(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(2):
            out.extend([x + i, x - i])
        return out


class ExtendLoopInputTrips(torch.nn.Module):
    def forward(self, x: Tensor, n: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(int(n)):
            out.extend([x + i, x - i])
        return out


# ----------------------------------------------------------------------------------------------
# insert

class Insert0(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(0, d)
        return lst


class InsertMiddle(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(1, d)
        return lst


class InsertEndLen(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(len(lst), d)
        return lst


class InsertNeg1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(-1, d)
        return lst


class InsertPastEnd(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(10, d)
        return lst


class InsertBeforeStart(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst.insert(-10, d)
        return lst


class InsertPastEndLiteral(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = [a, b, c]
        lst.insert(10, d)
        return lst


class InsertFrontLoop(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(x.size(0)):
            out.insert(0, x[i])
        return out


# ----------------------------------------------------------------------------------------------
# pop / del / setitem

class PopNoArg(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tuple[Tensor, List[Tensor]]:
        lst = [a, b, c, d]
        t = lst.pop()
        return t, lst


class PopIndex1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tuple[Tensor, List[Tensor]]:
        lst = [a, b, c, d]
        t = lst.pop(1)
        return t, lst


class PopNeg1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tuple[Tensor, List[Tensor]]:
        lst = [a, b, c, d]
        t = lst.pop(-1)
        return t, lst


class PopLoopDrain(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
        lst = [a, b, c, d]
        acc = a * 0
        while len(lst) > 0:
            acc = acc * 2 + lst.pop()
        return acc


class DelIndex1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = [a, b, c, d]
        del lst[1]
        return lst


class DelNeg1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = [a, b, c, d]
        del lst[-1]
        return lst


class Setitem0(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst[0] = d
        return lst


class SetitemNeg1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        lst[-1] = d
        return lst


class SetitemLoop(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor) -> List[Tensor]:
        lst = list([a, b, c])
        for i in range(len(lst)):
            lst[i] = lst[i] + lst[len(lst) - 1 - i]
        return lst


# ----------------------------------------------------------------------------------------------
# getitem / len

class Getitem1(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
        lst = list([a, b, c, d])
        return lst[1]


class GetitemNeg2(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
        lst = list([a, b, c, d])
        return lst[-2]


class GetitemInputIndex(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor, c: Tensor, d: Tensor, k: Tensor) -> Tensor:
        lst = list([a, b, c, d])
        return lst[int(k)]


class LenOutput(torch.nn.Module):
    def forward(self, x: Tensor) -> int:
        lst = list(x.unbind(0))
        return len(lst)


# ----------------------------------------------------------------------------------------------
# unbind

class UnbindAxis0(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(0))


class UnbindAxis1(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(1))


class UnbindAxis2(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(2))


class UnbindAxisNeg1(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(-1))


class UnbindAxisNeg2(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(-2))


class UnbindAxisNeg3(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.unbind(-3))


# ----------------------------------------------------------------------------------------------
# split / chunk

class SplitSizes(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.split([1, 3, 2], 1))


class SplitIntRemainder(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.split(2, 0))


class Chunk(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(x.chunk(3, 0))


# ----------------------------------------------------------------------------------------------
# cat / stack of a list built in a loop

class StackAxis0(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, 0)


class StackAxis1(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, 1)


class StackAxis2(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, 2)


class StackAxisNeg1(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, -1)


class StackAxisNeg2(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, -2)


class StackAxisNeg3(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.stack(lst, -3)


class CatAxis0(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.cat(lst, 0)


class CatAxis1(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.cat(lst, 1)


class CatAxisNeg1(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.cat(lst, -1)


class CatAxisNeg2(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = []
        for i in range(x.size(0)):
            lst.append(x[i])
        return torch.cat(lst, -2)


# ----------------------------------------------------------------------------------------------
# comprehensions, lists carried through loops

class ListComprehension(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return [t * 2 + 1 for t in x.unbind(0)]


class ReverseLoop(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        lst = list(x.unbind(0))
        out: List[Tensor] = []
        for i in range(len(lst)):
            out.append(lst[len(lst) - 1 - i])
        return out


class SumOverList(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst = list(x.split(1, 1))
        acc = lst[0]
        for t in lst[1:]:
            acc = acc + t
        return acc


# ----------------------------------------------------------------------------------------------
# lists among the dense operators exporters emit around them (MatMul, Gemm, Relu, Softmax,
# ReduceSum, Transpose, NonZero, Where, TopK, Mod): the reference runs those on its host runtime

class MatmulReluAppend(torch.nn.Module):
    def forward(self, x: Tensor, w: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        h = x
        for i in range(2):
            h = torch.relu(h @ w)
            out.append(h)
        return out


class LinearPerChunk(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)
        with torch.no_grad():
            self.fc.weight.copy_(torch.tensor([[0.5, -1.0, 0.25], [1.5, 0.0, -0.5]]))
            self.fc.bias.copy_(torch.tensor([0.125, -0.25]))

    def forward(self, x: Tensor) -> Tensor:
        return torch.cat([self.fc(t) for t in x.chunk(2, 0)], 1)


class SoftmaxSplit(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        return list(torch.softmax(x, 1).split([1, 2], 1))


class SumEachRow(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        sums: List[Tensor] = []
        for t in x.split(1, 0):
            sums.append(t.sum(1))
        return torch.stack(sums, 0)


class NonzeroTransposedList(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        idx = torch.nonzero(x)
        out: List[Tensor] = [idx]
        out.append(idx.t())
        return out


class WhereTopkInsert(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lst: List[Tensor] = [torch.topk(x, 2, 1)[0]]
        lst.insert(0, torch.where(x > 2.0, x, -x))
        return torch.cat(lst, 1)


class ModInLoop(torch.nn.Module):
    def forward(self, x: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(3):
            out.append(x % (i + 2))
        return out


class SlicesOfLengths(torch.nn.Module):
    def forward(self, x: Tensor, lengths: Tensor) -> List[Tensor]:
        out: List[Tensor] = []
        for i in range(x.size(0)):
            out.append(x[i, : int(lengths[i])])
        return out


def rows_and_lengths(dtype):
    """(x, lengths): a [2, 4] x and the length kept of each row, first unequal, then equal."""
    x = ramp((2, 4), dtype)
    return [(x, torch.tensor([3, 1], dtype=torch.int64)),
            (x, torch.tensor([2, 2], dtype=torch.int64))]


def matmul_inputs(dtype):
    x = torch.tensor([[0.5, -1.25, 2.0], [1.0, 0.75, -0.5]], dtype=dtype)
    w = torch.tensor([[1.0, -0.5, 0.25], [0.5, 2.0, -1.0], [-0.75, 0.25, 1.5]], dtype=dtype)
    return [(x, w)]


def signed(*shapes):
    """One input x of each shape: ramp values shifted to have negatives, zeros and positives."""

    def make(dtype):
        return [(ramp(s, dtype) - 2,) for s in shapes]

    return make


# ----------------------------------------------------------------------------------------------
# The catalog

@dataclass
class Program:
    name: str
    idiom: str
    module: type
    make_inputs: Callable[[torch.dtype], list]
    input_names: List[str]
    output_names: List[str]
    dtype: torch.dtype = torch.float32
    dynamic_axes: Optional[Dict[str, Dict[int, str]]] = None


ABCD = ["a", "b", "c", "d"]
RANK3 = (2, 3, 4)
def _catalog():
    p = []

    def add(*args, **kwargs):
        p.append(Program(*args, **kwargs))

    rows = {0: "rows"}

    # append / extend in loops
    add("append_loop_const", "out.append(x + i) in a loop with a constant trip count",
        AppendLoopConst, one((2, 3)), ["x"], ["out"])
    add("append_loop_input_trips", "out.append(x + i) in a loop whose trip count is an int64 scalar input",
        AppendLoopInputTrips, with_count((2, 3), 3, 0), ["x", "n"], ["out"])
    for dt in (torch.float32, torch.uint8):
        add("append_loop_dim_trips" + _suffix(dt), "out.append(x[i]) in a loop over a dynamic dim size",
            AppendLoopDimTrips, one((3, 4), (0, 4)), ["x"], ["out"], dtype=dt,
            dynamic_axes={"x": rows})
    add("extend_loop_const", "out.extend([x + i, x - i]) in a loop with a constant trip count",
        ExtendLoopConst, one((2, 3)), ["x"], ["out"])
    add("extend_loop_input_trips", "out.extend([x + i, x - i]) in a loop whose trip count is an input",
        ExtendLoopInputTrips, with_count((2, 3), 2, 0), ["x", "n"], ["out"])

    # insert into a copied list (a sequence at run time)
    add("insert_0", "lst.insert(0, t)", Insert0, four((2, 3)), ABCD, ["out"])
    for dt in (torch.float32, torch.float64, torch.int64):
        add("insert_middle" + _suffix(dt), "lst.insert(1, t) into a three-element list",
            InsertMiddle, four((2, 3)), ABCD, ["out"], dtype=dt)
    add("insert_end_len", "lst.insert(len(lst), t)", InsertEndLen, four((2, 3)), ABCD, ["out"])
    add("insert_neg1", "lst.insert(-1, t) (before the last element)", InsertNeg1, four((2, 3)), ABCD,
        ["out"])
    add("insert_past_end", "lst.insert(10, t) past the end of a three-element list (appends)",
        InsertPastEnd, four((2, 3)), ABCD, ["out"])
    add("insert_before_start", "lst.insert(-10, t) before the start of a three-element list (prepends)",
        InsertBeforeStart, four((2, 3)), ABCD, ["out"])
    add("insert_past_end_literal", "lst.insert(10, t) into a list literal (appends)",
        InsertPastEndLiteral, four((2, 3)), ABCD, ["out"])
    add("insert_front_loop", "out.insert(0, x[i]) in a loop over a dynamic dim size (reverses)",
        InsertFrontLoop, one((3, 2), (0, 2)), ["x"], ["out"], dynamic_axes={"x": rows})

    # pop / del / setitem
    add("pop_no_arg", "t = lst.pop()", PopNoArg, four((2, 3)), ABCD, ["t", "rest"])
    add("pop_1", "t = lst.pop(1)", PopIndex1, four((2, 3)), ABCD, ["t", "rest"])
    add("pop_neg1", "t = lst.pop(-1)", PopNeg1, four((2, 3)), ABCD, ["t", "rest"])
    add("pop_loop_drain", "while len(lst) > 0: acc = acc * 2 + lst.pop()", PopLoopDrain,
        four((2, 3)), ABCD, ["acc"])
    add("del_1", "del lst[1]", DelIndex1, four((2, 3)), ABCD, ["out"])
    add("del_neg1", "del lst[-1]", DelNeg1, four((2, 3)), ABCD, ["out"])
    add("setitem_0", "lst[0] = t", Setitem0, four((2, 3)), ABCD, ["out"])
    add("setitem_neg1", "lst[-1] = t", SetitemNeg1, four((2, 3)), ABCD, ["out"])
    add("setitem_loop", "lst[i] = lst[i] + lst[len(lst) - 1 - i] over every index of a list",
        SetitemLoop, lambda dt: [x[:3] for x in four((2, 3))(dt)], ["a", "b", "c"], ["out"])

    # getitem / len
    add("getitem_1", "lst[1]", Getitem1, four((2, 3)), ABCD, ["y"])
    add("getitem_neg2", "lst[-2]", GetitemNeg2, four((2, 3)), ABCD, ["y"])
    add("getitem_input_index", "lst[int(k)] with k an int64 scalar input", GetitemInputIndex,
        lambda dt: [four((2, 3))(dt)[0] + (scalar(k),) for k in (2, 0, -1)], ABCD + ["k"], ["y"])
    add("len_output", "len(lst) of a list from unbind as an output", LenOutput,
        one((3, 2), (0, 2)), ["x"], ["n"], dynamic_axes={"x": rows})

    # unbind
    for dt in (torch.float32, torch.int64, torch.bool, torch.float16):
        add("unbind_axis0" + _suffix(dt), "list(x.unbind(0)) of a rank-3 tensor", UnbindAxis0,
            one(RANK3), ["x"], ["out"], dtype=dt)
    for name, cls, axis in (("unbind_axis1", UnbindAxis1, "1"), ("unbind_axis2", UnbindAxis2, "2"),
                            ("unbind_axis_neg1", UnbindAxisNeg1, "-1"),
                            ("unbind_axis_neg2", UnbindAxisNeg2, "-2"),
                            ("unbind_axis_neg3", UnbindAxisNeg3, "-3")):
        add(name, "list(x.unbind(%s)) of a rank-3 tensor" % axis, cls, one(RANK3), ["x"], ["out"])

    # split / chunk
    add("split_sizes", "x.split([1, 3, 2], 1)", SplitSizes, one((2, 6)), ["x"], ["out"])
    for dt in (torch.float32, torch.int8):
        add("split_int_remainder" + _suffix(dt),
            "x.split(2, 0) of a dim of size 5 (2, 2, 1) and of size 0 (one [0, 3] chunk)",
            SplitIntRemainder, one((5, 3), (0, 3)), ["x"], ["out"], dtype=dt,
            dynamic_axes={"x": rows})
    add("chunk", "x.chunk(3, 0) of a dim of size 7 (3, 3, 1)", Chunk, one((7, 2)), ["x"], ["out"])

    # cat / stack of a list appended in a loop
    for name, cls, axis in (("stack_axis0", StackAxis0, "0"), ("stack_axis1", StackAxis1, "1"),
                            ("stack_axis2", StackAxis2, "2"), ("stack_axis_neg1", StackAxisNeg1, "-1"),
                            ("stack_axis_neg2", StackAxisNeg2, "-2"),
                            ("stack_axis_neg3", StackAxisNeg3, "-3")):
        add(name, "torch.stack(lst, %s) of a list appended in a loop" % axis, cls, one(RANK3),
            ["x"], ["y"])
    add("stack_axis1_int32", "torch.stack(lst, 1) of a list appended in a loop", StackAxis1,
        one(RANK3), ["x"], ["y"], dtype=torch.int32)
    for name, cls, axis in (("cat_axis0", CatAxis0, "0"), ("cat_axis1", CatAxis1, "1"),
                            ("cat_axis_neg1", CatAxisNeg1, "-1"), ("cat_axis_neg2", CatAxisNeg2, "-2")):
        add(name, "torch.cat(lst, %s) of a list appended in a loop" % axis, cls, one(RANK3),
            ["x"], ["y"])

    # comprehensions, lists carried through loops
    add("list_comprehension", "[t * 2 + 1 for t in x.unbind(0)]", ListComprehension,
        one((3, 2), (0, 2)), ["x"], ["out"], dynamic_axes={"x": rows})
    add("reverse_loop", "out.append(lst[len(lst) - 1 - i]) over a list from unbind", ReverseLoop,
        one((3, 2), (0, 2)), ["x"], ["out"], dynamic_axes={"x": rows})
    add("sum_over_list_slice", "acc = acc + t for t in lst[1:] of x.split(1, 1)", SumOverList,
        one((2, 4)), ["x"], ["acc"])

    # zero-size tensors
    add("unbind_zero_rows", "list(x.unbind(0)) of a [0, 3] tensor (an empty list)", UnbindAxis0,
        one((0, 3), (2, 3)), ["x"], ["out"], dynamic_axes={"x": rows})
    add("stack_zero_size_elems", "torch.stack(lst, 1) of two [0, 3] tensors appended in a loop",
        StackAxis1, one((2, 0, 3)), ["x"], ["y"])

    # among dense operators
    add("matmul_relu_append", "out.append(relu(h @ w)) in a loop (MatMul, Relu)", MatmulReluAppend,
        matmul_inputs, ["x", "w"], ["out"])
    add("linear_per_chunk", "torch.cat([fc(t) for t in x.chunk(2, 0)], 1) with an nn.Linear",
        LinearPerChunk, one((4, 3)), ["x"], ["y"])
    add("softmax_split", "list(softmax(x, 1).split([1, 2], 1)) (Softmax)", SoftmaxSplit,
        one((2, 3)), ["x"], ["out"])
    add("sum_each_row", "torch.stack([t.sum(1) for t in x.split(1, 0)]) (ReduceSum)", SumEachRow,
        one((3, 4)), ["x"], ["y"])
    add("nonzero_transposed_list", "[idx, idx.t()] of idx = torch.nonzero(x) (NonZero, Transpose)",
        NonzeroTransposedList, signed((2, 3), (3, 2)), ["x"], ["out"],
        dynamic_axes={"x": {0: "rows", 1: "cols"}})
    add("where_topk_insert", "lst.insert(0, where(x > 2, x, -x)) before topk(x, 2) values (Where, TopK)",
        WhereTopkInsert, one((2, 4)), ["x"], ["y"])
    add("mod_in_loop", "out.append(x % (i + 2)) in a loop over int64 x (Mod)", ModInLoop,
        one((2, 3)), ["x"], ["out"], dtype=torch.int64)
    add("slices_of_lengths", "out.append(x[i, :lengths[i]]) in a loop: rows of their own lengths",
        SlicesOfLengths, rows_and_lengths, ["x", "lengths"], ["out"])
    return p


def _suffix(dtype):
    return "" if dtype == torch.float32 else "_" + ONNX_DTYPE_NAMES[dtype]


ONNX_DTYPE_NAMES = {
    torch.float32: "float",
    torch.float64: "double",
    torch.float16: "float16",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.bool: "bool",
}

PROGRAMS = _catalog()
