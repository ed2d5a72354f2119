package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.schemas.avro.Marker;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenChunksTest {
  private static final String TOPIC = "p.public.items";

  private KeyValueStore<String, String> store;

  @BeforeEach
  void store() {
    store =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(OpenChunks.STORE), Serdes.String(), Serdes.String())
            .withLoggingDisabled()
            .build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
  }

  @Test
  void aChangeAfterTheOpenIsInFlightAndOneReadAgainFromBeforeItIsNot() {
    // Given chunk 1 opened at offset 10
    OpenChunks chunks = new OpenChunks(store);
    chunks.open(TOPIC, 0, 10, marker(1));

    // When a change after it comes, then one from before it read again (a replay from offsets
    // committed before the OPEN)
    chunks.changed(TOPIC, 0, 11, "b");
    chunks.changed(TOPIC, 0, 4, "a");

    // Then only the change after the OPEN is in flight
    assertThat(chunks.inFlight(TOPIC, 0, marker(1))).containsExactly("b");
  }

  @Test
  void aRestartedTaskStillKnowsWhereItsOpenChunksOpened() {
    // Given chunk 1 opened at offset 10 and a change after it, in the store of a task that stops
    OpenChunks before = new OpenChunks(store);
    before.open(TOPIC, 0, 10, marker(1));
    before.changed(TOPIC, 0, 12, "b");

    // When the restarted task replays from offset 3: the rows before the OPEN, the OPEN again, then
    // a new change
    OpenChunks after = new OpenChunks(store);
    after.changed(TOPIC, 0, 3, "a");
    after.open(TOPIC, 0, 10, marker(1));
    after.changed(TOPIC, 0, 12, "b");
    after.changed(TOPIC, 0, 13, "c");

    // Then the keys in flight are those changed after the OPEN, none from before it
    assertThat(after.inFlight(TOPIC, 0, marker(1))).containsExactlyInAnyOrder("b", "c");
  }

  @Test
  void aClosedChunkForgetsWhereItOpened() {
    OpenChunks chunks = new OpenChunks(store);
    chunks.open(TOPIC, 0, 10, marker(1));
    chunks.changed(TOPIC, 0, 11, "b");

    chunks.close(TOPIC, 0, marker(1));

    assertThat(chunks.inFlight(TOPIC, 0, marker(1))).isEmpty();
    assertThat(store.approximateNumEntries()).isZero();
  }

  private static Marker marker(long chunk) {
    Marker marker = new Marker();
    marker.setTask("nightly");
    marker.setRunId("r1");
    marker.setChunk(chunk);
    return marker;
  }
}
