package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * trtllm-bench's run summary: the terminal report (read line by line, {@link BenchReportText}) or
 * {@code --report_json} (one object: every number becomes a reported_metrics row named by its key,
 * a percentile object's entries as its statistics; text settings become configuration events).
 * The JSON document counts as one record.
 */
public final class BenchReportFormat extends NamedFormat {
  private static final Set<String> PERCENTILE_KEYS = Set.of("p50", "p90", "p95", "p99", "minimum",
      "maximum", "average");

  public BenchReportFormat() {
    super("trtllm-bench-report",
        "reported_metrics, engine_events",
        "trtllm-bench terminal report or --report_json: the tool's own run statistics");
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text();
    String lead = text.stripLeading();
    if (lead.startsWith("{")) {
      return text.contains("\"performance\"") && (text.contains("\"request_throughput_req_s\"")
          || text.contains("\"total_latency_ms\"")) ? 92 : 0;
    }
    boolean banner = text.contains("= PERFORMANCE OVERVIEW") || text.contains("= ENGINE DETAILS")
        || text.contains("= PYTORCH BACKEND") || text.contains("= PyTorch backend")
        || text.contains("= REQUEST DETAILS")
        // the banner on a line of its own between rules (2025, 1.2: "=====\nPYTORCH BACKEND\n=====")
        || OWN_LINE_BANNER.matcher(text).find();
    return banner && text.contains("====================") ? 90 : 0;
  }

  private static final java.util.regex.Pattern OWN_LINE_BANNER = java.util.regex.Pattern.compile(
      "(?m)^=+\\s*\\R\\s*(?:PERFORMANCE OVERVIEW|ENGINE DETAILS|PYTORCH BACKEND|PyTorch backend|REQUEST DETAILS)\\b");

  @Override
  public long parse(InputStream raw, ParseContext ctx, RecordSink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(1 << 16);
    int c;
    do {
      c = in.read();
    } while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    in.reset();
    return c == '{' ? json(in, ctx, sink) : text(in, ctx, sink);
  }

  private static long text(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    BenchReportText report = new BenchReportText(sink, ctx.defaultRun());
    return TextLines.read(in, sink, "a report line", (lineNo, text) -> {
      report.line(lineNo, text);
      return null;
    });
  }

  private static long json(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    PeerJson.OneDocument one = PeerJson.one(in, sink, "report object", "a report file holds one");
    if (one.broken()) {
      return 1;
    }
    JsonNode doc = one.doc();
    long extra = one.extra();
    return extra + document(doc, ctx, sink);
  }

  private static long document(JsonNode doc, ParseContext ctx, RecordSink sink) {
    if (doc == null || !doc.isObject()) {
      sink.reject(1, "expected a trtllm-bench report object", null, 0, 0);
      return 1;
    }
    int n = figures(doc, "", ctx.defaultRun(), sink);
    if (n == 0) {
      sink.reject(1, "no figure found in the report (no \"performance\" numbers)", null, 0, 0);
    } else {
      sink.record();
    }
    return 1;
  }

  /** Every number below obj, named by its key; returns how many. */
  private static int figures(JsonNode obj, String section, String run, RecordSink sink) {
    int n = 0;
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      var e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      if (v.isObject() && isPercentiles(v)) {
        String metric = key.replaceAll("_percentiles(_ms)?$", "");
        String unit = key.endsWith("_ms") || section.equals("streaming_metrics")
            && !metric.startsWith("gen_tps") ? "ms" : unitOf(metric);
        String table = section.equals("dataset") ? DATASET_TABLE.get(key) : null;
        if (table != null) {
          metric = table;
          unit = "tokens";
        }
        Iterator<Map.Entry<String, JsonNode>> stats = v.fields();
        while (stats.hasNext()) {
          var s = stats.next();
          if (s.getValue().isNumber()) {
            sink.reportedMetric(run, null, metric, stat(s.getKey()), s.getValue().asDouble(), unit);
            n++;
          }
        }
      } else if (v.isObject()) {
        n += figures(v, section.isEmpty() ? key : section, run, sink);
      } else if (v.isNumber() && Double.isFinite(v.asDouble())) {
        String metric = section.equals("dataset") && key.equals("num_requests") ? "dataset_num_requests" : key;
        sink.reportedMetric(run, null, metric, "value", v.asDouble(), unitOf(key));
        n++;
      } else if (v.isTextual() && !v.asText().isEmpty()) {
        String kind = key.equals("version") ? "version" : "config";
        sink.engineEvent(1, null, NONE, 0, kind, (section.isEmpty() ? "" : section + ".") + key
            + ": " + v.asText());
      }
    }
    return n;
  }

  /**
   * The dataset's statistics under the terminal report's names (its DATASET DETAILS table: MIN/MAX/AVG
   * of Input, Output, Seq. Length), so the two outputs of one run give one figure one name.
   */
  private static final Map<String, String> DATASET_TABLE = Map.of("isl_stats", "dataset_input_tokens",
      "osl_stats", "dataset_output_tokens", "seq_len_stats", "dataset_seq_len_tokens");

  private static boolean isPercentiles(JsonNode v) {
    Iterator<String> names = v.fieldNames();
    while (names.hasNext()) {
      if (PERCENTILE_KEYS.contains(names.next())) {
        return true;
      }
    }
    return false;
  }

  private static String stat(String s) {
    return switch (s) {
      case "minimum" -> "min";
      case "maximum" -> "max";
      case "average" -> "avg";
      default -> s;
    };
  }

  static String unitOf(String key) {
    if (key.endsWith("_ms")) {
      return "ms";
    }
    if (key.endsWith("_req_s")) {
      return "req/s";
    }
    if (key.endsWith("_tok_s") || key.startsWith("gen_tps")) {
      return "tokens/s";
    }
    if (key.endsWith("_length") || key.contains("tokens")) {
      return "tokens";
    }
    if (key.contains("acceptance_rate")) {
      return "ratio";
    }
    // the machine's nvidia-smi figures, printed as "memory 79.65 GB, 2.62 GHz"
    return switch (key) {
      case "memory.total" -> "GB";
      case "clocks.mem" -> "GHz";
      default -> "";
    };
  }
}
