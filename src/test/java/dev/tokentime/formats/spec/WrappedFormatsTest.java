package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.formats.console.BenchConsoleFormat;
import dev.tokentime.formats.sglang.SglangLogFormat;
import dev.tokentime.formats.trtllm.IterStatsFormat;
import dev.tokentime.formats.vllm.VllmLogFormat;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The wrapper layer is every text format's, not vLLM's alone: each bundled sample of a line
 * format and each real console summary of a load-test tool, every line wrapped the way a
 * collector keeps it (each wrapper of {@link WrapperStackTest},
 * and two nested), reads as the bare file does — the same records, other lines and figures, no
 * reject. Times may only get finer where the wrapper has its own (SGLang's header is whole
 * seconds); a TensorRT-LLM iteration's own timestamp stays its time whatever wraps it.
 */
class WrappedFormatsTest {
  /**
   * A bundled text sample; {@code ownTimeWins}: its lines' own times stay their times in any
   * wrapper; {@code knownLines}: its lines start as a log line the wrappers know does (stern's
   * "pod container " is peeled only before such a start, never before free text).
   */
  record TextSample(String name, Supplier<InputFormat> format, Path file, boolean ownTimeWins,
      boolean knownLines) {}

  static final List<TextSample> SAMPLES = List.of(
      new TextSample("sglang", SglangLogFormat::new, Path.of("sample-logs/sglang-server/server.log"), false, true),
      new TextSample("trtllm print_iter_log", IterStatsFormat::new,
          Path.of("sample-logs/trtllm/pytorch-iter-log/server.log"), true, true),
      new TextSample("vllm", VllmLogFormat::new, Path.of("sample-logs/vllm/server.log"), false, true),
      console(BenchConsoleFormat.Tool.VLLM, "vllm-pr7062.txt"),
      console(BenchConsoleFormat.Tool.SGLANG, "sglang-issue8285.txt"),
      console(BenchConsoleFormat.Tool.GENAI_PERF, "genai-perf-goodput-llm.txt"),
      console(BenchConsoleFormat.Tool.AIPERF, "aiperf-custom-dataset-single-turn.txt"),
      console(BenchConsoleFormat.Tool.LLMPERF, "llmperf-groq-70b-printed.txt"));

  /** A console summary a load-test tool printed, kept in a CI or container log. */
  static TextSample console(BenchConsoleFormat.Tool tool, String file) {
    return new TextSample(file, () -> new BenchConsoleFormat(tool), Path.of("src/test/resources/real-logs/console", file),
        false, false);
  }

  record Wrapper(String name, UnaryOperator<String> wrap) {}

  static List<Wrapper> wrappers() {
    List<Wrapper> all = new ArrayList<>();
    for (WrapperStackTest.Wrapper w : WrapperStackTest.OUTER) {
      all.add(new Wrapper(w.name(), w.wrap()));
    }
    for (WrapperStackTest.Wrapper w : WrapperStackTest.MIDDLE) {
      all.add(new Wrapper(w.name(), w.wrap()));
    }
    all.add(new Wrapper("loki-export", s -> "1754992803123\t" + s));
    all.add(new Wrapper("cri+compose", s -> "2025-08-12T10:00:03.123456789Z stdout F engine-1  | " + s));
    all.add(new Wrapper("journald+stern", s -> "Aug 12 10:00:03 gpu-1 kubetail[88]: engine-0 server " + s));
    return all;
  }

  @Test
  void everyLineFormatsSampleReadsAlikeInEveryWrapper() throws Exception {
    List<String> failures = new ArrayList<>();
    int cases = 0;
    for (TextSample sample : SAMPLES) {
      assertTrue(Files.isRegularFile(sample.file()), sample.file().toString());
      List<String> lines = Files.readAllLines(sample.file());
      CollectingSink bare = parse(sample, lines);
      assertTrue(bare.records > 0, sample.name());
      for (Wrapper w : wrappers()) {
        if (!sample.knownLines() && startsOnlyBeforeALogLine(w)) {
          continue;
        }
        cases++;
        CollectingSink got = parse(sample, lines.stream().map(w.wrap()).toList());
        String where = sample.name() + " in " + w.name() + ": ";
        if (!reasons(got).equals(reasons(bare))) {
          failures.add(where + "rejected " + reasons(got) + ", bare " + reasons(bare));
          continue;
        }
        String sniffed = sniff(w.wrap(), lines);
        if (!sniffed.equals(sniff(s -> s, lines))) {
          failures.add(where + "sniffed as " + sniffed);
        }
        if (got.records != bare.records || got.other != bare.other) {
          failures.add(where + got.records + " records + " + got.other + " other, bare " + bare.records
              + " + " + bare.other);
          continue;
        }
        check(failures, where + "steps", figures(bare.steps, sample.ownTimeWins()),
            figures(got.steps, sample.ownTimeWins()));
        check(failures, where + "stats", figures(bare.stats, false), figures(got.stats, false));
        check(failures, where + "requests", requests(bare), requests(got));
        check(failures, where + "events", bare.events, got.events);
        check(failures, where + "reported", bare.reported, got.reported);
      }
    }
    assertEquals(List.of(), failures);
    long stern = wrappers().stream().filter(WrappedFormatsTest::startsOnlyBeforeALogLine).count();
    assertEquals(SAMPLES.size() * wrappers().size() - stern * SAMPLES.stream().filter(x -> !x.knownLines()).count(),
        cases);
  }

  /**
   * Wrappers found only before a start a log line can have: stern's "pod container ", srun's
   * "0: ", argo's "pod: ", moreutils' ts, rsyslog's "host tag: " without a pid, and text no prefix
   * knows (a format's resync). A console summary's lines have no such start.
   */
  private static boolean startsOnlyBeforeALogLine(Wrapper w) {
    return w.name().contains("stern") || w.name().equals("srun") || w.name().equals("argo")
        || w.name().equals("rsyslog-file-nopid")
        || w.name().equals("sidecar") || w.name().equals("unknown-text") || w.name().startsWith("ts-");
  }

  private static void check(List<String> failures, String what, List<String> bare, List<String> got) {
    if (!bare.equals(got)) {
      failures.add(what + " differ: " + got + " against " + bare);
    }
  }

  /** The rows' figures: with their times where the line's own time must win, else without. */
  private static List<String> figures(List<String> rows, boolean withTimes) {
    return withTimes ? rows : rows.stream().map(r -> r.replaceAll("ts=-?\\d+ ", "")).toList();
  }

  private static List<String> requests(CollectingSink s) {
    return s.requests.stream()
        .map(r -> r.id() + " " + r.outputTokens() + " " + r.status() + " " + (r.arrivalNs() > 0))
        .collect(Collectors.toList());
  }

  private static List<String> reasons(CollectingSink s) {
    return s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList();
  }

  /** The format the registry picks for the wrapped lines. */
  private static String sniff(UnaryOperator<String> wrap, List<String> lines) {
    byte[] text = (String.join("\n", lines.stream().map(wrap).toList()) + "\n").getBytes(StandardCharsets.UTF_8);
    InputFormat f = FormatRegistry.standard().sniff(new Sample("w.log", text, Math.min(text.length, 64 << 10)));
    return f == null ? "nothing" : f.id();
  }

  private static CollectingSink parse(TextSample sample, List<String> lines) throws Exception {
    CollectingSink s = new CollectingSink();
    byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    sample.format().get().parse(new ByteArrayInputStream(text),
        new ParseContext("w.log", "r", false, null, null, Instant.parse("2026-12-31T00:00:00Z"), null), s);
    return s;
  }
}
