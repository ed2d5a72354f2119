package io.cdccompare.core.verdict;

/**
 * Which verdict: one per (application, task, run, table, chunk, partition of the table topic). The
 * application is the target's apply+verify application ({@code application.id}), so two targets
 * sharing one database keep their verdicts apart.
 *
 * @param table the source table as the markers spell it ({@code schema.table})
 */
public record VerdictId(
    String application, String task, String runId, String table, long chunk, int tablePartition) {

  public VerdictId {
    requireText(application, "application");
    requireText(task, "task");
    requireText(runId, "runId");
    requireText(table, "table");
    if (chunk < 0) {
      throw new IllegalArgumentException("chunk must not be negative, was " + chunk);
    }
    if (tablePartition < 0) {
      throw new IllegalArgumentException(
          "tablePartition must not be negative, was " + tablePartition);
    }
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }
}
