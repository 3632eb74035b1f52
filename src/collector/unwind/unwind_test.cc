// Tests of the CFI unwinder on real code: -O2 -fomit-frame-pointer chains through libc's
// qsort_r and std::sort, sampled by SIGPROF; signal frames; truncation; dlopen; bad input.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "collector/unwind/internal.h"
#include "collector/unwind/test_chain.h"
#include "collector/unwind/unwind.h"

namespace erkit::unwind {
namespace {

constexpr int kMaxFrames = 128;

struct Stack {
  uint64_t pcs[kMaxFrames];
  int n;
  UnwindStatus st;
};

// Function name for a PC; return addresses (index > 0) are looked up at pc-1.
std::string name_of(const uint64_t* pcs, int i) {
  Dl_info info;
  const uint64_t pc = i > 0 ? pcs[i] - 1 : pcs[i];
  if (dladdr(reinterpret_cast<void*>(pc), &info) && info.dli_sname) return info.dli_sname;
  return "?";
}

int find(const Stack& s, const char* fn, int from = 0) {
  for (int i = from; i < s.n; ++i)
    if (name_of(s.pcs, i) == fn) return i;
  return -1;
}

std::string dump(const Stack& s) {
  std::string out;
  for (int i = 0; i < s.n; ++i) {
    char buf[32];
    snprintf(buf, sizeof buf, "  #%d %#lx ", i, static_cast<unsigned long>(s.pcs[i]));
    out += buf + name_of(s.pcs, i) + "\n";
  }
  return out + (s.st.failed ? "  (failed)\n" : "") + (s.st.truncated ? "  (truncated)\n" : "");
}

StackBounds this_thread_stack() {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  return {reinterpret_cast<uintptr_t>(addr), reinterpret_cast<uintptr_t>(addr) + size};
}

class UnwindTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { refresh(); }
};

// ---- Direct unwinding --------------------------------------------------------------------

struct HereArgs {
  Stack* s;
  StackBounds b;
  int max;
};

}  // namespace
}  // namespace erkit::unwind

// extern "C" and exported (ENABLE_EXPORTS) so that dladdr() names them in the checks.
extern "C" __attribute__((noinline)) void unwind_test_here_leaf(void* p) {
  auto* a = static_cast<erkit::unwind::HereArgs*>(p);
  a->s->n = erkit::unwind::unwind_from_here(0, a->b, a->s->pcs, a->max, &a->s->st);
}

namespace erkit::unwind {
namespace {
constexpr auto here_leaf = unwind_test_here_leaf;

TEST_F(UnwindTest, FromHereReachesStartThroughQsortAndStdSort) {
  Stack s{};
  HereArgs a{&s, this_thread_stack(), kMaxFrames};
  chain_outer(12, here_leaf, &a);
  SCOPED_TRACE(dump(s));
  EXPECT_FALSE(s.st.failed);
  EXPECT_FALSE(s.st.truncated);
  EXPECT_GE(s.n, 25);
  EXPECT_EQ(name_of(s.pcs, 0), "unwind_test_here_leaf");
  EXPECT_GE(find(s, "qsort_r"), 0);
  EXPECT_GE(find(s, "chain_outer"), 0);
  EXPECT_GE(find(s, "main"), 0);
  EXPECT_EQ(name_of(s.pcs, s.n - 1), "_start");
}

TEST_F(UnwindTest, UnknownBoundsProbeTheStack) {
  Stack s{};
  HereArgs a{&s, StackBounds{0, 0}, kMaxFrames};
  chain_outer(12, here_leaf, &a);
  SCOPED_TRACE(dump(s));
  EXPECT_FALSE(s.st.failed);
  EXPECT_EQ(name_of(s.pcs, s.n - 1), "_start");
}

TEST_F(UnwindTest, TruncatesAtMaxFrames) {
  Stack full{}, s{};
  HereArgs a{&full, this_thread_stack(), kMaxFrames};
  chain_outer(12, here_leaf, &a);
  a = HereArgs{&s, this_thread_stack(), 5};
  chain_outer(12, here_leaf, &a);
  EXPECT_EQ(s.n, 5);
  EXPECT_TRUE(s.st.truncated);
  EXPECT_FALSE(s.st.failed);
  // Exactly max frames is not truncated.
  a = HereArgs{&s, this_thread_stack(), full.n};
  chain_outer(12, here_leaf, &a);
  EXPECT_EQ(s.n, full.n);
  EXPECT_FALSE(s.st.truncated);
  // Same frames up to chain_outer (its caller's call site differs).
  const int outer = find(full, "chain_outer");
  ASSERT_GT(outer, 5);
  EXPECT_EQ(0, memcmp(s.pcs + 1, full.pcs + 1, outer * sizeof(uint64_t)));
}

TEST_F(UnwindTest, SkipDropsFrames) {
  Stack a{}, b{};
  const StackBounds bounds = this_thread_stack();
  a.n = unwind_from_here(0, bounds, a.pcs, kMaxFrames, &a.st);
  b.n = unwind_from_here(2, bounds, b.pcs, kMaxFrames, &b.st);
  ASSERT_EQ(b.n, a.n - 2);
  EXPECT_EQ(0, memcmp(a.pcs + 3, b.pcs + 1, (b.n - 1) * sizeof(uint64_t)));
}

TEST_F(UnwindTest, ThreadStackEndsCleanly) {
  Stack s{};
  std::thread t([&] {
    HereArgs a{&s, this_thread_stack(), kMaxFrames};
    chain_outer(9, here_leaf, &a);
  });
  t.join();
  SCOPED_TRACE(dump(s));
  EXPECT_FALSE(s.st.failed);
  EXPECT_FALSE(s.st.truncated);
  EXPECT_GE(find(s, "chain_outer"), 0);
  EXPECT_LT(find(s, "main"), 0);
}

// ---- Signal frames -----------------------------------------------------------------------

Stack g_handler_stack;
StackBounds g_bounds;

}  // namespace
}  // namespace erkit::unwind

extern "C" __attribute__((noinline)) void unwind_test_on_usr1(int, siginfo_t*, void*) {
  using namespace erkit::unwind;
  g_handler_stack.n =
      unwind_from_here(0, g_bounds, g_handler_stack.pcs, kMaxFrames, &g_handler_stack.st);
}

extern "C" __attribute__((noinline)) void unwind_test_raise_leaf(void*) {
  raise(SIGUSR1);
  asm volatile("");
}

namespace erkit::unwind {
namespace {
constexpr auto on_usr1 = unwind_test_on_usr1;
constexpr auto raise_leaf = unwind_test_raise_leaf;

void expect_through_signal_frame(const Stack& s) {
  SCOPED_TRACE(dump(s));
  EXPECT_FALSE(s.st.failed);
  EXPECT_FALSE(s.st.truncated);
  const int h = find(s, "unwind_test_on_usr1");
  const int r = find(s, "unwind_test_raise_leaf");
  const int o = find(s, "chain_outer");
  EXPECT_EQ(h, 0);
  EXPECT_GT(r, h);
  EXPECT_GT(o, r);
  EXPECT_EQ(name_of(s.pcs, s.n - 1), "_start");
}

TEST_F(UnwindTest, HandlerFramesThenInterruptedFrames) {
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_usr1;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &sa, &old);
  g_bounds = this_thread_stack();
  g_handler_stack = Stack{};
  chain_outer(9, raise_leaf, nullptr);
  sigaction(SIGUSR1, &old, nullptr);
  expect_through_signal_frame(g_handler_stack);
}

TEST_F(UnwindTest, HandlerOnSigaltstackCrossesStacks) {
  static char alt[64 * 1024];
  stack_t ss{}, old_ss{};
  ss.ss_sp = alt;
  ss.ss_size = sizeof alt;
  sigaltstack(&ss, &old_ss);
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_usr1;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGUSR1, &sa, &old);
  g_bounds = this_thread_stack();  // the handler starts outside these: probed
  g_handler_stack = Stack{};
  chain_outer(9, raise_leaf, nullptr);
  sigaction(SIGUSR1, &old, nullptr);
  sigaltstack(&old_ss, nullptr);
  expect_through_signal_frame(g_handler_stack);
}

// ---- SIGPROF sampling of CPU-bound code -------------------------------------------------

constexpr int kSamples = 300;
struct ProfSample {
  Stack uc, here;
};
ProfSample g_prof[kSamples];
std::atomic<int> g_nprof{0};
volatile int g_stop;
StackBounds g_prof_bounds;

void on_prof(int, siginfo_t*, void* uc) {
  const int i = g_nprof.load(std::memory_order_relaxed);
  if (i >= kSamples) {
    g_stop = 1;
    return;
  }
  ProfSample& p = g_prof[i];
  // Every other sample with unknown bounds, to cover the probing path too.
  const StackBounds b = (i & 1) ? StackBounds{0, 0} : g_prof_bounds;
  p.uc.n = unwind_from_ucontext(uc, b, p.uc.pcs, kMaxFrames, &p.uc.st);
  p.here.n = unwind_from_here(0, b, p.here.pcs, kMaxFrames, &p.here.st);
  g_nprof.store(i + 1, std::memory_order_relaxed);
}

void check_prof_samples(const char* outer, const char* last) {
  int complete = 0, consistent = 0;
  std::string first_bad;
  for (int i = 0; i < kSamples; ++i) {
    const ProfSample& p = g_prof[i];
    const bool ok = !p.uc.st.failed && !p.uc.st.truncated && find(p.uc, outer) >= 0 &&
                    (!last || name_of(p.uc.pcs, p.uc.n - 1) == last);
    complete += ok;
    if (!ok && first_bad.empty()) first_bad = dump(p.uc);
    // The handler's own walk must end with exactly the interrupted stack.
    if (!p.here.st.failed && p.here.n > p.uc.n &&
        memcmp(p.here.pcs + p.here.n - p.uc.n, p.uc.pcs, p.uc.n * sizeof(uint64_t)) == 0)
      ++consistent;
  }
  SCOPED_TRACE(first_bad);
  EXPECT_GE(complete, kSamples * 99 / 100);
  EXPECT_GE(consistent, kSamples * 99 / 100);
}

TEST_F(UnwindTest, SigprofSamplesOfDeepChainReachStart) {
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &sa, &old);
  g_prof_bounds = this_thread_stack();
  g_nprof = 0;
  g_stop = 0;
  itimerval it{{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, nullptr);
  chain_outer_burn(10, &g_stop);
  itimerval off{};
  setitimer(ITIMER_PROF, &off, nullptr);
  sigaction(SIGPROF, &old, nullptr);
  check_prof_samples("chain_outer", "_start");
}

TEST_F(UnwindTest, SigprofSamplesDuringConcurrentRefresh) {
  // A thread republishes the registry (and invalidates the cache) nonstop while the main
  // thread is sampled: handlers must always see a consistent snapshot.
  sigset_t prof;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &prof, nullptr);
  std::atomic<bool> done{false};
  std::atomic<int> refreshes{0};
  std::thread refresher([&] {
    while (!done) {
      refresh();
      ++refreshes;
    }
  });
  pthread_sigmask(SIG_UNBLOCK, &prof, nullptr);
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &sa, &old);
  g_prof_bounds = this_thread_stack();
  g_nprof = 0;
  g_stop = 0;
  itimerval it{{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, nullptr);
  chain_outer_burn(10, &g_stop);
  itimerval off{};
  setitimer(ITIMER_PROF, &off, nullptr);
  sigaction(SIGPROF, &old, nullptr);
  done = true;
  refresher.join();
  EXPECT_GT(refreshes.load(), 100);
  check_prof_samples("chain_outer", "_start");
}

TEST_F(UnwindTest, SigprofSamplesOfThread) {
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &sa, &old);
  sigset_t prof;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &prof, nullptr);  // only the worker takes SIGPROF
  g_nprof = 0;
  g_stop = 0;
  std::atomic<bool> ready{false};
  std::thread t([&] {
    g_prof_bounds = this_thread_stack();
    pthread_sigmask(SIG_UNBLOCK, &prof, nullptr);
    ready = true;
    chain_outer_burn(8, &g_stop);
  });
  while (!ready) usleep(100);
  while (!g_stop) {
    pthread_kill(t.native_handle(), SIGPROF);
    usleep(200);
  }
  t.join();
  pthread_sigmask(SIG_UNBLOCK, &prof, nullptr);
  sigaction(SIGPROF, &old, nullptr);
  check_prof_samples("chain_outer", nullptr);
  // The thread's outermost frame is clone3 (CFI marks its return address undefined).
  EXPECT_LT(find(g_prof[0].uc, "main"), 0);
  // start_thread and clone3 are not in libc's dynamic symbol table: check the object.
  const Stack& s0 = g_prof[0].uc;
  ASSERT_GE(s0.n, 2);
  for (int i : {s0.n - 2, s0.n - 1}) {
    Dl_info info{};
    ASSERT_TRUE(dladdr(reinterpret_cast<void*>(s0.pcs[i] - 1), &info));
    EXPECT_NE(strstr(info.dli_fname, "libc.so"), nullptr) << dump(s0);
  }
}

// ---- dlopen ------------------------------------------------------------------------------

Stack g_lib_stack;
void lib_cb(void*) {
  g_lib_stack.n = unwind_from_here(0, this_thread_stack(), g_lib_stack.pcs, kMaxFrames,
                                   &g_lib_stack.st);
}

TEST_F(UnwindTest, DlopenedLibraryAfterRefresh) {
  const int before = registered_object_count();
  void* h = dlopen(UNWIND_TESTLIB_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  refresh();
  EXPECT_EQ(registered_object_count(), before + 1);
  using Fn = int (*)(int, void (*)(void*), void*);
  auto fn = reinterpret_cast<Fn>(dlsym(h, "testlib_recurse"));
  ASSERT_NE(fn, nullptr);
  g_lib_stack = Stack{};
  fn(6, lib_cb, nullptr);
  SCOPED_TRACE(dump(g_lib_stack));
  int in_lib = 0;
  for (int i = 0; i < g_lib_stack.n; ++i) in_lib += name_of(g_lib_stack.pcs, i) == "testlib_recurse";
  EXPECT_EQ(in_lib, 7);
  EXPECT_FALSE(g_lib_stack.st.failed);
  EXPECT_EQ(name_of(g_lib_stack.pcs, g_lib_stack.n - 1), "_start");
  dlclose(h);
  refresh();
  EXPECT_EQ(registered_object_count(), before);
}

// ---- Robustness (fake contexts are built with x86-64 register names) ----------------------
#if defined(__x86_64__)

TEST_F(UnwindTest, GarbageBoundsDoNotCrash) {
  ucontext_t uc;
  getcontext(&uc);
  Stack s{};
  const StackBounds bad[] = {{1, 2}, {~uintptr_t(0) - 10, ~uintptr_t(0)}, {100, 50}, {0, 4096}};
  for (const StackBounds& b : bad) {
    s.n = unwind_from_ucontext(&uc, b, s.pcs, kMaxFrames, &s.st);
    EXPECT_LE(s.n, kMaxFrames);
  }
  // Bounds around the starting sp only: the walk must stop, not read past them.
  const auto sp = uintptr_t(uc.uc_mcontext.gregs[REG_RSP]);
  s.n = unwind_from_ucontext(&uc, {sp - 64, sp + 64}, s.pcs, kMaxFrames, &s.st);
  EXPECT_TRUE(s.st.failed || s.n < 4) << dump(s);
  EXPECT_EQ(unwind_from_ucontext(&uc, {}, s.pcs, 0, &s.st), 0);
  EXPECT_EQ(unwind_from_ucontext(nullptr, {}, s.pcs, kMaxFrames, &s.st), 0);
}

TEST_F(UnwindTest, RandomRegistersAndStacksDoNotCrash) {
  // A page of random words as the "stack", a PROT_NONE page above it, random PCs inside real
  // code (libc, this test) and random stack pointers.
  const size_t page = 4096;
  auto* mem = static_cast<uint8_t*>(
      mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(mem, MAP_FAILED);
  mprotect(mem + 2 * page, page, PROT_NONE);
  std::mt19937_64 rng(42);
  const uint64_t code[] = {reinterpret_cast<uint64_t>(&qsort), reinterpret_cast<uint64_t>(&chain_burn),
                           reinterpret_cast<uint64_t>(&memcpy)};
  ucontext_t uc;
  getcontext(&uc);
  Stack s{};
  for (int iter = 0; iter < 20000; ++iter) {
    auto* words = reinterpret_cast<uint64_t*>(mem);
    for (size_t i = 0; i < 2 * page / 8; ++i) {
      const uint64_t r = rng();
      words[i] = (r & 3) == 0 ? code[r % 3] + (r >> 40) % 512 : (r & 3) == 1 ? reinterpret_cast<uint64_t>(mem) + (r >> 32) % (3 * page) : r;
    }
    for (int g = 0; g < NGREG; ++g) uc.uc_mcontext.gregs[g] = greg_t(rng());
    uc.uc_mcontext.gregs[REG_RSP] = greg_t(reinterpret_cast<uint64_t>(mem) + rng() % (3 * page));
    uc.uc_mcontext.gregs[REG_RBP] = greg_t(reinterpret_cast<uint64_t>(mem) + rng() % (3 * page));
    const uint64_t r = rng();
    uc.uc_mcontext.gregs[REG_RIP] = greg_t((r & 7) == 0 ? r : code[r % 3] + (r >> 32) % 2048);
    const StackBounds b = (iter & 1) ? StackBounds{0, 0}
                                     : StackBounds{reinterpret_cast<uintptr_t>(mem),
                                                   reinterpret_cast<uintptr_t>(mem) + 2 * page};
    s.n = unwind_from_ucontext(&uc, b, s.pcs, 32, &s.st);
    ASSERT_LE(s.n, 32);
  }
  munmap(mem, 3 * page);
}
#endif  // __x86_64__

// ---- PLT stubs and the vDSO --------------------------------------------------------------

// Address of this executable's .plt section (from the section headers of /proc/self/exe).
uintptr_t find_plt(size_t* size) {
  uintptr_t bias = 0;
  dl_iterate_phdr([](dl_phdr_info* info, size_t, void* p) {
    *static_cast<uintptr_t*>(p) = info->dlpi_addr;
    return 1;  // the first entry is the main program
  }, &bias);
  const int fd = open("/proc/self/exe", O_RDONLY);
  if (fd < 0) return 0;
  std::vector<char> file(64 << 20);
  const ssize_t n = read(fd, file.data(), file.size());
  close(fd);
  if (n < ssize_t(sizeof(Elf64_Ehdr))) return 0;
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(file.data());
  const auto* sh = reinterpret_cast<const Elf64_Shdr*>(file.data() + eh->e_shoff);
  const char* names = file.data() + sh[eh->e_shstrndx].sh_offset;
  for (int i = 0; i < eh->e_shnum; ++i) {
    if (strcmp(names + sh[i].sh_name, ".plt") == 0) {
      *size = sh[i].sh_size;
      return bias + sh[i].sh_addr;
    }
  }
  return 0;
}

#if defined(__x86_64__)
TEST_F(UnwindTest, InterruptedInPltStubUsesItsCfaExpression) {
  size_t size = 0;
  const uintptr_t plt = find_plt(&size);
  ASSERT_NE(plt, 0u);
  ASSERT_GE(size, 48u);
  // A fake stack: [0] is the return address pushed by the call into the stub, [1] the
  // relocation index pushed by the stub's second instruction (offset 6, next at 11).
  uint64_t stack[64] = {};
  const uint64_t ra = reinterpret_cast<uint64_t>(&chain_outer) + 16;
  ucontext_t uc;
  getcontext(&uc);
  const StackBounds b{reinterpret_cast<uintptr_t>(stack), reinterpret_cast<uintptr_t>(stack + 64)};
  for (const int offset : {0, 6, 11}) {
    memset(stack, 0, sizeof stack);
    stack[offset == 11 ? 1 : 0] = ra;
    uc.uc_mcontext.gregs[REG_RIP] = greg_t(plt + 16 + offset);  // entry 1 (0 is the resolver)
    uc.uc_mcontext.gregs[REG_RSP] = greg_t(reinterpret_cast<uintptr_t>(stack));
    Stack s{};
    s.n = unwind_from_ucontext(&uc, b, s.pcs, kMaxFrames, &s.st);
    ASSERT_GE(s.n, 2) << "offset " << offset;
    EXPECT_EQ(s.pcs[0], plt + 16 + offset);
    EXPECT_EQ(s.pcs[1], ra) << "offset " << offset;
  }
}
#endif

TEST_F(UnwindTest, VdsoAndLibcHaveSearchTables) {
  internal::Object o;
  const auto vdso = uintptr_t(getauxval(AT_SYSINFO_EHDR));
  if (vdso) {
    ASSERT_TRUE(internal::find_object(vdso, &o));
    EXPECT_NE(o.table, 0u);
  }
  ASSERT_TRUE(internal::find_object(reinterpret_cast<uintptr_t>(&qsort_r), &o));
  EXPECT_NE(o.table, 0u);
  EXPECT_GT(o.count, 1000u);
  EXPECT_TRUE(o.executable(reinterpret_cast<uintptr_t>(&qsort_r)));
}

// ---- Pieces ------------------------------------------------------------------------------

TEST(UnwindPieces, LebAndEncodedPointers) {
  using namespace internal;
  const uint8_t leb[] = {0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x7f};
  Cursor c{leb, leb + sizeof leb, true};
  EXPECT_EQ(c.uleb(), 624485u);
  EXPECT_EQ(c.sleb(), -1);
  EXPECT_EQ(c.sleb(), -128);
  EXPECT_TRUE(c.ok);
  EXPECT_EQ(c.uleb(), 0u);
  EXPECT_FALSE(c.ok);  // ran off the end: sticky failure, no read past the buffer

  const int32_t rel = -16;
  uint8_t buf[4];
  memcpy(buf, &rel, 4);
  Cursor p{buf, buf + 4, true};
  uint64_t v = 0;
  ASSERT_TRUE(read_encoded(p, 0x1b, 0, nullptr, &v));  // pcrel sdata4
  EXPECT_EQ(v, reinterpret_cast<uint64_t>(buf) - 16);
  Cursor d{buf, buf + 4, true};
  ASSERT_TRUE(read_encoded(d, 0x3b, 1000, nullptr, &v));  // datarel sdata4
  EXPECT_EQ(v, 984u);
  Cursor shortc{buf, buf + 2, true};
  EXPECT_FALSE(read_encoded(shortc, 0x0b, 0, nullptr, &v));
}

TEST(UnwindPieces, StackBoundsChecks) {
  using namespace internal;
  uint64_t local = 7, v = 0;
  const auto sp = reinterpret_cast<uintptr_t>(&local);
  Mem m;
  m.init(sp - 64, sp + 64, sp);
  EXPECT_FALSE(m.probe);
  EXPECT_TRUE(m.read(sp, &v));
  EXPECT_EQ(v, 7u);
  EXPECT_TRUE(m.ok(sp + 56, 8));
  EXPECT_FALSE(m.ok(sp + 57, 8));   // straddles hi
  EXPECT_FALSE(m.ok(sp + 4096, 8));  // above hi
  EXPECT_FALSE(m.ok(sp - 72, 8));    // below lo
  m.init(0, 0, sp);  // unknown: probe pages
  EXPECT_TRUE(m.probe);
  EXPECT_TRUE(m.read(sp, &v));
  EXPECT_FALSE(m.ok(0, 8));
  EXPECT_FALSE(m.ok(~uintptr_t(0) - 4, 8));
  void* none = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_FALSE(m.ok(reinterpret_cast<uintptr_t>(none), 8));
  munmap(none, 4096);
}

#if defined(__x86_64__)
TEST(UnwindPieces, PltCfaExpression) {
  using namespace internal;
  // .plt's CFA: rsp + 8 + ((rip & 15) >= 11 ? 8 : 0)
  static const uint8_t expr[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};
  Object obj{};
  obj.lo = reinterpret_cast<uintptr_t>(expr);
  obj.hi = obj.lo + sizeof expr;
  obj.nsegs = 1;
  obj.segs[0] = Segment{obj.lo, obj.hi, 4, 0};
  Regs regs{};
  regs.valid = (1u << 7) | (1u << 16);
  regs.r[7] = 0x1000;
  Mem mem{};
  mem.init(0, 1, 0);
  uint64_t cfa = 0;
  regs.r[16] = 0x4020;  // before the entry's second push
  ASSERT_TRUE(eval_expr(obj, obj.lo, sizeof expr, regs, mem, false, 0, &cfa));
  EXPECT_EQ(cfa, 0x1008u);
  regs.r[16] = 0x402b;  // after the second push
  ASSERT_TRUE(eval_expr(obj, obj.lo, sizeof expr, regs, mem, false, 0, &cfa));
  EXPECT_EQ(cfa, 0x1010u);
}
#endif  // __x86_64__

}  // namespace
}  // namespace erkit::unwind
