package io.cdccompare.core.rowhash.function;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the configuration text of one column function: {@code upper}, {@code lower}, {@code trim},
 * {@code ltrim}, {@code rtrim}, {@code substr(from[,length])}, {@code replace('a','b')}, {@code
 * round(n)} and {@code truncate(unit)}. Names are case-insensitive; white space around names and
 * arguments is ignored; text arguments are single-quoted with {@code ''} for a quote.
 *
 * <p>Anything else is refused with an {@link IllegalArgumentException} whose message says what is
 * wrong with the spec; the configuration loader adds the table and column. Thread-safe.
 */
public final class ColumnFunctionParser {

  public static final List<String> KNOWN =
      List.of("upper", "lower", "trim", "ltrim", "rtrim", "substr", "replace", "round", "truncate");

  private ColumnFunctionParser() {}

  public static ColumnFunction parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("empty function");
    }
    Cursor cursor = new Cursor(spec);
    String name = cursor.identifier().toLowerCase(Locale.ROOT);
    List<Object> args = cursor.arguments();
    cursor.end();
    return switch (name) {
      case "upper" -> noArgs(spec, args, CaseFunction.UPPER);
      case "lower" -> noArgs(spec, args, CaseFunction.LOWER);
      case "trim" -> noArgs(spec, args, TrimFunction.TRIM);
      case "ltrim" -> noArgs(spec, args, TrimFunction.LTRIM);
      case "rtrim" -> noArgs(spec, args, TrimFunction.RTRIM);
      case "substr" -> substr(spec, args);
      case "replace" -> replace(spec, args);
      case "round" -> round(spec, args);
      case "truncate" -> truncate(spec, args);
      default ->
          throw new IllegalArgumentException(
              "unknown function '" + name + "' (known: " + String.join(", ", KNOWN) + ")");
    };
  }

  private static ColumnFunction noArgs(String spec, List<Object> args, ColumnFunction function) {
    if (!args.isEmpty()) {
      throw wrongArgs(spec, function.name() + " takes no arguments");
    }
    return function;
  }

  private static ColumnFunction substr(String spec, List<Object> args) {
    if (args.isEmpty() || args.size() > 2 || !allIntegers(args)) {
      throw wrongArgs(spec, "expected substr(from) or substr(from,length) with whole numbers");
    }
    int from = (Integer) args.get(0);
    int length = args.size() == 2 ? (Integer) args.get(1) : Substr.TO_END;
    if (args.size() == 2 && length < 0) {
      throw wrongArgs(spec, "length must not be negative");
    }
    try {
      return new Substr(from, length);
    } catch (IllegalArgumentException e) {
      throw wrongArgs(spec, e.getMessage());
    }
  }

  private static ColumnFunction replace(String spec, List<Object> args) {
    if (args.size() != 2 || !(args.get(0) instanceof Text a) || !(args.get(1) instanceof Text b)) {
      throw wrongArgs(spec, "expected replace('search','replacement') with quoted texts");
    }
    try {
      return new Replace(a.value(), b.value());
    } catch (IllegalArgumentException e) {
      throw wrongArgs(spec, e.getMessage());
    }
  }

  private static ColumnFunction round(String spec, List<Object> args) {
    if (args.isEmpty()) {
      return new Round(0);
    }
    if (args.size() != 1 || !allIntegers(args)) {
      throw wrongArgs(spec, "expected round(n) with a whole number of fractional digits");
    }
    try {
      return new Round((Integer) args.get(0));
    } catch (IllegalArgumentException e) {
      throw wrongArgs(spec, e.getMessage());
    }
  }

  private static ColumnFunction truncate(String spec, List<Object> args) {
    Object arg = args.size() == 1 ? args.get(0) : null;
    String unitName =
        arg instanceof Word word ? word.value() : arg instanceof Text text ? text.value() : null;
    TruncateUnit unit = unitName == null ? null : TruncateUnit.fromName(unitName);
    if (unit == null) {
      throw wrongArgs(
          spec,
          "expected truncate(unit) with unit one of year, month, day, hour, minute, second,"
              + " millisecond, microsecond");
    }
    return new Truncate(unit);
  }

  private static boolean allIntegers(List<Object> args) {
    return args.stream().allMatch(Integer.class::isInstance);
  }

  private static IllegalArgumentException wrongArgs(String spec, String why) {
    return new IllegalArgumentException("invalid function '" + spec.strip() + "': " + why);
  }

  private record Text(String value) {}

  private record Word(String value) {}

  /** A hand-written scanner: the grammar is three token kinds and a parenthesised list. */
  private static final class Cursor {
    private final String spec;
    private int pos;

    Cursor(String spec) {
      this.spec = spec;
    }

    String identifier() {
      skipBlanks();
      int start = pos;
      while (pos < spec.length()
          && (Character.isLetterOrDigit(spec.charAt(pos)) || spec.charAt(pos) == '_')) {
        pos++;
      }
      if (start == pos) {
        throw syntax("a function name");
      }
      return spec.substring(start, pos);
    }

    List<Object> arguments() {
      List<Object> args = new ArrayList<>();
      skipBlanks();
      if (pos == spec.length() || spec.charAt(pos) != '(') {
        return args;
      }
      pos++;
      skipBlanks();
      if (peek(')')) {
        pos++;
        return args;
      }
      while (true) {
        args.add(argument());
        skipBlanks();
        if (peek(',')) {
          pos++;
        } else if (peek(')')) {
          pos++;
          return args;
        } else {
          throw syntax("',' or ')'");
        }
      }
    }

    private Object argument() {
      skipBlanks();
      if (peek('\'')) {
        return new Text(quoted());
      }
      if (peek('-') || (pos < spec.length() && Character.isDigit(spec.charAt(pos)))) {
        int start = pos;
        pos++;
        while (pos < spec.length() && Character.isDigit(spec.charAt(pos))) {
          pos++;
        }
        try {
          return Integer.parseInt(spec.substring(start, pos));
        } catch (NumberFormatException e) {
          throw syntax("a whole number");
        }
      }
      return new Word(identifier());
    }

    private String quoted() {
      StringBuilder out = new StringBuilder();
      pos++;
      while (pos < spec.length()) {
        char c = spec.charAt(pos++);
        if (c != '\'') {
          out.append(c);
        } else if (peek('\'')) {
          out.append('\'');
          pos++;
        } else {
          return out.toString();
        }
      }
      throw syntax("a closing quote");
    }

    void end() {
      skipBlanks();
      if (pos != spec.length()) {
        throw syntax("the end of the function");
      }
    }

    private boolean peek(char c) {
      return pos < spec.length() && spec.charAt(pos) == c;
    }

    private void skipBlanks() {
      while (pos < spec.length() && Character.isWhitespace(spec.charAt(pos))) {
        pos++;
      }
    }

    private IllegalArgumentException syntax(String expected) {
      return new IllegalArgumentException(
          "invalid function '"
              + spec.strip()
              + "': expected "
              + expected
              + " at position "
              + (pos + 1));
    }
  }
}
