package io.cdccompare.core.rowhash;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical text of a JSON document, so that PostgreSQL {@code json}/{@code jsonb} and MariaDB
 * {@code JSON} (a {@code LONGTEXT}) holding the same document agree:
 *
 * <ul>
 *   <li>no insignificant white space;
 *   <li>object members sorted by key in Unicode code point order; a repeated key keeps its last
 *       value (what {@code jsonb} stores);
 *   <li>numbers as exact decimals in plain notation without trailing fractional zeros ({@code 1.0},
 *       {@code 1} and {@code 1e0} are all {@code 1}; {@code -0} is {@code 0}), as {@code jsonb}
 *       compares them;
 *   <li>strings with only {@code "}, {@code \} and control characters escaped ({@code \b \f \n \r
 *       \t}, others {@code \}{@code u00xx}); every other character, {@code /} included, literal.
 * </ul>
 *
 * Text that is not valid JSON is written as is (trailing blanks removed): it cannot equal the
 * canonical text of a valid document, so it shows up as a difference instead of failing the run.
 * Parsing uses jackson-core's streaming parser only. Thread-safe.
 */
final class CanonicalJson {

  /** PostgreSQL {@code numeric} (and so {@code jsonb}) holds at most 131072 + 16383 digits. */
  private static final int MAX_PLAIN_DIGITS = 131_072 + 16_383;

  private static final JsonFactory FACTORY = JsonFactory.builder().build();
  private static final Comparator<String> CODE_POINT_ORDER = CanonicalJson::compareCodePoints;

  private CanonicalJson() {}

  static String of(Object value) {
    if (value instanceof String text) {
      return of(text);
    }
    throw CanonicalValues.unsupported(LogicalType.JSON, value);
  }

  static String of(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return TextValues.stripTrailingBlanks(text);
      }
      StringBuilder out = new StringBuilder(text.length());
      writeValue(parser, first, out);
      if (parser.nextToken() != null) {
        return TextValues.stripTrailingBlanks(text);
      }
      return out.toString();
    } catch (IOException | RuntimeException e) {
      return TextValues.stripTrailingBlanks(text);
    }
  }

  private static void writeValue(JsonParser parser, JsonToken token, StringBuilder out)
      throws IOException {
    switch (token) {
      case START_OBJECT -> writeObject(parser, out);
      case START_ARRAY -> writeArray(parser, out);
      case VALUE_STRING -> writeString(parser.getText(), out);
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> out.append(number(parser));
      case VALUE_TRUE -> out.append("true");
      case VALUE_FALSE -> out.append("false");
      case VALUE_NULL -> out.append("null");
      default -> throw new IOException("unexpected JSON token " + token);
    }
  }

  private static String number(JsonParser parser) throws IOException {
    BigDecimal value = new BigDecimal(parser.getText());
    if (Math.abs((long) value.scale() - value.precision()) > MAX_PLAIN_DIGITS) {
      throw new IOException("JSON number too large to write in plain notation");
    }
    return NumericText.decimal(value);
  }

  private static void writeObject(JsonParser parser, StringBuilder out) throws IOException {
    Map<String, String> members = new TreeMap<>(CODE_POINT_ORDER);
    JsonToken token;
    while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      StringBuilder value = new StringBuilder();
      writeValue(parser, parser.nextToken(), value);
      members.put(key, value.toString());
    }
    if (token != JsonToken.END_OBJECT) {
      throw new IOException("unterminated JSON object");
    }
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, String> member : members.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      writeString(member.getKey(), out);
      out.append(':').append(member.getValue());
    }
    out.append('}');
  }

  private static void writeArray(JsonParser parser, StringBuilder out) throws IOException {
    out.append('[');
    boolean first = true;
    JsonToken token;
    while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
      if (token == null) {
        throw new IOException("unterminated JSON array");
      }
      if (!first) {
        out.append(',');
      }
      first = false;
      writeValue(parser, token, out);
    }
    out.append(']');
  }

  private static void writeString(String value, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00")
                .append(Character.forDigit(c >> 4, 16))
                .append(Character.forDigit(c & 0xF, 16));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
