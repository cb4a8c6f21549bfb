// toyrt_conformance: the seqconf suite on toyrt. Takes the options of `seqconf run`
// (--help); exit status 0 when every outcome is as the expectations file says, 1 otherwise.
#include <memory>

#include "suite/suite.h"
#include "toyrt.h"

int main(int argc, char** argv) {
  return seqconf::suite_main(argc, argv, [] { return std::make_unique<toyrt::ToyRuntime>(); });
}
