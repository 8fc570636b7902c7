package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.Sample;
import dev.tokentime.testing.CollectingSink;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every spec in parsers/, whatever its name: it reads, it is the format the registry has under its
 * id (discovered, or a Java subclass of SpecFormat), and a bundled sample in sample-logs/ is
 * claimed by it without --from and, read with it, gives records with every line accounted for. A
 * new line format is a spec and samples; this test takes it in. parsers/README.md's table names
 * the tests of each spec: every spec has its row and every test named exists.
 */
class SpecCatalogTest {
  @Test
  void everyShippedSpecIsARegisteredFormatWithASample() throws Exception {
    List<Path> specs;
    try (Stream<Path> s = Files.list(Path.of("parsers"))) {
      specs = s.filter(p -> p.toString().endsWith(".spec")).sorted().toList();
    }
    assertEquals(specs.stream().map(p -> p.getFileName().toString()).toList(), SpecFormats.specNames(),
        "the build ships every spec of parsers/");
    FormatRegistry registry = FormatRegistry.standard();
    List<Path> samples;
    try (Stream<Path> s = Files.walk(Path.of("sample-logs"))) {
      samples = s.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/expected/")).sorted().toList();
    }
    List<String> problems = new ArrayList<>();
    int formats = 0;
    for (Path p : specs) {
      String text = Files.readString(p);
      LineSpec spec = SpecReader.read(p.getFileName().toString(), text);
      if (SpecReader.isLayer(text)) {
        continue;
      }
      formats++;
      InputFormat f = registry.byId(spec.format());
      if (!(f instanceof SpecFormat sf)) {
        problems.add(p + ": format " + spec.format() + " is not registered as a spec-driven format");
        continue;
      }
      assertEquals(spec.kinds().size(), sf.spec().kinds().size(), p.toString());
      Path claimed = null;
      for (Path sample : samples) {
        byte[] head = Files.readAllBytes(sample);
        byte[] cut = head.length > 65536 ? java.util.Arrays.copyOf(head, 65536) : head;
        InputFormat got = registry.sniff(new Sample(sample.getFileName().toString(), cut, cut.length));
        if (got == f) {
          claimed = sample;
          break;
        }
      }
      if (claimed == null) {
        problems.add(p + ": no sample in sample-logs/ is claimed by " + spec.format());
        continue;
      }
      CollectingSink sink = new CollectingSink();
      long lines;
      try (InputStream in = Files.newInputStream(claimed)) {
        lines = f.parse(in, new ParseContext(claimed.toString(), "r", false, null, null,
            Files.getLastModifiedTime(claimed).toInstant(), null), sink);
      }
      if (sink.records == 0 || lines != sink.records + sink.other + sink.rejects.size()) {
        problems.add(p + ": its sample " + claimed + " read as " + lines + " lines: " + sink.records
            + " records, " + sink.other + " other, " + sink.rejects.size() + " rejected");
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(formats >= 2, "vllm-log and trtllm-log at least");
  }

  static final Pattern ROW = Pattern.compile("^\\| `([^`]+\\.spec)` \\|.*\\|([^|]*)\\|\\s*$", Pattern.MULTILINE);
  static final Pattern NAME = Pattern.compile("`(\\w+Test)`");

  /** parsers/README.md's table has a row for every spec, and the tests it names exist. */
  @Test
  void theReadmeNamesTheTestsOfEverySpec() throws Exception {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(Files.readString(Path.of("parsers/README.md")));
    while (m.find()) {
      rows.put(m.group(1), NAME.matcher(m.group(2)).results().map(r -> r.group(1)).toList());
    }
    List<String> tests;
    try (Stream<Path> s = Files.walk(Path.of("src/test/java"))) {
      tests = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("Test.java")).toList();
    }
    List<String> problems = new ArrayList<>();
    for (String spec : SpecFormats.specNames()) {
      List<String> named = rows.getOrDefault(spec, List.of());
      if (named.isEmpty()) {
        problems.add("parsers/README.md: no row naming the tests of " + spec);
      }
      for (String t : named) {
        if (!tests.contains(t + ".java")) {
          problems.add("parsers/README.md: " + spec + " names " + t + ", which is not a test in src/test/java");
        }
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(SpecFormats.specNames().size(), rows.size(), "one row per spec: " + rows.keySet());
  }

  @Test
  void aSpecAloneIsAFormat() {
    SpecFormat f = SpecFormat.of(SpecReader.read("toy.spec", SpecEngineTest.SPEC));
    assertEquals("toy-log", f.id());
    var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> SpecFormat.of(
        SpecReader.read("x.spec", "format x\nkind r requests received\n  match ^R (?<id>\\S+)\n")));
    assertTrue(e.getMessage().contains("names request event received"), e.getMessage());
  }
}
