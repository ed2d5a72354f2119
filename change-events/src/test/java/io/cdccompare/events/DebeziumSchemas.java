package io.cdccompare.events;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Field schemas and values built the way Debezium's PostgreSQL and MariaDB connectors build them.
 */
final class DebeziumSchemas {

  static final Schema INT16 = Schema.OPTIONAL_INT16_SCHEMA;
  static final Schema INT32 = Schema.OPTIONAL_INT32_SCHEMA;
  static final Schema INT64 = Schema.OPTIONAL_INT64_SCHEMA;
  static final Schema FLOAT32 = Schema.OPTIONAL_FLOAT32_SCHEMA;
  static final Schema FLOAT64 = Schema.OPTIONAL_FLOAT64_SCHEMA;
  static final Schema BOOLEAN = Schema.OPTIONAL_BOOLEAN_SCHEMA;
  static final Schema STRING = Schema.OPTIONAL_STRING_SCHEMA;
  static final Schema BYTES = Schema.OPTIONAL_BYTES_SCHEMA;

  static final Schema VARIABLE_SCALE_DECIMAL =
      SchemaBuilder.struct()
          .name(DebeziumSemanticTypes.VARIABLE_SCALE_DECIMAL)
          .version(1)
          .field("scale", Schema.INT32_SCHEMA)
          .field("value", Schema.BYTES_SCHEMA)
          .optional()
          .build();

  private DebeziumSchemas() {}

  static Schema decimal(int scale) {
    return Decimal.builder(scale).parameter("connect.decimal.precision", "12").optional().build();
  }

  static Schema named(Schema.Type type, String name) {
    return new SchemaBuilder(type).name(name).version(1).optional().build();
  }

  static Struct variableScaleDecimal(BigDecimal value) {
    return new Struct(VARIABLE_SCALE_DECIMAL)
        .put("scale", value.scale())
        .put("value", value.unscaledValue().toByteArray());
  }

  static ByteBuffer buffer(byte... bytes) {
    return ByteBuffer.wrap(bytes);
  }
}
