package io.cdccompare.capture;

import io.debezium.embedded.KafkaConnectUtil;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.KafkaOffsetBackingStore;
import org.apache.kafka.connect.util.SharedTopicAdmin;
import org.apache.kafka.connect.util.TopicAdmin;

/**
 * The engine's offsets topic store: Kafka Connect's {@link KafkaOffsetBackingStore} that owns its
 * admin client and closes it when it is stopped. The engine creates it from {@code offset.storage}
 * (a public no-argument constructor), configures, starts and stops it.
 *
 * <p>Why not the store Debezium builds for {@code KafkaOffsetBackingStore}: Debezium 3.6's embedded
 * engine ({@code KafkaConnectUtil.kafkaOffsetBackingStore}) hands it a {@link SharedTopicAdmin}
 * that nothing ever closes. The store only borrows that admin: Kafka's {@link
 * KafkaOffsetBackingStore#stop()} and its {@code KafkaBasedLog} close their producer and consumer
 * but leave the admin to whoever created it, and the engine keeps no reference to it. Every stopped
 * capture left an admin client thread ({@code kafka-admin-client-thread |
 * debezium-servershared-admin}) running, reconnecting to the broker for the life of the process.
 *
 * <p>The topic, its partitions and replication factor, the converter and every client setting are
 * the ones Debezium's store uses; only the client ids name the engine ({@code <name>-offsets},
 * {@code <name>-offsets-admin}) instead of {@code debezium-server…}, so two engines in one process
 * do not share them. Not thread-safe beyond what the engine needs: configure, start and stop are
 * called once each, in that order.
 */
public final class OffsetsTopicStore extends KafkaOffsetBackingStore {
  /** How long a stop waits for the admin client's pending calls before it aborts them. */
  private static final Duration ADMIN_CLOSE = Duration.ofSeconds(30);

  private final OwnedAdmin admin;

  /** The store the engine creates from {@code offset.storage}. */
  public OffsetsTopicStore() {
    this(new OwnedAdmin());
  }

  private OffsetsTopicStore(OwnedAdmin admin) {
    super(admin, admin::clientIdBase, KafkaConnectUtil.converterForOffsetStore());
    this.admin = admin;
  }

  @Override
  public void configure(WorkerConfig config) {
    admin.configure(config.originals());
    super.configure(config);
  }

  /** Stops reading and writing the offsets topic, then closes the admin client. */
  @Override
  public void stop() {
    try {
      if (offsetLog != null) { // the engine stops a store whose configure failed, too
        super.stop();
      }
    } finally {
      admin.close();
    }
  }

  /** The admin client of one store: created on first use, closed by the store's stop. */
  private static final class OwnedAdmin implements Supplier<TopicAdmin> {
    private volatile String clientIdBase;
    private volatile SharedTopicAdmin shared;

    void configure(Map<String, Object> settings) {
      clientIdBase = settings.get("name") + "-";
      Map<String, Object> props = new HashMap<>(settings);
      props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientIdBase + "offsets-admin");
      shared = new SharedTopicAdmin(props);
    }

    /** Kafka's store appends {@code offsets} for its producer and consumer. */
    String clientIdBase() {
      return clientIdBase;
    }

    @Override
    public TopicAdmin get() {
      return shared.topicAdmin();
    }

    void close() {
      SharedTopicAdmin s = shared;
      if (s != null) {
        s.close(ADMIN_CLOSE);
      }
    }
  }
}
