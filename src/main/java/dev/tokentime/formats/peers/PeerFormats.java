package dev.tokentime.formats.peers;

import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (load generators: genai-perf, AIPerf, vllm bench serve, LLMPerf, SGLang bench_serving), as registered in FormatRegistry. */
public final class PeerFormats {
  private PeerFormats() {}

  public static List<InputFormat> all() {
    return List.of(new GenaiPerfExportFormat(),
        new ToolSummaryFormat(ToolSummaryFormat.Tool.GENAI_PERF),
        new AiperfJsonlFormat(),
        new ToolSummaryFormat(ToolSummaryFormat.Tool.AIPERF),
        new VllmBenchFormat(),
        new LlmperfFormat(),
        new SglangBenchFormat());
  }
}
