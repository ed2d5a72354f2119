package io.cdccompare.app;

/** How {@code report} and {@code status} print: aligned text, or JSON. */
enum OutputFormat {
  table,
  json
}
