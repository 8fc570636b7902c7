package dev.tokentime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A folder of real excerpts read as {@code ingest} reads them (sniffed, then parsed), each file's
 * account pinned: "format lines records other rejected", or "unrecognised" where no format is
 * sure enough.
 */
public final class PinnedExcerpts {
  /** What a file was read as, and what its parse stored (null when unrecognised). */
  public record Read(String account, RecordingSink sink) {}

  private final Path dir;
  private final String run;
  private final Instant modified;

  /** @param modified the files' modification time (the year of logs that omit it) */
  public PinnedExcerpts(Path dir, String run, Instant modified) {
    this.dir = dir;
    this.run = run;
    this.modified = modified;
  }

  /** The context a file of the folder is read in. */
  /** The folder the excerpts are in. */
  public Path dir() {
    return dir;
  }

  public ParseContext context(String file) {
    return new ParseContext(file, run, false, null, null, modified, null);
  }

  public Read read(String file) throws IOException {
    byte[] b = Files.readAllBytes(dir.resolve(file));
    InputFormat f = FormatRegistry.standard().sniff(new Sample(file, b, b.length));
    if (f == null) {
      return new Read("unrecognised", null);
    }
    RecordingSink s = new RecordingSink();
    InputFormat embedded; // a tool's block among the log's lines, as the ingest finds it
    try (dev.tokentime.app.OpenedInput o = dev.tokentime.app.OpenedInput.open(dir.resolve(file))) {
      embedded = o.embeddedIn(f, FormatRegistry.standard());
    }
    long lines = f.parse(new ByteArrayInputStream(b), context(file).withEmbedded(embedded), s);
    return new Read(f.id() + " " + lines + " " + s.c.records + " " + s.c.other + " " + s.c.rejects.size(), s);
  }

  /** What {@code ingest --explain} says of one excerpt read as {@code format}. */
  public dev.tokentime.formats.spec.ExplainStats explain(dev.tokentime.formats.spec.SpecFormat format, String file)
      throws IOException {
    return format.explain(new ByteArrayInputStream(Files.readAllBytes(dir.resolve(file))), context(file),
        new RecordingSink());
  }

  /** Every .log file of the folder has its account in {@code accounts}, and is read as it says. */
  public void assertAccounts(Map<String, String> accounts) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(new TreeSet<>(accounts.keySet()), new TreeSet<>(files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".log")).toList()), "every excerpt has its account here");
    }
    for (var e : accounts.entrySet()) {
      assertEquals(e.getValue(), read(e.getKey()).account(), e.getKey());
    }
  }
}
