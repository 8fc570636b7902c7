package dev.tokentime.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium (package chromium; .ci/run installs it), run the way a reader opens
 * a report from disk but with the network disabled: every host name resolves to nothing and every
 * connection goes to a dead proxy, so a page that needs the network fails. Console messages go to
 * stderr (--enable-logging=stderr), where the tests look for them.
 */
final class Chromium {
  private Chromium() {}

  record Run(int code, String stdout, String stderr) {
    /** The page's console messages and network errors, from Chromium's log. */
    List<String> consoleAndNetworkErrors() {
      return stderr.lines().filter(l -> l.contains(":CONSOLE") || l.contains("net::ERR_")).toList();
    }
  }

  /** $TOKENTIME_CHROMIUM, else chromium (Debian), chromium-browser or google-chrome on PATH. */
  static Optional<Path> find() {
    String env = System.getenv("TOKENTIME_CHROMIUM");
    if (env != null && !env.isBlank()) {
      return Optional.of(Path.of(env)).filter(Files::isExecutable);
    }
    String path = System.getenv("PATH");
    for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
      for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
        Path p = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  static List<String> offlineFlags(Path profile) {
    return List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
        "--disable-default-apps", "--user-data-dir=" + profile,
        // the network, disabled: no name resolves, every connection goes to a closed port
        "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
        "--enable-logging=stderr", "--v=0", "--hide-scrollbars", "--virtual-time-budget=8000");
  }

  /** The DOM after the page's scripts ran (--dump-dom). */
  static Run dumpDom(Path chromium, Path html, Path work) throws IOException, InterruptedException {
    return dumpDom(chromium, html, work, 1280);
  }

  /** The DOM after the page's scripts ran in a window this many pixels wide. */
  static Run dumpDom(Path chromium, Path html, Path work, int width) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(chromium.toString()));
    cmd.addAll(offlineFlags(Files.createTempDirectory(work, "profile-")));
    cmd.addAll(List.of("--window-size=" + width + ",2000", "--dump-dom", html.toUri().toString()));
    return exec(cmd, work);
  }

  /** A PNG of the page's first width x height pixels. */
  static Run screenshot(Path chromium, Path html, Path png, int width, int height, Path work)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(chromium.toString()));
    cmd.addAll(offlineFlags(Files.createTempDirectory(work, "profile-")));
    cmd.addAll(List.of("--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(),
        html.toUri().toString()));
    return exec(cmd, work);
  }

  private static Run exec(List<String> cmd, Path work) throws IOException, InterruptedException {
    Path out = Files.createTempFile(work, "chromium-out", ".txt");
    Path err = Files.createTempFile(work, "chromium-err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new IllegalStateException("chromium did not finish in 120 s: " + cmd);
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }
}
