package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import dev.tokentime.store.Deriver;
import dev.tokentime.store.RequestLinker;
import dev.tokentime.store.IngestStore;
import dev.tokentime.store.SourceInfo;
import dev.tokentime.store.SourceWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads files into a database: resolves inputs, picks each file's format, parses it in its own
 * transaction, then derives the touched runs and refreshes the views.
 */
public final class IngestService {

  /** Hears about progress; the CLI prints, tests listen. */
  public interface Listener {
    default void fileDone(IngestResult.FileResult r) {}

    default void note(String message) {}

    /** How far the current file has got (twice a second while it is read). */
    default void progress(Progress p) {}
  }

  /** A progress report: bytes of the file read so far, lines handled, seconds since its start. */
  public record Progress(String path, long bytesRead, long bytesTotal, long lines, double seconds) {

    /** Seconds left at the rate so far, or -1 when unknown. */
    public double etaSeconds() {
      if (bytesRead <= 0 || bytesTotal <= 0 || seconds <= 0) {
        return -1;
      }
      return seconds * (bytesTotal - bytesRead) / bytesRead;
    }

    public double linesPerSecond() {
      return seconds > 0 ? lines / seconds : 0;
    }
  }

  private final FormatRegistry formats;

  public IngestService(FormatRegistry formats) {
    this.formats = formats;
  }

  public IngestResult ingest(Database db, IngestOptions o, Listener listener) throws SQLException {
    InputFormat forced = null;
    if (o.from() != null) {
      forced = formats.byId(o.from());
      if (forced == null) {
        throw new BadInputException("unknown format " + o.from() + " (tokentime formats lists them)");
      }
    }
    List<InputResolver.Input> inputs = InputResolver.resolve(o.inputs());
    if (inputs.isEmpty()) {
      throw new BadInputException("no input files");
    }
    QueryLibrary.get().installIfChanged(db);
    List<IngestResult.FileResult> done = new ArrayList<>();
    List<IngestResult.Skipped> skipped = new ArrayList<>();
    boolean strictFailure = false;
    List<String> runs;
    try (IngestStore store = new IngestStore(db, formats.namespaceFormats())) {
      for (InputResolver.Input in : inputs) {
        Path spooled = null;
        try {
          Path path = in.path();
          if (in.stdin()) {
            spooled = spoolStdin();
            path = spooled;
          }
          IngestResult.FileResult r = ingestFile(store, in, path, forced, o, listener, skipped);
          if (r == null) {
            continue;
          }
          done.add(r);
          listener.fileDone(r);
          if (o.strict() && r.rejected() > 0) {
            strictFailure = true;
            break;
          }
        } catch (IOException e) {
          throw new BadInputException("cannot read " + in.display() + ": " + e.getMessage(), e);
        } finally {
          if (spooled != null) {
            try {
              Files.deleteIfExists(spooled);
            } catch (IOException e) {
              // a temp file left behind is harmless
            }
          }
        }
      }
      runs = List.copyOf(store.touchedRuns());
    }
    db.connection().setAutoCommit(true);
    long t0 = System.nanoTime();
    Deriver.derive(db);
    RequestLinker.link(db);
    long t1 = System.nanoTime();
    List<IngestResult.FailedCheck> failed = failedChecks(db);
    long t2 = System.nanoTime();
    if (System.getenv("TOKENTIME_TIMING") != null) {
      System.err.printf("timing: derive %.2f s, checks %.2f s%n", (t1 - t0) / 1e9, (t2 - t1) / 1e9);
    }
    return new IngestResult(done, skipped, runs, strictFailure, failed);
  }

  /** The invariant checks (the checks view) that find violations, as "name: n rows". */
  static List<IngestResult.FailedCheck> failedChecks(Database db) throws SQLException {
    List<IngestResult.FailedCheck> out = new ArrayList<>();
    try (var st = db.connection().createStatement();
        var rs = st.executeQuery("SELECT check_name, violations, invariant FROM checks WHERE violations > 0")) {
      while (rs.next()) {
        out.add(new IngestResult.FailedCheck(rs.getString(1), rs.getLong(2), rs.getString(3)));
      }
    }
    return out;
  }

  private IngestResult.FileResult ingestFile(IngestStore store, InputResolver.Input in, Path path,
      InputFormat forced, IngestOptions o, Listener listener, List<IngestResult.Skipped> skipped)
      throws IOException, SQLException {
    String display = in.display();
    String storedPath = in.stdin() ? "-" : path.toAbsolutePath().normalize().toString();
    long size = Files.size(path);
    InputFormat format;
    String compression;
    try (OpenedInput probe = OpenedInput.open(path)) {
      compression = probe.compression();
      format = forced != null ? forced : formats.sniff(probe.sample());
    }
    if (format == null) {
      if (in.explicit()) {
        throw new BadInputException("cannot tell the format of " + display
            + "; name it with --from (tokentime formats lists them)");
      }
      skipped.add(new IngestResult.Skipped(display, "format not recognised"));
      return null;
    }
    // Hash first only when it can matter: --replace, or a stored file of the same size.
    List<Integer> replace = List.of();
    if (o.replace() || store.anySourceOfSize(size)) {
      String sha = OpenedInput.sha256Of(path);
      Integer existing = store.sourceWithSha(sha);
      if (o.replace()) {
        replace = store.sourcesMatching(sha, storedPath);
      } else if (existing != null) {
        return new IngestResult.FileResult(display, format.id(), compression, existing,
            "already ingested as source " + existing + " (same sha256); --replace ingests it again",
            0, 0, 0, 0, 0, 0, List.of(), null);
      }
    }
    String defaultRun = o.run() != null ? o.run() : defaultRun(in, path);
    SourceInfo info = new SourceInfo(storedPath, format.id(), compression, defaultRun,
        format.idNamespace(), o.keepText());
    ParseContext ctx = new ParseContext(display, defaultRun, o.keepText(), o.zone(), o.year(),
        in.stdin() ? null : Files.getLastModifiedTime(path).toInstant(), o.at());
    try (OpenedInput input = OpenedInput.open(path);
        SourceWriter writer = store.begin(info, replace)) {
      long lines;
      long t0 = System.nanoTime();
      try (ProgressTicker ticker = new ProgressTicker(display, size, input::rawBytesRead,
          () -> writer.records() + writer.otherLines() + writer.rejected(), listener)) {
        lines = writer.load(() -> format.parse(input.content(), ctx, writer));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      long t1 = System.nanoTime();
      String sha = input.sha256();
      if (o.strict() && writer.rejected() > 0) {
        writer.rollback();
        return result(display, format, compression, null, "rolled back (--strict)", lines, writer,
            input.damage());
      }
      writer.commit(sha, size, lines);
      if (System.getenv("TOKENTIME_TIMING") != null) {
        System.err.printf("timing: %s load %.2f s, commit %.2f s%n", display, (t1 - t0) / 1e9,
            (System.nanoTime() - t1) / 1e9);
      }
      return result(display, format, compression, writer.sourceId(), "ingested", lines, writer,
          input.damage());
    }
  }

  private static IngestResult.FileResult result(String display, InputFormat f, String compression,
      Integer sourceId, String outcome, long lines, SourceWriter w, String damage) {
    return new IngestResult.FileResult(display, f.id(), compression, sourceId, outcome, lines,
        w.records(), w.otherLines(), w.rejected(), w.requestRows(), w.tokenRows(),
        List.copyOf(w.firstRejects()), damage);
  }

  /** The parent directory's name; "stdin" for standard input. */
  static String defaultRun(InputResolver.Input in, Path path) {
    if (in.stdin()) {
      return "stdin";
    }
    Path parent = path.toAbsolutePath().normalize().getParent();
    return parent == null || parent.getFileName() == null ? "default" : parent.getFileName().toString();
  }

  /** Standard input is copied to a temporary file, so it can be sniffed, hashed and re-read. */
  private static Path spoolStdin() throws IOException {
    Path tmp = Files.createTempFile("tokentime-stdin-", ".in");
    try (InputStream in = System.in) {
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
    }
    return tmp;
  }
}
