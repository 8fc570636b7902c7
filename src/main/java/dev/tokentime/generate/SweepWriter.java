package dev.tokentime.generate;

import dev.tokentime.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a synthetic sweep: one run per concurrency level, in one of the forms tokentime reads. */
public final class SweepWriter {
  /** 2026-01-01T00:00Z, where every generated sweep starts. */
  static final long START_NS = 1_767_225_600_000_000_000L;

  /** What was written. */
  /** {@code others}: files the folder held before that this sweep did not rewrite (an earlier sweep's). */
  public record Written(int runs, long requests, long tokens, java.util.List<String> others) {}

  /** The sweep's shape; {@code tokens} (when not null) overrides {@code requests}. */
  public record Spec(List<Integer> levels, int requests, Long tokens, int warmup, int meanOutput,
      int errorEvery, int slots, long seed, String form, String tokenTiming, boolean gzip) {}

  private SweepWriter() {}

  public static Written write(Path out, Spec s) throws IOException {
    java.util.Map<Path, java.nio.file.attribute.FileTime> before = filesIn(out);
    Written w = writeSweep(out, s);
    java.util.Map<Path, java.nio.file.attribute.FileTime> after = filesIn(out);
    java.util.List<String> others = before.entrySet().stream()
        .filter(e -> e.getValue().equals(after.get(e.getKey())))
        .map(e -> out.relativize(e.getKey()).toString()).sorted().toList();
    return new Written(w.runs(), w.requests(), w.tokens(), others);
  }

  private static java.util.Map<Path, java.nio.file.attribute.FileTime> filesIn(Path dir) throws IOException {
    java.util.Map<Path, java.nio.file.attribute.FileTime> m = new java.util.HashMap<>();
    if (!java.nio.file.Files.isDirectory(dir)) {
      return m;
    }
    try (var files = java.nio.file.Files.walk(dir)) {
      for (Path p : files.filter(java.nio.file.Files::isRegularFile).toList()) {
        m.put(p, java.nio.file.Files.getLastModifiedTime(p));
      }
    }
    return m;
  }

  private static Written writeSweep(Path out, Spec s) throws IOException {
    boolean vllmLog = s.form().equals("vllm-log");
    CanonicalWriter.Form f = switch (s.form()) {
      case "requests", "vllm-log" -> CanonicalWriter.Form.REQUESTS;
      case "tokens" -> CanonicalWriter.Form.TOKENS;
      case "csv" -> CanonicalWriter.Form.CSV;
      default -> throw new BadInputException("--form must be requests, tokens, csv or vllm-log");
    };
    RunGenerator.TokenTiming timing = switch (s.tokenTiming()) {
      case "steps" -> RunGenerator.TokenTiming.STEPS;
      case "independent" -> RunGenerator.TokenTiming.INDEPENDENT;
      default -> throw new BadInputException("--token-timing must be steps or independent");
    };
    // usage errors (exit 2), not an exception from the file system or a generator that never ends
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new BadInputException("--out " + out + " is a file; name a directory to write the runs into");
    }
    if (s.slots() < 1) {
      throw new BadInputException("--slots must be at least 1 (the server's batch slots), got " + s.slots());
    }
    if (s.requests() < 1 || s.meanOutput() < 1 || s.warmup() < 0 || s.errorEvery() < 0
        || (s.tokens() != null && s.tokens() < 1)) {
      throw new BadInputException("--requests, --mean-output and --tokens must be at least 1, --warmup and "
          + "--error-every at least 0");
    }
    for (int c : s.levels()) {
      if (c < 1) {
        throw new BadInputException("--levels are concurrencies of at least 1, got " + c);
      }
    }
    Files.createDirectories(out);
    int perLevel = s.requests();
    if (s.tokens() != null) {
      perLevel = (int) Math.max(1, s.tokens() / s.levels().size() / Math.max(1, s.meanOutput()));
    }
    RunGenerator gen = new RunGenerator(s.seed(), s.slots(), START_NS, timing);
    long total = 0;
    long offset = 0;
    for (int c : s.levels()) {
      String run = "c" + c;
      String ext = (vllmLog ? ".log" : f == CanonicalWriter.Form.CSV ? ".csv" : ".jsonl") + (s.gzip() ? ".gz" : "");
      // a vLLM log names no run: each level's log goes in a directory of its own, which names
      // the run (and its level: c16) when it is ingested
      Path file = vllmLog ? Files.createDirectories(out.resolve(run)).resolve(run + ext)
          : f == CanonicalWriter.Form.CSV ? out.resolve(run + "-requests" + ext) : out.resolve(run + ext);
      long[] last = {0};
      try (RunGenerator.Sink w = vllmLog ? new VllmLogWriter(file, s.gzip()) : new CanonicalWriter(file, f, s.gzip())) {
        total += gen.run(run, c, s.warmup(), perLevel, s.meanOutput(), s.errorEvery(), offset, r -> {
          w.accept(r);
          last[0] = Math.max(last[0], r.finishedNs);
        });
      }
      offset = last[0] - START_NS + 5_000_000_000L; // levels 5 s apart
    }
    return new Written(s.levels().size(), (long) (perLevel + s.warmup()) * s.levels().size(), total, java.util.List.of());
  }
}
