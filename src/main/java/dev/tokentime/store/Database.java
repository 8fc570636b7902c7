package dev.tokentime.store;

import dev.tokentime.BadInputException;
import dev.tokentime.Version;
import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.TableDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/**
 * A tokentime database: one DuckDB file holding the canonical tables, the derived tables and the
 * views of the query library. Opening for writing creates the schema when the file is new.
 */
public final class Database implements AutoCloseable {

  public enum Mode {
    /** Create the file when missing; writable. */
    CREATE,
    /** The file must exist; writable. */
    WRITE,
    /** The file must exist; read-only (other processes may read it at the same time). */
    READ_ONLY
  }

  /**
   * DuckDB's memory limit unless TOKENTIME_MEMORY_LIMIT says otherwise: together with the JVM's
   * heap and the Arrow allocator it keeps a whole ingest under 1.5 GB (DESIGN.md, "Memory").
   */
  public static final String DEFAULT_MEMORY_LIMIT = "500MB";

  /**
   * DuckDB's memory limit while an ingest loads its files, unless TOKENTIME_MEMORY_LIMIT is set.
   * Appends need no cache: with the general limit DuckDB kept the table blocks it had written in
   * its buffer pool up to the limit, and loading was no slower with this (BENCHMARKS.md). The steps
   * after loading run under {@link #LEAN_MEMORY_LIMIT}: their joins spill sooner under this one
   * (the chunk-gap statistics take about twice as long at a day's scale).
   */
  public static final String LOAD_MEMORY_LIMIT = "150MB";

  /**
   * DuckDB's memory limit for work that scans many rows for a few results, unless
   * TOKENTIME_MEMORY_LIMIT is set: an ingest's steps after loading (derive, request links, checks)
   * and the summary's queries. DuckDB keeps the blocks it read cached up to its limit, so under the
   * general one the derive step set an ingest's peak memory and the summary held more than it
   * needs; under this one both peak lower and run no slower but for a day's derive step.
   * 150 MB ran out of memory (the derive step once, figure_basis at a day's scale); should 250 MB,
   * the work runs again under the general limit ({@link #underLeanLimit}).
   */
  public static final String LEAN_MEMORY_LIMIT = "250MB";

  /**
   * The oldest DuckDB whose storage format tokentime writes (DuckDB's storage_compatibility_version):
   * v1.0.0 is storage version 64, which every DuckDB from 1.0 on opens (duckdb_databases() tags it
   * storage_version=v1.0.0+). It is DuckDB 1.4's default today; set explicitly so that a newer
   * DuckDB JDBC, whose default may move on, does not lock out the notebooks and CLIs users already
   * have (docs/notebooks.md lists which versions run the views).
   */
  public static final String STORAGE_COMPATIBILITY = "v1.0.0";

  private final Path path;
  private final DuckDBConnection conn;
  private final boolean readOnly;
  /** The writer lock (null for a reader), released on close. */
  private WriterLock lock;

  private Database(Path path, DuckDBConnection conn, boolean readOnly) {
    this.path = path;
    this.conn = conn;
    this.readOnly = readOnly;
  }

  public static Database open(Path path, Mode mode) {
    return open(path, mode, null);
  }

  /** Fills a new, private file with an empty tokentime database; false when it could not. */
  @FunctionalInterface
  public interface Template {
    boolean writeTo(Path fresh);
  }

  /**
   * Opens a database. A writer (CREATE, WRITE) first takes the database's writer lock
   * ({@link WriterLock}), held until {@link #close}: a second writer waits for it. A missing file
   * (CREATE) is made under a private name beside it — from {@code template} when given and able,
   * else by creating the schema — and linked into place whole, so no process ever opens a
   * half-made database or has its file replaced under it.
   */
  public static Database open(Path path, Mode mode, Template template) {
    Path abs = path.toAbsolutePath();
    if (mode != Mode.CREATE && !Files.exists(abs)) {
      throw new BadInputException("database not found: " + path);
    }
    if (Files.isDirectory(abs)) {
      throw new BadInputException("database path is a directory: " + path);
    }
    if (mode == Mode.CREATE && isEmptyFile(abs)) {
      // an empty file named as a new database (db=$(mktemp)): DuckDB refuses it; it is made here
      try {
        Files.delete(abs);
      } catch (java.io.IOException e) {
        throw new BadInputException("cannot create database " + path + " in place of the empty file: " + e.getMessage(), e);
      }
    }
    refuseOtherFiles(path, abs);
    if (mode == Mode.CREATE && abs.getParent() != null && !Files.isDirectory(abs.getParent())) {
      throw new BadInputException("cannot create database " + path + ": directory "
          + abs.getParent() + " does not exist");
    }
    WriterLock lock = mode == Mode.READ_ONLY ? null : WriterLock.acquire(abs);
    try {
      if (mode != Mode.READ_ONLY) {
        removeStaleTemporaryDirectories(abs);
      }
      if (mode == Mode.CREATE && !Files.exists(abs)) {
        createAtomically(abs, template);
      }
      Database db;
      try {
        db = connect(path, abs, mode);
      } catch (BadInputException e) {
        if (mode != Mode.READ_ONLY || !walReplayFailed(e)) {
          throw e;
        }
        replayWal(path, abs, e);
        db = connect(path, abs, mode);
      }
      db.lock = lock;
      return db;
    } catch (RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
  }

  /** A private name beside the database for building a new one (same directory: a link works). */
  static Path freshName(Path abs) {
    return Path.of(abs + ".new-" + ProcessHandle.current().pid());
  }

  /**
   * Makes the database file whole under a private name and links it into place (the caller
   * holds the writer lock; a link, unlike a rename, never replaces a file that appeared
   * meanwhile).
   */
  private static void createAtomically(Path abs, Template template) {
    Path fresh = freshName(abs);
    try {
      deleteFresh(fresh);
      boolean made = template != null && template.writeTo(fresh);
      if (!made) {
        deleteFresh(fresh);
        try (Database db = connect(fresh, fresh, Mode.CREATE)) {
          db.execute("CHECKPOINT");
        }
      }
      try {
        Files.createLink(abs, fresh);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        return; // made by a process that does not take the lock: open what is there
      } catch (UnsupportedOperationException | IOException e) {
        // a file system without hard links: a move that refuses to replace
        Files.move(fresh, abs);
      }
    } catch (IOException | SQLException e) {
      throw new BadInputException("cannot create database " + abs + ": " + e.getMessage(), e);
    } finally {
      deleteFresh(fresh);
    }
  }

  private static void deleteFresh(Path fresh) {
    for (String suffix : new String[] {"", ".wal", ".lock"}) {
      try {
        Files.deleteIfExists(Path.of(fresh + suffix));
      } catch (IOException ignored) {
        // a private leftover; removed by the next creation under this name
      }
    }
  }

  /**
   * Spill directories ({@link #temporaryDirectory}) of processes that no longer run: DuckDB
   * deletes its own when it closes, a killed process leaves it. Only called under the writer lock.
   */
  static void removeStaleTemporaryDirectories(Path abs) {
    Path dir = abs.getParent();
    if (dir == null) {
      return;
    }
    String prefix = abs.getFileName() + ".tmp-";
    try (var ds = Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix))) {
      for (Path p : ds) {
        String pid = p.getFileName().toString().substring(prefix.length());
        if (!pid.matches("\\d{1,10}") || ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
          continue;
        }
        try (var files = Files.walk(p)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> {
            try {
              Files.deleteIfExists(f);
            } catch (IOException ignored) {
              // left for the next writer
            }
          });
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // best effort: a leftover spill directory only takes space
    }
  }

  private static Database connect(Path path, Path abs, Mode mode) {
    Properties props = new Properties();
    // DuckDB spills to "<file>.tmp" by default, and two processes reading one database (a
    // notebook and a report) then write the same spill file and delete each other's directory
    // ("Cannot open file …duckdb_temp_storage_DEFAULT-1.tmp"); one directory per process
    props.setProperty("temp_directory", temporaryDirectory(abs).toString());
    if (mode == Mode.READ_ONLY) {
      props.setProperty("duckdb.read_only", "true");
    } else {
      // decides the file header when the file is created, and what a checkpoint may write later
      props.setProperty("storage_compatibility_version", STORAGE_COMPATIBILITY);
    }
    DuckDBConnection c;
    try {
      c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + abs, props);
    } catch (SQLException e) {
      throw openFailure(path, e);
    }
    Database db = new Database(abs, c, mode == Mode.READ_ONLY);
    try {
      db.configure();
      if (mode == Mode.READ_ONLY) {
        db.checkSchema(false);
      } else {
        db.checkSchema(true);
      }
    } catch (SQLException e) {
      db.close();
      throw new BadInputException("cannot use database " + path + ": " + firstLine(e), e);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  private static boolean walReplayFailed(BadInputException e) {
    return e.getCause() instanceof SQLException sql && sql.getMessage() != null
        && sql.getMessage().contains("replaying WAL");
  }

  /**
   * A writer that was killed leaves its committed work in {@code <db>.wal}. A read-only open
   * replays it in memory, and DuckDB before 2.0 failed to where the log held index changes
   * ("Failure while replaying WAL … Bad file descriptor", duckdb/duckdb#24103). Replaying it
   * takes one writable open, done here under the writer lock (it changes no data: the log's
   * transactions were committed); if that is not possible the message says what to run.
   */
  private static void replayWal(Path path, Path abs, BadInputException readOnlyFailure) {
    String what = "database " + path + " was not closed cleanly (a writer was stopped) and its"
        + " write-ahead log " + abs + ".wal could not be replayed read-only";
    if (!Files.isWritable(abs) || (abs.getParent() != null && !Files.isWritable(abs.getParent()))) {
      throw new BadInputException(what + "; replay it once by opening it writable, as its owner:"
          + " tokentime shell --db " + path + " (then .quit)", readOnlyFailure);
    }
    try (WriterLock lock = WriterLock.acquire(abs);
        Database db = connect(path, abs, Mode.WRITE)) {
      db.execute("CHECKPOINT");
    } catch (SQLException | RuntimeException e) {
      throw new BadInputException(what + ", nor replayed writable ("
          + (e instanceof SQLException sql ? firstLine(sql) : e.getMessage())
          + "); run tokentime shell --db " + path + " once (then .quit) to replay it", e);
    }
  }

  private static boolean isEmptyFile(Path abs) {
    try {
      return Files.isRegularFile(abs) && Files.size(abs) == 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /**
   * A file that is there and is no DuckDB database (its header has no "DUCK" at byte 8) is
   * refused before anything touches it. DuckDB itself took a .jsonl, .csv or .parquet named as the
   * database for a file to query and answered from memory: `ingest --db run1.jsonl run2.jsonl`
   * said it stored everything, stored nothing, and left a lock file beside the log.
   */
  static void refuseOtherFiles(Path path, Path abs) {
    if (!Files.isRegularFile(abs)) {
      return;
    }
    byte[] head = new byte[12];
    int n;
    try (java.io.InputStream in = Files.newInputStream(abs)) {
      n = in.readNBytes(head, 0, head.length);
    } catch (java.io.IOException e) {
      return; // DuckDB says why it cannot open it
    }
    if (n == 12 && head[8] == 'D' && head[9] == 'U' && head[10] == 'C' && head[11] == 'K') {
      return; // a database
    }
    if (n == 0) {
      // DuckDB refuses an empty file ("not a valid DuckDB database file"), after a lock file was made
      throw new BadInputException("cannot open database " + path + ": the file is empty (no DuckDB database yet);"
          + " tokentime ingest --db " + path + " FILES makes it");
    }
    String name = abs.getFileName().toString();
    boolean input = name.matches("(?i).*\\.(jsonl|json|csv|log|txt|parquet|gz|zst)$");
    throw new BadInputException("cannot open database " + path + ": it is not a DuckDB database"
        + (input ? " (an input file?); --db names the database, and the files to read come after the options:"
            + " tokentime ingest --db run.duckdb " + path : " (its header is not DuckDB's); nothing was written to it"));
  }

  /** Seconds a command waits for another process holding the database: TOKENTIME_LOCK_WAIT, else 300. */
  public static long lockWaitSeconds() {
    return WriterLock.waitSeconds();
  }

  /** The runs the database holds, by name. */
  public java.util.List<String> runNames() throws SQLException {
    java.util.List<String> names = new java.util.ArrayList<>();
    try (java.sql.Statement st = conn.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT run FROM runs ORDER BY run")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  /** Says what DuckDB's failure to open means for the user. */
  static BadInputException openFailure(Path path, SQLException e) {
    String msg = e.getMessage() == null ? "" : e.getMessage();
    if (msg.contains("Could not set lock")) {
      return new BadInputException("database " + path + " is in use: another process is writing it"
          + WriterLock.holder(WriterLock.lockFile(path)) + ", and DuckDB lets no other process open it"
          + " meanwhile. Run again when it has finished.", e);
    }
    return new BadInputException("cannot open database " + path + ": " + firstLine(e), e);
  }

  /**
   * Where DuckDB spills for this process: beside the database file (the disk it is on, not a
   * memory-backed /tmp), named for the process. DuckDB creates it when it first spills and deletes
   * it when the database closes.
   */
  static Path temporaryDirectory(Path databaseFile) {
    return Path.of(databaseFile.toAbsolutePath() + ".tmp-" + ProcessHandle.current().pid());
  }

  /** The general memory limit of this process: TOKENTIME_MEMORY_LIMIT, else the default. */
  public static String memoryLimit() {
    return System.getenv().getOrDefault("TOKENTIME_MEMORY_LIMIT", DEFAULT_MEMORY_LIMIT);
  }

  /** The limit while files load: TOKENTIME_MEMORY_LIMIT when set, else {@link #LOAD_MEMORY_LIMIT}. */
  public static String loadMemoryLimit() {
    return System.getenv().getOrDefault("TOKENTIME_MEMORY_LIMIT", LOAD_MEMORY_LIMIT);
  }

  /** The lean limit: TOKENTIME_MEMORY_LIMIT when set, else {@link #LEAN_MEMORY_LIMIT}. */
  public static String leanMemoryLimit() {
    return System.getenv().getOrDefault("TOKENTIME_MEMORY_LIMIT", LEAN_MEMORY_LIMIT);
  }

  /** Work on the database that may be run twice: a transaction that rolls back on failure, or reads. */
  @FunctionalInterface
  public interface RetrySafe<T> {
    T run() throws SQLException;
  }

  /**
   * Runs {@code work} under the lean memory limit ({@link #leanMemoryLimit}); if DuckDB runs out
   * of memory there, runs it again under the general limit, which is in force afterwards either
   * way. Memory is then a trade of speed, never a failure the general limit would not have had too.
   */
  public <T> T underLeanLimit(RetrySafe<T> work) throws SQLException {
    return underLimit(leanMemoryLimit(), work);
  }

  /** {@link #underLeanLimit} with the lean limit given (tests make DuckDB run out of memory). */
  <T> T underLimit(String lean, RetrySafe<T> work) throws SQLException {
    setMemoryLimit(lean);
    SQLException failed = null;
    try {
      return work.run();
    } catch (SQLException e) {
      failed = e;
      if (!isOutOfMemory(e)) {
        throw e;
      }
      dev.tokentime.Timing.note("out of memory under %s (%s); again under %s", lean, firstLine(e), memoryLimit());
      setMemoryLimit(memoryLimit());
      failed = null;
      return work.run();
    } finally {
      try {
        setMemoryLimit(memoryLimit());
      } catch (SQLException e) {
        // after a fatal error DuckDB refuses every statement ("database has been invalidated"):
        // the work's own error says why, and is the one that propagates
        if (failed == null) {
          throw e;
        }
        failed.addSuppressed(e);
      }
    }
  }

  public static boolean isOutOfMemory(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("Out of Memory Error")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code sql} is a statement that returns rows (SELECT, a view, SHOW, DESCRIBE, EXPLAIN),
   * found by preparing it, not running it: COPY, INSERT, ATTACH, SET return none.
   */
  public boolean returnsRows(String sql) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      return !(ps.getMetaData() instanceof org.duckdb.DuckDBResultSetMetaData m)
          || m.getReturnType() == org.duckdb.StatementReturnType.QUERY_RESULT;
    }
  }

  /** Sets DuckDB's memory limit (one setting for the whole database instance). */
  public void setMemoryLimit(String limit) throws SQLException {
    try (Statement st = conn.createStatement()) {
      st.execute("SET memory_limit = '" + limit.replace("'", "") + "'");
    }
  }

  private void configure() throws SQLException {
    setMemoryLimit(memoryLimit());
    try (Statement st = conn.createStatement()) {
      // Bulk inserts and big sorts need not keep input order; this bounds their memory.
      st.execute("SET preserve_insertion_order = false");
      // Nothing may download at run time: the extensions used (json, parquet, icu) are built in.
      st.execute("SET autoinstall_known_extensions = false");
      // An as-of join whose probe side is estimated under this many rows runs as a nested loop.
      // The estimate after exact-percentile thresholds (_gap_quantiles) is 0, and itl_stalls then
      // compared every stall with every prefill count one by one (quadratic); the sort-based
      // as-of join is never much slower on small inputs.
      st.execute("SET asof_loop_join_threshold = 0");
      // the query library writes lambdas as x -> ..., the only syntax DuckDB before 1.3 reads
      // (docs/notebooks.md: views must run on DuckDB 1.2+); DuckDB 2.0 refuses it by default
      enableArrowLambdas();
    }
  }

  /** SET lambda_syntax (DuckDB 1.3+; duckdb_settings() does not list it); older ones need none. */
  private void enableArrowLambdas() {
    try (Statement st = conn.createStatement()) {
      st.execute("SET lambda_syntax = 'ENABLE_SINGLE_ARROW'");
    } catch (SQLException e) {
      // a DuckDB without the setting reads arrow lambdas anyway
    }
  }

  /** Creates the schema in a new file, or checks that an existing file is a tokentime database. */
  private void checkSchema(boolean mayCreate) throws SQLException {
    boolean hasMeta;
    boolean hasAnyTable;
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE table_name = '_meta'), count(*) "
            + "FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary")) {
      rs.next();
      hasMeta = rs.getLong(1) > 0;
      hasAnyTable = rs.getLong(2) > 0;
    }
    if (!hasMeta) {
      if (hasAnyTable) {
        throw new BadInputException(path + " is a DuckDB database but not a tokentime database (no _meta table)");
      }
      if (!mayCreate) {
        throw new BadInputException(path + " holds no tokentime data (empty database)");
      }
      createSchema();
      return;
    }
    String version = meta("schema_version");
    if (!Integer.toString(CanonicalSchema.VERSION).equals(version)) {
      throw new BadInputException(path + " was written with tokentime schema version " + version
          + "; this tokentime reads version " + CanonicalSchema.VERSION + ". Ingest the logs into a new database.");
    }
  }

  private void createSchema() throws SQLException {
    boolean auto = conn.getAutoCommit();
    conn.setAutoCommit(false);
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TYPE chunk_kind AS ENUM ("
          + CanonicalSchema.CHUNK_KINDS.stream().map(k -> "'" + k + "'").collect(Collectors.joining(", "))
          + ")");
      for (TableDef t : CanonicalSchema.all()) {
        st.execute(t.createSql());
        for (String c : t.commentSql()) {
          st.execute(c);
        }
      }
      st.execute("INSERT INTO _meta VALUES ('schema_version', '" + CanonicalSchema.VERSION + "'), "
          + "('created_by', 'tokentime " + Version.get() + "'), ('queries_hash', '')");
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    } finally {
      conn.setAutoCommit(auto);
    }
  }

  /** A value of the _meta table, or null. */
  public String meta(String key) throws SQLException {
    try (var ps = conn.prepareStatement("SELECT value FROM _meta WHERE key = ?")) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  public void setMeta(String key, String value) throws SQLException {
    try (var del = conn.prepareStatement("DELETE FROM _meta WHERE key = ?");
        var ins = conn.prepareStatement("INSERT INTO _meta VALUES (?, ?)")) {
      del.setString(1, key);
      del.executeUpdate();
      ins.setString(1, key);
      ins.setString(2, value);
      ins.executeUpdate();
    }
  }

  public DuckDBConnection connection() {
    return conn;
  }

  public Path path() {
    return path;
  }

  public boolean readOnly() {
    return readOnly;
  }

  /**
   * DuckDB JDBC reports any error inside a streamed query as "Invalid result set" (a conversion
   * error of {@code WHERE ttft_ms > 'abc'} as much as a lack of memory): the query is run once
   * more unstreamed, which fails with DuckDB's own words, and those are what the user reads.
   * Where it then runs, the streamed error stands.
   */
  public SQLException whyItFailed(String sql, SQLException streamed) {
    if (streamed.getMessage() == null || !streamed.getMessage().contains("Invalid result set")) {
      return streamed;
    }
    try {
      streamResults(false);
      try (Statement st = connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
        return streamed;
      }
    } catch (SQLException real) {
      return real;
    }
  }

  /**
   * Whether DuckDB JDBC streams query results on this connection: on, a result is computed as it
   * is read; off (DuckDB JDBC's default, and tokentime's but where a result may be big), it is
   * built whole before the first row is read, outside the memory limit (a view of one row per
   * token read whole went far over the memory target). While a streamed result is open the connection
   * runs nothing else.
   */
  public void streamResults(boolean on) throws SQLException {
    execute("SET jdbc_stream_results = " + on);
  }

  /** Runs one statement on a fresh Statement (DuckDB closes a Statement after a failure). */
  public void execute(String sql) throws SQLException {
    try (Statement st = conn.createStatement()) {
      st.execute(sql);
    }
  }

  /** The first value of the first row of a query, as a long (0 when NULL). */
  /** Whether no input file has been stored yet (a database a failed first ingest may remove). */
  public boolean holdsNoSource() throws SQLException {
    return queryLong("SELECT count(*) FROM sources") == 0;
  }

  public long queryLong(String sql) throws SQLException {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  // ---- a database a first ingest made, removed when the process is stopped before it stored a file ----

  /**
   * Taken shared by each write of an ingest that outlasts the process (a file's commit, the
   * derive step, the views), and exclusively, for good, by {@link #removeOnExitWhileEmpty}'s hook:
   * the hook waits for a write under way, and no write follows it.
   */
  private final java.util.concurrent.locks.ReentrantReadWriteLock exitGate =
      new java.util.concurrent.locks.ReentrantReadWriteLock();
  /** Files this process committed to the database. */
  private final java.util.concurrent.atomic.AtomicLong storedSources = new java.util.concurrent.atomic.AtomicLong();
  private Thread removeOnExit;

  /** Seconds the exit hook waits for a write under way; then it keeps the file. */
  static final int EXIT_WAIT_SECONDS = 3;

  /**
   * Runs a write that lasts beyond the process (see {@link #exitGate}); once the exit hook has
   * run, a write waits until the process ends instead.
   */
  public <T> T durableWrite(RetrySafe<T> work) throws SQLException {
    exitGate.readLock().lock();
    try {
      return work.run();
    } finally {
      exitGate.readLock().unlock();
    }
  }

  /** A file's commit: as {@link #durableWrite}, counted. */
  void commitSource(java.sql.Connection c) throws SQLException {
    durableWrite(() -> {
      c.commit();
      storedSources.incrementAndGet();
      return null;
    });
  }

  /**
   * For a database this process created: when the process is stopped (Ctrl-C, SIGTERM) before
   * any file was committed to it, the file, its write-ahead log and its lock file are deleted, as
   * a failed first ingest's are ({@link #closeAndDelete}); an interrupted first ingest left an
   * empty database that summary read as 0 runs. The hook takes {@link #exitGate} for good first,
   * so no commit lands after it looked; it keeps the file when a write does not end within
   * {@link #EXIT_WAIT_SECONDS}. DuckDB still holds the deleted file open: what it writes meanwhile
   * goes to a file no path names, and no write reaches the path again (each waits on the gate).
   */
  public void removeOnExitWhileEmpty() {
    Path abs = path.toAbsolutePath();
    removeOnExit = new Thread(() -> {
      try {
        if (!exitGate.writeLock().tryLock(EXIT_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
      if (storedSources.get() > 0) {
        return;
      }
      try {
        Files.deleteIfExists(Path.of(abs + ".wal"));
        Files.deleteIfExists(abs);
        // still locked by this process until it ends (WriterLock: a waiting writer checks the path)
        Files.deleteIfExists(WriterLock.lockFile(abs));
      } catch (java.io.IOException e) {
        // best effort: the empty database stays, as it did before
      }
    }, "tokentime-new-database");
    Runtime.getRuntime().addShutdownHook(removeOnExit);
  }

  /** The process goes on past this database: its exit hook is not needed. */
  private void dropExitHook() {
    if (removeOnExit == null) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(removeOnExit);
    } catch (IllegalStateException e) {
      // the process is stopping: the hook decides
    }
    removeOnExit = null;
  }

  @Override
  public void close() {
    if (removeOnExit != null) {
      // closing checkpoints into the file: not after the exit hook removed it
      exitGate.readLock().lock();
      try {
        dropExitHook();
        closeNow();
      } finally {
        exitGate.readLock().unlock();
      }
      return;
    }
    closeNow();
  }

  private void closeNow() {
    try {
      conn.close();
    } catch (SQLException e) {
      // closing a connection that failed is not worth a second error
    } finally {
      if (lock != null) {
        lock.close();
        lock = null;
      }
    }
  }

  /**
   * Closes the database and deletes its file and write-ahead log while the writer lock is still
   * held, so no other writer opens it in between; the lock file goes with them (WriterLock).
   */
  public void closeAndDelete() throws java.io.IOException {
    dropExitHook();
    WriterLock held = lock;
    lock = null;
    try {
      close();
      Path abs = path.toAbsolutePath();
      Files.deleteIfExists(Path.of(abs + ".wal"));
      Files.deleteIfExists(abs);
    } finally {
      if (held != null) {
        held.close();
      }
    }
  }

  /** DuckDB 1.5 puts a generic line before the real one; keep the informative line. */
  public static String firstLine(SQLException e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    for (String line : m.split("\n")) {
      if (!line.isBlank() && !line.contains("Attempting to execute an unsuccessful or closed pending query")) {
        return line.strip();
      }
    }
    return m.strip();
  }
}
