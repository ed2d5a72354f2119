package io.cdccompare.embedded;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Entry point of every child JVM the environment starts: watches the parent process and halts this
 * JVM when the parent is gone (even after {@code kill -9}), then runs the real main class.
 *
 * <p>Arguments: {@code <parent-pid> <main-class> <main-args...>}.
 */
public final class ParentWatchdog {
  private ParentWatchdog() {}

  public static void main(String[] args) throws Throwable {
    long parentPid = Long.parseLong(args[0]);
    Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
    Thread watcher =
        new Thread(
            () -> {
              while (parent.map(ProcessHandle::isAlive).orElse(false)) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
              }
              Runtime.getRuntime().halt(3);
            },
            "parent-watchdog");
    watcher.setDaemon(true);
    watcher.start();
    Method main = Class.forName(args[1]).getMethod("main", String[].class);
    try {
      main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
