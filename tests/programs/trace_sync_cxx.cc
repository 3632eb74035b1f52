// C++ synchronisation reaches the sync tracer through the pthread functions: std::mutex (lock
// held by another thread for 110 ms more: 1 wait in mutex_waiter), std::condition_variable (notified
// after 100 ms: 1 wait in cv_waiter), std::thread::join (thread sleeping 90 ms: 1 wait in
// join_waiter).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

std::mutex g_m;
std::condition_variable g_cv;
bool g_flag = false;

__attribute__((noinline)) void mutex_waiter() {
  std::mutex held;
  std::atomic<bool> started{false};
  std::thread t([&] {
    std::lock_guard<std::mutex> g(held);
    started = true;
    std::this_thread::sleep_for(120ms);
  });
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(10ms);
  { std::lock_guard<std::mutex> g(held); }  // waits ~110 ms
  t.join();
}

__attribute__((noinline)) void cv_waiter() {
  std::thread t([] {
    std::this_thread::sleep_for(100ms);
    std::lock_guard<std::mutex> g(g_m);
    g_flag = true;
    g_cv.notify_one();
  });
  {
    std::unique_lock<std::mutex> lk(g_m);
    g_cv.wait(lk, [] { return g_flag; });
  }
  t.join();
}

__attribute__((noinline)) void join_waiter() {
  std::thread t([] { std::this_thread::sleep_for(90ms); });
  t.join();
}

int main() {
  mutex_waiter();
  cv_waiter();
  join_waiter();
  return 0;
}
