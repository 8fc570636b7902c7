package dev.tokentime.formats.trtllm;

import static dev.tokentime.ingest.RequestRecord.NONE;

import dev.tokentime.ingest.RecordSink;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of trtllm-bench's terminal report: {@code Label (unit):  value} figures, the
 * {@code [TPOT] P50 : x} percentile blocks (unit from the block's {@code -- ... (ms)} header), the
 * dataset's {@code MIN: input output seq} table, and the run's settings ({@code Model:},
 * {@code Dtype:}, ...). Figures become reported_metrics, settings configuration events, anything
 * else (banners, the logger's lines) other lines. Labels drift across versions (0.17's
 * {@code Token Throughput (tokens/sec)}, 0.21's {@code Total Output Throughput}); each is kept
 * under its own name. One parse holds one instance.
 */
final class BenchReportText {
  private static final Pattern STAT = Pattern.compile("^\\[([A-Za-z]+)\\]\\s+([A-Z0-9]+)\\s*:\\s*(\\S+)\\s*$");
  private static final Pattern BLOCK = Pattern.compile("^--\\s+.*\\(([^)]+)\\)\\s*-*\\s*$");
  private static final Pattern FIGURE = Pattern.compile("^([A-Za-z][^:]*?):\\s+(\\S.*?)\\s*$");
  private static final Pattern TABLE = Pattern.compile("^(MIN|MAX|AVG|P\\d+):\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s*$");
  private static final Map<String, String> TAGS = Map.of("TPOT", "tpot", "TTFT", "ttft",
      "GTPS", "gen_tps", "LATENCY", "request_latency", "DT", "num_draft_tokens",
      "ADT", "num_accepted_draft_tokens", "DAR", "draft_acceptance_rate", "AL", "acceptance_length");
  /**
   * A block's unit when its {@code -- ... --} header names none: the decoding statistics (1.x,
   * {@code -- Number of Draft Tokens Details ---}) are counts per request and their ratios.
   */
  private static final Map<String, String> TAG_UNITS = Map.of("num_draft_tokens", "tokens",
      "num_accepted_draft_tokens", "tokens", "acceptance_length", "tokens", "draft_acceptance_rate", "ratio");
  /** A section banner: {@code = MACHINE DETAILS}, {@code = DECODING STATISTICS (Eagle3)}, 1.2's bare
   * {@code MACHINE DETAILS} under a rule. */
  private static final Pattern SECTION = Pattern.compile("^(?:=\\s*)?([A-Z][A-Z0-9 +]*[A-Z])\\s*(?:\\(([^)]*)\\))?\\s*$");
  private static final String[] TABLE_COLUMNS = {"dataset_input_tokens", "dataset_output_tokens",
      "dataset_seq_len_tokens"};

  private final RecordSink sink;
  private final String run;
  private String blockUnit = "";
  private String section = "";

  BenchReportText(RecordSink sink, String run) {
    this.sink = sink;
    this.run = run;
  }

  /** Reads one line (decoded); accounts for it. */
  void line(long lineNo, String raw) {
    String line = raw.strip();
    Matcher sec = SECTION.matcher(line);
    if (!line.startsWith("[") && sec.matches()) {
      // a new section: the previous block's unit ends with it (the decoding statistics follow the
      // request latency's "(ms)" block and are no milliseconds)
      section = sec.group(1);
      blockUnit = "";
      if (section.equals("DECODING STATISTICS") && sec.group(2) != null && !sec.group(2).isBlank()) {
        sink.engineEvent(lineNo, null, NONE, 0, "config", "Decoding mode: " + sec.group(2).strip());
        sink.record();
      } else {
        sink.otherLine();
      }
      return;
    }
    if (line.startsWith("-- ") && !line.startsWith("----") && !BLOCK.matcher(line).matches()) {
      blockUnit = ""; // a block header without a unit ("-- Draft Acceptance Rate Details ---")
      sink.otherLine();
      return;
    }
    if (section.equals("MACHINE DETAILS") && !line.isEmpty() && !line.startsWith("=") && !line.startsWith("[")) {
      // "NVIDIA H100 80GB HBM3, memory 79.65 GB, 2.62 GHz" (or "No GPU info available"): a setting
      sink.engineEvent(lineNo, null, NONE, 0, "config", "Machine: " + line);
      sink.record();
      return;
    }
    if (line.isEmpty() || line.startsWith("[") && !STAT.matcher(line).matches()
        || line.startsWith("=") || line.startsWith("<") || line.startsWith("----")) {
      sink.otherLine(); // blank, the logger's lines, banners, snips, rules
      return;
    }
    Matcher m = BLOCK.matcher(line);
    if (m.matches()) {
      blockUnit = m.group(1);
      sink.otherLine();
      return;
    }
    m = STAT.matcher(line);
    if (m.matches()) {
      String tag = TAGS.getOrDefault(m.group(1).toUpperCase(Locale.ROOT), m.group(1).toLowerCase(Locale.ROOT));
      Double v = number(m.group(3));
      if (v == null) {
        sink.otherLine();
        return;
      }
      String unit = blockUnit.isEmpty() ? TAG_UNITS.getOrDefault(tag, "") : blockUnit;
      sink.reportedMetric(run, null, tag, stat(m.group(2)), v, unit);
      sink.record();
      return;
    }
    m = TABLE.matcher(line);
    if (m.matches()) {
      for (int i = 0; i < 3; i++) {
        Double v = number(m.group(i + 2));
        if (v != null) {
          sink.reportedMetric(run, null, TABLE_COLUMNS[i], stat(m.group(1)), v, "tokens");
        }
      }
      sink.record();
      return;
    }
    m = FIGURE.matcher(line);
    if (!m.matches()) {
      sink.otherLine(); // the dataset table's column names, free text
      return;
    }
    String label = m.group(1).strip();
    String value = m.group(2);
    String unit = "";
    Matcher u = Pattern.compile("\\(([^)]*)\\)\\s*$").matcher(label);
    if (u.find()) {
      unit = u.group(1);
      label = label.substring(0, u.start()).strip();
    }
    if (value.endsWith("%")) {
      unit = "%";
      value = value.substring(0, value.length() - 1);
    }
    boolean version = label.toLowerCase(Locale.ROOT).contains("version");
    // a version is no figure, even one that reads as a number ("TensorRT LLM Version:   1.2", 1.2)
    Double v = version ? null : number(value);
    if (v != null) {
      String metric = name(label);
      if (metric.equals("number_of_sequences")) {
        // DATASET DETAILS' count: the --report_json's dataset.num_requests (REQUEST DETAILS' "Number
        // of requests" is request_info's, a figure of its own)
        metric = "dataset_num_requests";
      }
      sink.reportedMetric(run, null, metric, "value", v, unit.isEmpty() ? "count" : unit);
    } else if (!unit.isEmpty() && !version) {
      // a figure's label (a unit in brackets) with no number: never a setting, a figure lost
      // ("Request Throughput (req/sec): |  0.9765 | 0.9812", two runs' columns pasted side by side)
      sink.reject(lineNo, label + " (" + unit + "): " + (value.contains("|") ? "several values (a comparison's"
          + " columns?): " : "no number: ") + value.strip(), null, 0, 0);
      return;
    } else {
      sink.engineEvent(lineNo, null, NONE, 0, version ? "version" : "config", label + ": " + m.group(2));
    }
    sink.record();
  }

  private static String stat(String s) {
    return switch (s.toUpperCase(Locale.ROOT)) {
      case "MINIMUM", "MIN" -> "min";
      case "MAXIMUM", "MAX" -> "max";
      case "AVERAGE", "AVG" -> "avg";
      default -> s.toLowerCase(Locale.ROOT);
    };
  }

  static String name(String label) {
    return label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }

  private static Double number(String s) {
    try {
      double d = Double.parseDouble(s.replace(",", ""));
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
