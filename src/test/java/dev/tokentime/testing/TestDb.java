package dev.tokentime.testing;

import dev.tokentime.app.IngestOptions;
import dev.tokentime.app.IngestResult;
import dev.tokentime.app.IngestService;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.output.TableData;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A real, file-backed tokentime database in a temporary directory, for tests. */
public final class TestDb implements AutoCloseable {
  public final Path dir;
  public final Database db;

  public TestDb(Path dir) throws SQLException {
    this.dir = dir;
    Path file = dir.resolve("test.duckdb");
    try {
      Files.createDirectories(dir);
      // a new database is a copy of one made once per test JVM: creating the schema and
      // installing the views for every test would dominate the golden tests' time
      Files.copy(template(), file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    this.db = Database.open(file, Database.Mode.WRITE);
    QueryLibrary.get().installIfChanged(db);
  }

  private static Path template;

  private static synchronized Path template() throws IOException, SQLException {
    if (template == null) {
      Path dir = Files.createTempDirectory("tokentime-template-");
      Path file = dir.resolve("template.duckdb");
      try (Database d = Database.open(file, Database.Mode.CREATE)) {
        QueryLibrary.get().install(d);
        d.execute("CHECKPOINT");
      }
      file.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      template = file;
    }
    return template;
  }

  /** Writes a file under the temp directory (parents created) and returns its path. */
  public Path write(String relative, String content) throws IOException {
    Path p = dir.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  public Path writeBytes(String relative, byte[] content) throws IOException {
    Path p = dir.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.write(p, content);
    return p;
  }

  public IngestResult ingest(IngestOptions o) throws SQLException {
    return new IngestService(FormatRegistry.standard()).ingest(db, o, new IngestService.Listener() {});
  }

  /**
   * Ingests a sample of one file and checks what every sample test checks first: its format,
   * its line accounting (lines = records + other + rejected, as given) and no failed invariant.
   */
  public IngestResult.FileResult ingestSample(IngestOptions o, String format, long lines, long records,
      long other, long rejected) throws SQLException {
    IngestResult r = ingest(o);
    IngestResult.FileResult f = r.files().get(0);
    org.junit.jupiter.api.Assertions.assertEquals(format, f.format());
    org.junit.jupiter.api.Assertions.assertEquals(List.of(lines, records, other, rejected),
        List.of(f.lines(), f.records(), f.otherLines(), f.rejected()));
    org.junit.jupiter.api.Assertions.assertEquals(List.of(), r.failedChecks());
    return f;
  }

  public IngestResult ingest(Path... files) throws SQLException {
    List<String> in = new ArrayList<>();
    for (Path f : files) {
      in.add(f.toString());
    }
    return ingest(IngestOptions.of(in));
  }

  public TableData table(String sql) throws SQLException {
    try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return TableData.read(rs, 0);
    }
  }

  /** All rows, each as a list of JDBC values. */
  public List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] r : table(sql).rows()) {
      out.add(java.util.Arrays.asList(r));
    }
    return out;
  }

  public long count(String sql) throws SQLException {
    return db.queryLong(sql);
  }

  /** The single value of a one-row, one-column query. */
  public Object value(String sql) throws SQLException {
    List<List<Object>> r = rows(sql);
    if (r.size() != 1 || r.get(0).size() != 1) {
      throw new AssertionError("expected one value from " + sql + ", got " + r);
    }
    return r.get(0).get(0);
  }

  @Override
  public void close() {
    db.close();
  }
}
