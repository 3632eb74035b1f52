// Forces garbage collections: a live set of linked arrays rebuilt over and over, and explicit
// System.gc() calls. The e2e test checks that <JVM-System> holds the collector's time.
public class Churn {
  static Object[] live;

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
      live = new Object[200_000];
      for (int i = 0; i < live.length; i++) live[i] = new long[8 + (i & 7)];
      System.gc();
      sum += live.length;
    }
    System.out.println("done " + sum);
  }
}
