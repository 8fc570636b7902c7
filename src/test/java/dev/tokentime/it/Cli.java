package dev.tokentime.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the packaged jar as a subprocess, the way users run it. */
final class Cli {
  private Cli() {}

  record Result(int code, String out, String err) {}

  static Path jar() {
    Path jar = Path.of(System.getProperty("tokentime.jar", "target/tokentime.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run the tests with mvn verify");
    }
    return jar;
  }

  static Result run(Path stdin, String... args) throws IOException, InterruptedException {
    return exec(command(args), stdin);
  }

  /** java, its flags (the class archive the runs share) and the jar, then {@code args}. */
  private static List<String> command(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx512m"));
    // the tests' JIT choice (pom.xml, tt.testJit): most runs here are short, where C2 costs more
    // than it returns; the slow profile leaves it empty
    String jit = System.getProperty("tokentime.cliJit", "").strip();
    if (!jit.isEmpty()) {
      cmd.addAll(List.of(jit.split("\\s+")));
    }
    cmd.addAll(classArchive());
    cmd.addAll(List.of("-jar", jar().toAbsolutePath().toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  private static List<String> archiveFlags;

  /**
   * The flags of a class archive of the jar, recorded once by a first run (an ingest of a small
   * file), as the launcher records one per build: each of the tests' hundreds of runs starts from
   * it. The JVM's own messages go to stderr, as the launcher sends them. None when it cannot be
   * recorded (the runs start as before).
   */
  private static synchronized List<String> classArchive() throws IOException, InterruptedException {
    if (archiveFlags == null) {
      Path jar = jar().toAbsolutePath();
      // beside the jar's folder's own archive, not in it (LauncherIT counts the launcher's there)
      Path jsa = Files.createDirectories(jar.resolveSibling("it-classes"))
          .resolve(Files.getLastModifiedTime(jar).toMillis() + ".jsa");
      List<String> log = List.of("-Xlog:disable", "-Xlog:all=warning:stderr");
      if (!Files.isRegularFile(jsa)) {
        Path db = Files.createTempDirectory("tt-cds").resolve("x.duckdb");
        List<String> record = new ArrayList<>(List.of(javaBin(), "-Xmx512m", "-XX:ArchiveClassesAtExit=" + jsa));
        record.addAll(log);
        record.addAll(List.of("-jar", jar.toString(), "ingest", "--db", db.toString(), "sample-logs/canonical"));
        exec(record, null);
      }
      archiveFlags = new ArrayList<>();
      if (Files.isRegularFile(jsa)) {
        archiveFlags.addAll(List.of("-XX:SharedArchiveFile=" + jsa, "-Xshare:auto"));
        archiveFlags.addAll(log);
      }
    }
    return archiveFlags;
  }

  static Result run(String... args) throws IOException, InterruptedException {
    return run(null, args);
  }

  /** With the environment's TOKENTIME_LOCK_WAIT set to {@code seconds}. */
  static Result runWaiting(long seconds, String... args) throws IOException, InterruptedException {
    return exec(command(args), null, java.util.Map.of("TOKENTIME_LOCK_WAIT", Long.toString(seconds)));
  }

  static Result exec(List<String> cmd, Path stdin) throws IOException, InterruptedException {
    return exec(cmd, stdin, java.util.Map.of());
  }

  static Result exec(List<String> cmd, Path stdin, java.util.Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    Path out = Files.createTempFile("tt-out", ".txt");
    Path err = Files.createTempFile("tt-err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.redirectInput(stdin == null ? ProcessBuilder.Redirect.from(new File("/dev/null"))
        : ProcessBuilder.Redirect.from(stdin.toFile()));
    pb.environment().remove("COLUMNS");
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("timed out: " + cmd);
    }
    Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
    Files.deleteIfExists(out);
    Files.deleteIfExists(err);
    return r;
  }

  static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
