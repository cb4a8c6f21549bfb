// Uniform integer choice. rc::gen::inRange scales its range with RapidCheck's size, so early
// cases would only ever see the low end (always position -n, always the first alternative);
// choices that are not magnitudes draw uniformly and still shrink toward min.
#pragma once

#include <rapidcheck.h>

namespace seqconf::gens {

template <class T>
rc::Gen<T> uniform(T min, T max) {  // [min, max)
  return rc::gen::resize(100, rc::gen::inRange<T>(min, max));
}

}  // namespace seqconf::gens
