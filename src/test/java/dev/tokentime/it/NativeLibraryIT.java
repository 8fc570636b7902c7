package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build puts DuckDB's Linux x86-64 native library beside its jar in target/lib (pom.xml,
 * maven-antrun-plugin), so a start maps it from there instead of copying 57 MB out of the jar
 * into a temporary file first (0.3 s of every command).
 */
class NativeLibraryIT {
  @TempDir
  Path tmp;

  @Test
  void duckdbLoadsItsLibraryFromBesideTheJarWithoutATemporaryCopy() throws Exception {
    assumeTrue(System.getProperty("os.name").toLowerCase().startsWith("linux")
        && List.of("amd64", "x86_64").contains(System.getProperty("os.arch")), "Linux x86-64 only");
    String cp = Cli.jar() + File.pathSeparator + Path.of("target/test-classes");
    Cli.Result probe = Cli.exec(List.of(Cli.javaBin(), "-Djava.io.tmpdir=" + tmp, "-cp", cp,
        NativeLibraryProbe.class.getName()), null);
    assertEquals(0, probe.code(), probe.err());
    Path beside = Path.of("target/lib/libduckdb_java.so_linux_amd64").toRealPath();
    assertEquals("mapped " + beside, probe.out().strip());
    try (var left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "nothing written to the temporary directory");
    }
  }
}
