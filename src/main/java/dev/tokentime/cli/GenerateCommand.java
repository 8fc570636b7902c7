package dev.tokentime.cli;

import dev.tokentime.generate.CanonicalWriter;
import dev.tokentime.generate.RunGenerator;
import dev.tokentime.generate.VllmLogWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "generate",
    description = {"Write a synthetic load test in the canonical formats (for trying tokentime, tests and benchmarks).",
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

  @Option(names = "--levels", split = ",", defaultValue = "1,2,4", paramLabel = "C,C,...",
      description = "Concurrency levels, one run each (default: ${DEFAULT-VALUE}).")
  List<Integer> levels;

  @Option(names = "--requests", defaultValue = "20", paramLabel = "N",
      description = "Measured requests per level (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--tokens", paramLabel = "N",
      description = "Total output tokens to aim for over all levels; overrides --requests.")
  Long tokens;

  @Option(names = "--warmup", defaultValue = "0", paramLabel = "N", description = "Warm-up requests per level.")
  int warmup;

  @Option(names = "--mean-output", defaultValue = "200", paramLabel = "N", description = "Mean output tokens per request.")
  int meanOutput;

  @Option(names = "--error-every", defaultValue = "0", paramLabel = "N",
      description = "Every N-th measured request fails (0 = none).")
  int errorEvery;

  @Option(names = "--slots", defaultValue = "8", paramLabel = "N", description = "Server batch slots.")
  int slots;

  @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Random seed.")
  long seed;

  @Option(names = "--form", defaultValue = "requests", paramLabel = "FORM",
      description = "requests (JSONL with tokens_ns arrays), tokens (JSONL, one line per token), csv, "
          + "or vllm-log (a vLLM server log with per-token streaming-delta lines, ~170 bytes a token).")
  String form;

  @Option(names = "--token-timing", defaultValue = "steps", paramLabel = "MODEL",
      description = "steps (engine iterations: tokens of the batch in lock-step, prefills stall the "
          + "batch; default) or independent (each request's gaps drawn on their own with random "
          + "stalls, not aligned across requests: the model the bundled samples were written with).")
  String tokenTiming;

  @Option(names = "--gzip", description = "Write .gz files.")
  boolean gzip;

  @Override
  protected int run() throws Exception {
    boolean vllmLog = form.equals("vllm-log");
    CanonicalWriter.Form f = switch (form) {
      case "requests", "vllm-log" -> CanonicalWriter.Form.REQUESTS;
      case "tokens" -> CanonicalWriter.Form.TOKENS;
      case "csv" -> CanonicalWriter.Form.CSV;
      default -> throw new dev.tokentime.BadInputException("--form must be requests, tokens, csv or vllm-log");
    };
    RunGenerator.TokenTiming timing = switch (tokenTiming) {
      case "steps" -> RunGenerator.TokenTiming.STEPS;
      case "independent" -> RunGenerator.TokenTiming.INDEPENDENT;
      default -> throw new dev.tokentime.BadInputException("--token-timing must be steps or independent");
    };
    Files.createDirectories(out);
    int perLevel = requests;
    if (tokens != null) {
      perLevel = (int) Math.max(1, tokens / levels.size() / Math.max(1, meanOutput));
    }
    RunGenerator gen = new RunGenerator(seed, slots, 1_767_225_600_000_000_000L, timing); // 2026-01-01T00:00Z
    long total = 0;
    long offset = 0;
    for (int c : levels) {
      String run = "c" + c;
      String ext = (vllmLog ? ".log" : f == CanonicalWriter.Form.CSV ? ".csv" : ".jsonl") + (gzip ? ".gz" : "");
      Path file = f == CanonicalWriter.Form.CSV ? out.resolve(run + "-requests" + ext) : out.resolve(run + ext);
      long[] last = {0};
      try (RunGenerator.Sink w = vllmLog ? new VllmLogWriter(file, gzip) : new CanonicalWriter(file, f, gzip)) {
        total += gen.run(run, c, warmup, perLevel, meanOutput, errorEvery, offset, r -> {
          w.accept(r);
          last[0] = Math.max(last[0], r.finishedNs);
        });
      }
      offset = last[0] - 1_767_225_600_000_000_000L + 5_000_000_000L; // levels 5 s apart
    }
    out().println("wrote " + levels.size() + " runs, " + (perLevel + warmup) * levels.size()
        + " requests, " + total + " tokens to " + out);
    return ExitCode.OK;
  }
}
