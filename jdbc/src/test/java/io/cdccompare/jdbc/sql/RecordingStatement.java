package io.cdccompare.jdbc.sql;

import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A {@link PreparedStatement} that records its {@code set…} calls instead of binding. */
final class RecordingStatement {

  /** One call: the method and its arguments after the parameter index. */
  record Call(String method, List<Object> arguments) {}

  private final List<Call> calls = new ArrayList<>();
  private final PreparedStatement statement =
      (PreparedStatement)
          Proxy.newProxyInstance(
              PreparedStatement.class.getClassLoader(),
              new Class<?>[] {PreparedStatement.class},
              (proxy, method, args) -> {
                if (method.getName().startsWith("set")) {
                  calls.add(
                      new Call(method.getName(), Arrays.asList(args).subList(1, args.length)));
                  return null;
                }
                throw new UnsupportedOperationException(method.getName());
              });

  PreparedStatement statement() {
    return statement;
  }

  /** The one call recorded. */
  Call only() {
    if (calls.size() != 1) {
      throw new AssertionError("expected one call, got " + calls);
    }
    return calls.get(0);
  }
}
