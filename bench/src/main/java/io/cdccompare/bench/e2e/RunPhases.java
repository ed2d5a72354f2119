package io.cdccompare.bench.e2e;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.LoggerFactory;

/**
 * When an incremental run reached each of its steps, read from the INFO lines the producer logs
 * anyway ({@code IncrementalRun}, {@code KeyListRun}): an appender on those loggers notes the
 * {@link System#nanoTime()} of each line as it is logged (appenders run on the logging thread, so
 * the time is the step's). Nothing in the producer is changed for it. One run at a time.
 */
final class RunPhases implements AutoCloseable {
  static final String INCREMENTAL = "io.cdccompare.producer.compare.IncrementalRun";
  static final String KEY_LIST = "io.cdccompare.producer.compare.KeyListRun";

  /** A line logged, and when. */
  record Line(String logger, String message, long nanos) {}

  private final List<Line> lines = new ArrayList<>();
  private final List<Logger> loggers = new ArrayList<>();
  private final AppenderBase<ILoggingEvent> appender =
      new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
          long now = System.nanoTime();
          synchronized (lines) {
            lines.add(new Line(event.getLoggerName(), event.getFormattedMessage(), now));
          }
        }
      };

  RunPhases() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    appender.setContext(context);
    appender.setName("incremental-phases");
    appender.start();
    for (String name : List.of(INCREMENTAL, KEY_LIST)) {
      Logger logger = context.getLogger(name);
      logger.setLevel(Level.INFO);
      logger.addAppender(appender);
      loggers.add(logger);
    }
  }

  /** Forgets the lines so far (before a run). */
  void clear() {
    synchronized (lines) {
      lines.clear();
    }
  }

  /** When the first line of {@code logger} holding {@code part} was logged since {@link #clear}. */
  OptionalLong first(String logger, String part) {
    synchronized (lines) {
      return lines.stream()
          .filter(l -> l.logger().equals(logger) && l.message().contains(part))
          .mapToLong(Line::nanos)
          .findFirst();
    }
  }

  @Override
  public void close() {
    loggers.forEach(l -> l.detachAppender(appender));
    appender.stop();
  }
}
