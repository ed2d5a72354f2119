package io.cdccompare.app;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code cdc-compare} commands in this JVM and keeps what they printed. */
final class Cli {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /**
   * Runs one command; its standard output adds to {@link #out()}, its errors replace {@link
   * #err()}.
   */
  int run(String... args) {
    err.getBuffer().setLength(0);
    picocli.CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  String out() {
    return out.toString();
  }

  String err() {
    return err.toString();
  }

  void clearOut() {
    out.getBuffer().setLength(0);
  }
}
