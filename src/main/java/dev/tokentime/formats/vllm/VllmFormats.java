package dev.tokentime.formats.vllm;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (vLLM: server log, OpenTelemetry spans, Prometheus, per-request metrics), registered as a FormatFamily service. */
public final class VllmFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new VllmLogFormat(), new VllmOtlpJsonFormat(), new VllmPrometheusFormat(),
        new VllmRequestMetricsFormat());
  }
}
