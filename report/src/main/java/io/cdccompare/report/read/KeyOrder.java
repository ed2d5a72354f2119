package io.cdccompare.report.read;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.regex.Pattern;

/**
 * The order keys are listed in: keys that are whole numbers (a one-column integer key's canonical
 * encoding) first, by value, so that 9 comes before 10; every other key after them, by text. A
 * total order, consistent with equals.
 */
final class KeyOrder implements Comparator<String> {
  static final KeyOrder INSTANCE = new KeyOrder();

  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,1000}");

  private KeyOrder() {}

  @Override
  public int compare(String a, String b) {
    boolean numberA = INTEGER.matcher(a).matches();
    boolean numberB = INTEGER.matcher(b).matches();
    if (numberA && numberB) {
      int byValue = new BigInteger(a).compareTo(new BigInteger(b));
      return byValue != 0 ? byValue : a.compareTo(b);
    }
    if (numberA != numberB) {
      return numberA ? -1 : 1;
    }
    return a.compareTo(b);
  }
}
