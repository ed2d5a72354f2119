package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdccompare.deploy.ProgramUsers.Need;
import io.cdccompare.deploy.ProgramUsers.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each program's KafkaUser grants what the program needs ({@link ProgramUsers#needs}) and nothing
 * else: no operation on a resource the program does not use, no {@code All}, no wildcard, no
 * cluster-level ACL.
 */
class AclCoverageTest {
  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyProgramIsGrantedWhatItNeeds(Rendered rendered) {
    ProgramUsers.needs(rendered)
        .forEach(
            (user, needs) -> {
              Set<String> granted = granted(rendered.get("KafkaUser", user));
              for (Need need : needs) {
                for (Op op : need.ops()) {
                  assertThat(granted)
                      .as(user)
                      .contains(key(need.type(), need.name(), need.pattern(), op.name()));
                }
              }
            });
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void noProgramIsGrantedMoreThanItNeeds(Rendered rendered) {
    Map<String, List<Need>> all = ProgramUsers.needs(rendered);
    all.forEach(
        (user, needs) -> {
          Set<String> needed = new TreeSet<>();
          for (Need need : needs) {
            need.ops()
                .forEach(
                    op -> needed.add(key(need.type(), need.name(), need.pattern(), op.name())));
          }
          Set<String> extra = new TreeSet<>(granted(rendered.get("KafkaUser", user)));
          extra.removeAll(needed);
          assertThat(extra).as(user + " grants more than the program uses").isEmpty();
        });
  }

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void usersAuthenticateWithScramAndUseSimpleAuthorization(Rendered rendered) {
    for (JsonNode user : rendered.ofKind("KafkaUser")) {
      assertThat(user.path("spec").path("authentication").path("type").asText())
          .isEqualTo("scram-sha-512");
      assertThat(user.path("spec").path("authorization").path("type").asText()).isEqualTo("simple");
    }
  }

  /** type/name/pattern/operation of every ACL of a KafkaUser; wildcards and All refused. */
  static Set<String> granted(JsonNode user) {
    Set<String> out = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    for (JsonNode acl : user.path("spec").path("authorization").path("acls")) {
      JsonNode r = acl.path("resource");
      String type = r.path("type").asText();
      String name = r.path("name").asText();
      if (type.equals("cluster") || name.equals("*") || name.isEmpty()) {
        problems.add(type + " " + name);
      }
      for (JsonNode op : acl.path("operations")) {
        if (op.asText().equals("All")) {
          problems.add("All on " + name);
        }
        out.add(key(type, name, r.path("patternType").asText("literal"), op.asText()));
      }
    }
    assertThat(problems).as(user.path("metadata").path("name").asText() + ": broad ACLs").isEmpty();
    return out;
  }

  static String key(String type, String name, String pattern, String op) {
    return type + " " + name + " (" + pattern + ") " + op;
  }
}
