package io.cdccompare.verifier.verdict;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A list of encoded keys as the JSON text stored in the verdict table: {@code ["1,a","2,b"]}. Any
 * character a key holds (quotes, backslashes, control characters, non-BMP characters) survives the
 * round trip. Thread-safe.
 */
final class KeyListJson {

  private static final JsonFactory JSON = new JsonFactory();

  private KeyListJson() {}

  static String write(List<String> keys) {
    StringWriter out = new StringWriter();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeStartArray();
      for (String key : keys) {
        generator.writeString(key);
      }
      generator.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * @throws IllegalArgumentException if the text is not a JSON array of strings
   */
  static List<String> read(String json) {
    List<String> keys = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException("a key list is a JSON array");
      }
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_ARRAY;
          token = parser.nextToken()) {
        if (token != JsonToken.VALUE_STRING) {
          throw new IllegalArgumentException("a key list holds strings only, found " + token);
        }
        keys.add(parser.getText());
      }
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException("a key list has text after its array");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("a key list is not valid JSON: " + e.getMessage(), e);
    }
    return keys;
  }
}
