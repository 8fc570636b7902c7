package dev.tokentime.formats.console;

import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The timings {@code ollama run --verbose} (or {@code /set verbose}) prints after each answer:
 * {@code total duration:}, {@code load duration:}, {@code prompt eval count:} / {@code duration:} /
 * {@code rate:}, {@code eval count:} / {@code duration:} / {@code rate:} (2023's {@code sample …}
 * lines, early 2024's {@code llm library:} and {@code GPU loaded layers:} too). Ollama prints each
 * line only when its value is above zero, always in that order, so a block is a run of these lines
 * in that order: a line of an earlier or the same kind starts the next block. Each block is one
 * request as the server measured it (Go durations: {@code 2m7.682s}, {@code 891.933µs}); the
 * answer's text and the prompts between blocks are other lines.
 */
public final class OllamaVerboseFormat extends PrintedReportFormat {
  /** The block's lines, in the order Ollama prints them. */
  private static final List<String> FIELDS = List.of("total duration", "load duration", "sample count",
      "sample duration", "sample rate", "prompt eval count", "prompt eval duration", "prompt eval rate",
      "eval count", "eval duration", "eval rate", "llm library", "GPU loaded layers");
  /** On a stripped line: no blanks end it, and a lazy value before optional blanks would backtrack. */
  private static final Pattern FIELD = Pattern.compile("^(" + String.join("|", FIELDS) + "):[ \\t]+(.*)$");
  private static final Pattern COUNT = Pattern.compile("^(\\d{1,10}) token\\(s\\)$");
  private static final Pattern RATE = Pattern.compile("^\\d+(?:\\.\\d+)? tokens/s$");
  /** Go's time.Duration.String(): h, m and s parts from a second on, else one of ms, µs, ns. */
  private static final Pattern LONG = Pattern.compile("^(?:(\\d+)h)?(?:(\\d+)m)?(\\d+(?:\\.\\d+)?)s$");
  private static final Pattern SHORT = Pattern.compile("^(\\d+(?:\\.\\d+)?)(ms|µs|μs|us|ns)$");
  private static final Pattern SNIFF = Pattern.compile("(?m)^[^\\n]{0,8}total duration:[ \\t]+[0-9][0-9hmsµμn.]*s[ \\t]*\\R"
      + "(?:[^\\n]{0,8}(?:load duration|sample count|sample duration|sample rate):[^\\n]*\\R){0,4}"
      + "[^\\n]{0,8}(?:prompt eval count|prompt eval duration|eval count|eval duration):[ \\t]+[0-9]");

  public OllamaVerboseFormat() {
    super("ollama-verbose", "requests",
        "Ollama's per-answer timings (ollama run --verbose, /set verbose): a request per block",
        SNIFF, 70);
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    WrapperLayer wrappers = new WrapperLayer();
    Block block = new Block(ctx, sink);
    long lines = TextLines.read(in, sink, "Ollama's verbose output", (lineNo, text) -> {
      String line = BenchConsoleFormat.consoleLine(wrappers, text).strip();
      Matcher m = FIELD.matcher(line);
      if (!m.matches()) {
        block.end();
        sink.otherLine();
        return null;
      }
      int order = FIELDS.indexOf(m.group(1));
      if (order <= block.last) {
        block.end(); // the same or an earlier kind of line: the next answer's timings
      }
      block.last = order;
      return block.field(lineNo, m.group(1), m.group(2));
    });
    block.end();
    return lines;
  }

  /** The open block: its request as read so far and its lines not yet accounted for. */
  private static final class Block {
    private final ParseContext ctx;
    private final RecordSink sink;
    private final RequestRecord req = new RequestRecord();
    private int blocks;
    private int last = -1;
    private int held; // lines of the block read and kept, accounted when it ends
    private boolean figures;
    private boolean open;

    Block(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    /** Reads one line of the block; returns why it is rejected, or null. */
    String field(long lineNo, String name, String value) {
      if (!open) {
        open = true;
        blocks++;
        req.reset();
        req.lineNo = lineNo;
        req.run = ctx.defaultRun();
        req.requestId = Integer.toString(blocks);
        req.engine = "ollama";
        req.status = "ok";
      }
      String bad = set(name, value);
      if (bad != null) {
        return "a cut line (Ollama's " + name + ": " + bad + "); the block's other lines are kept";
      }
      held++;
      return null;
    }

    private String set(String name, String value) {
      switch (name) {
        case "total duration", "load duration", "sample duration", "prompt eval duration", "eval duration" -> {
          BigDecimal ns = goDurationNs(value);
          if (ns == null) {
            return "expected a Go duration such as 1.5s or 891.933µs, got \"" + value + "\"";
          }
          double ms = ns.movePointLeft(6).doubleValue();
          switch (name) {
            case "total duration" -> req.e2eMs = ms;
            case "prompt eval duration" -> req.prefillMs = ms;
            case "eval duration" -> req.decodeMs = ms;
            case "load duration" -> req.extras.put("load_duration_ms", ns.movePointLeft(6).stripTrailingZeros().toPlainString());
            default -> req.extras.put("sample_duration_ms", ns.movePointLeft(6).stripTrailingZeros().toPlainString());
          }
          figures = true;
        }
        case "sample count", "prompt eval count", "eval count" -> {
          Matcher c = COUNT.matcher(value);
          if (!c.matches() || Long.parseLong(c.group(1)) > Integer.MAX_VALUE) {
            return "expected a count such as 26 token(s), got \"" + value + "\"";
          }
          int n = Integer.parseInt(c.group(1));
          switch (name) {
            case "prompt eval count" -> req.promptTokens = n;
            case "eval count" -> req.outputTokens = n;
            default -> req.extras.put("sample_count", Integer.toString(n));
          }
          figures = true;
        }
        case "sample rate", "prompt eval rate", "eval rate" -> {
          // the count over the duration, printed to two decimals: nothing of its own to keep
          if (!RATE.matcher(value).matches()) {
            return "expected a rate such as 24.61 tokens/s, got \"" + value + "\"";
          }
        }
        case "llm library" -> req.extras.put("llm_library", value);
        default -> req.extras.put("gpu_loaded_layers", value);
      }
      return null;
    }

    /** Ends the open block: its request, and the accounting of its lines. */
    void end() {
      if (held > 0) {
        if (figures) {
          // the block's first line is the request's line: a record, or the reject the sink (a
          // duplicate id, a range check) made of it; either way not an other line
          if (sink.request(req, null, 0, 0) >= 0) {
            sink.record();
          }
          held--;
        }
        for (; held > 0; held--) {
          sink.otherLine();
        }
      }
      held = 0;
      figures = false;
      open = false;
      last = -1;
    }
  }

  /** A Go time.Duration as printed (String()), in ns; null if it is none. */
  static BigDecimal goDurationNs(String s) {
    if (s.equals("0s")) {
      return BigDecimal.ZERO;
    }
    Matcher m = SHORT.matcher(s);
    if (m.matches()) {
      int shift = switch (m.group(2)) {
        case "ms" -> 6;
        case "ns" -> 0;
        default -> 3;
      };
      return new BigDecimal(m.group(1)).movePointRight(shift);
    }
    m = LONG.matcher(s);
    if (m.matches()) {
      BigDecimal sec = new BigDecimal(m.group(3));
      if (m.group(2) != null) {
        sec = sec.add(new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(60)));
      }
      if (m.group(1) != null) {
        sec = sec.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(3600)));
      }
      return sec.movePointRight(9);
    }
    return null;
  }
}
