package io.cdccompare.verifier.stream;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The results topic must exist before the verifier starts: Kafka Streams does not create its sink
 * topics, and a broker that does not create topics on first use would make every chunk result wait
 * for metadata and time out. Created with the broker's default partitions and replication; several
 * targets' verifiers may race to create it, which is fine.
 */
public final class ResultsTopic {
  private ResultsTopic() {}

  /**
   * Creates the settings' results topic unless it exists. Admin client settings come from the
   * {@code admin.}-prefixed streams properties (security and the like).
   */
  public static void ensure(VerifierSettings settings)
      throws InterruptedException, ExecutionException {
    ensure(settings, settings.tables().resultsTopic());
  }

  /** Creates {@code topic} like the results topic unless it exists (the alerts topic). */
  static void ensure(VerifierSettings settings, String topic)
      throws InterruptedException, ExecutionException {
    Map<String, Object> config = settings.kafka().clientSettings("admin.");
    try (Admin admin = Admin.create(config)) {
      if (admin.listTopics().names().get().contains(topic)) {
        return;
      }
      try {
        admin
            .createTopics(List.of(new NewTopic(topic, Optional.empty(), Optional.empty())))
            .all()
            .get();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
    }
  }
}
