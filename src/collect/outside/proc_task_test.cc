#include "collect/outside/proc_task.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <thread>

namespace erkit::collect::outside {
namespace {

TEST(ProcTask, ParsesTheKernelsFiles) {
  auto st = parse_schedstat("12345 678 9\n");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->exec_ns, 12345u);
  EXPECT_EQ(st->delay_ns, 678u);
  EXPECT_EQ(st->pcount, 9u);
  EXPECT_FALSE(parse_schedstat("x\n"));

  auto sc = parse_syscall("202 0x7f00 0x80 0x0 0x0 0x0 0x0 0x7ffd1000 0x7f1234\n");
  ASSERT_TRUE(sc);
  EXPECT_FALSE(sc->running);
  EXPECT_EQ(sc->nr, 202);
  EXPECT_EQ(sc->sp, 0x7ffd1000u);
  EXPECT_EQ(sc->pc, 0x7f1234u);
  auto fault = parse_syscall("-1 0x7ffd2000 0x401000\n");
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->nr, -1);
  EXPECT_EQ(fault->pc, 0x401000u);
  EXPECT_TRUE(parse_syscall("running\n")->running);

  // comm with spaces and parentheses; fields 12 (majflt), 14, 15, 22 (proc(5)).
  auto s = parse_stat("77 (a (b) c) S 1 77 77 0 -1 4194560 10 0 3 0 25 7 0 0 20 0 1 0 4242 0 0\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, 'S');
  EXPECT_EQ(s->majflt, 3u);
  EXPECT_EQ(s->utime, 25u);
  EXPECT_EQ(s->stime, 7u);
  EXPECT_EQ(s->start_ticks, 4242u);
}

TEST(ProcTask, ReadsAnotherThreadOfALiveProcess) {
  ProcTask p(getpid());
  uint32_t self = uint32_t(syscall(SYS_gettid));
  auto before = p.tids();
  EXPECT_NE(std::find(before.begin(), before.end(), self), before.end());
  auto st = p.schedstat(self);
  ASSERT_TRUE(st);
  EXPECT_GT(st->exec_ns, 0u);
  // Reading its own file: inside that read (pread of the kept descriptor).
  int64_t nr = p.syscall(self)->nr;
  EXPECT_TRUE(nr == SYS_pread64 || nr == SYS_read) << nr;
  ASSERT_TRUE(p.stat(self));
  EXPECT_EQ(p.stat(self)->state, 'R');
  // Another thread asleep in a system call until told (a fixed sleep could end before a loaded
  // machine lets this thread look): its number, its user sp and pc.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  std::atomic<uint32_t> sleeper{0};
  std::thread t([&] {
    sleeper = uint32_t(syscall(SYS_gettid));
    char c;
    (void)!read(pipe_fds[0], &c, 1);
  });
  while (!sleeper) std::this_thread::yield();
  std::optional<SyscallState> sc;
  for (int i = 0; i < 5000; ++i) {  // until it is inside read
    sc = p.syscall(sleeper);
    if (sc && !sc->running) break;
    usleep(2000);
  }
  (void)!write(pipe_fds[1], "x", 1);
  t.join();
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  ASSERT_TRUE(sc && !sc->running);
  EXPECT_EQ(sc->nr, SYS_read);
  EXPECT_NE(sc->sp, 0u);
  EXPECT_NE(sc->pc, 0u);
  int on_stack = 0;
  EXPECT_EQ(p.page_present(uint64_t(reinterpret_cast<uintptr_t>(&on_stack))).value_or(true), true);
  EXPECT_FALSE(ProcTask(0x7ffffff).schedstat(1));
}

int open_fds() {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) n += !e.path().empty();
  return n;
}

// The files of a thread are kept open while it is listed, closed when it no longer is; a
// thread whose files were kept and that ended reads as gone (not as its old values).
TEST(ProcTask, KeepsEachThreadsFilesOpenUntilItIsNoLongerListed) {
  ProcTask p(getpid());
  const int fds0 = open_fds();
  std::atomic<uint32_t> tid{0};
  std::atomic<bool> go{false};
  std::thread t([&] {
    tid = uint32_t(syscall(SYS_gettid));
    while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!tid) std::this_thread::yield();
  ASSERT_TRUE(p.schedstat(tid));
  ASSERT_TRUE(p.syscall(tid));
  ASSERT_TRUE(p.schedstat(tid));  // the second read from the kept descriptor
  EXPECT_EQ(open_fds(), fds0 + 2);
  go = true;
  t.join();
  EXPECT_FALSE(p.schedstat(tid)) << "an ended thread";
  auto listed = p.tids();
  EXPECT_EQ(std::find(listed.begin(), listed.end(), uint32_t(tid)), listed.end());
  EXPECT_EQ(open_fds(), fds0) << "its descriptors closed";
}

}  // namespace
}  // namespace erkit::collect::outside
