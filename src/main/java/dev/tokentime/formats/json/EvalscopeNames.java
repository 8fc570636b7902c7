package dev.tokentime.formats.json;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * EvalScope perf's figure names, as its result files and its console tables show them, to the
 * names tokentime stores them under: one per figure whichever EvalScope version wrote it. The JSON
 * (formats.peers) and the console tables (formats.console) use it.
 */
public final class EvalscopeNames {
  private EvalscopeNames() {}

  /** A figure's name, statistic and unit. */
  public record Figure(String metric, String stat, String unit) {}

  /** benchmark_summary.json's keys, both generations, to one name each. */
  public static final Map<String, Figure> SUMMARY = Map.ofEntries(
      Map.entry("Time taken for tests (s)", new Figure("duration", "value", "s")),
      Map.entry("Test Duration (s)", new Figure("duration", "value", "s")),
      Map.entry("Number of concurrency", new Figure("concurrency", "value", "")),
      Map.entry("Concurrency", new Figure("concurrency", "value", "")),
      Map.entry("Request rate (req/s)", new Figure("request_rate", "value", "requests/s")),
      Map.entry("Request Rate (req/s)", new Figure("request_rate", "value", "requests/s")),
      Map.entry("Total requests", new Figure("total_requests", "value", "requests")),
      Map.entry("Total Requests", new Figure("total_requests", "value", "requests")),
      Map.entry("Expected number of requests", new Figure("expected_requests", "value", "requests")),
      Map.entry("Succeed requests", new Figure("succeed_requests", "value", "requests")),
      Map.entry("Success Requests", new Figure("succeed_requests", "value", "requests")),
      Map.entry("Failed requests", new Figure("failed_requests", "value", "requests")),
      Map.entry("Failed Requests", new Figure("failed_requests", "value", "requests")),
      Map.entry("Stream Requests", new Figure("stream_requests", "value", "requests")),
      Map.entry("Non-Stream Requests", new Figure("non_stream_requests", "value", "requests")),
      Map.entry("Request throughput (req/s)", new Figure("request_throughput", "value", "requests/s")),
      Map.entry("Req Throughput (req/s)", new Figure("request_throughput", "value", "requests/s")),
      Map.entry("Output token throughput (tok/s)", new Figure("output_throughput", "value", "tokens/s")),
      Map.entry("Output Throughput (tok/s)", new Figure("output_throughput", "value", "tokens/s")),
      Map.entry("Total token throughput (tok/s)", new Figure("total_throughput", "value", "tokens/s")),
      Map.entry("Total Throughput (tok/s)", new Figure("total_throughput", "value", "tokens/s")),
      Map.entry("Input token throughput (tok/s)", new Figure("input_throughput", "value", "tokens/s")),
      Map.entry("Input Throughput (tok/s)", new Figure("input_throughput", "value", "tokens/s")),
      Map.entry("Average latency (s)", new Figure("latency", "avg", "s")),
      Map.entry("Avg Latency (s)", new Figure("latency", "avg", "s")),
      Map.entry("Average time to first token (s)", new Figure("ttft", "avg", "s")),
      Map.entry("Avg TTFT (ms)", new Figure("ttft", "avg", "ms")),
      Map.entry("Average time per output token (s)", new Figure("tpot", "avg", "s")),
      Map.entry("Avg TPOT (ms)", new Figure("tpot", "avg", "ms")),
      Map.entry("Average inter-token latency (s)", new Figure("itl", "avg", "s")),
      Map.entry("Avg ITL (ms)", new Figure("itl", "avg", "ms")),
      // before 0.17: the mean gap between a response's chunks ("packages") and the chunks per response
      Map.entry("Average package latency (s)", new Figure("package_latency", "avg", "s")),
      Map.entry("Average package per request", new Figure("packages_per_request", "avg", "")),
      Map.entry("Average input tokens per request", new Figure("input_tokens", "avg", "tokens")),
      Map.entry("Avg Input Tokens", new Figure("input_tokens", "avg", "tokens")),
      Map.entry("Average output tokens per request", new Figure("output_tokens", "avg", "tokens")),
      Map.entry("Avg Output Tokens", new Figure("output_tokens", "avg", "tokens")),
      Map.entry("Average input turns per request", new Figure("turns_per_request", "avg", "")),
      Map.entry("Avg Turns/Request", new Figure("turns_per_request", "avg", "")),
      Map.entry("Average approx KV cache hit rate (%)", new Figure("kv_cache_hit_rate", "value", "%")),
      Map.entry("KV Cache Hit Rate (%)", new Figure("kv_cache_hit_rate", "value", "%")),
      Map.entry("Avg First-Turn TTFT (ms)", new Figure("first_turn_ttft", "avg", "ms")),
      Map.entry("Avg Subsequent-Turn TTFT (ms)", new Figure("subsequent_turn_ttft", "avg", "ms")),
      Map.entry("Average decoded tokens per iter (tok/iter)", new Figure("decoded_tokens_per_iter", "avg", "tokens/iter")),
      Map.entry("Avg Decoded Tok/Iter", new Figure("decoded_tokens_per_iter", "avg", "tokens/iter")),
      Map.entry("Approx speculative decoding acceptance rate", new Figure("spec_decode_acceptance_rate", "value", "")),
      Map.entry("Spec. Accept Rate", new Figure("spec_decode_acceptance_rate", "value", "")));

  /**
   * benchmark_percentile.json's columns. Output/Input/Total/Decode (tok/s) are each request's own
   * rate (its tokens over its latency; Decode is 1 / its TPOT), not the run's throughput.
   */
  public static final Map<String, Figure> PERCENTILE = Map.ofEntries(
      Map.entry("TTFT (s)", new Figure("ttft", null, "s")),
      Map.entry("TTFT (ms)", new Figure("ttft", null, "ms")),
      Map.entry("ITL (s)", new Figure("itl", null, "s")),
      Map.entry("ITL (ms)", new Figure("itl", null, "ms")),
      Map.entry("TPOT (s)", new Figure("tpot", null, "s")),
      Map.entry("TPOT (ms)", new Figure("tpot", null, "ms")),
      Map.entry("Latency (s)", new Figure("latency", null, "s")),
      Map.entry("Input tokens", new Figure("input_tokens", null, "tokens")),
      Map.entry("Output tokens", new Figure("output_tokens", null, "tokens")),
      Map.entry("Output (tok/s)", new Figure("request_output_throughput", null, "tokens/s")),
      Map.entry("Input (tok/s)", new Figure("request_input_throughput", null, "tokens/s")),
      Map.entry("Total (tok/s)", new Figure("request_total_throughput", null, "tokens/s")),
      Map.entry("Decode (tok/s)", new Figure("request_decode_throughput", null, "tokens/s")));

  /**
   * The labels the console's summary table shows where they differ from the JSON's keys (1.7 to
   * 1.9 print the averages without "Avg"); its "Total / Success / Failed" and "Stream / Non-Stream"
   * rows hold several figures, read into these names in order.
   */
  public static final Map<String, Figure> CONSOLE_SUMMARY = Map.of(
      "TTFT (ms)", new Figure("ttft", "avg", "ms"),
      "TPOT (ms)", new Figure("tpot", "avg", "ms"),
      "ITL (ms)", new Figure("itl", "avg", "ms"));

  public static final Map<String, String[]> CONSOLE_SPLIT = Map.of(
      "Total / Success / Failed", new String[] {"total_requests", "succeed_requests", "failed_requests"},
      "Stream / Non-Stream", new String[] {"stream_requests", "non_stream_requests"});

  private static final Pattern LABEL = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");

  /** "10%" → p10, "99.9%" → p99.9, "min", "max"; else null. */
  public static String stat(String label) {
    String s = label.strip().toLowerCase(Locale.ROOT);
    if (s.equals("min") || s.equals("max")) {
      return s;
    }
    Matcher m = LABEL.matcher(s);
    return m.matches() ? "p" + m.group(1) : null;
  }
}
