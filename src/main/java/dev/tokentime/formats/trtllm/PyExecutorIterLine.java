package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.JsonText;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.StepRecord;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The PyTorch executor's {@code print_iter_log} line, in its known variants:
 * {@code iter = N, global_rank = G, rank = R, currank_total_requests = a/b,
 * elapsed_time = Xs, timestamp = YYYY-MM-DD HH:MM:SS, states = {...}} (to 2025-04);
 * {@code num_scheduled_requests: N,} added (PR #3914); {@code host_step_time = Xms,
 * prev_device_step_time = Yms|N/A} replacing {@code elapsed_time} (late 2025); and 2026's
 * {@code kv_cache_util}, {@code cached_kv_tokens} and trailing {@code num_active}, ... counters.
 * Read as {@code key = value} / {@code key: value} items, so added or reordered items are kept.
 *
 * <p>{@code num_generation_tokens} includes CUDA-graph padding (PR #3914: "for the 16
 * num_generation_tokens, there are only 10 from real requests"), so generation requests are
 * {@code num_scheduled_requests - num_ctx_requests}, known only from format (b) on.
 */
final class PyExecutorIterLine {
  private PyExecutorIterLine() {}

  private static final Pattern START = Pattern.compile("^iter\\s*=\\s*\\d+\\s*,.*");

  /** Whether the payload (prefixes removed) is such a line. */
  static boolean is(String payload) {
    return START.matcher(payload).matches();
  }

  /** Fills the step; returns the line's own {@code timestamp} text, or null. */
  static String fill(String payload, StepRecord s) throws PeerJson.Bad {
    Map<String, String> items = items(payload);
    s.iter = integer(items, "iter");
    Long rank = optInteger(items, "rank");
    s.rank = rank == null ? null : (int) Math.min(rank, Integer.MAX_VALUE);
    Double elapsed = seconds(items.get("elapsed_time"), "elapsed_time");
    Double hostStep = millis(items.get("host_step_time"), "host_step_time");
    s.durationMs = hostStep != null ? hostStep : elapsed;
    Double device = millis(items.get("prev_device_step_time"), "prev_device_step_time");
    if (device != null) {
      s.extras.put("prev_device_step_ms", device);
    }
    String total = items.get("currank_total_requests");
    if (total != null) {
      String[] ab = total.split("/");
      s.extras.put("currank_requests", number(ab[0], "currank_total_requests"));
      if (ab.length > 1) {
        s.extras.put("total_requests", number(ab[1], "currank_total_requests"));
      }
    }
    Long scheduled = optInteger(items, "num_scheduled_requests");
    String util = items.get("kv_cache_util");
    if (util != null && !util.equalsIgnoreCase("N/A")) {
      s.kvUsage = number(util, "kv_cache_util");
    }
    String states = items.get("states");
    if (states != null) {
      states(states, s);
    }
    if (scheduled != null) {
      s.extras.put("scheduled_requests", (double) scheduled);
      if (s.ctxRequests != null) {
        s.genRequests = (int) (scheduled - s.ctxRequests);
      }
    }
    Long active = optInteger(items, "num_active");
    if (active != null) {
      s.running = (int) Math.min(active, Integer.MAX_VALUE);
    }
    for (var e : items.entrySet()) {
      String k = e.getKey();
      if (k.startsWith("num_") && !k.equals("num_scheduled_requests") && !k.equals("num_active")) {
        Double v = tryNumber(e.getValue());
        if (v != null) {
          s.extras.put(k, v);
        }
      }
    }
    Long global = optInteger(items, "global_rank");
    if (global != null) {
      s.extras.put("global_rank", (double) global);
    }
    return items.get("timestamp");
  }

  /** {@code states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 16}}. */
  private static void states(String dict, StepRecord s) throws PeerJson.Bad {
    JsonNode n;
    try {
      n = PeerJson.TREE.readTree(PythonLiteral.toJson(dict));
    } catch (IOException e) {
      throw new PeerJson.Bad("states: not a dict: " + JsonText.firstLine(e.getMessage()));
    }
    if (n == null || !n.isObject()) {
      throw new PeerJson.Bad("states: not a dict");
    }
    s.ctxRequests = Fields.count(n, "num_ctx_requests", "states.");
    s.ctxTokens = Fields.count(n, "num_ctx_tokens", "states.");
    s.genTokens = Fields.count(n, "num_generation_tokens", "states.");
    var it = n.fields();
    while (it.hasNext()) {
      var e = it.next();
      String k = e.getKey();
      if (e.getValue().isNumber() && !k.equals("num_ctx_requests") && !k.equals("num_ctx_tokens")
          && !k.equals("num_generation_tokens")) {
        s.extras.put(k, e.getValue().asDouble());
      }
    }
  }

  /** Splits {@code a = 1, b: 2, c = {..., ...}} at the commas outside braces. */
  static Map<String, String> items(String payload) {
    Map<String, String> out = new LinkedHashMap<>();
    int depth = 0;
    int start = 0;
    char quote = 0;
    for (int i = 0; i <= payload.length(); i++) {
      char c = i < payload.length() ? payload.charAt(i) : ',';
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '{' || c == '[' || c == '(') {
        depth++;
      } else if (c == '}' || c == ']' || c == ')') {
        depth--;
      } else if (c == ',' && depth <= 0) {
        item(payload.substring(start, Math.min(i, payload.length())), out);
        start = i + 1;
      }
    }
    return out;
  }

  private static void item(String item, Map<String, String> out) {
    int eq = item.indexOf('=');
    int colon = item.indexOf(':');
    int at = eq >= 0 && (colon < 0 || eq < colon) ? eq : colon;
    if (at <= 0) {
      return;
    }
    String key = item.substring(0, at).strip().toLowerCase(Locale.ROOT);
    if (!key.isEmpty() && key.matches("[a-z_][a-z0-9_]*")) {
      out.putIfAbsent(key, item.substring(at + 1).strip());
    }
  }

  private static long integer(Map<String, String> items, String key) throws PeerJson.Bad {
    Long v = optInteger(items, key);
    if (v == null) {
      throw new PeerJson.Bad(key + " is missing");
    }
    return v;
  }

  private static Long optInteger(Map<String, String> items, String key) throws PeerJson.Bad {
    String v = items.get(key);
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new PeerJson.Bad(key + ": expected an integer, got " + PeerJson.quote(v));
    }
  }

  private static Double seconds(String v, String key) throws PeerJson.Bad {
    if (v == null || v.equalsIgnoreCase("N/A")) {
      return null;
    }
    return number(v.endsWith("s") ? v.substring(0, v.length() - 1) : v, key) * 1e3;
  }

  private static Double millis(String v, String key) throws PeerJson.Bad {
    if (v == null || v.equalsIgnoreCase("N/A")) {
      return null;
    }
    return number(v.endsWith("ms") ? v.substring(0, v.length() - 2) : v, key);
  }

  private static double number(String v, String key) throws PeerJson.Bad {
    Double d = tryNumber(v);
    if (d == null) {
      throw new PeerJson.Bad(key + ": expected a number, got " + PeerJson.quote(v));
    }
    return d;
  }

  private static Double tryNumber(String v) {
    try {
      double d = Double.parseDouble(v.strip());
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
