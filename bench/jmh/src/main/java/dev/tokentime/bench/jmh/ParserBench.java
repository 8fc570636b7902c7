package dev.tokentime.bench.jmh;

import dev.tokentime.generate.CanonicalWriter;
import dev.tokentime.generate.RunGenerator;
import dev.tokentime.generate.VllmLogWriter;
import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ClockSpec;
import dev.tokentime.ingest.EngineStatsRecord;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.LineReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.ingest.StepRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The parser hot loops on generated inputs held in memory, with a sink that only counts: line
 * splitting, the canonical JSONL parse (both forms) and the vLLM log spec engine. Throughput is
 * reported per operation = one pass over the input (see the input sizes printed at setup).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx1g", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class ParserBench {
  private byte[] requestsForm;
  private byte[] tokensForm;
  private byte[] vllmLog;
  private final FormatRegistry formats = FormatRegistry.standard();

  @Setup(Level.Trial)
  public void generate() throws IOException {
    requestsForm = generated(CanonicalWriter.Form.REQUESTS, false, 1_000);
    tokensForm = generated(CanonicalWriter.Form.TOKENS, false, 400);
    vllmLog = generated(CanonicalWriter.Form.REQUESTS, true, 200);
    System.out.printf("%ninputs: requests form %d bytes, tokens form %d bytes, vLLM log %d bytes%n",
        requestsForm.length, tokensForm.length, vllmLog.length);
  }

  /** {@code requests} requests of about 500 tokens at concurrency 16, as tokentime generate writes them. */
  private static byte[] generated(CanonicalWriter.Form form, boolean vllm, int requests) throws IOException {
    Path dir = Files.createTempDirectory("tt-jmh");
    Path file = dir.resolve(vllm ? "c16.log" : "c16.jsonl");
    try (RunGenerator.Sink w = vllm ? new VllmLogWriter(file, false) : new CanonicalWriter(file, form, false)) {
      new RunGenerator(42, 16, 1_767_225_600_000_000_000L, RunGenerator.TokenTiming.STEPS).run("c16", 16, 0, requests, 500, 0, 0, w);
    }
    byte[] bytes = Files.readAllBytes(file);
    Files.delete(file);
    Files.delete(dir);
    return bytes;
  }

  @Benchmark
  public long lineSplitting() throws IOException {
    long[] n = {0};
    new LineReader(new ByteArrayInputStream(requestsForm)).forEach(new LineReader.Handler() {
      @Override
      public void line(long lineNo, byte[] buf, int off, int len) {
        n[0] += len;
      }

      @Override
      public void tooLong(long lineNo, long length, byte[] head, int headLen) {}
    });
    return n[0];
  }

  @Benchmark
  public void canonicalJsonlRequestsForm(Blackhole bh) throws IOException {
    parse("tokentime-jsonl", requestsForm, bh);
  }

  @Benchmark
  public void canonicalJsonlTokensForm(Blackhole bh) throws IOException {
    parse("tokentime-jsonl", tokensForm, bh);
  }

  @Benchmark
  public void vllmLogSpec(Blackhole bh) throws IOException {
    parse("vllm-log", vllmLog, bh);
  }

  private void parse(String format, byte[] input, Blackhole bh) throws IOException {
    InputFormat f = formats.byId(format);
    CountingSink sink = new CountingSink(bh);
    long lines = f.parse(new ByteArrayInputStream(input), new ParseContext("bench", "c16", false, null, null), sink);
    bh.consume(lines);
    bh.consume(sink.tokens);
  }

  /** Counts what the parser hands over; hands out request keys like the real sink. */
  static final class CountingSink implements RecordSink {
    private final Blackhole bh;
    private final Map<String, Long> keys = new java.util.HashMap<>();
    long tokens;
    long nextKey;

    CountingSink(Blackhole bh) {
      this.bh = bh;
    }

    @Override
    public int clock(ClockSpec spec) {
      return 1;
    }

    @Override
    public String runLevel(String run, String levelKind, Double level, Integer repeat, String how) {
      return null;
    }

    @Override
    public long request(RequestRecord r, byte[] line, int off, int len) {
      bh.consume(r);
      return ++nextKey;
    }

    @Override
    public long requestKeyFor(String run, String requestId, int clockId, long lineNo) {
      return keys.computeIfAbsent(requestId, k -> ++nextKey);
    }

    @Override
    public void token(long requestKey, int seq, long tsNs, int nTokens, ChunkKind kind) {
      tokens++;
      bh.consume(tsNs);
    }

    @Override
    public void step(StepRecord s) {}

    @Override
    public void engineStats(EngineStatsRecord s) {}

    @Override
    public void engineEvent(long lineNo, String instance, long tsNs, int clockId, String kind, String detail) {}

    @Override
    public void histogramBucket(String metric, Map<String, String> labels, long t0Ns, long t1Ns, int clockId,
        double le, double count) {}

    @Override
    public void reportedMetric(String run, Double level, String metric, String stat, double value, String unit) {}

    @Override
    public void clockAnchor(int clockA, long nsA, int clockB, long nsB, String method) {}

    @Override
    public void record() {}

    @Override
    public void otherLine() {}

    @Override
    public void reject(long lineNo, String reason, byte[] line, int off, int len) {
      throw new IllegalStateException("line " + lineNo + " rejected: " + reason);
    }
  }
}
