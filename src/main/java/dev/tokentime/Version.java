package dev.tokentime;

/** The tool's version, as stamped into sources.tool_version and printed by --version. */
public final class Version {
  private Version() {}

  public static String get() {
    String v = Version.class.getPackage().getImplementationVersion();
    return v != null ? v : "0.1.0-dev";
  }
}
