package dev.tokentime.formats.console;

import dev.tokentime.formats.json.ToolMetricNames;
import dev.tokentime.formats.spec.WrapperLayer;
import dev.tokentime.ingest.Checked;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import dev.tokentime.ingest.TextLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The summary a benchmark tool prints on the console, often all that is kept of a run: vllm
 * bench serve / benchmark_serving.py's and SGLang bench_serving's "Serving Benchmark Result"
 * block, genai-perf's and AIPerf's box-drawn tables, and LLMPerf's printed summary. Every figure
 * becomes a reported_metrics row under the name, statistic and unit the tool gives it in its own
 * result file (vLLM's {@code mean_ttft_ms} is metric ttft, stat mean, unit ms; genai-perf's
 * "Time to first token (ms)" row is time_to_first_token with avg, min, ... in ms), so that
 * peer_comparison puts them beside tokentime's figures of the same run. A file may hold several
 * runs (blocks or tables one after another): the k-th is {@code <run>#k}. Lines around the summary
 * (progress bars, the command, log lines) are other lines; a line inside the summary that cannot
 * be read (a figure without its number: a cut line) is rejected.
 */
public final class BenchConsoleFormat extends NamedFormat {
  /** Which tool printed the summary. */
  public enum Tool {
    VLLM("vllm-bench-console", "vllm bench serve / benchmark_serving.py console summary (Serving Benchmark Result)"),
    SGLANG("sglang-bench-console", "SGLang bench_serving console summary (Serving Benchmark Result)"),
    GENAI_PERF("genai-perf-console", "genai-perf console table (NVIDIA GenAI-Perf | LLM Metrics)"),
    AIPERF("aiperf-console", "AIPerf console table (NVIDIA AIPerf | LLM Metrics)"),
    LLMPERF("llmperf-console", "LLMPerf token_benchmark_ray.py printed summary");

    final String id;
    final String description;

    Tool(String id, String description) {
      this.id = id;
      this.description = description;
    }
  }

  static final String SERVING_HEADER = "Serving Benchmark Result";
  /**
   * SGLang's bench_offline_throughput prints the same label: value block under its own title
   * ("====== Offline Throughput Benchmark Result =======", sgl-project/sglang#9674).
   */
  static final String OFFLINE_HEADER = "Offline Throughput Benchmark Result";
  private static final Pattern RULE = Pattern.compile("^=+$");
  /**
   * The title alone on its line, its rules of '=' lost (as a markdown paste renders them: three
   * SGLang PRs, sgl-project/sglang#30451): still the block's start, when a block line follows it.
   */
  private static final Pattern BARE_TITLE = Pattern.compile(
      "(?m)^[ \\t]*(?:" + SERVING_HEADER + "|" + OFFLINE_HEADER + ")[ \\t]*\\R[ \\t]*[A-Z][^:\\n]*:[ \\t]*\\S");
  /**
   * A titled rule inside a block: vLLM-Omni's "================== Text Result ===================",
   * "=== Audio Result ===" (2026): a section of the same run's block, not its end.
   */
  private static final Pattern TITLED_RULE = Pattern.compile("^={3,} [^=]+ ={3,}$");
  /**
   * A statistic of a figure with no unit, named in capitals as the tool names its metrics (vLLM-Omni's
   * "Mean AUDIO_RTF:", a real-time factor, a ratio).
   */
  private static final Pattern STAT_LABEL_NO_UNIT = Pattern.compile("^(Mean|Median|Std|Min|Max|P\\d+(?:\\.\\d+)?)\\s+([A-Z][A-Z0-9_]*)$");
  private static final Pattern SECTION = Pattern.compile("^-{3,}.*-{3,}$");
  /** The start of a statistic's line, cut short before its colon ("P90 TPO", "Mean TT"). */
  private static final Pattern CUT_STATISTIC = Pattern.compile("^(?:Mean|Median|Std|Min|Max|P\\d+(?:\\.\\d+)?) \\S");
  /** A latency statistic of the block with its number: "P95 E2E Latency (ms):   46912.26". */
  private static final String LATENCY_STAT =
      "(?:Mean|Median|Std|Max|P\\d+(?:\\.\\d+)?) (?:TTFT|TPOT|ITL|E2EL|E2E Latency) \\((?:ms|s)\\):\\s+-?[\\d.]+";
  /**
   * The end of a block pasted alone, for sniffing: one of its sections' rules with its first
   * statistic under it (a server log prints neither).
   */
  private static final Pattern TAIL_SECTION = Pattern.compile(
      "(?m)^\\s*-{3,} ?(?:Time to First Token|Time per Output Token \\(excl\\. 1st token\\)|Inter-[Tt]oken Latency"
      + "|End-to-[Ee]nd Latency|E2E Latency) ?-{3,}\\s*\\R\\s*" + LATENCY_STAT + "\\s*$");
  /**
   * The first line of a serving block pasted without its "Serving Benchmark Result" header: its
   * first figure, or one of its sections' rules.
   */
  static final Pattern HEADERLESS_START = Pattern.compile("^(?:Successful requests:\\s+\\d+"
      // a paste that begins further down the block: a figure only the block prints (never the
      // settings a run announces before it: those are kept as its level, see announced())
      + "|(?:Benchmark duration \\(s\\)|Total input tokens|Total generated tokens|Request throughput \\(req/s\\)"
      + "|Output token throughput \\(tok/s\\)|Total token throughput \\(tok/s\\)):\\s+[\\d.]+"
      + "|-{3,} ?(?:Time to First Token|Speculative Decoding|Time per Output Token \\(excl\\. 1st token\\)"
      + "|Inter-[Tt]oken Latency|End-to-[Ee]nd Latency|E2E Latency|Client-side Queueing|Queue-inclusive End-to-end Latency) ?-{3,}"
      // a paste of the block's end (sgl-project/sglang#30047): its first line a latency statistic
      + "|" + LATENCY_STAT + ")$");
  /**
   * A block without its header, for sniffing: a figure that starts one, then a TTFT statistic
   * (with its unit in brackets, or after the number as benchmark_serving.py printed it in early
   * 2024: "Mean TTFT: 114960.78 ms").
   */
  private static final Pattern HEADERLESS_FIGURES = Pattern.compile(
      "(?m)^\\s*(?:Successful requests:\\s+\\d+|Benchmark duration \\(s\\):\\s+[\\d.]+|Request throughput \\(req/s\\):\\s+[\\d.]+)"
      + "\\s*$[\\s\\S]*^\\s*(?:Mean|Median|P\\d+) TTFT(?: \\(ms\\):| ?:\\s+[\\d.]+ ms\\s*$)"
      // 2023's five lines: "Total time: 166.88 s" … "Average latency per output token: 1.10 s"
      + "|^\\s*Total time:\\s+[\\d.]+ s\\s*$\\s*^\\s*Throughput:\\s+[\\d.]+ requests/s\\s*$");
  /** 2023's figures, named as the later block names them (a mean in s, converted to ms as those are). */
  private static final Map<String, String> LABELS_2023 = Map.of(
      "total time (s)", "Benchmark duration (s)",
      "throughput (req/s)", "Request throughput (req/s)",
      "average latency (s)", "Mean E2EL (s)",
      "average latency per token (s)", "Mean latency per token (s)",
      "average latency per output token (s)", "Mean latency per output token (s)");
  /**
   * The first two of the five lines benchmark_serving.py printed from June 2023 to early 2024:
   * a block starts only where both stand one after the other (a lone "Total time: 3.21 s" is a
   * line of something else).
   */
  private static final Pattern TOTAL_TIME_2023 = Pattern.compile("^Total time:\\s+[\\d.]+ s$");
  private static final Pattern THROUGHPUT_2023 = Pattern.compile("^Throughput:\\s+[\\d.]+ requests/s$");
  /** The run's settings on the Namespace(...) line the script prints first. */
  private static final Pattern NAMESPACE_LOAD = Pattern.compile("\\b(request_rate|max_concurrency)=([\\d.]+)\\b");
  /**
   * A figure as benchmark_serving.py printed it before its "Serving Benchmark Result" block (vLLM
   * until March 2024, and forks such as JetStream's): the unit after the number ("Benchmark
   * duration: 294.101467 s", "Request throughput: 6.05 requests/s", "Mean TTFT: 114960.78 ms").
   */
  private static final Pattern UNIT_AFTER = Pattern.compile("^(-?[0-9][0-9,]*(?:\\.[0-9]+)?)\\s+(s|ms|requests/s|tokens/s)$");
  private static final Map<String, String> UNIT_LABEL = Map.of(
      "s", "s", "ms", "ms", "requests/s", "req/s", "tokens/s", "tok/s");
  /** The columns AIPerf's and genai-perf's tables print, in their order (for rows pasted without them). */
  static final List<String> AIPERF_COLUMNS = List.of("Metric", "avg", "min", "max", "p99", "p90", "p50", "std");
  static final List<String> GENAI_PERF_COLUMNS = List.of("Statistic", "avg", "min", "max", "p99", "p90", "p75");
  private static final Pattern HEADERLESS_AIPERF_ROW = Pattern.compile(
      "(?m)^\\s*│\\s*[A-Z][A-Za-z ]+\\([a-z/ ]+\\)\\s*│(?:\\s*(?:[\\d,.]+|N/A)\\s*│){7}\\s*$");
  /** AIPerf's GPU telemetry: its summary's title, and each GPU's table's ("host:port | GPU 0 | model"). */
  private static final Pattern GPU_TABLE_TITLE = Pattern.compile("^NVIDIA AIPerf \\| GPU Telemetry|^\\S+ \\| GPU \\d+ \\| ");
  private static final Pattern BENCHMARK_DURATION = Pattern.compile("^Benchmark Duration:\\s*(\\S+)\\s*sec$");
  /** The load of an AIPerf command line: "--concurrency 16", "--request-rate=2.5". */
  private static final Pattern CLI_LOAD = Pattern.compile("--(concurrency|request-rate)[ =]'?([0-9.]+)'?(?=\\s|$)");
  /**
   * What vllm bench serve (and benchmark_serving.py, whose lines SGLang's bench_serving kept)
   * prints when its run starts, before any result: "Starting initial single prompt test run...",
   * "Starting main benchmark run..." (2025-).
   */
  static final Pattern UNFINISHED_START = Pattern.compile(
      "(?m)^\\s*Starting (?:initial single prompt test|main benchmark) run\\.\\.\\.\\s*$");
  /** tqdm's bar as the run prints it: " 79%|███████▉  | 793/1000 [06:51<00:40,  5.10it/s]". */
  private static final Pattern PROGRESS = Pattern.compile("^\\s*\\d{1,3}%\\|.*\\|\\s*(\\d+)/(\\d+) \\[.*$");
  /** A markdown code fence (```, ```text). */
  private static final Pattern FENCE = Pattern.compile("^```\\w*$");

  /** "Position 3:" under vllm bench serve's "Per-position acceptance (%):" heading. */
  private static final Pattern POSITION = Pattern.compile("^position (\\d+)$");
  private static final Pattern KEY_VALUE = Pattern.compile("^([^:]+?):\\s*(.*)$");
  private static final Pattern STAT_LABEL = Pattern.compile(
      "^(Mean|Median|Std|Min|Max|P\\d+(?:\\.\\d+)?)\\s+(.+?)\\s*\\((ms|s)\\)$");
  private static final Pattern NUMBER = Pattern.compile("^-?[0-9][0-9,]*(\\.[0-9]+)?([eE][-+]?[0-9]+)?$");
  private static final Pattern LLMPERF_KEY = Pattern.compile("^[a-z][a-z0-9_]*$");
  /**
   * The names of the metrics LLMPerf prints (its summary.json's without "results_"): a time in s,
   * a rate per s, a count of tokens; among a server's lines, a bare word is none of them.
   */
  private static final Pattern LLMPERF_METRIC = Pattern.compile("^(?:[a-z][a-z0-9_]*_s|number_[a-z0-9_]+)$");
  // "    p25 = 0.18": indented as printed, but a wrapper's "\s+" (kubectl --timestamps, CI) may
  // have taken the indent; "name = value" alone tells a statistic from a metric's name
  private static final Pattern LLMPERF_STAT = Pattern.compile("^\\s*(p\\d+|mean|min|max|stddev)\\s*=\\s*(.*)$");

  /** vLLM's and SGLang's console labels → their result JSON's names (metric, unit). */
  private static final Map<String, String[]> SERVING = Map.ofEntries(
      Map.entry("successful requests", new String[] {"completed", "count"}),
      Map.entry("failed requests", new String[] {"failed", "count"}),
      Map.entry("benchmark duration (s)", new String[] {"duration", "s"}),
      Map.entry("total input tokens", new String[] {"total_input_tokens", "tokens"}),
      Map.entry("total input text tokens", new String[] {"total_input_text_tokens", "tokens"}),
      Map.entry("total input vision tokens", new String[] {"total_input_vision_tokens", "tokens"}),
      Map.entry("total generated tokens", new String[] {"total_output_tokens", "tokens"}),
      Map.entry("total generated tokens (retokenized)", new String[] {"total_output_tokens_retokenized", "tokens"}),
      Map.entry("request throughput (req/s)", new String[] {"request_throughput", "requests/s"}),
      Map.entry("request goodput (req/s)", new String[] {"request_goodput", "requests/s"}),
      Map.entry("input token throughput (tok/s)", new String[] {"input_throughput", "tokens/s"}),
      Map.entry("output token throughput (tok/s)", new String[] {"output_throughput", "tokens/s"}),
      Map.entry("total token throughput (tok/s)", new String[] {"total_token_throughput", "tokens/s"}),
      Map.entry("peak output token throughput (tok/s)", new String[] {"max_output_tokens_per_s", "tokens/s"}),
      Map.entry("peak concurrent requests", new String[] {"max_concurrent_requests", "count"}),
      Map.entry("concurrency", new String[] {"concurrency", "count"}),
      Map.entry("accept length", new String[] {"accept_length", "tokens"}),
      // vllm bench serve's "Speculative Decoding" section (its JSON's spec_decode_* names)
      Map.entry("acceptance rate (%)", new String[] {"spec_decode_acceptance_rate", "%"}),
      Map.entry("acceptance length", new String[] {"spec_decode_acceptance_length", "tokens"}),
      Map.entry("drafts", new String[] {"spec_decode_num_drafts", "count"}),
      Map.entry("draft tokens", new String[] {"spec_decode_draft_tokens", "tokens"}),
      Map.entry("accepted tokens", new String[] {"spec_decode_accepted_tokens", "tokens"}),
      Map.entry("max request concurrency", new String[] {"max_concurrency", "count"}),
      Map.entry("max reqeuest concurrency", new String[] {"max_concurrency", "count"}), // SGLang's old typo
      Map.entry("maximum request concurrency", new String[] {"max_concurrency", "count"}),
      Map.entry("traffic request rate", new String[] {"request_rate", "requests/s"}),
      // vllm bench serve of 2026 prints the configured rate inside the block, as its JSON's request_rate
      Map.entry("request rate configured (rps)", new String[] {"request_rate", "requests/s"}));

  /** Latency names in the stat lines (Mean TTFT (ms)) → the JSON's metric names. */
  private static final Map<String, String> SERVING_LATENCY = Map.of(
      "ttft", "ttft", "tpot", "tpot", "itl", "itl", "e2el", "e2el", "e2e latency", "e2e_latency",
      // vllm bench serve's queue-inclusive section (2026, vllm#54136): its JSON's *_e2el_including_client_queue_ms
      "e2el incl. client queue", "e2el_including_client_queue");

  /** LLMPerf's printed run figures → its summary.json names. */
  private static final Map<String, String[]> LLMPERF_RUN = Map.of(
      "number of errored requests", new String[] {"number_errors", "count"},
      "overall output throughput", new String[] {"mean_output_throughput_token_per_s", "tokens/s"},
      "number of completed requests", new String[] {"num_completed_requests", "count"},
      "number of concurrent workers", new String[] {"num_concurrent_requests", "count"},
      "completed requests per minute", new String[] {"num_completed_requests_per_min", "requests/min"});

  private final Tool tool;

  public BenchConsoleFormat(Tool tool) {
    super(tool.id, "runs, reported_metrics", tool.description);
    this.tool = tool;
  }

  /** A console summary holds its run whole: two in one folder (a sweep's logs) are two runs. */
  @Override
  public boolean readsFromAnywhere() {
    return true; // a summary is printed when the run ends, after whatever the tool logged
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  /** A tool's printed report: kept whole in a document too (results.md). */
  @Override
  public boolean printedReport() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = WrapperLayer.peelLines(sample);
    switch (tool) {
      case VLLM, SGLANG -> {
        boolean offline = text.contains(" " + OFFLINE_HEADER + " ");
        boolean header = text.contains("=" + " " + SERVING_HEADER + " =") || text.contains(" " + SERVING_HEADER + " ")
            || offline || BARE_TITLE.matcher(text).find();
        // without the header: a block's first figure and a latency line, or its spec-decoding section
        boolean headerless = !header && (HEADERLESS_FIGURES.matcher(text).find()
            || text.contains("---Speculative Decoding---") && text.contains("Acceptance rate (%):"));
        // only the block's end: a section's rule and its statistics (less sure than a first figure)
        boolean tail = !header && !headerless && TAIL_SECTION.matcher(text).find();
        if (!header && !headerless && !tail) {
          // a run that printed no result (killed, crashed or still running when the log was
          // copied): its start is the tool's own, read to say so (a reject) rather than as the
          // server log its dataset loader's INFO lines look like
          if (!UNFINISHED_START.matcher(text).find()) {
            return 0;
          }
          boolean sglang = text.contains("#Input tokens:") || text.contains("backend='sglang");
          return (tool == Tool.SGLANG) == sglang ? 65 : 0;
        }
        // SGLang's block names its backend and adds Little's-law concurrency and E2E latency
        boolean sglang = offline || text.contains("Backend:") || text.contains(" E2E Latency (ms):")
            || text.contains("(retokenized)") || Pattern.compile("(?m)^\\s*Concurrency:").matcher(text).find();
        return (tool == Tool.SGLANG) == sglang ? (header ? 85 : headerless ? 70 : 65) : 0;
      }
      case GENAI_PERF -> {
        return text.contains("NVIDIA GenAI-Perf |") || text.contains("┃") && text.contains(" Statistic ┃") ? 88 : 0;
      }
      case AIPERF -> {
        if (text.contains("NVIDIA AIPerf |") || text.contains("┃") && text.contains(" Metric ┃")) {
          return 88;
        }
        // rows alone: AIPerf's eight cells, a metric name with its unit in brackets first
        return HEADERLESS_AIPERF_ROW.matcher(text).find() ? 70 : 0;
      }
      case LLMPERF -> {
        boolean results = text.contains("Results for token benchmark for");
        boolean shaped = Pattern.compile("(?m)^(ttft_s|inter_token_latency_s|end_to_end_latency_s)\\s*$\\s+p25 = ")
            .matcher(text).find() || text.contains("Completed Requests Per Minute:");
        return results || shaped ? 85 : 0;
      }
      default -> {
        return 0;
      }
    }
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    Reader r = switch (tool) {
      case VLLM, SGLANG -> new ServingReader(ctx, sink);
      case GENAI_PERF, AIPERF -> new TableReader(ctx, sink);
      case LLMPERF -> new LlmperfReader(ctx, sink);
    };
    WrapperLayer wrappers = new WrapperLayer();
    // a summary kept in a CI, container or journald log: its collector's wrappers (and colour
    // codes) come off first; console captures also carry carriage returns (progress bars)
    long n = TextLines.read(in, sink, "a console summary", (lineNo, text) -> r.line(lineNo, consoleLine(wrappers, text)));
    r.end();
    return n;
  }

  /** A tool's summary printed into a server's log (a CI job, a script's one {@code &> run.log} for server and bench). */
  @Override
  public EmbeddedReader embeddedReader(ParseContext ctx, RecordSink sink) {
    return switch (tool) {
      case VLLM, SGLANG -> servingEmbedded(ctx, sink);
      case GENAI_PERF, AIPERF -> embedded(new TableReader(ctx, sink), sink);
      case LLMPERF -> embedded(new LlmperfReader(ctx, sink), sink);
    };
  }

  /**
   * genai-perf's and AIPerf's tables and LLMPerf's printout in a server's log: the lines only the
   * tool prints (a table's borders, rows and title, AIPerf's CLI command and duration after it,
   * LLMPerf's metric names, their statistics and its run figures) are read as in a file of their
   * own; every other line stays the server log's.
   */
  private static EmbeddedReader embedded(Reader r, RecordSink sink) {
    WrapperLayer wrappers = new WrapperLayer();
    return new EmbeddedReader() {
      @Override
      public boolean offer(long lineNo, String text) {
        String line = consoleLine(wrappers, text);
        if (!r.takes(line)) {
          r.passed(line);
          return false;
        }
        String reason = r.line(lineNo, line);
        if (reason != null) {
          byte[] b = text.getBytes(StandardCharsets.UTF_8);
          sink.reject(lineNo, reason, b, 0, b.length);
        }
        return true;
      }

      @Override
      public void end() {
        r.end();
      }
    };
  }

  /**
   * vllm bench serve's and SGLang's result block in a server's log: the block's lines, from its
   * title or first figure to its end, are read as in a file of their own; every other line, and a
   * run's progress, stays the server log's. The settings a run announces before its block
   * ("Maximum request concurrency: 16") still give the block's level.
   */
  private EmbeddedReader servingEmbedded(ParseContext ctx, RecordSink sink) {
    ServingReader r = new ServingReader(ctx, sink);
    WrapperLayer wrappers = new WrapperLayer();
    return new EmbeddedReader() {
      @Override
      public boolean offer(long lineNo, String text) {
        String line = consoleLine(wrappers, text);
        if (!r.inBlock && !r.startsBlock(line.strip())) {
          r.announced(line.strip());
          return false;
        }
        if (r.inBlock && r.stray(line.strip())) {
          // printed among the block's rows by something else (the server's process without its
          // header, a script's echo): a line of the log no kind reads, as anywhere else in it
          return false;
        }
        String reason = r.line(lineNo, line);
        if (reason != null) {
          byte[] b = text.getBytes(StandardCharsets.UTF_8);
          sink.reject(lineNo, reason, b, 0, b.length);
        }
        return true;
      }

      @Override
      public void end() {
        if (r.inBlock) {
          r.endBlock(); // a block cut before its closing rule keeps what was read
        }
      }
    };
  }

  /** A console line as the readers take it: its collector's wrappers off, a progress bar's last frame, no trailing blanks. */
  static String consoleLine(WrapperLayer wrappers, String decoded) {
    String line = wrappers.peel(decoded);
    int cr = line.lastIndexOf('\r', line.length() - 2);
    if (cr >= 0) {
      line = line.substring(cr + 1);
    }
    return line.stripTrailing();
  }

  /** Reads one tool's console lines; line() returns a reject reason, or null once it has counted the line. */
  private abstract static class Reader {
    final ParseContext ctx;
    final RecordSink sink;
    private int runs;
    String run;

    Reader(ParseContext ctx, RecordSink sink) {
      this.ctx = ctx;
      this.sink = sink;
    }

    /** Starts the next run of the file: the first keeps the file's run name, the k-th is run#k. */
    void nextRun() {
      runs++;
      run = runs == 1 ? ctx.defaultRun() : ctx.defaultRun() + "#" + runs;
    }

    abstract String line(long lineNo, String line);

    /** Among another format's lines: whether this line (wrappers off) is the tool's own, to be read here. */
    boolean takes(String line) {
      return true;
    }

    /** Among another format's lines: a line not taken (the host's) went by. */
    void passed(String line) {}

    void end() {}
  }

  static Double number(String s) {
    String t = s.strip();
    if (!NUMBER.matcher(t).matches()) {
      return null;
    }
    double d = Double.parseDouble(t.replace(",", ""));
    // "-0.00" (a rounded tiny negative, as SGLang prints a TPOT) is zero, not a negative figure
    return Double.isFinite(d) ? (d == 0 ? 0.0 : d) : null;
  }

  // ---------------------------------------------------------------- vLLM, SGLang

  /** The "Serving Benchmark Result" block: label: value lines between two rules of '='. */
  private static final class ServingReader extends Reader {
    boolean inBlock;
    Double concurrency;
    Double rate;
    /**
     * The run's settings printed before its block ("Traffic request rate: 8.0", "Maximum request
     * concurrency: 16": vllm bench serve prints them when the run starts, not in its result).
     */
    Double announcedConcurrency;
    Double announcedRate;

    ServingReader(ParseContext ctx, RecordSink sink) {
      super(ctx, sink);
    }

    /** The block's title between its rules of '='. */
    private static boolean titledRule(String line) {
      return (line.contains(SERVING_HEADER) || line.contains(OFFLINE_HEADER)) && line.startsWith("=");
    }

    /**
     * Whether a line (stripped) inside a block is none of its lines, not even one cut short: no
     * "label: value", rule, fence or title, no statistic's start ("Mean TT") and no start of a
     * label the block prints ("Successful req").
     */
    boolean stray(String line) {
      if (line.isEmpty() || KEY_VALUE.matcher(line).matches() || line.startsWith("---") || line.startsWith("===")
          || FENCE.matcher(line).matches() || line.contains(SERVING_HEADER) || line.contains(OFFLINE_HEADER)
          || CUT_STATISTIC.matcher(line).find()) {
        return false;
      }
      String lower = line.toLowerCase(Locale.ROOT);
      return lower.length() < 4 || SERVING.keySet().stream().noneMatch(k -> k.startsWith(lower));
    }

    /** Whether a line (stripped) starts a block: its title, ruled or bare, or a block's first figure. */
    boolean startsBlock(String line) {
      return titledRule(line) || line.equals(SERVING_HEADER) || line.equals(OFFLINE_HEADER)
          || HEADERLESS_START.matcher(line).matches();
    }

    /** A "Total time: N s" line held until the next line tells whether a 2023 block starts with it. */
    private String heldTotal;
    /** The block is 2023's five lines: every figure has its unit after its value. */
    private boolean block2023;

    @Override
    String line(long lineNo, String raw) {
      String line = raw.strip();
      if (heldTotal != null) {
        String held = heldTotal;
        heldTotal = null;
        if (THROUGHPUT_2023.matcher(line).matches()) {
          startBlock(true);
          block2023 = true;
          String reason = line(lineNo, held);
          if (reason != null) {
            return reason;
          }
        } else {
          sink.otherLine(); // a lone "Total time": not the 2023 block
        }
      }
      if (inBlock && headerless && (line.startsWith("Namespace(") || TOTAL_TIME_2023.matcher(line).matches()
          && figures.stream().anyMatch(f -> f.metric().equals("duration")))) {
        // the next run of a loop over rates, printed right after this one's lines
        endBlock();
      }
      if (!inBlock) {
        Matcher progress = PROGRESS.matcher(line);
        if (progress.matches() || UNFINISHED_START.matcher(line).matches()) {
          // the run's latest state, held: a result block releases it, the file's end without one
          // rejects it
          // (a bar before the run's start lines is no run that stopped: tqdm writes to stderr
          // unbuffered, print's lines to a redirected stdout come later)
          releaseState();
          heldState = raw;
          heldStateLine = lineNo;
          if (progress.matches()) {
            heldProgress = progress.group(1) + "/" + progress.group(2);
          }
          return null;
        }
      }
      if (!inBlock && TOTAL_TIME_2023.matcher(line).matches()) {
        heldTotal = line;
        return null; // counted when the next line decides
      }
      if (!inBlock) {
        boolean header = titledRule(line);
        // the title without its rules: the closing rule is likely lost too, so it ends as a block
        // without its header does
        boolean bareTitle = line.equals(SERVING_HEADER) || line.equals(OFFLINE_HEADER);
        // a block pasted without its header (a post's excerpt) starts at its first line
        boolean headerless = !header && !bareTitle && HEADERLESS_START.matcher(line).matches();
        if (header || bareTitle || headerless) {
          startBlock(headerless || bareTitle);
        } else {
          announced(line);
        }
        if (!headerless) {
          sink.otherLine();
          return null;
        }
      }
      boolean bareTitle = line.equals(SERVING_HEADER) || line.equals(OFFLINE_HEADER);
      if ((line.contains(SERVING_HEADER) || line.contains(OFFLINE_HEADER)) && line.startsWith("=") || bareTitle) {
        // the next run's header, this block's closing rule missing (a paste): the next run, never
        // a section of this one (vLLM-Omni's titled rules are sections)
        endBlock();
        startBlock(bareTitle);
        sink.otherLine();
        return null;
      }
      if (FENCE.matcher(line).matches()) {
        // a markdown fence closing a pasted block before its rule: the paste ends here
        endBlock();
        sink.otherLine();
        return null;
      }
      if (RULE.matcher(line).matches()) {
        endBlock();
        sink.otherLine();
        return null;
      }
      if (line.isEmpty() && headerless) {
        // a block without its header has no closing rule: a blank line ends it ("LLAMA 3:" …
        // blank, "LLAMA 2:" …: two runs)
        endBlock();
        sink.otherLine();
        return null;
      }
      if (line.isEmpty() || SECTION.matcher(line).matches() || TITLED_RULE.matcher(line).matches()) {
        sink.otherLine();
        return null;
      }
      Matcher kv = KEY_VALUE.matcher(line);
      if (!kv.matches()) {
        return "not a 'label: value' line inside the benchmark result (a cut line?)";
      }
      String label = kv.group(1).strip();
      String value = kv.group(2).strip();
      if (label.equalsIgnoreCase("successful requests") && figures.stream().anyMatch(f -> f.metric().equals("completed"))) {
        // the block's first figure again: the next run's block, pasted without a rule between
        endBlock();
        inBlock = true;
        this.headerless = true;
        nextRun();
      }
      Matcher unitAfter = UNIT_AFTER.matcher(value);
      if (unitAfter.matches()) {
        label = label + " (" + UNIT_LABEL.get(unitAfter.group(2)) + ")";
        value = unitAfter.group(1);
        label = LABELS_2023.getOrDefault(label.toLowerCase(Locale.ROOT), label);
      } else if (block2023) {
        return label + ": no unit after the value (a cut line?)";
      }
      if (value.isEmpty() && label.equalsIgnoreCase("per-position acceptance (%)")) {
        sink.otherLine(); // the heading of the "Position N:" lines that follow
        return null;
      }
      if (value.isEmpty()) {
        return label + ": no value (a cut line?)";
      }
      String key = label.toLowerCase(Locale.ROOT);
      if (key.equals("backend") || value.equalsIgnoreCase("not set") || value.equalsIgnoreCase("none")) {
        sink.otherLine(); // text, not a figure
        return null;
      }
      if (key.equals("traffic request rate") && value.equalsIgnoreCase("inf")) {
        sink.otherLine(); // every request sent at once: no rate to keep
        return null;
      }
      // "Streaming continuity OK rate: 0.00%" (vLLM-Omni): a share, in % as printed
      boolean percent = value.endsWith("%") && number(value.substring(0, value.length() - 1).strip()) != null;
      Double v = number(percent ? value.substring(0, value.length() - 1).strip() : value);
      if (v == null) {
        return label + ": expected a number, got " + quote(value);
      }
      String[] named = SERVING.get(key);
      String metric;
      String stat = "value";
      String unit;
      Matcher position = POSITION.matcher(key);
      if (position.matches()) {
        named = new String[] {"spec_decode_per_position_acceptance_rates", "%"};
        stat = "position_" + position.group(1);
      }
      if (named != null) {
        metric = named[0];
        unit = named[1];
        if (metric.equals("max_concurrency")) {
          concurrency = v;
        } else if (metric.equals("request_rate")) {
          rate = v;
        }
      } else {
        Matcher s = STAT_LABEL.matcher(label);
        if (s.matches()) {
          String name = s.group(2).strip().toLowerCase(Locale.ROOT);
          metric = SERVING_LATENCY.getOrDefault(name, name.replaceAll("[^a-z0-9]+", "_"));
          stat = s.group(1).toLowerCase(Locale.ROOT);
          unit = s.group(3);
          if (unit.equals("s")) {
            v = v * 1000; // the JSON keeps every latency in ms
            unit = "ms";
          }
        } else if (STAT_LABEL_NO_UNIT.matcher(label).matches()) {
          Matcher u = STAT_LABEL_NO_UNIT.matcher(label);
          u.matches();
          metric = u.group(2).toLowerCase(Locale.ROOT);
          stat = u.group(1).toLowerCase(Locale.ROOT);
          unit = null;
        } else {
          String[] mu = ToolMetricNames.split(label);
          metric = mu[0];
          unit = mu[1];
        }
      }
      if (percent && (unit == null || unit.isEmpty())) {
        unit = "%";
      }
      String bad = Checked.figureProblem(label, v, unit);
      if (bad != null) {
        return bad; // a hand-edited or corrupt summary: the figure is no figure of a run
      }
      if (metric.equals("completed")) {
        noneCompleted = v == 0;
      } else if (noneCompleted && !stat.equals("value") && unit.equals("ms")) {
        // with no successful request the tool prints 0.00 for each latency statistic (numpy's
        // mean of an empty list, `or 0`): a placeholder, not a figure
        sink.otherLine();
        return null;
      }
      // the same figure printed again in a later section of the block (vLLM-Omni prints "Peak
      // concurrent requests" in its general and its text section): one figure
      final String m0 = metric;
      final String s0 = stat;
      final double v0 = v;
      if (figures.stream().anyMatch(f -> f.metric().equals(m0) && f.stat().equals(s0) && f.value() == v0)) {
        sink.otherLine();
        return null;
      }
      // kept until the block ends, when the run's level is known (a rate or cap may come late)
      // and whether its ITL figures are placeholders; the line is counted then
      figures.add(new Figure(metric, stat, v, unit));
      return null;
    }

    /** The block's "Successful requests:" was 0. */
    private boolean noneCompleted;
    /** The block began without its header (a paste from its middle): a blank line ends it. */
    private boolean headerless;

    private record Figure(String metric, String stat, double value, String unit) {}

    private static boolean itlStatistic(Figure f) {
      return f.metric().equals("itl") && !f.stat().equals("value") && "ms".equals(f.unit());
    }

    private final List<Figure> figures = new ArrayList<>();

    /** The last start or progress line of a run with no result block yet (uncounted), or null. */
    private String heldState;
    private long heldStateLine;
    /** That run's last progress, "793/1000", or null. */
    private String heldProgress;

    /** The held line was a line of a run that went on: an other line. */
    private void releaseState() {
      if (heldState != null) {
        heldState = null;
        sink.otherLine();
      }
    }

    /** A block begins: the next run, at the settings announced before it. */
    private void startBlock(boolean headerless) {
      releaseState();
      heldProgress = null;
      inBlock = true;
      this.headerless = headerless;
      concurrency = announcedConcurrency;
      rate = announcedRate;
      announcedConcurrency = null;
      announcedRate = null;
      nextRun();
    }

    /** A run's setting printed before its block: kept for the level of the block that follows. */
    private void announced(String line) {
      if (line.startsWith("Namespace(")) {
        // the script's arguments, printed first: its rate and concurrency cap
        Matcher a = NAMESPACE_LOAD.matcher(line);
        while (a.find()) {
          Double v = number(a.group(2));
          if (v != null && v > 0) {
            if (a.group(1).equals("request_rate")) {
              announcedRate = v;
            } else {
              announcedConcurrency = v;
            }
          }
        }
        return;
      }
      Matcher kv = KEY_VALUE.matcher(line);
      if (!kv.matches()) {
        return;
      }
      String key = kv.group(1).strip().toLowerCase(Locale.ROOT);
      if (key.equals("traffic request rate") || key.equals("maximum request concurrency")
          || key.equals("max request concurrency") || key.equals("request rate configured (rps)")) {
        Double v = number(kv.group(2).strip());
        if (v != null && v > 0) {
          if (key.equals("traffic request rate") || key.equals("request rate configured (rps)")) {
            announcedRate = v;
          } else {
            announcedConcurrency = v;
          }
        }
      }
    }

    private void endBlock() {
      inBlock = false;
      block2023 = false;
      noneCompleted = false;
      // the level of the run: its concurrency cap, else its request rate
      Double level = null;
      if (concurrency != null && concurrency > 0) {
        level = concurrency;
        sink.runLevel(run, "concurrency", concurrency, null, "console summary (max request concurrency)");
      } else if (rate != null && rate > 0) {
        level = rate;
        sink.runLevel(run, "request_rate", rate, null, "console summary (traffic request rate)");
      }
      // every ITL statistic 0.00: the run had no gap between chunks (a non-streaming run, the
      // tool's `np.mean(itls or 0)`), placeholders as the result JSON's empty itls say, no figures
      boolean noGaps = figures.stream().anyMatch(ServingReader::itlStatistic)
          && figures.stream().filter(ServingReader::itlStatistic).allMatch(f -> f.value() == 0);
      for (Figure f : figures) {
        if (noGaps && itlStatistic(f)) {
          sink.otherLine();
        } else {
          sink.reportedMetric(run, level, f.metric(), f.stat(), f.value(), f.unit());
          sink.record();
        }
      }
      figures.clear();
    }

    @Override
    void end() {
      if (heldTotal != null) {
        heldTotal = null;
        sink.otherLine(); // a lone "Total time" at the end
      }
      if (inBlock) {
        endBlock(); // a block cut before its closing rule keeps what was read
      }
      if (heldState != null) {
        rejectState();
      }
    }

    /**
     * A run started and printed no result: its figures are not in the file, and saying nothing
     * would leave a sweep one run short without a word.
     */
    private void rejectState() {
      byte[] b = heldState.getBytes(StandardCharsets.UTF_8);
      String[] done = heldProgress == null ? null : heldProgress.split("/");
      sink.reject(heldStateLine, "the benchmark run printed no result block: "
          + (done == null ? "it stopped after it started (killed, crashed, or the log was copied before the run finished)"
              : done[0].equals(done[1]) ? "its " + done[1] + " requests were sent and answered, then the log ends (cut?)"
              : "it stopped at " + heldProgress + " requests (killed, crashed, or the log was copied before the run finished)"),
          b, 0, b.length);
      heldState = null;
      heldProgress = null;
    }
  }

  private static String quote(String s) {
    return "'" + (s.length() > 60 ? s.substring(0, 60) + "..." : s) + "'";
  }

  // ---------------------------------------------------------------- genai-perf, AIPerf

  /**
   * A rich table: a title, borders, a header row (┃ Statistic ┃ avg ┃ ...) and data rows
   * (│ name │ 1,764.61 │ ... │). AIPerf wraps long names over several rows whose other cells are
   * empty: the name is completed from them before the row's figures are kept.
   */
  private final class TableReader extends Reader {
    List<String> header;
    String pendingName;
    List<String> pendingCells;
    long pendingLine;
    /** The title line before the next table ("NVIDIA AIPerf | LLM Metrics: Effective"). */
    String title = "";
    /** The titles of the current run's tables: a title seen again starts the next run. */
    final java.util.Set<String> runTitles = new java.util.HashSet<>();
    /** Inside a rich panel (╭ … ╰: AIPerf's "GPU Telemetry Platform" note), whose │ lines are text. */
    boolean inPanel;
    /** AIPerf's "CLI Command: aiperf profile …" so far (it wraps over lines), or null. */
    String cli;
    /**
     * Inside AIPerf's GPU telemetry ("NVIDIA AIPerf | GPU Telemetry Summary", then a table per GPU
     * titled "localhost:9401 | GPU 0 | NVIDIA H100 PCIe"): the GPUs' power, memory and clocks, not
     * figures of the run's requests. Its lines are other lines; its tables start no run.
     */
    boolean telemetry;
    /** Inside AIPerf's "Error Summary" table; its counts per error so far. */
    boolean errorTable;
    final Map<String, Double> errorCounts = new java.util.LinkedHashMap<>();

    /** The command's first line, or a piece of it wrapped onto this one (flags, quoted values). */
    boolean commandLine(String line) {
      return line.startsWith("CLI Command:")
          || cli != null && (line.startsWith("--") || !line.isEmpty() && !line.contains(": "));
    }

    TableReader(ParseContext ctx, RecordSink sink) {
      super(ctx, sink);
    }

    @Override
    boolean takes(String raw) {
      String line = raw.strip();
      if (inPanel || line.isEmpty()) {
        return inPanel;
      }
      if (line.startsWith("│")) {
        // a row: of the table open, or one of the tool's rows pasted without its header
        List<String> c = cells(line, '│');
        return header != null || telemetry || c != null
            && c.size() == (tool == Tool.AIPERF ? AIPERF_COLUMNS : GENAI_PERF_COLUMNS).size();
      }
      if ("┏┃┡├└╭".indexOf(line.charAt(0)) >= 0) {
        return true;
      }
      if (line.startsWith(tool == Tool.AIPERF ? "NVIDIA AIPerf |" : "NVIDIA GenAI-Perf |")) {
        return true;
      }
      return tool == Tool.AIPERF && (GPU_TABLE_TITLE.matcher(line).find()
          || run != null && (commandLine(line) || BENCHMARK_DURATION.matcher(line).matches()));
    }

    @Override
    void passed(String line) {
      cli = null; // the command printed wraps onto the lines right after it only
    }

    @Override
    String line(long lineNo, String raw) {
      String line = raw.strip();
      if (line.startsWith("╭") || inPanel) {
        flush();
        inPanel = !line.startsWith("╰");
        sink.otherLine();
        return null;
      }
      if (line.startsWith("┃")) {
        flush();
        header = cells(line, '┃');
        if (header == null || header.size() < 2) {
          return "table header without columns";
        }
        if (telemetry) {
          sink.otherLine();
          return null;
        }
        errorTable = tool == Tool.AIPERF && header.contains("Type") && header.contains("Count");
        // AIPerf 0.12 prints one run as several tables ("LLM Metrics: Effective", "…: Active",
        // "LLM Metrics"): a run ends where a table's title repeats (genai-perf's experiments)
        if (run == null || !runTitles.add(title)) {
          nextRun();
          runTitles.clear();
          runTitles.add(title);
        }
        title = "";
        sink.otherLine();
        return null;
      }
      if (line.startsWith("│") && telemetry) {
        sink.otherLine();
        return null;
      }
      if (line.startsWith("│") && errorTable) {
        return errorRow(line);
      }
      if (line.startsWith("│")) {
        if (header == null) {
          // rows pasted without their table's header: each tool prints its columns in one order
          // (aiperf#535: four AIPerf rows alone), so a row with as many cells takes that header
          List<String> c = cells(line, '│');
          List<String> assumed = tool == Tool.AIPERF ? AIPERF_COLUMNS : GENAI_PERF_COLUMNS;
          if (c == null || c.size() != assumed.size()) {
            return "table row before the table's header";
          }
          header = assumed;
          nextRun();
          runTitles.clear();
          runTitles.add(title);
          title = "";
        }
        // text after the row's last border is a note beside the table ("│ … │  ⭐" in a write-up),
        // not a cell; a row cut short still has too few cells
        int last = line.lastIndexOf('│');
        List<String> c = cells(last > 0 ? line.substring(0, last + 1) : line, '│');
        if (c == null || c.size() != header.size()) {
          flush(); // a name continued on the next rows is this row's, not the one before it
          return "table row has " + (c == null ? 0 : c.size()) + " cells but the header has " + header.size()
              + " (a cut line?)";
        }
        boolean continuation = c.subList(1, c.size()).stream().allMatch(String::isEmpty);
        if (continuation) {
          if (pendingName == null) {
            return "table row without figures";
          }
          pendingName = pendingName + " " + c.get(0);
          sink.otherLine();
          return null;
        }
        flush();
        pendingName = c.get(0);
        pendingCells = c;
        pendingLine = lineNo;
        return null; // counted when flushed
      }
      if (line.startsWith("└") || line.startsWith("┏") || line.startsWith("┡") || line.startsWith("├")) {
        flush();
        if (line.startsWith("└")) {
          header = null;
          telemetry = false; // each GPU's table has its title; rows after it are no GPU's
          endErrorTable();
        }
        sink.otherLine();
        return null;
      }
      flush();
      if (tool == Tool.AIPERF && run != null && commandLine(line)) {
        // the command the run was profiled with, wrapped at the terminal's width: its load is the
        // run's level ("--concurrency 16", "--request-rate 2.5")
        cli = (cli == null ? "" : cli + " ") + line;
        // the whole command so far: a flag and its value may be on two lines (the same level
        // found again is no conflict)
        Matcher c = CLI_LOAD.matcher(cli);
        while (c.find()) {
          Double v = number(c.group(2));
          if (v != null && v > 0) {
            String conflict = sink.runLevel(run, c.group(1).equals("concurrency") ? "concurrency" : "request_rate", v,
                null, "aiperf console: its CLI command");
            if (conflict != null) {
              return conflict;
            }
          }
        }
        sink.otherLine();
        return null;
      }
      cli = null;
      if (tool == Tool.AIPERF && run != null) {
        Matcher m = BENCHMARK_DURATION.matcher(line);
        if (m.matches()) {
          Double v = number(m.group(1));
          if (v == null) {
            return "Benchmark Duration: expected a number, got " + quote(m.group(1));
          }
          sink.reportedMetric(run, null, "benchmark_duration", "avg", v, "sec");
          sink.record();
          return null;
        }
      }
      if (GPU_TABLE_TITLE.matcher(line).find()) {
        telemetry = true;
      } else if (line.startsWith("NVIDIA ")) {
        title = line;
        telemetry = false;
      }
      sink.otherLine(); // title, blank lines, the command, export paths
      return null;
    }

    /** Keeps the pending row's figures, now that its name is whole. */
    private void flush() {
      if (pendingName == null) {
        return;
      }
      // named as the tool's JSON and CSV name it, so the three files of one run agree
      String[] mu = ToolMetricNames.tagged(pendingName);
      String metric = mu[0];
      String unit = mu[1];
      int kept = 0;
      String bad = null;
      for (int i = 1; i < pendingCells.size(); i++) {
        String cell = pendingCells.get(i);
        if (cell.isEmpty() || cell.equals("N/A") || cell.equals("-")) {
          continue;
        }
        Double v = number(cell);
        if (v == null) {
          bad = header.get(i) + ": expected a number, got " + quote(cell);
          break;
        }
        // genai-perf's and AIPerf's figures may be negative (osl_mismatch_diff_pct): finite,
        // counts whole, times within 30 days
        bad = Checked.signedFigureProblem(metric, header.get(i).toLowerCase(Locale.ROOT), v, unit);
        if (bad != null) {
          break;
        }
        kept++;
      }
      if (bad != null || kept == 0) {
        sink.reject(pendingLine, bad != null ? bad : "table row without figures", null, 0, 0);
      } else {
        for (int i = 1; i < pendingCells.size(); i++) {
          Double v = number(pendingCells.get(i));
          if (v != null) {
            sink.reportedMetric(run, null, metric, header.get(i).toLowerCase(Locale.ROOT), v, unit);
          }
        }
        sink.record();
      }
      pendingName = null;
      pendingCells = null;
    }

    @Override
    void end() {
      flush();
      endErrorTable();
    }

    /**
     * A row of AIPerf's "Error Summary" (Code | Type | Message | Count; the message wraps over the
     * rows after it): the console's only word on how many requests failed, kept as the JSON's
     * error_summary is (error_count, stat the error's code and type), summed per error at the
     * table's end (one type may come with several messages).
     */
    private String errorRow(String line) {
      List<String> c = cells(line, '│');
      if (c == null || c.size() != header.size()) {
        return "error table row has " + (c == null ? 0 : c.size()) + " cells but the header has " + header.size()
            + " (a cut line?)";
      }
      String countCell = c.get(header.indexOf("Count"));
      if (countCell.isEmpty()) {
        sink.otherLine(); // the message of the row above, wrapped
        return null;
      }
      Double n = number(countCell);
      if (n == null || n < 0 || n != Math.rint(n)) {
        return "Count: expected a count of requests, got " + quote(countCell);
      }
      int codeAt = header.indexOf("Code");
      String code = codeAt < 0 || c.get(codeAt).isEmpty() || c.get(codeAt).equals("N/A") ? null : c.get(codeAt);
      String type = c.get(header.indexOf("Type"));
      type = type.isEmpty() || type.equals("N/A") ? null : type;
      String key = code == null && type == null ? "unknown" : code == null ? type : type == null ? code : code + " " + type;
      errorCounts.merge(key, n, Double::sum);
      sink.record();
      return null;
    }

    private void endErrorTable() {
      errorCounts.forEach((k, v) -> sink.reportedMetric(run, null, "error_count", k, v, "requests"));
      errorCounts.clear();
      errorTable = false;
    }
  }

  /** The cells between the separators of a table row, stripped; null when the row is not closed. */
  static List<String> cells(String line, char sep) {
    if (line.length() < 2 || line.charAt(line.length() - 1) != sep) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (String c : line.substring(1, line.length() - 1).split(Pattern.quote(String.valueOf(sep)), -1)) {
      out.add(c.strip());
    }
    return out;
  }

  // ---------------------------------------------------------------- LLMPerf

  /** A metric name on its own line, then indented "p25 = ..." lines; run figures as "Label: value". */
  private static final class LlmperfReader extends Reader {
    String metric;

    LlmperfReader(ParseContext ctx, RecordSink sink) {
      super(ctx, sink);
    }

    @Override
    boolean takes(String raw) {
      if (raw.contains("Results for token benchmark for") || metric != null && LLMPERF_STAT.matcher(raw).matches()) {
        return true;
      }
      String line = raw.strip();
      if (raw.equals(line) && LLMPERF_METRIC.matcher(line).matches()) {
        return true;
      }
      Matcher kv = KEY_VALUE.matcher(line);
      return kv.matches() && LLMPERF_RUN.containsKey(kv.group(1).strip().toLowerCase(Locale.ROOT));
    }

    @Override
    void passed(String raw) {
      if (LLMPERF_KEY.matcher(raw).matches()) {
        metric = null; // another name on its own line: the statistics after it are no metric's of the run
      }
    }

    @Override
    String line(long lineNo, String raw) {
      if (raw.contains("Results for token benchmark for")) {
        nextRun();
        metric = null;
        sink.otherLine();
        return null;
      }
      Matcher st = LLMPERF_STAT.matcher(raw);
      if (st.matches() && metric != null) {
        Double v = number(st.group(2));
        if (v == null) {
          return metric + " " + st.group(1) + ": expected a number, got " + quote(st.group(2)) + " (a cut line?)";
        }
        String bad = Checked.figureProblem(metric + " " + st.group(1), v, unitOf(metric));
        if (bad != null) {
          return bad; // a latency of 1e12 s or a negative throughput is no figure of a run
        }
        sink.reportedMetric(runName(), null, metric, st.group(1), v, unitOf(metric));
        sink.record();
        return null;
      }
      String line = raw.strip();
      if (LLMPERF_KEY.matcher(line).matches() && raw.equals(line)) {
        metric = line;
        sink.otherLine();
        return null;
      }
      Matcher kv = KEY_VALUE.matcher(line);
      if (kv.matches()) {
        String[] named = LLMPERF_RUN.get(kv.group(1).strip().toLowerCase(Locale.ROOT));
        if (named != null) {
          String value = kv.group(2).strip().replaceFirst("\\s*tok/s$", "");
          Double v = number(value);
          if (v == null) {
            return kv.group(1).strip() + ": expected a number, got " + quote(value) + " (a cut line?)";
          }
          String bad = Checked.figureProblem(kv.group(1).strip(), v, named[1]);
          if (bad != null) {
            return bad; // "Number Of Completed Requests: 1e26" is no count of a run
          }
          sink.reportedMetric(runName(), null, named[0], "value", v, named[1]);
          sink.record();
          return null;
        }
      }
      sink.otherLine();
      return null;
    }

    private String runName() {
      if (run == null) {
        nextRun();
      }
      return run;
    }

    private static String unitOf(String metric) {
      if (metric.endsWith("_per_s")) {
        return "tokens/s";
      }
      if (metric.endsWith("_s")) {
        return "s";
      }
      return metric.startsWith("number_") ? "tokens" : "";
    }
  }
}
