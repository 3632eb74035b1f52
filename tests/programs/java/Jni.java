// A Java method calling native code (JNI): Jni.work(long) is native, implemented by
// Java_Jni_work in libjnitest.so, which spins in jni_spin(). The e2e test checks that user mode
// shows Java_Jni_work under Jni.work(long) under Jni.main.
public class Jni {
  static native long work(long n);

  public static void main(String[] args) {
    System.loadLibrary("jnitest");
    long n = args.length > 0 ? Long.parseLong(args[0]) : 400_000_000L;
    System.out.println("done " + work(n));
  }
}
