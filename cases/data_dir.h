// Where the suite's data is: the generated corpus, ONNX's backend test data, and the data folder
// of an installed seqconf (share/seqconf: corpus, expectations, report schema).
#pragma once

#include <filesystem>

namespace seqconf {

// The share/seqconf folder of an installed seqconf (cmake --install), or empty for a program
// of the build tree. This is the one place that locates installed data: the folder registered
// with set_package_data_dir (find_package(seqconf) compiles that call into every program linking
// seqconf::seqconf, see package/package_data_dir.cpp), else <folder of the running
// program>/../share/seqconf when that holds a corpus (an installed bin/seqconf).
std::filesystem::path package_data_dir();
bool set_package_data_dir(const std::filesystem::path& dir);

// $SEQCONF_CORPUS, else package_data_dir() / "corpus", else this source tree's fixtures/corpus.
std::filesystem::path default_corpus_root();

// $SEQCONF_EXPORTED, else package_data_dir() / "exported", else this source tree's
// fixtures/exported (models written by torch.onnx, generators/exported).
std::filesystem::path default_exported_root();

// The exporter's known departures applied to exported cases by default:
// package_data_dir() / "expectations/torch-onnx.json", else this source tree's.
std::filesystem::path default_exporter_expectations();

// $SEQCONF_ONNX_TESTDATA, else /usr/share/libonnx-testdata/data (Debian's libonnx-testdata).
std::filesystem::path default_onnx_testdata_root();

}  // namespace seqconf
