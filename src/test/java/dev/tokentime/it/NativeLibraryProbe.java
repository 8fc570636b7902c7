package dev.tokentime.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * Run in its own JVM with the packaged jar on the classpath (its manifest brings target/lib):
 * opens an in-memory DuckDB database and prints the file DuckDB's native library was mapped
 * from, as /proc/self/maps names it.
 */
public final class NativeLibraryProbe {
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      String mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .filter(l -> l.contains("libduckdb_java"))
          .map(l -> l.substring(l.indexOf('/')))
          .findFirst().orElse("none");
      System.out.println("mapped " + mapped);
    }
  }
}
