package io.cdccompare.app.status;

import org.apache.kafka.common.TopicPartition;

/** One offset of one partition. */
record PartitionOffset(TopicPartition partition, long offset) {}
