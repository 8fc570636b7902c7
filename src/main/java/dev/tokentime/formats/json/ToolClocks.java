package dev.tokentime.formats.json;

import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.ParseContext;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Clocks that several families' files of one tool run share: AIPerf writes its request records
 * (profile_export.jsonl, the peers family) and its scrapes of the server's metrics
 * (server_metrics_export.jsonl, read with the Prometheus series of the vllm family) from one
 * process tree on one machine, both in Unix epoch nanoseconds, into one artifacts folder. The
 * clock is named by that folder, so the two files' times are one clock and the engine's gauges
 * are drawn on the requests' time axis; another run's folder is another clock.
 */
public final class ToolClocks {
  private ToolClocks() {}

  /** AIPerf's wall clock for the files of one artifacts folder. */
  public static ClockSpec aiperf(ParseContext ctx) {
    return new ClockSpec("client", "AIPerf wall clock, Unix epoch ns (" + folder(ctx.sourceName()) + ")", 1, null,
        false);
  }

  private static String folder(String sourceName) {
    if (sourceName.equals("-")) {
      return "standard input"; // no folder: not the shell's working directory
    }
    try {
      Path parent = Path.of(sourceName).toAbsolutePath().normalize().getParent();
      return parent == null ? sourceName : parent.toString();
    } catch (InvalidPathException e) {
      return sourceName;
    }
  }
}
