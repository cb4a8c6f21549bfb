// main() of the test programs that start worker processes: a worker is the test program started
// again (runtimes/isolated.h), which serves its parent instead of running the tests.
#include <gtest/gtest.h>

#include "runtimes/isolated.h"

int main(int argc, char** argv) {
  seqconf::serve_if_worker(argc, argv);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
