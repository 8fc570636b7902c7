package dev.tokentime.formats.spec;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every spec shipped in {@code parsers/} (on the classpath: the build copies the folder) as a
 * format: a new line format is a new {@code .spec} file, registered without Java. Layers
 * ({@code layer} specs such as wrappers.spec) are not formats; a spec whose format a Java family
 * already registers (a {@link SpecFormat} subclass, e.g. vllm-log) is left to it. Registered as
 * the last FormatFamily service, so every Java family has claimed its ids first.
 */
public final class SpecFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return discovered(Set.of());
  }

  @Override
  public List<InputFormat> formats(Set<String> registeredIds) {
    return discovered(registeredIds);
  }

  /** The spec-only formats, in file-name order, leaving out the ids in {@code taken}. */
  public static List<InputFormat> discovered(Set<String> taken) {
    List<InputFormat> out = new ArrayList<>();
    for (String name : specNames()) {
      String text = read(name);
      if (SpecReader.isLayer(text)) {
        continue;
      }
      LineSpec spec = SpecReader.read(name, text);
      if (!taken.contains(spec.format())) {
        out.add(SpecFormat.of(spec));
      }
    }
    return out;
  }

  /** The file names of the shipped specs ({@code parsers/*.spec}), sorted. */
  public static List<String> specNames() {
    URL anchor = SpecFormats.class.getClassLoader().getResource("parsers/" + SpecReader.WRAPPERS);
    if (anchor == null) {
      throw new IllegalStateException("parsers/" + SpecReader.WRAPPERS + " is not on the classpath");
    }
    try {
      URI uri = anchor.toURI();
      if (uri.getScheme().equals("jar")) {
        return list(dev.tokentime.JarFileSystems.of(uri).getPath("/parsers"));
      }
      return list(Path.of(uri).getParent());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spec")).sorted().toList();
    }
  }

  private static String read(String name) {
    try (var in = SpecFormats.class.getClassLoader().getResourceAsStream("parsers/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
