package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import dev.tokentime.schema.TableDef;
import dev.tokentime.store.Database;
import dev.tokentime.store.GapStats;
import dev.tokentime.store.RequestLinker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Parquet lake written by the Spark job (spark/, docs/scale-out.md) opened as a tokentime
 * database: a small DuckDB file whose canonical tables are views over the lake's Parquet files
 * ({@code <lake>/<table>/run=<run>/*.parquet}, Hive partitions; a derived table's folder drops its
 * leading underscore), so every reading command works on it unchanged. The file is rebuilt from
 * the cached empty database at each open (the lake may have changed), in the tokentime cache
 * directory, else the system's temporary directory; the data stays in the lake and is read when
 * a query runs. What the derive step keeps beside the rows is computed here from the lake:
 * request_links (the vLLM id rules) and _gap_stats (each run's chunk-gap statistics).
 */
public final class LakeDatabase {
  private LakeDatabase() {}

  /** Builds the database of the lake at {@code lake} and returns its path. */
  public static Path open(Path lake) {
    Path dir = lake.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir.resolve(CanonicalSchema.SOURCES.name()))) {
      throw new BadInputException("not a tokentime lake (no sources/ folder): " + lake);
    }
    try {
      Path target = home().resolve(hash(dir.toString()) + ".duckdb");
      Path tmp = Path.of(target + ".tmp-" + ProcessHandle.current().pid());
      Files.deleteIfExists(tmp);
      Files.deleteIfExists(Path.of(tmp + ".wal"));
      try (Database db = EmptyDatabases.openForWriting(tmp)) {
        build(db, dir);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new BadInputException("cannot open the lake " + lake + ": " + Database.firstLine(e), e);
    }
  }

  private static void build(Database db, Path lake) throws SQLException, IOException {
    List<TableDef> tables = new ArrayList<>(CanonicalSchema.TABLES);
    tables.add(CanonicalSchema.DERIVED_REQUEST_TOKENS);
    // request_links stays a table: the linker below fills it from the lake's requests
    tables.remove(CanonicalSchema.REQUEST_LINKS);
    try (Statement st = db.connection().createStatement()) {
      for (TableDef t : tables) {
        String folder = t.name().startsWith("_") ? t.name().substring(1) : t.name();
        Path files = lake.resolve(folder);
        if (!hasParquet(files)) {
          continue; // the table stays, empty
        }
        String parquet = "read_parquet(" + quote(files + "/**/*.parquet")
            + ", hive_partitioning = true, hive_types_autocast = false, union_by_name = true)";
        requireColumns(st, lake, folder, t, parquet);
        st.execute("DROP TABLE " + t.name());
        st.execute("CREATE VIEW " + t.name() + " AS SELECT "
            + t.columns().stream().map(LakeDatabase::select).collect(Collectors.joining(", "))
            + " FROM " + parquet);
        for (String c : t.commentSql()) {
          st.execute(c.replaceFirst("^COMMENT ON TABLE", "COMMENT ON VIEW"));
        }
      }
    }
    RequestLinker.link(db);
    GapStats.refreshEveryRun(db);
    db.setMeta("lake", lake.toString());
  }

  /**
   * Every column of the canonical table is in the lake's files: a lake written by an older Spark
   * job lacks the columns added since (the schema's version is kept in databases, not in lakes),
   * and the user is told which and what to do rather than given a binder error.
   */
  private static void requireColumns(Statement st, Path lake, String folder, TableDef t, String parquet)
      throws SQLException {
    java.util.Set<String> present = new java.util.HashSet<>();
    try (java.sql.ResultSet rs = st.executeQuery("SELECT column_name FROM (DESCRIBE SELECT * FROM " + parquet + ")")) {
      while (rs.next()) {
        present.add(rs.getString(1));
      }
    }
    List<String> missing = t.columns().stream().map(Column::name).filter(c -> !present.contains(c)).toList();
    if (!missing.isEmpty()) {
      throw new BadInputException("the lake " + lake + " has no " + String.join(", ", missing) + " in " + folder
          + "/: it was written by an older tokentime (this one reads schema version " + CanonicalSchema.VERSION
          + "); run the Spark ingest job (dev.tokentime.spark.IngestJob) of this version again to rewrite it");
    }
  }

  /** A column as the canonical table types it (Parquet has no ENUM; run is a folder name). */
  private static String select(Column c) {
    return "CAST(" + c.name() + " AS " + c.sqlType() + ") AS " + c.name();
  }

  private static boolean hasParquet(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
    }
  }

  private static Path home() throws IOException {
    Path cache = EmptyDatabases.cacheDir();
    Path dir = (cache != null ? cache : Path.of(System.getProperty("java.io.tmpdir"), "tokentime"))
        .resolve("lakes");
    Files.createDirectories(dir);
    return dir;
  }

  private static String hash(String s) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
