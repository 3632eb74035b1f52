// Monitor contention: the holder keeps LOCK for HOLD_MS at a time while the waiter tries to
// enter a synchronized block on it. Prints the time the waiter measured waiting (ground truth
// for the sync-wait time the e2e test finds under Contend.waitForLock()).
public class Contend {
  static final Object LOCK = new Object();
  static final int ROUNDS = 5, HOLD_MS = 100;
  static volatile boolean held;
  static long spin;

  static void holdLock() {
    synchronized (LOCK) {
      held = true;
      long end = System.nanoTime() + HOLD_MS * 1_000_000L;
      while (System.nanoTime() < end) spin++;  // busy: the holder's time is CPU, not a wait
    }
  }

  static long waitForLock() {
    long t0 = System.nanoTime();
    synchronized (LOCK) {
      spin++;
    }
    return System.nanoTime() - t0;
  }

  public static void main(String[] args) throws Exception {
    long waited = 0;
    for (int r = 0; r < ROUNDS; r++) {
      // held stays true after the holder let go: a main thread kept off the CPU for the whole
      // hold (a loaded machine) goes on, uncontended that round, instead of spinning forever.
      held = false;
      Thread holder = new Thread(Contend::holdLock, "holder");
      holder.start();
      while (!held) Thread.onSpinWait();
      waited += waitForLock();
      holder.join();
    }
    System.out.println("waited_ns " + waited);
  }
}
