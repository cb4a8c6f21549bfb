#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <set>
#include <vector>

#include "harness/run.h"
#include "reference/error.h"

namespace seqconf {
namespace {

TEST(Shard, Fnv1aTestVectors) {
  // Published FNV-1a 64-bit test vectors.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(Shard, Parse) {
  const Shard s = parse_shard("2/3");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.text(), "2/3");
  for (const char* bad : {"0/2", "3/2", "1/0", "1", "a/b", "1/2x", "/2", "-1/2", ""})
    EXPECT_THROW(parse_shard(bad), Error) << bad;
}

TEST(Shard, EveryIdInExactlyOneShard) {
  std::vector<std::string> ids;
  for (int k = 0; k < 200; ++k) ids.push_back("corpus/SequenceAt/case_" + std::to_string(k));
  for (int n : {1, 2, 3, 7}) {
    std::vector<int> sizes(n, 0);
    for (const auto& id : ids) {
      int owners = 0;
      for (int i = 1; i <= n; ++i)
        if (Shard{i, n}.contains(id)) ++owners, ++sizes[i - 1];
      EXPECT_EQ(owners, 1) << id << " in " << n << " shards";
    }
    for (int sz : sizes) EXPECT_GT(sz, 0) << n << " shards";
  }
}

TEST(RunIndices, EachIndexOnceOnEveryWorkerCount) {
  for (int jobs : {1, 2, 4}) {
    std::vector<std::atomic<int>> hits(100);
    std::atomic<int> bad_worker{0};
    const size_t started = run_indices(hits.size(), jobs, [&](int worker, size_t i) {
      if (worker < 0 || worker >= std::max(jobs, 1)) ++bad_worker;
      ++hits[i];
    });
    EXPECT_EQ(started, hits.size());
    EXPECT_EQ(bad_worker.load(), 0);
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

TEST(RunIndices, StopRequestStartsNoNewIndex) {
  clear_stop_request();
  std::vector<int> seen;
  const size_t started = run_indices(10, 1, [&](int, size_t i) {
    seen.push_back(static_cast<int>(i));
    if (i == 3) request_stop();
  });
  EXPECT_EQ(started, 4u);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(stop_requested());
  clear_stop_request();
}

TEST(StopHandlers, SigtermSetsTheFlagInsteadOfKilling) {
  clear_stop_request();
  install_stop_handlers();
  std::raise(SIGTERM);
  EXPECT_TRUE(stop_requested());
  EXPECT_EQ(stop_signal(), SIGTERM);
  clear_stop_request();
}

}  // namespace
}  // namespace seqconf

namespace seqconf {
namespace {

// What reaches the terminal, written out by hand: ESC (0x1b), BEL (0x07), DEL (0x7f) and the
// C1 CSI (U+009B, UTF-8 c2 9b) become visible escapes; tab and other UTF-8 stay as they are.
TEST(TerminalSafe, ControlCharactersBecomeVisible) {
  EXPECT_EQ(terminal_safe("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(terminal_safe("a\x07"
                          "b\x7f"
                          "c"),
            "a\\x07b\\x7fc");
  EXPECT_EQ(terminal_safe("\xc2\x9b"
                          "2J"),
            "\\u009b2J");
  EXPECT_EQ(terminal_safe("line 1\nline 2\r"), "line 1\\nline 2\\x0d");
  EXPECT_EQ(terminal_safe("row 1\n\x1b[Krow 2\n", true), "row 1\n\\x1b[Krow 2\n");
  EXPECT_EQ(terminal_safe("tab\there \xc3\xa9 \xc2\xa0"), "tab\there \xc3\xa9 \xc2\xa0");
}

TEST(TerminalSafe, OutcomeLinesAreSafe) {
  Outcome o;
  o.case_id = "corpus/x\x1b]0;title\x07";
  o.status = Status::error;
  o.reason = Reason::internal;
  o.message = "\x1b[2Jcleared";
  EXPECT_EQ(outcome_line(o), "ERROR corpus/x\\x1b]0;title\\x07 [internal] \\x1b[2Jcleared");
}

}  // namespace
}  // namespace seqconf
