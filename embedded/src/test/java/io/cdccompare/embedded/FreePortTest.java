package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortTest {
  @Test
  void aPortIsDrawnBelowTheEphemeralRangeAndCanBeBound() throws Exception {
    int ephemeralStart =
        Integer.parseInt(
            Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                .get(0)
                .trim()
                .split("\\s+")[0]);
    for (int i = 0; i < 20; i++) {
      int port = FreePort.next();
      assertThat(port).isBetween(20_000, ephemeralStart - 1);
      try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(FreePort.taken(port)).isTrue();
      }
    }
  }

  @Test
  void noPortIsHandedOutTwiceEvenWhenNothingBindsIt() {
    // Given an environment's draws before any of its servers binds: 4 000 draws from the ~12 700
    // ports below the range would repeat one almost surely if drawn independently
    Set<Integer> drawn = new HashSet<>();

    // When
    for (int i = 0; i < 4_000; i++) {
      drawn.add(FreePort.next());
    }

    // Then
    assertThat(drawn).hasSize(4_000);
  }
}
