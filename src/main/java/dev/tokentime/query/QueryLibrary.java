package dev.tokentime.query;

import dev.tokentime.store.Database;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The SQL library ({@code queries/}), loaded from the classpath, and its installation into a
 * database: views in dependency order, with their docs as {@code COMMENT ON}, so that any DuckDB
 * client opening the file sees documented views.
 */
public final class QueryLibrary {
  private static volatile QueryLibrary instance;

  /** The library's files (relative path → text), in path order. */
  private final Map<String, String> files;
  private final String hash;
  /**
   * The parsed objects in dependency order, made on first use: every command checks the hash
   * against its database's, and only installing or listing the library needs them parsed.
   */
  private volatile Map<String, QueryFile> byName;

  private QueryLibrary(Map<String, String> files) {
    this.files = new TreeMap<>(files);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (var e : this.files.entrySet()) {
      sha.update(e.getKey().getBytes(StandardCharsets.UTF_8));
      sha.update(e.getValue().getBytes(StandardCharsets.UTF_8));
    }
    this.hash = HexFormat.of().formatHex(sha.digest()).substring(0, 16);
  }

  /** The library shipped with tokentime (the queries/ directory, inside the jar). */
  public static QueryLibrary get() {
    QueryLibrary lib = instance;
    if (lib == null) {
      synchronized (QueryLibrary.class) {
        if (instance == null) {
          instance = new QueryLibrary(readResources());
        }
        lib = instance;
      }
    }
    return lib;
  }

  /**
   * Builds a library from (relative path → text), parsed and checked now (a file that cannot be
   * parsed, two files creating one object, a cycle); files are ordered by their dependencies.
   */
  static QueryLibrary load(Map<String, String> files) {
    QueryLibrary lib = new QueryLibrary(files);
    lib.objects();
    return lib;
  }

  private Map<String, QueryFile> objects() {
    Map<String, QueryFile> parsed = byName;
    if (parsed == null) {
      synchronized (this) {
        if (byName == null) {
          byName = parse(files);
        }
        parsed = byName;
      }
    }
    return parsed;
  }

  private static Map<String, QueryFile> parse(Map<String, String> files) {
    Map<String, QueryFile> parsed = new TreeMap<>();
    for (var e : files.entrySet()) {
      QueryFile q = QueryFile.parse(e.getKey(), e.getValue());
      QueryFile clash = parsed.put(q.name(), q);
      if (clash != null) {
        throw new IllegalArgumentException(q.path() + " and " + clash.path() + " both create " + q.name());
      }
    }
    return ordered(parsed);
  }

  /** All objects, each after the objects it mentions. */
  public List<QueryFile> all() {
    return List.copyOf(objects().values());
  }

  public QueryFile get(String name) {
    return objects().get(name);
  }

  /** A short fingerprint of the library's text; stored in the database to know when to reinstall. */
  public String hash() {
    return hash;
  }

  /** Installs every object unless the database already has this library's version. */
  public void installIfChanged(Database db) throws SQLException {
    if (!hash.equals(db.meta("queries_hash"))) {
      install(db);
    }
  }

  /** (Re)creates every view and macro with its comments, in one transaction. */
  public void install(Database db) throws SQLException {
    var conn = db.connection();
    boolean auto = conn.getAutoCommit();
    conn.setAutoCommit(false);
    try {
      for (QueryFile q : objects().values()) {
        exec(db, q.path(), q.sql());
        String comment = q.description() + (q.grain() == null ? "" : " Grain: " + q.grain() + ".");
        String what = q.isView() ? "VIEW " : q.isTableMacro() ? "MACRO TABLE " : "MACRO ";
        exec(db, q.path(), "COMMENT ON " + what + q.name() + " IS " + quote(comment));
        if (q.isView()) {
          for (QueryFile.Doc c : q.columns()) {
            exec(db, q.path(), "COMMENT ON COLUMN " + q.name() + "." + c.name() + " IS "
                + quote("[" + c.unit() + "] " + c.doc()));
          }
        }
      }
      db.setMeta("queries_hash", hash);
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    } finally {
      conn.setAutoCommit(auto);
    }
  }

  private static void exec(Database db, String path, String sql) throws SQLException {
    try (Statement st = db.connection().createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new SQLException("queries/" + path + ": " + Database.firstLine(e), e);
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /** Topological order: an object comes after every library object its SQL mentions. */
  private static Map<String, QueryFile> ordered(Map<String, QueryFile> parsed) {
    Map<String, QueryFile> out = new LinkedHashMap<>();
    Map<String, Integer> state = new TreeMap<>(); // 1 = visiting, 2 = done
    for (String name : parsed.keySet()) {
      visit(name, parsed, state, out, new ArrayList<>());
    }
    return out;
  }

  private static final Pattern WORD = Pattern.compile("\\w+");

  private static void visit(String name, Map<String, QueryFile> parsed, Map<String, Integer> state,
      Map<String, QueryFile> out, List<String> path) {
    Integer s = state.get(name);
    if (s != null && s == 2) {
      return;
    }
    path.add(name);
    if (s != null) {
      throw new IllegalArgumentException("queries form a cycle: " + String.join(" -> ", path));
    }
    state.put(name, 1);
    QueryFile q = parsed.get(name);
    String body = q.sql().substring(q.sql().indexOf(q.name()) + q.name().length());
    // the words of the body once (a name is mentioned when it is a whole word), instead of one
    // regex per other object: this runs at every start of the CLI
    Set<String> words = new HashSet<>();
    Matcher w = WORD.matcher(body);
    while (w.find()) {
      words.add(w.group());
    }
    for (String other : parsed.keySet()) {
      if (!other.equals(name) && words.contains(other)) {
        visit(other, parsed, state, out, path);
      }
    }
    state.put(name, 2);
    out.put(name, q);
    path.remove(path.size() - 1);
  }

  /** Reads queries/**.sql from the classpath, whether it is a directory or a jar. */
  private static Map<String, String> readResources() {
    URL url = QueryLibrary.class.getClassLoader().getResource("queries");
    if (url == null) {
      throw new IllegalStateException("the queries/ library is missing from the classpath");
    }
    try {
      URI uri = url.toURI();
      if ("jar".equals(uri.getScheme())) {
        // shared and left open: the parsers' specs are read from the same jar
        return readTree(dev.tokentime.JarFileSystems.of(uri).getPath("/queries"));
      }
      return readTree(Path.of(uri));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Map<String, String> readTree(Path root) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(p -> p.toString().endsWith(".sql")).toList()) {
        String rel = root.relativize(p).toString().replace('\\', '/');
        try (InputStream in = Files.newInputStream(p)) {
          files.put(rel, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    return files;
  }
}
