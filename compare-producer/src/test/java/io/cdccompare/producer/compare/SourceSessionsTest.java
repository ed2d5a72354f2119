package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SourceSessionsTest {
  /** A session that only knows whether it was closed. */
  private static Connection session(AtomicBoolean closed) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close")) {
                closed.set(true);
              }
              return null;
            });
  }

  @Test
  void sessionsAreOpenedAtOnceAndReturnedInTheOrderGiven() throws Exception {
    // Given three log-ins that each wait until all three have started
    CountDownLatch started = new CountDownLatch(3);
    List<AtomicBoolean> closed =
        List.of(new AtomicBoolean(), new AtomicBoolean(), new AtomicBoolean());
    List<SourceSessions.Opener> openers =
        closed.stream()
            .<SourceSessions.Opener>map(
                flag ->
                    () -> {
                      started.countDown();
                      try {
                        if (!started.await(10, TimeUnit.SECONDS)) {
                          throw new SQLException("log-ins ran one after the other");
                        }
                      } catch (InterruptedException e) {
                        throw new SQLException(e);
                      }
                      return session(flag);
                    })
            .toList();

    // When
    List<Connection> sessions = SourceSessions.openTogether(openers);

    // Then every log-in ran beside the others, and each session is where its opener was
    assertThat(sessions).hasSize(3);
    for (int i = 0; i < 3; i++) {
      sessions.get(i).close();
      assertThat(closed.get(i)).as("session %d", i).isTrue();
    }
  }

  @Test
  void aFailedLogInClosesTheSessionsThatOpenedAndThrowsItsError() {
    // Given the second of three log-ins refused
    AtomicBoolean first = new AtomicBoolean();
    AtomicBoolean third = new AtomicBoolean();
    List<SourceSessions.Opener> openers =
        List.of(
            () -> session(first),
            () -> {
              throw new SQLException("password authentication failed for user cmp");
            },
            () -> session(third));

    // Then its error is thrown and no session is left open
    assertThatThrownBy(() -> SourceSessions.openTogether(openers))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("password authentication failed");
    assertThat(first).isTrue();
    assertThat(third).isTrue();
  }
}
