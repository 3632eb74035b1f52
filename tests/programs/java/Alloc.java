// Java allocations with a known count and size (collect -H on; the e2e test of issue 21):
// make() allocates exactly n byte[1000] arrays and keeps the last 64 reachable (so escape
// analysis cannot remove them); pair() allocates 2 * n small objects through a callee.
public class Alloc {
  static final Object[] keep = new Object[64];

  static void make(int n) {
    for (int i = 0; i < n; i++) keep[i & 63] = new byte[1000];
  }

  static Object cell(int i) {
    return new int[] {i};
  }

  static void pair(int n) {
    for (int i = 0; i < n; i++) {
      keep[i & 63] = cell(i);
      keep[(i + 1) & 63] = cell(i + 1);
    }
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
    make(n);
    pair(n);
    System.out.println("done allocated " + n);
  }
}
