package io.cdccompare.operations.status;

import org.apache.kafka.common.TopicPartition;

/** One offset of one partition. */
record PartitionOffset(TopicPartition partition, long offset) {}
