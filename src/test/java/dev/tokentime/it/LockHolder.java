package dev.tokentime.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run in its own JVM with only DuckDB JDBC on the classpath: holds a database open, as a notebook
 * does (args: the file, then "read-only" or "read-write"), prints "open" and waits for its
 * standard input to close.
 */
public final class LockHolder {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    if (args[1].equals("read-only")) {
      p.setProperty("duckdb.read_only", "true");
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + args[0], p);
        Statement st = c.createStatement()) {
      st.executeQuery("SELECT count(*) FROM requests").close();
      System.out.println("open");
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the file until the test closes our input
      }
    }
  }
}
