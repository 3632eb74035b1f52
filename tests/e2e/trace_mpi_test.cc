// MPI tracing (collect -m on) with real Open MPI: ranks launched by mpirun, each recording its
// own experiment (test.M.er / group.M.er); exact send/receive counts and bytes per rank and in
// total by the manual's accounting (seed-spec §2.5); a rank that computes 3x longer shows up as
// the other ranks' MPI time. mpirun runs as root in CI: --allow-run-as-root --oversubscribe.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "collect_fixture.h"
#include "format/mpi_functions.h"

namespace erkit::e2e {
namespace {

struct Sums {
  uint64_t mpi_ns = 0, sends = 0, bytes_sent = 0, receives = 0, bytes_received = 0, other = 0;
};

Sums sums(const reader::Experiment& e, std::initializer_list<uint32_t> only = {}) {
  Sums s;
  for (const auto& m : e.mpi) {
    if (only.size() && std::find(only.begin(), only.end(), m.function) == only.end()) continue;
    s.mpi_ns += m.duration_ns;
    s.sends += m.sends;
    s.bytes_sent += m.bytes_sent;
    s.receives += m.receives;
    s.bytes_received += m.bytes_received;
    s.other += format::mpi_function_category(m.function) == format::MpiCategory::kOther;
  }
  return s;
}

// The values of the "<Total>" row of an er_print -json functions report.
std::vector<int64_t> total_row(const std::string& json) {
  std::smatch m;
  std::regex re(R"re("name":"<Total>","values":\[([0-9,]*)\])re");
  std::vector<int64_t> out;
  if (!std::regex_search(json, m, re)) return out;
  std::stringstream ss(m[1].str());
  std::string v;
  while (std::getline(ss, v, ',')) out.push_back(std::stoll(v));
  return out;
}

class MpiTrace : public CollectTest {
 protected:
  void SetUp() override {
    CollectTest::SetUp();
    if (!std::filesystem::exists(program("mpi_ring")) || run("command -v mpirun").status != 0)
      GTEST_SKIP() << "Open MPI (mpirun, mpicc) is not installed: run scripts/install-deps";
  }
  // mpirun as CI runs it: as root, more ranks than cores, shared memory between the ranks.
  RunResult mpirun(int np, const std::string& command) {
    return run(fmt::format("cd {} && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                           "timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader "
                           "-np {} {}",
                           dir_, np, command));
  }
};

constexpr int kRanks = 4;
constexpr uint64_t kMessages = 5, kBytes = 1000, kDoubles = 16;
const char* const kMpiMetrics = "e.mpisend:e.mpibytesent:e.mpireceive:e.mpibytesrecv:e.mpiother";

TEST_F(MpiTrace, RingAndAllreduceCountsAreExactPerRankAndInTotal) {
  auto r = mpirun(kRanks, fmt::format("{} -m on -g ring.erg {} {} {} {} 10 -1", bin("collect"), program("mpi_ring"),
                                      kMessages, kBytes, kDoubles));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // Per rank (G = 4): K ring sends of B bytes, and the Allreduce of N = 8*16 bytes counted as G
  // packets of N bytes each way; Barrier, Init and Finalize are the other calls.
  const uint64_t sends = kMessages + kRanks, bytes = kMessages * kBytes + kRanks * 8 * kDoubles;
  std::string group = read("ring.erg");
  for (int rank = 0; rank < kRanks; ++rank) {
    std::string name = fmt::format("ring.{}.er", rank);
    EXPECT_NE(group.find(name + "\n"), std::string::npos) << group;
    auto e = open(name);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->log.mpi_rank, rank);
    EXPECT_EQ(e->log.mpi_size, kRanks);
    Sums s = sums(*e);
    EXPECT_EQ(s.sends, sends) << name;
    EXPECT_EQ(s.bytes_sent, bytes) << name;
    EXPECT_EQ(s.receives, sends) << name;
    EXPECT_EQ(s.bytes_received, bytes) << name;
    EXPECT_EQ(s.other, 3u) << name;
    Sums send = sums(*e, {format::kMpi_Send});
    EXPECT_EQ(send.sends, kMessages);
    EXPECT_EQ(send.bytes_sent, kMessages * kBytes);
    for (const auto& m : e->mpi)
      if (m.function == format::kMpi_Send) {
        EXPECT_EQ(m.peer, (rank + 1) % kRanks);
        EXPECT_EQ(m.tag, 7);
        EXPECT_EQ(m.comm_size, kRanks);
      }
  }
  // One analysis over all ranks: the group's totals, and one rank by the RANK filter.
  auto all = er_print(fmt::format("-json -metrics {} -functions ring.erg", kMpiMetrics));
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(total_row(all.out), (std::vector<int64_t>{int64_t(kRanks * sends), int64_t(kRanks * bytes),
                                                      int64_t(kRanks * sends), int64_t(kRanks * bytes), 4 * 3}))
      << all.out;
  auto one = er_print(fmt::format("-json -metrics {} -filters 'RANK==2' -functions ring.erg", kMpiMetrics));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(total_row(one.out),
            (std::vector<int64_t>{int64_t(sends), int64_t(bytes), int64_t(sends), int64_t(bytes), 3}))
      << one.out;
  // MPI_Send is a function of the report, with the ring's sends.
  auto text = er_print(fmt::format("-metrics {} -functions ring.erg", kMpiMetrics));
  auto rows = parse_function_list(text.out);
  ASSERT_TRUE(rows.count("MPI_Send")) << text.out;
  EXPECT_EQ(rows["MPI_Send"].values.at(0), double(kRanks * kMessages));
  // The timeline export: every MPI call a slice on its rank's track (K sends, K receives,
  // Allreduce, Barrier, Init, Finalize), an arrow for every ring message.
  auto conv = run(fmt::format("cd {} && {} -format chrome -o ring.json ring.erg", dir_, bin("er_convert")));
  ASSERT_EQ(conv.status, 0) << conv.err;
  std::string trace = read("ring.json");
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = trace.find(what); at != std::string::npos; at = trace.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(R"("cat":"mpi","ph":"X")"), kRanks * (2 * kMessages + 4));
  EXPECT_EQ(count(R"("ph":"s")"), kRanks * kMessages);
  EXPECT_EQ(count(R"("ph":"f")"), kRanks * kMessages);
  auto ranks = er_print("-rank_list ring.erg");
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  for (int rank = 0; rank < kRanks; ++rank)
    EXPECT_TRUE(std::regex_search(ranks.out, std::regex(fmt::format(R"(\n {{3}}{} )", rank)))) << ranks.out;
}

TEST_F(MpiTrace, SlowRankShowsAsTheOthersMpiTime) {
  constexpr int kSlow = 2;
  auto r = mpirun(kRanks, fmt::format("{} -m on {} 3 64 4 150 {} {}", bin("collect"), program("mpi_ring"), kSlow, dir_));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // truth.<rank>: rank size t0 t1 t3 (CLOCK_MONOTONIC: compute start, compute end, Allreduce end).
  std::map<int, std::array<int64_t, 3>> truth;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::ifstream in(path(fmt::format("truth.{}", rank)));
    int rk = -1, size = 0;
    int64_t t0 = 0, t1 = 0, t3 = 0;
    in >> rk >> size >> t0 >> t1 >> t3;
    ASSERT_EQ(rk, rank);
    truth[rank] = {t0, t1, t3};
  }
  uint64_t slow_wait = 0, fast_min = UINT64_MAX;
  for (int rank = 0; rank < kRanks; ++rank) {
    auto e = open(fmt::format("test.{}.er", rank));
    ASSERT_TRUE(e);
    // Everything rank r did after its compute phase was MPI (ring Send/Recv, Allreduce): its MPI
    // time there is the wall time the program measured (t3 - t1), within 10 %.
    Sums s = sums(*e, {format::kMpi_Send, format::kMpi_Recv, format::kMpi_Allreduce});
    double measured = double(truth[rank][2] - truth[rank][1]);
    EXPECT_NEAR(double(s.mpi_ns), measured, 0.1 * measured + 5e6) << "rank " << rank;
    if (rank == kSlow) {
      slow_wait = s.mpi_ns;
      continue;
    }
    fast_min = std::min(fast_min, s.mpi_ns);
    // A fast rank waits for the slow one at least until the slow one's compute ended (the
    // program computes for a wall time, so the slow rank finishes last even under load).
    double behind = double(truth[kSlow][1] - truth[rank][1]);
    EXPECT_GE(double(s.mpi_ns), 0.9 * behind) << "rank " << rank;
  }
  EXPECT_LT(slow_wait, fast_min / 2) << "the slow rank should hardly wait";
}

TEST_F(MpiTrace, LauncherFollowedIntoTheRanks) {
  // collect -m on mpirun ...: the ranks are descendants of mpirun (-m on implies -F on).
  auto r = run(fmt::format("cd {} && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 {} -m on "
                           "-o job.1.er mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 2 "
                           "{} 3 100 4 10 -1",
                           dir_, bin("collect"), program("mpi_ring")));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  auto founder = open("job.1.er");
  ASSERT_TRUE(founder);
  std::map<int64_t, Sums> by_rank;
  for (const auto& d : std::filesystem::recursive_directory_iterator(path("job.1.er"))) {
    if (!d.is_directory() || d.path().extension() != ".er") continue;
    auto e = reader::open_experiment(d.path().string());
    ASSERT_TRUE(e.experiment) << e.error;
    if (e.experiment->log.mpi_rank >= 0) by_rank[e.experiment->log.mpi_rank] = sums(*e.experiment);
  }
  ASSERT_EQ(by_rank.size(), 2u) << "ranks found as descendants of mpirun";
  for (const auto& [rank, s] : by_rank) {
    EXPECT_EQ(s.sends, 3u + 2u) << rank;                 // 3 ring messages, Allreduce with G = 2
    EXPECT_EQ(s.bytes_sent, 3u * 100u + 2u * 32u) << rank;  // 4 doubles = 32 bytes, G packets
    EXPECT_EQ(s.receives, 3u + 2u) << rank;
  }
  auto ranks = er_print("-en_desc on -json -rank_list job.1.er");
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  EXPECT_NE(ranks.out.find(R"("rank":0,)"), std::string::npos) << ranks.out;
  EXPECT_NE(ranks.out.find(R"("rank":1,)"), std::string::npos) << ranks.out;
  EXPECT_EQ(ranks.out.find(R"("rank":-1,)"), std::string::npos) << "mpirun itself is no rank: " << ranks.out;
}

TEST_F(MpiTrace, RanksOnSeparateDirectoriesAnalysedTogether) {
  // As on two nodes with node-local directories: each rank writes under its own -d, the
  // experiments are analysed together afterwards.
  std::filesystem::create_directories(path("node0"));
  std::filesystem::create_directories(path("node1"));
  auto r = mpirun(2, fmt::format("sh -c '{} -m on -d node$((OMPI_COMM_WORLD_RANK % 2)) {} 2 10 1 5 -1'",
                                 bin("collect"), program("mpi_ring")));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  ASSERT_TRUE(exists("node0/test.0.er"));
  ASSERT_TRUE(exists("node1/test.1.er"));
  auto all = er_print(fmt::format("-json -metrics {} -functions node0/test.0.er node1/test.1.er", kMpiMetrics));
  ASSERT_EQ(all.status, 0) << all.err;
  // Per rank: 2 ring sends of 10 bytes, Allreduce of 8 bytes with G = 2 (2 packets of 8 bytes).
  EXPECT_EQ(total_row(all.out), (std::vector<int64_t>{2 * 4, 2 * 36, 2 * 4, 2 * 36, 2 * 3})) << all.out;
}

TEST_F(MpiTrace, FortranCallsAreTraced) {
  if (!std::filesystem::exists(program("mpi_fring"))) GTEST_SKIP() << "no Fortran MPI compiler (mpif90)";
  auto r = mpirun(2, fmt::format("{} -m on {}", bin("collect"), program("mpi_fring")));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  for (int rank = 0; rank < 2; ++rank) {
    auto e = open(fmt::format("test.{}.er", rank));
    ASSERT_TRUE(e);
    EXPECT_EQ(e->log.mpi_rank, rank);
    // 3 sends of 100 doubles; Allreduce of 4 doubles as G = 2 packets of 32 bytes; Barrier, Init
    // and Finalize are the other calls.
    Sums s = sums(*e);
    EXPECT_EQ(s.sends, 3u + 2u);
    EXPECT_EQ(s.bytes_sent, 3u * 800u + 2u * 32u);
    EXPECT_EQ(s.receives, 3u + 2u);
    EXPECT_EQ(s.bytes_received, 3u * 800u + 2u * 32u);
    EXPECT_EQ(s.other, 3u);
  }
  auto text = er_print(fmt::format("-metrics {} -functions test.0.er test.1.er", kMpiMetrics));
  auto rows = parse_function_list(text.out);
  ASSERT_TRUE(rows.count("mpi_send_")) << text.out;
  EXPECT_EQ(rows["mpi_send_"].values.at(0), 6.0);
}

}  // namespace
}  // namespace erkit::e2e
