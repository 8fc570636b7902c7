package dev.tokentime.cli;

import dev.tokentime.generate.SweepWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "generate",
    description = {"Write a synthetic load test in the canonical formats or as a vLLM server log (for trying tokentime, tests and benchmarks).",
        "Closed-loop clients at each concurrency level against a server with --slots batch slots: "
            + "requests queue once the level exceeds the slots, prefill grows with the prompt, token "
            + "gaps grow with the batch. By default the server runs engine iterations: the requests "
            + "in the batch get their tokens together at the end of each, and a prefill stalls the "
            + "others. Deterministic per --seed."},
    footer = {"", "Examples:",
        "  tokentime generate --out /tmp/sweep --levels 1,2,4,8,16 --requests 200",
        "  tokentime generate --out /tmp/big --levels 16 --tokens 10000000",
        "  tokentime generate --out /tmp/csv --form csv --levels 4",
        "  tokentime generate --out /tmp/log --form vllm-log --levels 16 --tokens 1000000"})
final class GenerateCommand extends BaseCommand {
  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write into (created).")
  Path out;

  @Option(names = "--levels", split = ",", splitSynopsisLabel = ",", defaultValue = "1,2,4", paramLabel = "C",
      description = "Concurrency levels, one run each (default: ${DEFAULT-VALUE}).")
  List<Integer> levels;

  @Option(names = "--requests", defaultValue = "20", paramLabel = "N",
      description = "Measured requests per level (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--tokens", paramLabel = "N",
      description = "Total output tokens to aim for over all levels; overrides --requests.")
  Long tokens;

  @Option(names = "--warmup", defaultValue = "0", paramLabel = "N", description = "Warm-up requests per level (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--mean-output", defaultValue = "200", paramLabel = "N", description = "Mean output tokens per request (default: ${DEFAULT-VALUE}).")
  int meanOutput;

  @Option(names = "--error-every", defaultValue = "0", paramLabel = "N",
      description = "Every N-th measured request fails (0 = none; default: ${DEFAULT-VALUE}).")
  int errorEvery;

  @Option(names = "--slots", defaultValue = "8", paramLabel = "N", description = "Server batch slots (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--form", defaultValue = "requests", paramLabel = "FORM",
      description = "requests (JSONL with tokens_ns arrays), tokens (JSONL, one line per token), csv, "
          + "or vllm-log (a vLLM server log with per-token streaming-delta lines, ~170 bytes a token; "
          + "a directory per level, c16/c16.log, since the log names no run); "
          + "default: ${DEFAULT-VALUE}.")
  String form;

  @Option(names = "--token-timing", defaultValue = "steps", paramLabel = "MODEL",
      description = "steps (engine iterations: tokens of the batch in lock-step, prefills stall the "
          + "batch) or independent (each request's gaps drawn on their own with random "
          + "stalls, not aligned across requests: the model the bundled samples were written with); "
          + "default: ${DEFAULT-VALUE}.")
  String tokenTiming;

  @Option(names = "--gzip", description = "Write .gz files (default: plain files).")
  boolean gzip;

  @Override
  protected int run() throws Exception {
    SweepWriter.Written w = SweepWriter.write(out, new SweepWriter.Spec(levels, requests, tokens, warmup,
        meanOutput, errorEvery, slots, seed, form, tokenTiming, gzip));
    out().println("wrote " + w.runs() + (w.runs() == 1 ? " run, " : " runs, ") + w.requests() + " requests, "
        + w.tokens() + " tokens to " + out);
    // files of an earlier sweep left beside this one: an ingest of the folder would mix the two
    java.util.List<String> older = w.others();
    if (!older.isEmpty()) {
      err().println("note: " + out + " also holds " + older.size() + (older.size() == 1 ? " file" : " files")
          + " this run did not write (" + String.join(", ", older.subList(0, Math.min(5, older.size())))
          + (older.size() > 5 ? ", …" : "") + "): an ingest of " + out + (older.size() == 1 ? " reads it too" : " reads them too"));
    }
    return ExitCode.OK;
  }
}
