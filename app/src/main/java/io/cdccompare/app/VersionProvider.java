package io.cdccompare.app;

import picocli.CommandLine;

/** The version printed by {@code --version}: the jar's implementation version. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = CdcCompare.class.getPackage().getImplementationVersion();
    return new String[] {"cdc-compare " + (version == null ? "(development build)" : version)};
  }
}
