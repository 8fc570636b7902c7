package dev.tokentime.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.BadInputException;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.TestDb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * Every bundled sample, mutated at random (cut, a byte flipped, a line duplicated or moved, NUL,
 * invalid UTF-8, a BOM, CRLF, numbers at the type limits, deep nesting, a huge line), read with
 * its own format: the ingest never fails with an exception of ours, refuses no file, accounts for
 * every line (records + other + rejected = lines), and the database answers the public views.
 * A short run in the normal build; {@code mvn -Pslow verify} runs a long one.
 */
class FuzzTest {
  enum Kind { TRUNCATE, FLIP, DUPLICATE, MOVE, NUL, INVALID_UTF8, BOM, CRLF, INT_LIMIT, HUGE_NUMBER, DEEP, HUGE_LINE }

  record Mutation(Path sample, Kind kind, int at, int other) {}

  static List<Path> samples() {
    try (Stream<Path> s = Files.walk(Path.of("sample-logs"))) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.toString().contains("/expected/") && !p.getFileName().toString().equals("README.md"))
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Provide
  Arbitrary<Mutation> mutations() {
    return Combinators.combine(Arbitraries.of(samples()), Arbitraries.of(Kind.class),
        Arbitraries.integers().between(0, Integer.MAX_VALUE), Arbitraries.integers().between(0, Integer.MAX_VALUE))
        .as(Mutation::new);
  }

  static byte[] mutate(byte[] b, Mutation m) {
    String s = new String(b, StandardCharsets.ISO_8859_1); // byte for byte
    int at = b.length == 0 ? 0 : m.at() % b.length;
    List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
    int li = m.at() % lines.size();
    int lj = m.other() % lines.size();
    switch (m.kind()) {
      case TRUNCATE -> s = s.substring(0, at);
      case FLIP -> {
        char[] c = s.toCharArray();
        if (c.length > 0) {
          c[at] = (char) ((c[at] ^ (1 << (m.other() % 8))) & 0xff);
        }
        s = new String(c);
      }
      case DUPLICATE -> {
        lines.add(li, lines.get(li));
        s = String.join("\n", lines);
      }
      case MOVE -> {
        String l = lines.remove(li);
        lines.add(Math.min(lj, lines.size()), l);
        s = String.join("\n", lines);
      }
      case NUL -> s = s.substring(0, at) + "\0" + s.substring(at);
      case INVALID_UTF8 -> s = s.substring(0, at) + "\u00c3\u0028\u00ff" + s.substring(at);
      case BOM -> s = "\u00ef\u00bb\u00bf" + s;
      case CRLF -> s = s.replace("\n", "\r\n");
      case INT_LIMIT, HUGE_NUMBER -> {
        String[] limits = m.kind() == Kind.INT_LIMIT
            ? new String[] {"9223372036854775807", "-9223372036854775808", "2147483648", "-1", "1e308", "1e19"}
            : new String[] {"9".repeat(1_200), "1e999999", "-0.0000000000000000000000001"};
        String with = limits[m.other() % limits.length];
        s = s.replaceFirst("(?<=[:\\[, =])-?\\d+(\\.\\d+)?(?=[,}\\] \\n])",
            java.util.regex.Matcher.quoteReplacement(with));
      }
      case DEEP -> lines.add(li, "{\"a\":" + "[".repeat(2_000) + "]".repeat(2_000) + "}");
      case HUGE_LINE -> lines.add(li, "{\"request_id\":\"" + "x".repeat(3_000_000) + "\"}");
    }
    if (m.kind() == Kind.DEEP || m.kind() == Kind.HUGE_LINE) {
      s = String.join("\n", lines);
    }
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static void check(Mutation m) throws Exception {
    check(List.of(m));
  }

  /**
   * Ingests each mutation as a file of its own (its sample's format, one command each) into one
   * new database, then reads the public views: a batch shares the database's set-up and the views'
   * reads, and a file's failure must not spoil the files ingested around it.
   */
  static void check(List<Mutation> batch) throws Exception {
    FormatRegistry formats = FormatRegistry.standard();
    Path dir = Files.createTempDirectory("tt-fuzz-");
    try (TestDb t = new TestDb(dir.resolve("db"))) {
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        byte[] original = Files.readAllBytes(m.sample());
        InputFormat format = formats.sniff(new Sample(m.sample().getFileName().toString(), original,
            Math.min(original.length, 64 * 1024)));
        if (format == null) {
          continue; // not an input (a generator script)
        }
        Path file = Files.createDirectories(dir.resolve("in" + i)).resolve(m.sample().getFileName());
        Files.write(file, mutate(original, m));
        IngestResult r;
        try {
          r = new IngestService(formats).ingest(t.db, new IngestOptions(List.of(file.toString()),
              format.id(), null, false, false, false, null, null), new IngestService.Listener() {});
        } catch (BadInputException e) {
          continue; // a clear refusal of the command (exit 2), e.g. a file that is not one
        }
        for (IngestResult.FileResult f : r.files()) {
          assertEquals(0, r.refusedFiles(), m + ": " + f.outcome());
          if (f.outcome().equals("unchanged")) {
            continue; // the same bytes as an earlier file of the batch: stored once
          }
          assertEquals(f.lines(), f.records() + f.otherLines() + f.rejected(), m + ": " + f);
        }
      }
      for (String view : List.of("request_latency", "level_summary", "checks", "itl_distribution", "rejects")) {
        t.count("SELECT count(*) FROM (SELECT * FROM " + view + ")");
      }
    } finally {
      try (Stream<Path> w = Files.walk(dir)) {
        w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Property(tries = 8, seed = "25")
  void aMutatedSampleIsReadWithEveryLineAccounted(@ForAll("mutations") Mutation m) throws Exception {
    check(m);
  }

  @Provide
  Arbitrary<List<Mutation>> batches() {
    return mutations().list().ofSize(10);
  }

  /** 1,000 batches of ten: 10,000 mutations (issue 25's bar), a database per batch. */
  @Property(tries = 1_000)
  @Tag("slow")
  void manyMutatedSamplesAreReadWithEveryLineAccounted(@ForAll("batches") List<Mutation> batch) throws Exception {
    check(batch);
  }
}
