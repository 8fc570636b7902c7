package dev.tokentime.formats.peers;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (load generators: genai-perf, AIPerf, vllm bench serve, vllm bench throughput / latency, LLMPerf, SGLang bench_serving, GuideLLM (its report and CSV), inference-perf, llm-d-benchmark's reports, EvalScope perf's result files, genai-bench's run files, the GKE latency profile generator's results, llm-load-test's output files, perf_analyzer's CSV, genai-perf analyze's sweep CSV, MLPerf Inference LoadGen's summary and detail logs, MLCommons endpoints harness's result_summary.json, Hugging Face inference-benchmarker's results JSON, Locust's statistics CSV) and NVIDIA Dynamo's per-request trace, registered as a FormatFamily service. */
public final class PeerFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new GenaiPerfExportFormat(),
        new ToolSummaryFormat(ToolSummaryFormat.Tool.GENAI_PERF),
        new AiperfJsonlFormat(),
        new AiperfRecordsCsvFormat(),
        new AiperfRawFormat(),
        new ToolSummaryFormat(ToolSummaryFormat.Tool.AIPERF),
        new VllmBenchFormat(),
        new VllmOfflineBenchFormat(),
        new LlmperfFormat(),
        new SglangBenchFormat(),
        new GuidellmFormat(),
        new GuidellmCsvFormat(),
        new InferencePerfFormat(),
        new LlmdReportFormat(),
        new EvalscopePerfFormat(),
        new GenaiBenchFormat(),
        new GkeLpgFormat(),
        new LlmLoadTestFormat(),
        new DynamoRequestTraceFormat(),
        new PerfAnalyzerCsvFormat(),
        new GenaiPerfAnalyzeCsvFormat(),
        new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.SUMMARY),
        new MlperfLoadgenFormat(MlperfLoadgenFormat.Kind.DETAIL),
        new InferenceBenchmarkerFormat(),
        new MlperfEndpointsFormat(),
        new LocustStatsCsvFormat());
  }
}
