package dev.tokentime.formats.peers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.NamedFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The result JSON of {@code vllm bench serve} / {@code benchmarks/benchmark_serving.py}
 * ({@code --save-result}, with {@code --save-detailed} per-request arrays). An
 * {@code --append-result} file holds several result objects one after another: each is a run.
 * Streamed: the objects and their arrays are read token by token (only the numbers of the arrays
 * are kept, never the generated texts). {@code vllm bench sweep}'s {@code summary.json} is a JSON
 * array of its runs' results (each with its {@code run_number}): each element is a run.
 */
public final class VllmBenchFormat extends NamedFormat {

  public VllmBenchFormat() {
    super("vllm-bench-json",
        "runs, requests, tokens, reported_metrics",
        "vllm bench serve / benchmark_serving.py result JSON (--save-result, --save-detailed, --append-result)");
  }

  @Override
  public boolean runPerFile() {
    return true;
  }

  @Override
  public int sniff(Sample sample) {
    String text = sample.text().stripLeading();
    if (text.startsWith("[")) {
      // vllm bench sweep's summary.json: an array of result objects
      text = text.substring(1).stripLeading();
    }
    // a result without throughputs (vllm-ascend's nightly serving JSON: the run's settings and
    // its latency percentiles alone) is one by its benchmark_serving.py keys
    boolean figures = text.contains("\"request_throughput\"") || text.contains("\"mean_ttft_ms\"")
        && (text.contains("\"num_prompts\"") || text.contains("\"tokenizer_id\"") || text.contains("\"best_of\""))
        // vllm-bench (Rust) writes its keys sorted: with --save-detailed the arrays (errors,
        // generated_texts, …) come before every figure; its head is the run's settings and counts
        || text.startsWith("{\"backend\":") && text.contains("\"burstiness\":") && text.contains("\"endpoint_type\":")
        && text.contains("\"completed\":");
    if (!text.startsWith("{") || !figures) {
      return 0;
    }
    // vLLM names its end-to-end figures e2el; SGLang's bench_serving e2e_latency
    // a 2024 result's figures come after megabytes of per-request lists (beyond the sample): its
    // head's tokenizer_id / best_of are benchmark_serving.py's (SGLang's lines have neither)
    boolean sglang = text.contains("_e2e_latency_ms\"") || text.contains("_retokenized\"");
    boolean vllm = text.contains("_e2el_ms\"") || text.contains("\"request_goodput:\"") || text.contains("\"endpoint_type\":")
        || (text.contains("\"mean_ttft_ms\"") || text.contains("\"tokenizer_id\"") || text.contains("\"best_of\""))
        && !sglang;
    return vllm ? 90 : 0;
  }

  // vllm bench sweep's layout: SERVE-…-BENCH-…/run=0.json, run=1.json, summary.json (the same
  // results again, as one array), warmup.json (--warmup-num-prompts: run_number -1)
  private static final java.util.regex.Pattern SWEEP_RUN =
      java.util.regex.Pattern.compile("run=\\d+\\.json(?:\\.gz|\\.zst)?");

  @Override
  public String leaveOut(String fileName, java.util.Set<String> folder) {
    List<String> runs = folder.stream().filter(n -> SWEEP_RUN.matcher(n).matches())
        .sorted(java.util.Comparator.comparing(String::length).thenComparing(String::compareTo)).toList();
    if (runs.isEmpty()) {
      return null;
    }
    String name = fileName.replaceFirst("(?i)\\.(?:gz|zst)$", "");
    String shown = runs.size() <= 3 ? String.join(", ", runs) : runs.get(0) + " … " + runs.get(runs.size() - 1);
    if (name.equals("summary.json")) {
      return "vllm bench sweep's summary: the results of " + shown + " beside it, which are read";
    }
    if (name.equals("warmup.json")) {
      return "vllm bench sweep's warm-up run, no measurement (" + shown + " beside it are read)";
    }
    return null;
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    RunNames runs = new RunNames(ctx.defaultRun());
    BenchResult result = new BenchResult(BenchResult.Tool.VLLM, ctx, sink);
    long units = 0;
    try (JsonParser p = PeerJson.JSON.createParser(in)) {
      long line = 1;
      try {
        JsonToken t;
        boolean array = false;
        while ((t = p.nextToken()) != null) {
          line = PeerJson.line(p);
          if (t == JsonToken.START_ARRAY && !array && p.getParsingContext().getParent().inRoot()) {
            array = true; // a sweep's summary.json: its elements are the runs
            continue;
          }
          if (t == JsonToken.END_ARRAY && array && p.getParsingContext().inRoot()) {
            array = false;
            continue;
          }
          if (t != JsonToken.START_OBJECT) {
            units++;
            sink.reject(line, "expected a vLLM result object, got " + PeerJson.describe(p), null, 0, 0);
            p.skipChildren();
            continue;
          }
          units += result.read(p, runs.next(), line);
        }
      } catch (IOException e) {
        // a syntax error ends the stream: the object it broke off in is rejected whole
        units++;
        sink.reject(Math.max(line, PeerJson.line(p)), PeerJson.reason(e)
            + " (result object starting at line " + line + "); nothing after this point could be read",
            null, 0, 0);
      }
    }
    return units;
  }
}
