package io.cdccompare.producer.repair;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.TableTopic;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.source.SignalTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-sends chosen keys of one table from the source through the stream: one Debezium {@code
 * execute-snapshot} signal (an ad-hoc incremental snapshot filtered to exactly those keys, {@link
 * ResendFilter}) inserted into {@link SignalTable}, then a wait for the capture's {@code COMPLETED}
 * notice of that signal on its notices topic ({@link CaptureNotices}).
 *
 * <p>Why it cannot overwrite a newer value: the capture reads the keys' rows between two watermarks
 * it writes into the signal table, and drops a row read there when a change to its key comes
 * through the write-ahead log before the closing watermark; the change itself is sent in its place,
 * in commit order. A change whose commit record precedes the opening watermark but is not yet
 * visible to the read is kept out by the signal table's fence ({@link SignalTable#FENCE_FUNCTION}):
 * this class writes a row into {@code repi.resend_fences} for the signal, so each window locks the
 * table until it committed; a window that had to open without it fails the re-send ({@link
 * KeyResendException.Reason#UNFENCED}). Each row sent is an op {@code r} record with the header
 * {@code cdc.resend}. A key the source does not hold yields no record.
 *
 * <p>One re-send at a time per capture: Debezium keeps one id for its running snapshot, so a second
 * signal while one runs would take the first one's notices. Re-sends through this class on one
 * source database are serialised by a session advisory lock held on the given connection while the
 * call runs; a call that finds it taken is refused at once.
 *
 * <p>Thread-safe: each call uses its own consumer.
 */
public final class KeyResend {
  private static final Logger LOG = LoggerFactory.getLogger(KeyResend.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The advisory lock's two keys: "cdcc" and "rsnd" in ASCII. */
  private static final int LOCK_CLASS = 0x63646363;

  private static final int LOCK_ID = 0x72736e64;

  /**
   * What a completed re-send did.
   *
   * @param keys keys asked for
   * @param found those of them the source held when the signal was sent
   * @param rowsScanned the rows the capture's snapshot sent, when its notices said
   */
  public record Resent(
      TableName table,
      String signalId,
      int keys,
      long found,
      OptionalLong rowsScanned,
      Duration elapsed) {}

  /** How long a window waits for the table's writers when not told otherwise. */
  public static final Duration DEFAULT_FENCE_WAIT = Duration.ofSeconds(60);

  private final Map<String, Object> consumerSettings;
  private final String topicPrefix;
  private final Duration fenceWait;

  /**
   * @param consumerSettings Kafka consumer settings, {@code bootstrap.servers} at least
   * @param topicPrefix the capture's {@code topic.prefix}
   */
  public KeyResend(Map<String, Object> consumerSettings, String topicPrefix) {
    this(consumerSettings, topicPrefix, DEFAULT_FENCE_WAIT);
  }

  /**
   * @param fenceWait how long each snapshot window waits for the transactions writing the table to
   *     end before it opens without its fence (and the re-send fails); 1 ms to 24 days
   */
  public KeyResend(Map<String, Object> consumerSettings, String topicPrefix, Duration fenceWait) {
    if (fenceWait.isNegative()
        || fenceWait.isZero()
        || fenceWait.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          "the re-send's fence wait must be 1 ms to "
              + Integer.MAX_VALUE
              + " ms, was "
              + fenceWait);
    }
    this.fenceWait = fenceWait;
    if (!consumerSettings.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException("consumer settings need bootstrap.servers");
    }
    this.consumerSettings = Map.copyOf(consumerSettings);
    CaptureNotices.topic(topicPrefix); // refuses an empty prefix now, not at the first call
    this.topicPrefix = topicPrefix;
  }

  public static KeyResend of(String bootstrapServers, String topicPrefix) {
    return of(bootstrapServers, topicPrefix, DEFAULT_FENCE_WAIT);
  }

  public static KeyResend of(String bootstrapServers, String topicPrefix, Duration fenceWait) {
    return new KeyResend(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topicPrefix, fenceWait);
  }

  /** {@link #resend(Connection, TableName, List, List, String, Duration)} with a random id. */
  public Resent resend(
      Connection source,
      TableName table,
      List<String> keyColumns,
      List<String> keys,
      Duration timeout)
      throws SQLException, InterruptedException {
    return resend(source, table, keyColumns, keys, UUID.randomUUID().toString(), timeout);
  }

  /**
   * Sends one signal re-sending these keys and waits until the capture reports it completed.
   *
   * @param source a connection to the source database, as a user allowed to insert into {@code
   *     repi.signals}; the signal is committed by this call
   * @param keyColumns the table's key columns, in key order
   * @param keys canonical keys ({@code KeyCodec} texts), at least one
   * @param signalId the signal's id, 1 to 42 characters, unique in {@code repi.signals}
   * @throws IllegalArgumentException for a key that cannot be written, a table the capture does not
   *     write or a bad id, before anything is sent
   * @throws IllegalStateException when another re-send holds the lock
   * @throws KeyResendException when the capture reports the snapshot aborted or failed, or no end
   *     came within {@code timeout}
   * @throws InterruptedException when interrupted while waiting (the snapshot goes on)
   */
  public Resent resend(
      Connection source,
      TableName table,
      List<String> keyColumns,
      List<String> keys,
      String signalId,
      Duration timeout)
      throws SQLException, InterruptedException {
    long start = System.nanoTime();
    requireSendable(table, signalId);
    List<ResendFilter.KeyColumn> columns = SourceKeyColumns.of(source, table, keyColumns);
    String filter = ResendFilter.of(table, columns, keys);
    refuseEraLessDates(table, columns, keys);
    lock(source, table);
    try (NoticeWatch notices = new NoticeWatch(consumerSettings, noticesTopic(topicPrefix))) {
      requireCaptured(notices, table);
      requireFence(source, table);
      long found = count(source, table, filter);
      ResendOutcome outcome = new ResendOutcome();
      Optional<NoticeWatch.Notice> end;
      Duration elapsed;
      fence(source, signalId, table);
      try {
        insert(source, signalId, signal(table, filter));
        LOG.info(
            "table={} signal={} keys={} found={} re-send sent",
            table,
            signalId,
            keys.size(),
            found);
        end = notices.awaitEnd(signalId, start + timeout.toNanos(), outcome::add);
        elapsed = Duration.ofNanos(System.nanoTime() - start);
        outcome.requireCompleted(end, table, signalId, notices.topic(), elapsed);
        requireFenced(source, table, signalId);
      } finally {
        unfence(source, signalId);
      }
      LOG.info(
          "table={} signal={} rows={} elapsed_ms={} re-send completed",
          table,
          signalId,
          outcome.rows(),
          elapsed.toMillis());
      return new Resent(table, signalId, keys.size(), found, outcome.rows(), elapsed);
    } finally {
      unlock(source);
    }
  }

  private static String noticesTopic(String topicPrefix) {
    return CaptureNotices.topic(topicPrefix);
  }

  private static void requireSendable(TableName table, String signalId) {
    if (signalId == null || signalId.isEmpty() || signalId.length() > SignalTable.MAX_ID_LENGTH) {
      throw new IllegalArgumentException(
          "table " + table + ": a signal id has 1 to 42 characters, was '" + signalId + "'");
    }
    if (table.schema().contains(".") || table.table().contains(".")) {
      throw new IllegalArgumentException(
          "table "
              + table
              + ": a name containing a dot cannot be re-sent (Debezium's snapshot signal splits"
              + " table names at dots)");
    }
  }

  /**
   * Debezium 3.6's snapshot read gives a date before year 1 without its era ({@code 0044-03-15 BC}
   * comes back as {@code 0044-03-15}), so such a row would reach the targets under another key.
   */
  private static void refuseEraLessDates(
      TableName table, List<ResendFilter.KeyColumn> columns, List<String> keys) {
    if (columns.stream().noneMatch(c -> c.type() == LogicalType.DATE)) {
      return;
    }
    KeyCodec codec = new KeyCodec(columns.stream().map(ResendFilter.KeyColumn::type).toList());
    for (String key : keys) {
      List<String> texts = codec.decodeTexts(key);
      for (int i = 0; i < columns.size(); i++) {
        String text = texts.get(i);
        if (columns.get(i).type() == LogicalType.DATE
            && (text.startsWith("0000-") || (text.startsWith("-") && !text.startsWith("-Inf")))) {
          throw new IllegalArgumentException(
              "table "
                  + table
                  + ": key '"
                  + key
                  + "' cannot be re-sent: its date is before year 1, which Debezium 3.6's"
                  + " snapshot read gives without its era (the row would arrive under another key)");
        }
      }
    }
  }

  /** The table topic must exist: Debezium would snapshot a table the capture does not write. */
  private void requireCaptured(NoticeWatch notices, TableName table) {
    String topic = TableTopic.name(topicPrefix, table);
    if (!notices.topicExists(topic)) {
      throw new IllegalArgumentException(
          "table " + table + " has no topic " + topic + ": the capture does not capture it");
    }
  }

  /**
   * The signal table's fence must be installed (the capture installs it when it starts), and its
   * function's owner must be allowed to lock {@code table} in {@code SHARE} mode.
   */
  private static void requireFence(Connection source, TableName table) throws SQLException {
    String sql =
        """
        SELECT p.proowner::regrole::text,
               has_table_privilege(p.proowner, CAST(? AS regclass), 'UPDATE')
               OR has_table_privilege(p.proowner, CAST(? AS regclass), 'DELETE')
               OR has_table_privilege(p.proowner, CAST(? AS regclass), 'TRUNCATE')
          FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
         WHERE t.tgrelid = 'repi.signals'::regclass AND t.tgname = ? AND t.tgenabled <> 'D'""";
    String name = quoted(table);
    try (PreparedStatement p = source.prepareStatement(sql)) {
      p.setString(1, name);
      p.setString(2, name);
      p.setString(3, name);
      p.setString(4, SignalTable.FENCE_FUNCTION_NAME);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException(
              "table "
                  + table
                  + ": the signal table repi.signals has no enabled trigger "
                  + SignalTable.FENCE_FUNCTION_NAME
                  + ", which keeps a re-send from sending an older row over a newer change: start"
                  + " the capture of this version once (it installs the trigger), then repair");
        }
        if (!rs.getBoolean(2)) {
          throw new IllegalStateException(
              "table "
                  + table
                  + ": role "
                  + rs.getString(1)
                  + ", owner of repi."
                  + SignalTable.FENCE_FUNCTION_NAME
                  + "(), may not lock the table in SHARE mode (it needs UPDATE, DELETE or TRUNCATE"
                  + " on it): grant it one of them, then repair");
        }
      }
    } finally {
      if (!source.getAutoCommit()) {
        source.commit();
      }
    }
  }

  /** The fence row that makes each window of the signal lock {@code table} first. */
  private void fence(Connection source, String signalId, TableName table) throws SQLException {
    try (PreparedStatement p =
        source.prepareStatement(
            "INSERT INTO repi.resend_fences (signal_id, table_name, owner_pid, wait_ms)"
                + " VALUES (?, ?, pg_backend_pid(), ?)")) {
      p.setString(1, signalId);
      p.setString(2, quoted(table));
      p.setInt(3, (int) fenceWait.toMillis());
      p.executeUpdate();
    }
    if (!source.getAutoCommit()) {
      source.commit();
    }
  }

  /** Fails the re-send when a window of the signal opened without its fence. */
  private void requireFenced(Connection source, TableName table, String signalId)
      throws SQLException {
    String missed;
    try (PreparedStatement p =
        source.prepareStatement("SELECT missed FROM repi.resend_fences WHERE signal_id = ?")) {
      p.setString(1, signalId);
      try (ResultSet rs = p.executeQuery()) {
        missed = rs.next() ? rs.getString(1) : null;
      }
    }
    if (missed != null) {
      throw new KeyResendException(
          KeyResendException.Reason.UNFENCED,
          table,
          signalId,
          "read rows in a window that opened without its fence, because "
              + missed
              + " held the table longer than "
              + fenceWait.toMillis()
              + " ms ("
              + CompareConfig.READ_VISIBILITY_TIMEOUT_MS
              + "): a re-sent key that one of them changed may now hold its older row on every"
              + " target; repair again once they ended");
    }
  }

  /** Deletes the signal's fence row, and those of re-sends whose session is gone. */
  private static void unfence(Connection source, String signalId) throws SQLException {
    try (PreparedStatement p =
        source.prepareStatement(
            "DELETE FROM repi.resend_fences WHERE signal_id = ?"
                + " OR owner_pid NOT IN (SELECT pid FROM pg_stat_activity)")) {
      p.setString(1, signalId);
      p.executeUpdate();
    }
    if (!source.getAutoCommit()) {
      source.commit();
    }
  }

  private static String quoted(TableName table) {
    return ResendFilter.quoteIdentifier(table.schema())
        + "."
        + ResendFilter.quoteIdentifier(table.table());
  }

  /** The keys the source holds: also proves every literal reads as its column's type. */
  private static long count(Connection source, TableName table, String filter) throws SQLException {
    String sql = "SELECT count(*) FROM " + quoted(table) + " WHERE " + filter;
    try (PreparedStatement p = source.prepareStatement(sql);
        ResultSet rs = p.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new SQLException(
          "table " + table + ": the re-send's keys cannot be read on the source: " + e.getMessage(),
          e.getSQLState(),
          e);
    } finally {
      if (!source.getAutoCommit()) {
        source.commit();
      }
    }
  }

  /** The {@code execute-snapshot} signal's JSON data. */
  static String signal(TableName table, String filter) {
    String collection = collectionPattern(table);
    ObjectNode data = JSON.createObjectNode();
    data.put("type", "incremental");
    data.putArray("data-collections").add(collection);
    data.putArray("additional-conditions")
        .addObject()
        .put("data-collection", collection)
        .put("filter", filter);
    return data.toString();
  }

  /**
   * Debezium matches {@code data-collections} as regular expressions over {@code schema.table}:
   * every character other than a letter, digit or {@code _} is escaped, so it names one table.
   */
  static String collectionPattern(TableName table) {
    return escape(table.schema()) + "\\." + escape(table.table());
  }

  private static String escape(String name) {
    StringBuilder out = new StringBuilder();
    name.codePoints()
        .forEach(
            c -> {
              if (!Character.isLetterOrDigit(c) && c != '_') {
                out.append('\\');
              }
              out.appendCodePoint(c);
            });
    return out.toString();
  }

  private static void insert(Connection source, String id, String data) throws SQLException {
    try (PreparedStatement p = source.prepareStatement(SignalTable.INSERT)) {
      p.setString(1, id);
      p.setString(2, "execute-snapshot");
      p.setString(3, data);
      p.executeUpdate();
    }
    if (!source.getAutoCommit()) {
      source.commit();
    }
  }

  private static void lock(Connection source, TableName table) throws SQLException {
    try (PreparedStatement p = source.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
      p.setInt(1, LOCK_CLASS);
      p.setInt(2, LOCK_ID);
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          throw new IllegalStateException(
              "table "
                  + table
                  + ": another key re-send is running on this source; one runs at a time");
        }
      }
    }
  }

  private static void unlock(Connection source) throws SQLException {
    try (PreparedStatement p = source.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
      p.setInt(1, LOCK_CLASS);
      p.setInt(2, LOCK_ID);
      p.executeQuery().close();
    }
  }
}
