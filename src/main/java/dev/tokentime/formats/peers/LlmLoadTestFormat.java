package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * openshift-psap/llm-load-test's output file ({@code output/output-<concurrency>.json}, one per
 * concurrency of the run): one JSON object written by {@code utils.write_output}, {@code results}
 * (one object per request, {@code RequestResult.asdict()}: its {@code time.time()} stamps in
 * seconds and its figures in ms), then {@code config} (the run's YAML config, its
 * {@code load_options.concurrency} the file's), then {@code summary} (pandas' statistics of the
 * results, since February 2024). Counted in records: one per request, one for the config and one
 * for the summary. Python's json writes a statistic with no value as a bare {@code NaN} (before
 * February 2025; {@code null} since).
 */
public final class LlmLoadTestFormat extends NamedFormat {
  /** The statistics {@code utils.get_summary} writes of each metric. */
  private static final List<String> STATS = List.of("min", "max", "median", "mean", "percentile_80",
      "percentile_90", "percentile_95", "percentile_99");

  public LlmLoadTestFormat() {
    super("llm-load-test-json",
        "runs, requests, reported_metrics",
        "llm-load-test output files (output-<concurrency>.json): its per-request results, its config's concurrency and its summary");
  }

  /** The first request's first keys, as RequestResult's __init__ orders them (input_text until March 2024). */
  private static final Pattern HEAD = Pattern.compile(
      "\\{\\s*\"results\"\\s*:\\s*\\[\\s*\\{\\s*\"user_id\"\\s*:\\s*-?\\d+\\s*,\\s*\"input_(?:id|text)\"\\s*:");

  /** A run at a list of concurrencies writes a file per concurrency: each is a run of its own. */
  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    return HEAD.matcher(sample.text().stripLeading()).lookingAt() ? 90 : 0;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      JsonToken t = PeerJson.firstToken(p, sink);
      if (t == JsonToken.NOT_AVAILABLE) {
        return 1;
      }
      if (t != JsonToken.START_OBJECT) {
        sink.reject(1, "not an llm-load-test output file: expected a JSON object", null, 0, 0);
        return 1;
      }
      String run = ctx.defaultRun();
      int clockId = sink.clock(new ClockSpec("client", "llm-load-test time.time(), Unix epoch s ("
          + ctx.sourceName() + ")", 1_000, null, false));
      RequestRecord req = new RequestRecord();
      long units = 0;
      JsonNode config = null;
      JsonNode summary = null;
      long configLine = 1;
      long summaryLine = 1;
      boolean sawResults = false;
      String cut = null;
      long cutLine = 1;
      long line = 1;
      try {
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          t = p.nextToken();
          line = PeerJson.line(p);
          switch (name) {
            case "results" -> {
              sawResults = true;
              if (t != JsonToken.START_ARRAY) {
                units++;
                sink.reject(line, "results: expected an array of request results", null, 0, 0);
                p.skipChildren();
                break;
              }
              units += PeerJson.elements(p, sink, false, (r, index, at) -> {
                request(req, r, index, at, run, clockId, ctx);
                if (sink.request(req, null, 0, 0) >= 0) {
                  sink.record();
                }
              });
              if (p.currentToken() != JsonToken.END_ARRAY) {
                // elements() rejected the cut (after the requests before it); nothing after it reads
                cut = "";
              }
            }
            case "config" -> {
              configLine = line;
              config = PeerJson.TREE.readTree(p);
            }
            case "summary" -> {
              summaryLine = line;
              summary = PeerJson.TREE.readTree(p);
            }
            default -> p.skipChildren();
          }
          if (cut != null) {
            break;
          }
        }
        if (cut == null && t != JsonToken.END_OBJECT) {
          throw new com.fasterxml.jackson.core.io.JsonEOFException(p, null, "end of input in the object");
        }
      } catch (IOException e) {
        cut = PeerJson.reason(e);
        cutLine = Math.max(line, PeerJson.line(p));
      }
      if (!sawResults && cut == null) {
        units++;
        sink.reject(1, "not an llm-load-test output file: no results", null, 0, 0);
      }
      Double level = null;
      if (config != null) {
        units++;
        level = config(config, configLine, run, sink);
      }
      if (summary != null) {
        units++;
        summary(summary, summaryLine, run, level, sink);
      }
      if (cut != null) {
        if (!cut.isEmpty()) {
          units++;
          sink.reject(cutLine, cut + "; the file ends there (its config and summary follow the results), nothing after"
              + " this point could be read", null, 0, 0);
        }
        return units;
      }
      return units + PeerJson.trailing(p, sink, "output object", "an llm-load-test output file holds one");
    }
  }

  /** The run's level (load_options.concurrency, the file's own) and the test duration it was given. */
  private static Double config(JsonNode config, long line, String run, RecordSink sink) {
    JsonNode load = config.path("load_options");
    JsonNode conc = load.get("concurrency");
    JsonNode duration = load.get("duration");
    String bad = null;
    if (conc == null || !conc.isNumber()) {
      bad = "load_options.concurrency: expected the file's number of users, got "
          + (conc == null ? "none" : shown(conc));
    } else {
      bad = Checked.levelProblem("concurrency", conc.asDouble());
    }
    if (bad == null && duration != null && !duration.isNull()) {
      bad = duration.isNumber() ? Checked.figureProblem("load_options.duration", duration.asDouble(), "s")
          : "load_options.duration: expected seconds, got " + shown(duration);
      if (bad == null && duration.asDouble() <= 0) {
        bad = "load_options.duration out of range: " + duration.asText() + " (the test's seconds, above 0)";
      }
    }
    if (bad == null) {
      bad = sink.runLevel(run, "concurrency", conc.asDouble(), null, "llm-load-test config.load_options.concurrency");
    }
    if (bad != null) {
      sink.reject(line, "config: " + bad + "; the run's level and duration not kept", null, 0, 0);
      return null;
    }
    if (duration != null && duration.isNumber()) {
      // throughput divides by it: kept as the tool's own figure beside the summary's
      sink.reportedMetric(run, conc.asDouble(), "duration", "value", duration.asDouble(), "s");
    }
    sink.record();
    return conc.asDouble();
  }

  /**
   * The summary: each metric's statistics and the run's figures as reported_metrics, in the tool's
   * units. Gathered before any is kept: a figure out of range is one reject that keeps none. A
   * statistic with no value (NaN, null: no request had the metric) is no figure.
   */
  private static void summary(JsonNode s, long line, String run, Double level, RecordSink sink) {
    if (!s.isObject()) {
      sink.reject(line, "summary: expected an object (the tool's statistics)", null, 0, 0);
      return;
    }
    record Figure(String metric, String stat, double value, String unit) {}
    List<Figure> figures = new ArrayList<>();
    String bad = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext() && bad == null; ) {
      Map.Entry<String, JsonNode> e = it.next();
      String metric = e.getKey();
      JsonNode v = e.getValue();
      String unit = unitOf(metric);
      if (v.isObject()) {
        for (String stat : STATS) {
          JsonNode x = v.get(stat);
          if (x == null || x.isNull() || (x.isNumber() && Double.isNaN(x.asDouble()))) {
            continue;
          }
          bad = !x.isNumber() ? "summary." + metric + "." + stat + ": expected a number, got " + shown(x)
              : Checked.figureProblem("summary." + metric + "." + stat, x.asDouble(), unit);
          figures.add(new Figure(metric, stat, x.asDouble(), unit));
          if (bad != null) {
            break;
          }
        }
      } else if (v.isNumber()) {
        if (Double.isNaN(v.asDouble())) {
          continue; // a throughput over no successful request
        }
        bad = metric.equals("total_requests") || metric.equals("total_failures")
            || metric.equals("req_completed_within_test_duration")
            ? Checked.countFigureProblem("summary." + metric, v.asDouble())
            : Checked.figureProblem("summary." + metric, v.asDouble(), unit);
        if (bad == null && metric.equals("failure_rate") && v.asDouble() > 100) {
          bad = "summary.failure_rate out of range: " + v.asText() + " (a percentage, 0 to 100)";
        }
        figures.add(new Figure(metric, "value", v.asDouble(), unit));
      }
    }
    if (bad != null) {
      sink.reject(line, bad + "; none of the summary's figures kept", null, 0, 0);
      return;
    }
    for (Figure f : figures) {
      sink.reportedMetric(run, level, f.metric(), f.stat(), f.value(), f.unit());
    }
    sink.record();
  }

  /** The unit of a summary metric, by its name (RequestResult's figures are ms). */
  static String unitOf(String metric) {
    return switch (metric) {
      case "tpot", "ttft", "itl", "tt_ack", "response_time" -> "ms";
      case "output_tokens", "output_tokens_before_timeout", "input_tokens" -> "tokens";
      case "throughput", "throughput_full_duration" -> "tokens/s";
      case "full_duration" -> "s";
      case "total_requests", "total_failures", "req_completed_within_test_duration" -> "requests";
      case "failure_rate" -> "%";
      default -> "";
    };
  }

  private static void request(RequestRecord req, JsonNode r, int index, long line, String run, int clockId,
      ParseContext ctx) throws PeerJson.Bad {
    if (!r.isObject()) {
      throw new PeerJson.Bad("expected a request result object");
    }
    req.reset();
    req.lineNo = line;
    req.run = run;
    req.requestId = Integer.toString(index);
    req.engine = "llm-load-test";
    req.clockId = clockId;
    BigDecimal start = PeerJson.seconds(r, "start_time");
    if (start == null) {
      throw new PeerJson.Bad("no start_time");
    }
    req.arrivalNs = Checked.secondsToNs("start_time", start);
    BigDecimal first = PeerJson.seconds(r, "first_token_time");
    if (first != null) {
      req.firstTokenNs = after("first_token_time", first, start);
    }
    BigDecimal end = PeerJson.seconds(r, "end_time");
    if (end != null) {
      // streaming: the [DONE] line's arrival (else the end of the stream); otherwise the response's
      req.finishedNs = after("end_time", end, start);
    }
    BigDecimal ack = PeerJson.seconds(r, "ack_time");
    if (ack != null) {
      req.extras.put("ack_time_ns", Long.toString(after("ack_time", ack, start)));
    }
    // the tool's own figures, ms: its itl is tokentime's TPOT ((end - first token)/(N - 1)); its
    // tpot is response_time / N, TTFT included
    req.e2eMs = ms(r, "response_time");
    req.ttftMs = ms(r, "ttft");
    req.tpotMs = ms(r, "itl");
    Double ttAck = ms(r, "tt_ack");
    if (ttAck != null) {
      req.extras.put("tt_ack_ms", Double.toString(ttAck));
    }
    Double tpot = ms(r, "tpot");
    if (tpot != null) {
      req.extras.put("llm_load_test_tpot_ms", Double.toString(tpot));
    }
    req.promptTokens = count(r, "input_tokens");
    req.outputTokens = count(r, "output_tokens");
    Integer before = count(r, "output_tokens_before_timeout");
    if (before != null) {
      req.extras.put("output_tokens_before_timeout", Integer.toString(before));
    }
    JsonNode user = r.get("user_id");
    if (user != null && user.isIntegralNumber()) {
      req.extras.put("user_id", user.asText());
    }
    // input_id is the dataset's index, but the non-streaming plugin wrote the prompt there (and
    // files before March 2024 wrote input_text): text is kept only when asked for
    JsonNode input = r.has("input_id") ? r.get("input_id") : r.get("input_text");
    if (input != null && input.isIntegralNumber()) {
      req.extras.put("input_id", input.asText());
    } else if (input != null && input.isTextual() && ctx.keepText()) {
      req.extras.put("prompt", input.asText());
    }
    if (ctx.keepText() && r.path("output_text").isTextual()) {
      req.extras.put("output_text", r.get("output_text").asText());
    }
    JsonNode stop = r.get("stop_reason");
    if (stop != null && stop.isTextual()) {
      req.finishReason = stop.asText();
    }
    JsonNode code = r.get("error_code");
    JsonNode text = r.get("error_text");
    boolean hasCode = code != null && !code.isNull();
    boolean hasText = text != null && !text.isNull();
    if (hasCode && !code.isIntegralNumber()) {
      throw new PeerJson.Bad("error_code: expected a status code, got " + shown(code));
    }
    if (hasCode && code.asInt() >= 100 && code.asInt() <= 599) {
      req.httpStatus = code.asInt();
    }
    // the tool counts a request failed by its error_text alone: a 200 whose stream held no data
    // has an error_code, no error_text, and is one of its successes
    req.extras.put("tool_failed", Boolean.toString(hasText));
    if (hasText) {
      req.status = "error";
      req.error = text.isTextual() ? text.asText() : text.toString();
    } else if (hasCode) {
      req.status = "error";
      req.error = "error_code " + code.asText() + " without error_text: no data received"
          + " (llm-load-test counts it a success)";
    } else {
      req.status = "ok";
    }
  }

  /** A time.time() reading not before the request's start (the same process's clock), as ns. */
  private static long after(String field, BigDecimal t, BigDecimal start) throws PeerJson.Bad {
    if (t.compareTo(start) < 0) {
      throw new PeerJson.Bad(field + " " + t.toPlainString() + " is before start_time " + start.toPlainString());
    }
    return Checked.secondsToNs(field, t);
  }

  /** A value as a reason shows it: text quoted once, anything else as JSON. */
  private static String shown(JsonNode v) {
    return v.isTextual() ? PeerJson.quote(v.asText()) : v.toString();
  }

  private static Double ms(JsonNode r, String field) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new PeerJson.Bad(field + ": expected a number of ms, got " + shown(v));
    }
    String problem = Checked.durationProblem(field, v.asDouble());
    if (problem != null) {
      throw new PeerJson.Bad(problem);
    }
    return v.asDouble();
  }

  private static Integer count(JsonNode r, String field) throws PeerJson.Bad {
    JsonNode v = r.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    double d = v.isNumber() ? v.asDouble() : -1;
    if (d < 0 || d != Math.rint(d) || d > Integer.MAX_VALUE) {
      throw new PeerJson.Bad(field + ": expected a token count, got " + shown(v));
    }
    return (int) d;
  }
}
