package dev.tokentime;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.util.Map;

/**
 * The one file system per JVM over the jar that holds tokentime's resources (queries/, parsers/).
 * The JDK keeps one zip file system per jar: opening it a second time fails while the first is
 * open, and closing it breaks every other reader. So it is opened once, shared, and never closed
 * (the Spark job loads the formats first, then runs the CLI's ingest in the same JVM).
 */
public final class JarFileSystems {
  private JarFileSystems() {}

  /** The file system of the jar that {@code uri} (a jar: URI) points into. */
  public static synchronized FileSystem of(URI uri) throws IOException {
    try {
      return FileSystems.newFileSystem(uri, Map.of());
    } catch (FileSystemAlreadyExistsException e) {
      return FileSystems.getFileSystem(uri);
    }
  }
}
