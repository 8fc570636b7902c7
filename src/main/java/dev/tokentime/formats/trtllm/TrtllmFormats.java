package dev.tokentime.formats.trtllm;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (TensorRT-LLM and Triton: perf metrics, iteration stats, trtllm-bench, gptManagerBenchmark, Triton traces), registered as a FormatFamily service. */
public final class TrtllmFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new PerfMetricsFormat(), new IterStatsFormat(), new TritonTraceFormat(),
        new BenchReportFormat(), new BenchRequestsFormat(), new GptManagerBenchmarkFormat());
  }
}
