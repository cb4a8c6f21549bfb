// Writes the seed corpora of the fuzz targets from the sequence fixtures: every case of the
// ONNX backend test data that uses a sequence operator, and the generated corpus when present.
//   fuzz_make_seeds OUT_DIR [ONNX_TESTDATA_ROOT] [CORPUS_ROOT]
// gives OUT_DIR/{tensor_proto,sequence_proto,model,ops}/<n>, and OUT_DIR/diff/<n>: the first
// programs of a campaign (seed 1), encoded for fuzz_diff's structural mutator.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cases/case.h"
#include "cases/data_dir.h"
#include "difffuzz/campaign.h"
#include "difffuzz/encoding.h"
#include "fuzz/fuzz_common.h"

namespace fs = std::filesystem;
using namespace seqconf;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr size_t kDiffSeeds = 100;  // programs of every size (program i has size i % 100)

struct Writer {
  fs::path dir;
  size_t n = 0;
  explicit Writer(fs::path d) : dir(std::move(d)) { fs::create_directories(dir); }
  void put(const std::string& bytes) {
    std::ofstream(dir / std::to_string(n++), std::ios::binary) << bytes;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fuzz_make_seeds OUT_DIR [ONNX_TESTDATA_ROOT] [CORPUS_ROOT]\n";
    return 2;
  }
  const fs::path out = argv[1];
  const fs::path testdata = argc > 2 ? fs::path(argv[2]) : default_onnx_testdata_root();
  Writer tensors(out / "tensor_proto"), sequences(out / "sequence_proto"), models(out / "model"),
      ops(out / "ops");
  std::vector<Case> cases = discover_onnx_backend(testdata);
  if (argc > 3 && fs::is_directory(argv[3])) {
    auto corpus = load_corpus(argv[3]);
    cases.insert(cases.end(), corpus.begin(), corpus.end());
  }
  for (const Case& c : cases) {
    if (!c.load_error.empty()) continue;
    const std::string model = slurp(c.dir / "model.onnx");
    for (const auto& ds : fs::directory_iterator(c.dir)) {
      if (!ds.is_directory()) continue;
      std::string packed;
      fuzz::append_chunk(packed, model);
      for (int k = 0;; ++k) {
        const fs::path f = ds.path() / ("input_" + std::to_string(k) + ".pb");
        if (!fs::exists(f)) break;
        fuzz::append_chunk(packed, slurp(f));
      }
      models.put(packed);
      for (const auto& f : fs::directory_iterator(ds.path())) {
        // Both wire formats share field numbers, so each .pb seeds both targets (for the
        // sequence target behind a selector byte: no declared element type).
        const std::string bytes = slurp(f.path());
        tensors.put(bytes);
        sequences.put(std::string(1, '\0') + bytes);
      }
    }
  }
  // The ops target reads bytes directly; a few short patterns start it off.
  for (int op = 0; op < 9; ++op)
    ops.put(std::string{static_cast<char>(0), static_cast<char>(op), 3, 2, 1, 1, 2});
  Writer programs(out / "diff");
  const auto gen = difffuzz::program_gen();
  for (size_t i = 0; i < kDiffSeeds; ++i)
    programs.put(difffuzz::encode(difffuzz::campaign_program(gen, 1, i).value()));
  std::cout << cases.size() << " cases: " << tensors.n << " tensor, " << sequences.n
            << " sequence, " << models.n << " model, " << ops.n << " ops, " << programs.n
            << " diff seeds in " << out.string() << "\n";
  return 0;
}
