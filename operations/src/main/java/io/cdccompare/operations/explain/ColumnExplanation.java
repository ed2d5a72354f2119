package io.cdccompare.operations.explain;

/**
 * One compared column of an explained row: its names on each side and the canonical text of each
 * side after the column's functions, already made safe to show ({@link ShownValue}); a side that
 * has no row shows {@code null}.
 *
 * @param masked whether the values are shown as hashes only ({@code explain.mask})
 * @param differs whether both sides have the row and their canonical texts differ
 */
public record ColumnExplanation(
    String sourceColumn,
    String targetColumn,
    String source,
    String target,
    boolean masked,
    boolean differs) {}
