package io.cdccompare.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.status.CheckpointReader.Checkpoints;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TargetLagTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final String ORDERS = "shop.public.orders";
  private static final String ITEMS = "shop.public.items";
  private static final TopicPartition P0 = new TopicPartition(ORDERS, 0);
  private static final TopicPartition P1 = new TopicPartition(ORDERS, 1);

  private final VerifierSettings target =
      VerifierSettings.builder("pg")
          .applicationId("verify-pg")
          .bootstrapServers("kafka:9092")
          .registryUrl("http://registry")
          .topicPrefix("shop")
          .table(new TableName("public", "orders"))
          .table(new TableName("public", "items"))
          .target("jdbc:postgresql://db:5432/target?sslmode=require", "u", "secret")
          .build();

  private final TopicOffsets offsets =
      new TopicOffsets(
          Map.of(P0, new TopicOffsets.Range(0, 10), P1, new TopicOffsets.Range(0, 4)),
          Set.of(ITEMS),
          Map.of("verify-pg", Map.of(P0, 2L)),
          Map.of());

  private final Checkpoints checkpoints =
      new Checkpoints(List.of(checkpoint(ORDERS, 0, 3), checkpoint(ORDERS, 1, 3)), null);

  @Test
  void onlyLaggingPartitionsNeedTheirOldestRecordRead() {
    // Given partition 0 applied to 3 of 0..9, partition 1 to 3 of 0..3
    // When
    Set<PartitionOffset> wanted = TargetLag.oldestUnapplied(target, checkpoints, offsets);

    // Then
    assertThat(wanted).containsExactly(new PartitionOffset(P0, 4));
  }

  @Test
  void aVerifyOnlyTargetShowsTheFollowedGroupsLagBesideItsOwn() {
    // Given the followed applier committed 9 of partition 0's 0..9 and nothing of partition 1
    TopicOffsets withApplier =
        new TopicOffsets(
            offsets.partitions(),
            offsets.missingTopics(),
            Map.of("verify-pg", Map.of(P0, 2L), "jdbc-sink", Map.of(P0, 9L)),
            Map.of());
    Map<PartitionOffset, Instant> timestamps =
        Map.of(new PartitionOffset(P0, 4), NOW.minusMillis(90_250));

    // When
    TargetStatus status =
        TargetLag.status(target, "jdbc-sink", checkpoints, withApplier, timestamps, null, NOW);

    // Then each partition has the group's offset and lag: end - offset, or every record held
    assertThat(status.partitions())
        .containsExactly(
            new PartitionStatus(ORDERS, 0, 3L, 0L, 10L, 6L, 90.25, 2L, null, 9L, 1L),
            new PartitionStatus(ORDERS, 1, 3L, 0L, 4L, 0L, 0.0, null, null, null, 4L));
    assertThat(status.followGroup()).isEqualTo("jdbc-sink");
    assertThat(status.followLagRecords()).isEqualTo(5);
    assertThat(status.lagRecords()).isEqualTo(6);
    assertThat(status.note()).isNull();
  }

  @Test
  void aFollowedGroupWithoutOffsetsIsSaidNotGuessed() {
    // Given / When
    TargetStatus status =
        TargetLag.status(target, "jdbc-sink", checkpoints, offsets, Map.of(), null, NOW);

    // Then
    assertThat(status.note()).isEqualTo("the followed group jdbc-sink has committed no offset");
    assertThat(status.followLagRecords()).isEqualTo(14);
  }

  @Test
  void aTargetThatAppliesFollowsNoGroup() {
    // Given / When
    TargetStatus status = TargetLag.status(target, checkpoints, offsets, Map.of(), null, NOW);

    // Then
    assertThat(status.followGroup()).isNull();
    assertThat(status.followLagRecords()).isNull();
    assertThat(status.partitions()).allSatisfy(p -> assertThat(p.followLagRecords()).isNull());
  }

  @Test
  void rowsHoldCheckpointEndLagAgeAndGroupOffsetPerPartition() {
    // Given the record at offset 4 was written 90.25 s ago
    Map<PartitionOffset, Instant> timestamps =
        Map.of(new PartitionOffset(P0, 4), NOW.minusMillis(90_250));

    // When
    TargetStatus status = TargetLag.status(target, checkpoints, offsets, timestamps, null, NOW);

    // Then
    assertThat(status.partitions())
        .containsExactly(
            new PartitionStatus(ORDERS, 0, 3L, 0L, 10L, 6L, 90.25, 2L, null),
            new PartitionStatus(ORDERS, 1, 3L, 0L, 4L, 0L, 0.0, null, null));
    assertThat(status.missingTopics()).containsExactly(ITEMS);
    assertThat(status.lagRecords()).isEqualTo(6);
    assertThat(status.lagSeconds()).isEqualTo(90.25);
    assertThat(status.unreachable()).isNull();
    assertThat(status.database()).isEqualTo("jdbc:postgresql://db:5432/target");
  }

  @Test
  void anUnreadOldestRecordLeavesTheAgeUnknownAndNamesTheFailure() {
    // Given the timestamps could not be read
    // When
    TargetStatus status =
        TargetLag.status(target, checkpoints, offsets, Map.of(), "not read within 15 s", NOW);

    // Then
    assertThat(status.partitions().get(0).lagSeconds()).isNull();
    assertThat(status.partitions().get(1).lagSeconds()).isZero();
    assertThat(status.unreachable()).isEqualTo("kafka: not read within 15 s");
  }

  @Test
  void aGroupWhoseOffsetsCannotBeReadMakesTheTargetUnreachableButKeepsItsRows() {
    // Given
    TopicOffsets denied =
        new TopicOffsets(
            offsets.partitions(),
            Set.of(),
            Map.of(),
            Map.of("verify-pg", "offsets of consumer group verify-pg: not authorized"));

    // When
    TargetStatus status =
        TargetLag.status(
            target,
            checkpoints,
            denied,
            Map.of(new PartitionOffset(P0, 4), NOW.minusSeconds(1)),
            null,
            NOW);

    // Then
    assertThat(status.partitions()).hasSize(2);
    assertThat(status.unreachable())
        .isEqualTo("kafka: offsets of consumer group verify-pg: not authorized");
  }

  @Test
  void withoutKafkaTheRowsHoldTheCheckpointsAlone() {
    // When
    TargetStatus status = TargetLag.status(target, checkpoints, null, Map.of(), null, NOW);

    // Then
    assertThat(status.partitions())
        .containsExactly(
            new PartitionStatus(ORDERS, 0, 3L, null, null, null, null, null, null),
            new PartitionStatus(ORDERS, 1, 3L, null, null, null, null, null, null));
    assertThat(status.unreachable()).as("Kafka is named once, at the report").isNull();
  }

  private static Checkpoint checkpoint(String topic, int partition, long offset) {
    return new Checkpoint("verify-pg", topic, partition, offset, null, null, NOW);
  }
}
