package io.cdccompare.report.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code docs/report.schema.json}, the schema of {@code report -o json}, as a validator. */
public final class ReportSchema {
  /** The file, from a module's directory (Maven runs tests there: operations/ or app/). */
  public static final Path FILE = Path.of("..", "docs", "report.schema.json");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = load();

  private ReportSchema() {}

  private static Schema load() {
    try {
      String text = Files.readString(FILE);
      return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
          .getSchema(text, InputFormat.JSON);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + FILE.toAbsolutePath(), e);
    }
  }

  /** The schema's complaints about {@code document}; empty when it is valid. */
  public static List<String> errors(JsonNode document) {
    return SCHEMA.validate(document).stream().map(Error::toString).toList();
  }

  /** The same for a document given as text. */
  public static List<String> errors(String document) {
    try {
      return errors(JSON.readTree(document));
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + document, e);
    }
  }
}
