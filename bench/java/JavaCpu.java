// CPU-bound Java workload for the Java collection-overhead benchmark (bench/java/run.py):
// warms the JIT up, then times a fixed amount of work on one thread and prints that thread's
// CPU time (ThreadMXBean: includes the time signal handlers take on the thread).
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class JavaCpu {
  static long mix(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    return x;
  }

  static long inner(long n, long seed) {
    long x = seed;
    for (long i = 0; i < n; i++) x = mix(x) + i;
    return x;
  }

  static long outer(int rounds, long n) {
    long s = 0;
    for (int r = 0; r < rounds; r++) s += inner(n, r + 1);
    return s;
  }

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    long sink = outer(50, 1_000_000);  // warm-up: compiled before the timed part
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long c0 = mx.getCurrentThreadCpuTime();
    sink += outer(rounds, 5_000_000);
    long c1 = mx.getCurrentThreadCpuTime();
    System.out.println("cpu_ns " + (c1 - c0) + " sink " + sink);
  }
}
