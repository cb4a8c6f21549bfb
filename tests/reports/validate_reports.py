#!/usr/bin/python3
"""Validates seqconf reports: every *.json against the given schema (draft 2020-12: the report
schema, the diff schema for the JSON of seqconf diff, or the fuzz schema for a campaign's report), every *.xml as well-formed JUnit
whose testsuite counts match its testcases.

  validate_reports.py SCHEMA FILE...

A report's departures must hold every case whose status is not pass exactly once, each with the
case's op and as many cases as its count (the schema cannot say this).

Also checks that the schema rejects a report with a broken case, and one whose op x context
matrix is missing or names an empty context (a diff: a regression that did not pass before), so
the check can fail.
Exit 0 when all are valid, 1 otherwise, 77 (skip) when jsonschema is not installed.
"""
import copy
import json
import sys
import xml.etree.ElementTree as ET

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)


def check_junit(path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", f"{path}: root is {root.tag}"
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases), f"{path}: tests != testcases"
        for tag, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            n = sum(1 for c in cases if c.find(tag) is not None)
            assert int(suite.get(attr)) == n, f"{path}: {attr}={suite.get(attr)}, counted {n}"
        for c in cases:
            assert c.get("name") and c.get("classname") is not None, f"{path}: unnamed testcase"


MACHINERY_WHAT = "departs in the graph around the operator"


def departure_errors(doc):
    """What is wrong with the departures of a report: [] when they hold every non-pass case
    exactly once, with its op. In a fuzz campaign's report (seqconf-fuzz.schema.json) the cases
    are the findings, corpus/<id>, and each finding names its departure."""
    if doc.get("kind") == "seqconf-fuzz":
        op_of = {"corpus/" + f["id"]: f["op"] for f in doc["findings"]}
        named = {"corpus/" + f["id"]: f["departure"] for f in doc["findings"]}
        errors = [f"{case} names departure {d['id']} but is not in it"
                  for d in doc["departures"] for case in named
                  if named[case] == d["id"] and case not in d["cases"]]
        new = [d["new"] for d in doc["departures"]]
        if new != sorted(new, reverse=True):
            errors.append("a known departure comes before a new one")
        if doc["new_departures"] != sum(new):
            errors.append(f"new_departures {doc['new_departures']}, {sum(new)} new")
        return errors + coverage_errors(doc, op_of)
    # A case not judged (the suite cannot say what the spec means) is in no departure. An
    # exported case that the spec rejects through one of its nodes, or whose departure is
    # localized to a node on the runtime's own values, is in a departure of that node's operator.
    return coverage_errors(doc, {c["id"]: departure_op(c) for c in doc["cases"]
                                 if c["status"] not in ("pass", "not_judged")})


def departure_op(case):
    loc = case.get("localization") or {}
    if loc.get("kind") == "node":
        return loc["op"]
    fault = (case.get("exported") or {}).get("fault")
    return fault["op"] if fault else case["op"]


def coverage_errors(doc, op_of):
    """Each case of op_of (id -> op) in exactly one departure, of its op, or of the graph
    machinery around it (a departure whose what says so holds cases of several operators)."""
    seen = {}
    errors = []
    for d in doc["departures"]:
        if d["count"] != len(d["cases"]):
            errors.append(f"departure {d['id']}: count {d['count']}, {len(d['cases'])} cases")
        for case in d["cases"]:
            seen[case] = seen.get(case, 0) + 1
            if case not in op_of:
                errors.append(f"departure {d['id']}: {case} is no non-pass case")
            elif op_of[case] != d["op"] and d["what"] != MACHINERY_WHAT:
                errors.append(f"departure {d['id']}: {case} is of {op_of[case]}")
    errors += [f"{case} is in {n} departures" for case, n in seen.items() if n != 1]
    errors += [f"{case} is in no departure" for case in op_of if case not in seen]
    return errors


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    first = None
    for path in sys.argv[2:]:
        try:
            if path.endswith(".xml"):
                check_junit(path)
            else:
                doc = json.load(open(path, encoding="utf-8"))
                errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
                for e in errors[:10]:
                    print(f"{path}: {'/'.join(map(str, e.path))}: {e.message}")
                if errors:
                    raise AssertionError(f"{len(errors)} schema error(s)")
                if "departures" in doc:
                    errors = departure_errors(doc)
                    for e in errors[:10]:
                        print(f"{path}: departures: {e}")
                    if errors:
                        raise AssertionError(f"{len(errors)} departure error(s)")
                first = first or doc
            print(f"valid: {path}")
        except Exception as e:  # noqa: BLE001 - report every file
            print(f"INVALID: {path}: {e}")
            bad += 1
    if first is not None and first.get("regressed"):
        # A diff (seqconf-diff.schema.json): a regression must start from pass.
        broken = copy.deepcopy(first)
        broken["regressed"][0]["base_status"] = "fail"
        if validator.is_valid(broken):
            print("INVALID: the diff schema accepts a regression that did not pass before")
            bad += 1
    if first is not None and first.get("kind") == "seqconf-fuzz" and first.get("departures"):
        # The coverage check catches a finding left out or a known departure first; the schema
        # a departure that does not say whether it is new.
        dropped = copy.deepcopy(first)
        d = dropped["departures"][0]
        d["cases"] = d["cases"][1:]
        d["count"] = len(d["cases"])
        if not departure_errors(dropped):
            print("INVALID: the departure check accepts a finding in no departure")
            bad += 1
        no_new = copy.deepcopy(first)
        del no_new["departures"][0]["new"]
        if validator.is_valid(no_new):
            print("INVALID: the schema accepts a departure that does not say whether it is new")
            bad += 1
        if len(first["departures"]) > 1 and first["new_departures"] == 1:
            swapped = copy.deepcopy(first)
            swapped["departures"][:2] = swapped["departures"][1::-1]
            if not departure_errors(swapped):
                print("INVALID: the departure check accepts a known departure first")
                bad += 1
    if first is not None and first.get("cases"):
        broken = copy.deepcopy(first)
        broken["cases"][0]["status"] = "flaky"
        del broken["summary"]["total"]
        if validator.is_valid(broken):
            print("INVALID: the schema accepts a report with an unknown status and no total")
            bad += 1
        no_context = copy.deepcopy(first)
        del no_context["context_matrix"]
        empty_context = copy.deepcopy(first)
        empty_context["cases"][0]["context"] = ""
        if first.get("departures"):
            # The coverage check catches a non-pass case left out; the schema a wrong field.
            dropped = copy.deepcopy(first)
            d = dropped["departures"][0]
            d["cases"] = d["cases"][1:]
            d["count"] = len(d["cases"])
            if not d["cases"]:
                del dropped["departures"][0]
            if not departure_errors(dropped):
                print("INVALID: the departure check accepts a non-pass case in no departure")
                bad += 1
            bad_listed = copy.deepcopy(first)
            bad_listed["departures"][0]["listed"] = "maybe"
            if validator.is_valid(bad_listed):
                print("INVALID: the schema accepts a departure listed 'maybe'")
                bad += 1
        no_departures = copy.deepcopy(first)
        del no_departures["departures"]
        for doc, what in ((no_departures, "no departures"),
                          (no_context, "no context_matrix"),
                          (empty_context, "a case with an empty context")):
            if validator.is_valid(doc):
                print(f"INVALID: the schema accepts a report with {what}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
