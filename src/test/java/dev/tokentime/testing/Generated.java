package dev.tokentime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A synthetic load test written in-process by {@code tokentime generate}, for tests that ingest one. */
public final class Generated {
  private Generated() {}

  /** Runs {@code tokentime generate --out OUT OPTIONS...}, failing the test with its stderr unless it succeeds. */
  public static Path into(Path out, String... options) {
    List<String> args = new ArrayList<>(List.of("generate", "--out", out.toString()));
    args.addAll(List.of(options));
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
        .execute(args.toArray(String[]::new));
    assertEquals(0, code, err.toString());
    return out;
  }
}
