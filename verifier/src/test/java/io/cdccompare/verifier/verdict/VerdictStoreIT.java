package io.cdccompare.verifier.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.TargetKind;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.MarkerVerdict;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetApplier;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Verdicts stored in the target with the checkpoint that passes their CLOSE marker, read back
 * equal, and never replaced by a replayed marker's verdict.
 */
@WithEmbedded({Component.TARGET_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerdictStoreIT {

  private static final String TOPIC = "shop.public.orders";
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-05-31T10:15:31Z"), ZoneOffset.UTC);
  private static final Instant VERIFIED_AT = Instant.parse("2024-05-31T10:15:30.123456789Z");

  private final Map<TargetKind, String> databases = new EnumMap<>(TargetKind.class);
  private final Map<TargetKind, String> bookkeeping = new EnumMap<>(TargetKind.class);

  @BeforeAll
  void createDatabases(EmbeddedEnvironment env) throws SQLException {
    for (TargetKind kind : TargetKind.values()) {
      String database = kind.server(env).createDatabase("verdicts_it");
      databases.put(kind, database);
      try (Connection connection = kind.server(env).connect(database)) {
        bookkeeping.put(
            kind, kind.createBookkeepingSchema(kind.server(env), connection, "verdicts_it_cdc"));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aVerdictIsStoredWithTheCheckpointPastItsMarkerAndFoundAgain(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a verdict with keys holding quotes, separators, escapes and non-BMP characters
      TargetApplier applier = applier(connection, kind, "stored");
      VerdictId id = new VerdictId("stored", "nightly", "run-7", "public.orders", 12, 2);
      PartitionVerdict verdict =
          PartitionVerdict.verified(
              id,
              41,
              ChunkVerdict.of(
                  996,
                  List.of("7,a\\,b", "3,\"x\""),
                  List.of("9,😀"),
                  List.of("10,tab\there"),
                  List.of("11,z")),
              VERIFIED_AT);
      RecordPosition marker = new RecordPosition(TOPIC, 2, 41, new SourcePosition(500, 510, 9));

      // When it is applied with the CLOSE marker's position
      ApplyResult result =
          applier.apply(ApplyBatch.closing(List.of(), new MarkerVerdict(marker, verdict)));

      // Then it is stored, found again equal, and the checkpoint is past the marker
      assertThat(result.verdictsStored()).isEqualTo(1);
      assertThat(applier.storedVerdict(id)).contains(verdict);
      assertThat(applier.checkpoint(TOPIC, 2)).map(Checkpoint::offset).contains(41L);
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aReplayedMarkersVerdictDoesNotReplaceTheStoredOne(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a stored verdict
      TargetApplier applier = applier(connection, kind, "replayed");
      VerdictId id = new VerdictId("replayed", "nightly", "run-7", "public.orders", 3, 0);
      RecordPosition marker = RecordPosition.of(TOPIC, 0, 17);
      PartitionVerdict first =
          PartitionVerdict.verified(
              id, 17, ChunkVerdict.of(10, List.of(), List.of(), List.of(), List.of()), VERIFIED_AT);
      applier.apply(ApplyBatch.closing(List.of(), new MarkerVerdict(marker, first)));

      // When the marker is replayed and verified again against a target that moved on
      PartitionVerdict second =
          PartitionVerdict.verified(
              id,
              17,
              ChunkVerdict.of(9, List.of("4"), List.of(), List.of(), List.of()),
              VERIFIED_AT.plusSeconds(60));
      ApplyResult replay =
          applier.apply(ApplyBatch.closing(List.of(), new MarkerVerdict(marker, second)));

      // Then the second verdict is skipped and the first one stands
      assertThat(replay.verdictsSkipped()).isEqualTo(1);
      assertThat(replay.verdictsStored()).isZero();
      assertThat(applier.storedVerdict(id)).contains(first);
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void anUnverifiableVerdictKeepsItsError(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a chunk that could not be verified
      TargetApplier applier = applier(connection, kind, "unverifiable");
      VerdictId id = new VerdictId("unverifiable", "nightly", "run-7", "public.orders", 4, 1);
      PartitionVerdict verdict =
          PartitionVerdict.notVerified(
              id,
              8,
              ChunkState.UNVERIFIABLE,
              "UNVERIFIABLE: target table orders has no column 'note' on " + kind.dialect().name(),
              VERIFIED_AT);

      // When it is stored
      applier.apply(
          ApplyBatch.closing(
              List.of(), new MarkerVerdict(RecordPosition.of(TOPIC, 1, 8), verdict)));

      // Then it is found with its state and error, and another chunk has no verdict
      assertThat(applier.storedVerdict(id)).contains(verdict);
      assertThat(
              applier.storedVerdict(
                  new VerdictId("unverifiable", "nightly", "run-7", "public.orders", 5, 1)))
          .isEmpty();
    }
  }

  private Connection connect(EmbeddedEnvironment env, TargetKind kind) throws SQLException {
    return kind.server(env).connect(databases.get(kind));
  }

  private TargetApplier applier(Connection connection, TargetKind kind, String application)
      throws SQLException {
    return TargetApplier.open(
        connection, kind.dialect(), application, bookkeeping.get(kind), List.of(), CLOCK);
  }
}
