package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every spec in parsers/, whatever its name: it reads, it is the format the registry has under its
 * id (discovered, or a Java subclass of SpecFormat), and a bundled sample in sample-logs/ is
 * claimed by it without --from. A new line format is a spec and samples; this test takes it in.
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
      boolean claimed = false;
      for (Path sample : samples) {
        byte[] head = Files.readAllBytes(sample);
        byte[] cut = head.length > 65536 ? java.util.Arrays.copyOf(head, 65536) : head;
        InputFormat got = registry.sniff(new Sample(sample.getFileName().toString(), cut, cut.length));
        if (got == f) {
          claimed = true;
          break;
        }
      }
      if (!claimed) {
        problems.add(p + ": no sample in sample-logs/ is claimed by " + spec.format());
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(formats >= 2, "vllm-log and trtllm-log at least");
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
