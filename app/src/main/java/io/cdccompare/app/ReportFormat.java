package io.cdccompare.app;

/** How {@code report} prints: aligned text, JSON, or one self-contained HTML page. */
enum ReportFormat {
  table,
  json,
  html
}
