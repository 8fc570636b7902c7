package dev.tokentime.formats.trtllm;

import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (TensorRT-LLM and Triton: perf metrics, iteration stats, trtllm-bench, Triton traces), as registered in FormatRegistry. */
public final class TrtllmFormats {
  private TrtllmFormats() {}

  public static List<InputFormat> all() {
    return List.of(new PerfMetricsFormat(), new IterStatsFormat(), new TritonTraceFormat(),
        new BenchReportFormat(), new BenchRequestsFormat());
  }
}
