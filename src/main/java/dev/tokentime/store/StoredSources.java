package dev.tokentime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What the ingest plans with from the sources already stored (the sources table is the store's). */
public final class StoredSources {
  private StoredSources() {}

  /** A stored file: its source id, path as stored, content hash and format. */
  public record Stored(int id, String path, String sha256, String format) {}

  /** The stored files of these formats, in the order they were stored. */
  public static List<Stored> ofFormats(Database db, Collection<String> formats) throws SQLException {
    List<Stored> out = new ArrayList<>();
    if (formats.isEmpty()) {
      return out;
    }
    String marks = String.join(", ", java.util.Collections.nCopies(formats.size(), "?"));
    try (PreparedStatement ps = db.connection().prepareStatement(
        "SELECT source_id, path, sha256, format FROM sources WHERE format IN (" + marks + ") ORDER BY source_id")) {
      int i = 1;
      for (String f : formats) {
        ps.setString(i++, f);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Stored(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
      }
    }
    return out;
  }

  /** A stored file's run (the run its records take unless they name their own) and its path as stored. */
  public record RunPath(String run, String path) {}

  /** Every stored file's run and path (standard input's "-" included). */
  public static List<RunPath> runs(Database db) throws SQLException {
    List<RunPath> out = new ArrayList<>();
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT run, path FROM sources ORDER BY source_id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new RunPath(rs.getString(1), rs.getString(2)));
      }
    }
    return out;
  }

  /** The paths of the stored files. */
  public static Set<String> paths(Database db) throws SQLException {
    Set<String> out = new HashSet<>();
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT DISTINCT path FROM sources");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
