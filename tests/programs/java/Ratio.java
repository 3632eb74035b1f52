// Two threads whose work is in a known 1:2 ratio: light() on one, heavy() (twice the
// iterations of the same loop) on the other. The e2e test checks user-mode exclusive times.
public class Ratio {
  static volatile long sink;

  static long light(long n) {
    long x = 88172645463325252L;
    for (long i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    return x;
  }

  static long heavy(long n) {
    long x = 88172645463325252L;
    for (long i = 0; i < 2 * n; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    return x;
  }

  static final class Worker extends Thread {
    final boolean isHeavy;
    final long n;
    Worker(String name, boolean isHeavy, long n) {
      super(name);
      this.isHeavy = isHeavy;
      this.n = n;
    }
    @Override
    public void run() {
      // Several calls: the later ones run compiled code from their start.
      for (int k = 0; k < 10; k++) sink += isHeavy ? heavy(n / 10) : light(n / 10);
    }
  }

  public static void main(String[] args) throws Exception {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 300_000_000L;
    Worker a = new Worker("light-worker", false, n);
    Worker b = new Worker("heavy-worker", true, n);
    a.start();
    b.start();
    a.join();
    b.join();
    System.out.println("done " + sink);
  }
}
