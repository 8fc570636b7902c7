package dev.tokentime.formats.json;

import java.util.Locale;

/**
 * The names a load-test tool's figures are stored under when a file shows them by display name
 * ("Time To First Token (ms)"): snake case without the unit, and where AIPerf's display name and
 * its JSON's tag differ, the tag. The CSV exports and the console tables of genai-perf and AIPerf
 * (two format families) use it, so one run's JSON, CSV and console store a figure under one name.
 */
public final class ToolMetricNames {
  private ToolMetricNames() {}

  /** "Request throughput (req/s)" → {request_throughput, req/s}: the name in snake case, the unit. */
  public static String[] split(String display) {
    String[] nu = nameAndUnit(display);
    String key = nu[0].toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    return new String[] {key, unit(key, nu[1])};
  }

  /** "Request throughput (req/s)" → {"Request throughput", "req/s"}: the display name and its unit as written. */
  private static String[] nameAndUnit(String display) {
    String name = display.strip();
    int open = name.lastIndexOf('(');
    if (open > 0 && name.endsWith(")")) {
      return new String[] {name.substring(0, open).strip(), name.substring(open + 1, name.length() - 1).strip()};
    }
    return new String[] {name, ""};
  }

  /**
   * One unit per metric whichever file of a tool it came from: a console's short "tok/s" and
   * "req/s" are the JSON's "tokens/s" and "requests/s"; genai-perf's CSV "(per sec)" is its
   * JSON's "requests/sec" or "tokens/sec".
   */
  static String unit(String key, String unit) {
    return switch (unit) {
      case "tok/s" -> "tokens/s";
      case "req/s" -> "requests/s";
      case "per sec" -> key.startsWith("request") ? "requests/sec" : "tokens/sec";
      default -> unit;
    };
  }

  private static final String ERROR_ADJUSTED = "(error-adjusted)";

  private static String[] adjusted(String[] tagged) {
    return new String[] {"adj_" + tagged[0], tagged[1]};
  }

  /** "Total Input Sequence Length (tokens)" → {total_isl, tokens}: {@link #split}, then the JSON's tag. */
  public static String[] tagged(String display) {
    String[] nu = nameAndUnit(display);
    // AIPerf's error-adjusted companion ("Request Latency (error-adjusted) (ms)"): its JSON tag is
    // the base metric's with adj_ before it (adj_request_latency)
    if (display.strip().endsWith(ERROR_ADJUSTED)) {
      String d = display.strip();
      return adjusted(tagged(d.substring(0, d.length() - ERROR_ADJUSTED.length())));
    }
    if (nu[0].endsWith(ERROR_ADJUSTED)) {
      String base = nu[0].substring(0, nu[0].length() - ERROR_ADJUSTED.length()).strip();
      return adjusted(tagged(base + " (" + nu[1] + ")"));
    }
    String[] s = split(display);
    // a percentage named with "%" ("Overall Usage Prompt Cache Read % (%)") is the JSON's *_pct
    boolean pct = nameAndUnit(display)[0].endsWith("%");
    String tag = jsonTag(s[0]);
    if (pct && !tag.endsWith("_pct")) {
      tag = tag + "_pct";
    }
    return new String[] {tag, s[1].isEmpty() ? countUnit(tag) : s[1]};
  }

  /**
   * The unit AIPerf's JSON gives a count its CSV and console show without one: requests for the
   * request counts, count for the HTTP chunks; else none.
   */
  static String countUnit(String tag) {
    if (tag.endsWith("request_count") || tag.equals("osl_mismatch_count")) {
      return "requests";
    }
    return tag.startsWith("http_req_chunks_") ? "count" : "";
  }

  /**
   * The JSON's tag for a name made from AIPerf's display name where the two differ ("Total Input
   * Sequence Length" is total_isl in profile_export_aiperf.json).
   */
  static String jsonTag(String fromDisplay) {
    return switch (fromDisplay) {
      case "total_input_sequence_length" -> "total_isl";
      case "total_output_sequence_length" -> "total_osl";
      case "error_input_sequence_length" -> "error_isl";
      case "total_error_input_sequence_length" -> "total_error_isl";
      case "minimum_request_timestamp" -> "min_request_timestamp";
      case "maximum_response_timestamp" -> "max_response_timestamp";
      // AIPerf 0.12's HTTP trace metrics and two more whose display names differ from their tags
      case "http_blocked", "http_chunks_received", "http_chunks_sent", "http_connecting",
          "http_connection_overhead", "http_connection_reused", "http_data_received", "http_data_sent",
          "http_dns_lookup", "http_receiving", "http_sending" -> "http_req_" + fromDisplay.substring("http_".length());
      case "http_duration_excl_conn" -> "http_req_duration";
      case "http_total_time" -> "http_req_total";
      case "http_waiting_ttfb" -> "http_req_waiting";
      case "effective_latency_co_aware" -> "effective_latency";
      case "osl_mismatch_diff" -> "osl_mismatch_diff_pct";
      default -> fromDisplay;
    };
  }
}
