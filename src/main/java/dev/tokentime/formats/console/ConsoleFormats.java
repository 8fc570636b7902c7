package dev.tokentime.formats.console;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The console summaries of the benchmark tools, registered as a FormatFamily service. */
public final class ConsoleFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new BenchConsoleFormat(BenchConsoleFormat.Tool.VLLM),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.SGLANG),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.GENAI_PERF),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.AIPERF),
        new BenchConsoleFormat(BenchConsoleFormat.Tool.LLMPERF),
        new VllmOfflineConsoleFormat(),
        new EvalscopeConsoleFormat(),
        new PerfAnalyzerConsoleFormat(),
        new SglangOneBatchConsoleFormat(),
        new GuidellmConsoleFormat(),
        new MlperfEndpointsConsoleFormat(),
        new OllamaVerboseFormat());
  }
}
