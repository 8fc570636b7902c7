package dev.tokentime.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in its own JVM with only DuckDB JDBC on the classpath: opens a tokentime database
 * read-only, as another tool would, and prints what request_latency and level_summary say.
 */
public final class ReadOnlyProbe {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("duckdb.read_only", "true");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + args[0], p);
        Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT version()")) {
        rs.next();
        System.out.println("version " + rs.getString(1));
      }
      try (ResultSet rs = st.executeQuery(
          "SELECT count(*), round(avg(ttft_ms), 6) FROM request_latency WHERE measured AND ok")) {
        rs.next();
        System.out.println("request_latency " + rs.getLong(1) + " " + rs.getDouble(2));
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM level_summary")) {
        rs.next();
        System.out.println("level_summary " + rs.getLong(1));
      }
      // the documentation any client can discover, and the storage format the file was written in
      try (ResultSet rs = st.executeQuery("SELECT unit, grain FROM tt_docs "
          + "WHERE object_name = 'request_latency' AND column_name = 'ttft_ms'")) {
        rs.next();
        System.out.println("tt_docs request_latency.ttft_ms [" + rs.getString(1) + "] " + rs.getString(2));
      }
      try (ResultSet rs = st.executeQuery("SELECT tags['storage_version'] FROM duckdb_databases() "
          + "WHERE database_name = current_database()")) {
        rs.next();
        System.out.println("storage_version " + rs.getString(1));
      }
    }
  }
}
