// Parameter lists of the catalogs, built declaratively: start from one default record or a
// deliberate list, then
//   combine(&Row::field, values)   every record once per value (cartesian product),
//   expand(&Row::field, f)         every record once per value of f(record): values that depend
//                                  on the fields set so far,
//   filter(keep) / unless(drop)    prune records.
// e.g. Params<Row>().combine(&Row::dtype, kAllDataTypes).combine(&Row::n, {5, 1, 0})
//          .expand(&Row::position, [](const Row& r) { return positions(r.n); })
//          .unless([](const Row& r) { return r.n == 0; })
// The order is that of nested loops, the first combine outermost.
//
// The ID of a case is built from its record; IdKeys declares, once per operator, the order of
// the ID's keys.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "generators/catalog/catalog.h"

namespace seqconf::catalog {

template <class T>
struct NotDeduced {
  using type = T;
};

template <class Row>
class Params {
 public:
  // One record, every field at its default.
  Params() : rows_(1) {}
  // A deliberate list of records.
  Params(std::initializer_list<Row> rows) : rows_(rows) {}
  explicit Params(std::vector<Row> rows) : rows_(std::move(rows)) {}

  template <class T, class Values>
  Params combine(T Row::*field, const Values& values) const {
    return expand(field, [&](const Row&) -> const Values& { return values; });
  }
  template <class T>
  Params combine(T Row::*field, std::initializer_list<typename NotDeduced<T>::type> values) const {
    return combine(field, std::vector<T>(values));
  }

  // values_of(record) gives the values of `field` for that record.
  template <class T, class F>
  Params expand(T Row::*field, F values_of) const {
    std::vector<Row> out;
    for (const Row& r : rows_) {
      for (const auto& v : values_of(r)) {
        Row e = r;
        e.*field = v;
        out.push_back(std::move(e));
      }
    }
    return Params(std::move(out));
  }

  template <class F>
  Params filter(F keep) const {
    std::vector<Row> out;
    for (const Row& r : rows_)
      if (keep(r)) out.push_back(r);
    return Params(std::move(out));
  }
  template <class F>
  Params unless(F drop) const {
    return filter([&](const Row& r) { return !drop(r); });
  }

  const std::vector<Row>& rows() const { return rows_; }
  auto begin() const { return rows_.begin(); }
  auto end() const { return rows_.end(); }

 private:
  std::vector<Row> rows_;
};

// The keys of an operator's case IDs, in ID order.
class IdKeys {
 public:
  IdKeys() = default;
  IdKeys(std::initializer_list<const char*> keys) : keys_(keys.begin(), keys.end()) {}

  // The components in the declared order (whatever order they come in); throws
  // std::logic_error for a key not declared or given twice.
  std::vector<Param> order(std::vector<Param> params) const {
    std::vector<Param> out;
    for (const std::string& key : keys_)
      for (const Param& p : params)
        if (p.key == key) out.push_back(p);
    if (out.size() != params.size()) check(params);  // names the undeclared key
    check(out);
    return out;
  }

  // Throws std::logic_error unless the keys are declared, each at most once, in the declared
  // order.
  void check(const std::vector<Param>& params) const {
    size_t next = 0;  // keys_[next..] may still come
    for (const Param& p : params) {
      size_t k = next;
      while (k < keys_.size() && keys_[k] != p.key) ++k;
      if (k == keys_.size())
        throw std::logic_error("catalog: ID key \"" + p.key + "\" " +
                               (declared(p.key) ? "out of the declared order" : "not declared") +
                               " (keys: " + joined() + ")");
      next = k + 1;
    }
  }

  // Appends c to out, after checking its keys.
  void add(std::vector<CatalogCase>& out, CatalogCase c) const {
    check(c.params);
    out.push_back(std::move(c));
  }

 private:
  bool declared(const std::string& key) const {
    for (const std::string& k : keys_)
      if (k == key) return true;
    return false;
  }
  std::string joined() const {
    std::string s;
    for (const std::string& k : keys_) s += (s.empty() ? "" : ", ") + k;
    return s;
  }

  std::vector<std::string> keys_;
};

}  // namespace seqconf::catalog
