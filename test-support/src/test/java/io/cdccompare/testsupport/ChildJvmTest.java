package io.cdccompare.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTest {
  @TempDir Path dir;

  @Test
  void runsTheProgramWithItsFailpointArgumentsAndLog() throws Exception {
    Path log = dir.resolve("child.log");
    Process child =
        ChildJvm.of(ChildJvmEcho.class).failpoint("somewhere@2").start(log, "a.properties", "x");

    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
    assertThat(child.exitValue()).isEqualTo(3);
    assertThat(Files.readAllLines(log))
        .contains("failpoint=somewhere@2", "args=a.properties,x", "stdin=-1");
  }

  @Test
  void armsNoFailpointWhenNoneIsGiven() throws Exception {
    Path log = dir.resolve("plain.log");
    Process child = ChildJvm.of(ChildJvmEcho.class).failpoint(null).start(log);

    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
    assertThat(Files.readAllLines(log)).contains("failpoint=null", "args=");
  }
}
