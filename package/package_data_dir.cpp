// Installed as share/seqconf/package_data_dir.cpp. find_package(seqconf) adds it to every
// program that links seqconf::seqconf, with SEQCONF_PACKAGE_DATA_DIR naming the installed
// share/seqconf: the library then reads the corpus it was installed with, not the source tree
// it was built from.
#include "cases/data_dir.h"

namespace {
const bool package_data_dir_set = seqconf::set_package_data_dir(SEQCONF_PACKAGE_DATA_DIR);
}  // namespace
