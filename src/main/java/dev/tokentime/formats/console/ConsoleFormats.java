package dev.tokentime.formats.console;

import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The console summaries of the benchmark tools, as registered in FormatRegistry. */
public final class ConsoleFormats {
  private ConsoleFormats() {}

  public static List<InputFormat> all() {
    return List.of(new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.SGLANG),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.GENAI_PERF),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.AIPERF),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.LLMPERF));
  }
}
