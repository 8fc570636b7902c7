package dev.tokentime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Commands are options plus a service call (docs/design.md): none imports the store, borrows
 * another command's statics, or grows past ~80 lines. Each rule names the file that breaks it.
 */
class ThinCommandsTest {
  static final Path CLI = Path.of("src/main/java/dev/tokentime/cli");
  static final Pattern OTHER_COMMAND = Pattern.compile("\\b([A-Z][A-Za-z]*Command)\\.[a-zA-Z_]");

  @Test
  void commandsAreThin() throws Exception {
    List<String> problems = new ArrayList<>();
    try (Stream<Path> s = Files.list(CLI)) {
      for (Path p : s.filter(f -> f.getFileName().toString().endsWith("Command.java")).sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.equals("BaseCommand.java")) {
          continue;
        }
        String src = Files.readString(p);
        if (src.contains("import dev.tokentime.store.")) {
          problems.add(p + ": imports dev.tokentime.store (call a service in app/ instead)");
        }
        if (src.contains("java.sql.")) {
          problems.add(p + ": uses JDBC (a service in app/ or query/ runs SQL)");
        }
        Matcher m = OTHER_COMMAND.matcher(src);
        while (m.find()) {
          if (!name.equals(m.group(1) + ".java")) {
            problems.add(p + ": uses " + m.group() + "… of another command (move the shared part out)");
          }
        }
        long lines = src.lines().count();
        if (lines > 85) {
          problems.add(p + ": " + lines + " lines (a command is options plus a service call: under ~80)");
        }
      }
    }
    assertEquals(List.of(), problems);
  }
}
