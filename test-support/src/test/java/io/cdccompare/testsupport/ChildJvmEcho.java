package io.cdccompare.testsupport;

/** A child program for {@link ChildJvmTest}: prints its failpoint and arguments, exits with 3. */
public final class ChildJvmEcho {
  private ChildJvmEcho() {}

  public static void main(String[] args) {
    System.out.println("failpoint=" + System.getProperty("cdc.failpoint"));
    System.out.println("args=" + String.join(",", args));
    System.out.println("stdin=" + readStdin());
    System.exit(3);
  }

  private static int readStdin() {
    try {
      return System.in.read();
    } catch (java.io.IOException e) {
      return -2;
    }
  }
}
