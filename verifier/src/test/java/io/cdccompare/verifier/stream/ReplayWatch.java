package io.cdccompare.verifier.stream;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The clients of the restarted verifier: the commit audit's, with the main consumer also noting the
 * first and last offset it read of every partition of the table topic.
 */
final class ReplayWatch implements KafkaClientSupplier {
  final CommitAudit audit;
  private final String topic;
  private final Map<Integer, Long> first = new ConcurrentHashMap<>();
  private final Map<Integer, Long> last = new ConcurrentHashMap<>();

  ReplayWatch(CommitAudit audit, String topic) {
    this.audit = audit;
    this.topic = topic;
  }

  Map<Integer, Long> first() {
    return new TreeMap<>(first);
  }

  Map<Integer, Long> last() {
    return new TreeMap<>(last);
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return audit.getAdmin(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return audit.getProducer(config);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    Consumer<byte[], byte[]> real = audit.getConsumer(config);
    return (Consumer<byte[], byte[]>)
        Proxy.newProxyInstance(
            Consumer.class.getClassLoader(),
            new Class<?>[] {Consumer.class},
            (proxy, method, args) -> {
              Object out;
              try {
                out = method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("poll")) {
                for (ConsumerRecord<byte[], byte[]> r : (ConsumerRecords<byte[], byte[]>) out) {
                  if (r.topic().equals(topic)) {
                    first.merge(r.partition(), r.offset(), Math::min);
                    last.merge(r.partition(), r.offset(), Math::max);
                  }
                }
              }
              return out;
            });
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return audit.getRestoreConsumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return audit.getGlobalConsumer(config);
  }
}
