package dev.tokentime.formats.vllm;

import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (vLLM: server log, OpenTelemetry spans, Prometheus, per-request metrics), as registered in FormatRegistry. */
public final class VllmFormats {
  private VllmFormats() {}

  public static List<InputFormat> all() {
    return List.of(new VllmLogFormat(), new VllmOtlpJsonFormat(), new VllmPrometheusFormat(),
        new VllmRequestMetricsFormat());
  }
}
