package dev.tokentime.formats.vllm;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * The formats that reuse vLLM's readers for other stores, registered as a FormatFamily service
 * after the engines' own families: other engines' Prometheus metrics (SGLang, trtllm-serve,
 * Triton), the metrics AIPerf scraped from a server while it ran, and vLLM spans exported by trace
 * stores (Jaeger, Zipkin).
 */
public final class MetricStoreFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    List<InputFormat> all = new ArrayList<>(VllmPrometheusFormat.otherEngines());
    all.add(new AiperfServerMetricsFormat());
    all.addAll(VllmTraceExportFormat.all());
    return all;
  }
}
