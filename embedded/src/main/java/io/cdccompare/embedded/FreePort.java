package io.cdccompare.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds a free TCP port on the loopback interface for a server to listen on, below the range the
 * system takes the local ports of outgoing connections from ({@code ip_local_port_range}, 32768 to
 * 60999 on Linux by default). A port the system hands out ({@code new ServerSocket(0)}) is from
 * that range, so between the moment it is found free and the moment the server binds it, any
 * outgoing connection on the machine may take it as its local port: a Kafka broker once failed to
 * start with "Address already in use" that way while other test JVMs ran. A random port below the
 * range is taken only by a server that asks for it, so that race leaves only two of our own servers
 * drawing the same port. An environment draws every port of its servers before it starts any of
 * them, so the check that nothing listens cannot see that race (MariaDB once failed with "Address
 * already in use" on a port below the range while only its environment's servers started, most
 * likely a port drawn twice). A port is therefore handed out at most once per JVM.
 */
final class FreePort {
  /** Where the random ports are drawn from: registered ports, below the ephemeral range. */
  private static final int LOWEST = 20_000;

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePort() {}

  static int next() {
    int highest = ephemeralStart() - 1;
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 200 && highest > LOWEST; attempt++) {
      int port = random.nextInt(LOWEST, highest + 1);
      if (!taken(port) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      HANDED_OUT.add(socket.getLocalPort());
      return socket.getLocalPort(); // every drawn port was taken: let the system choose
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }

  /** True when something already listens on the loopback port. */
  static boolean taken(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * The first port of the system's ephemeral range (32768 where it cannot be read). Read by lines:
   * {@code Files.readString} of this procfs file returns its first byte only (its size says 0).
   */
  private static int ephemeralStart() {
    try {
      String[] range = Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+");
      return Integer.parseInt(range[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
