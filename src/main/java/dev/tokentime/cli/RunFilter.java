package dev.tokentime.cli;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** --run of the commands that read some runs of a database (not ingest's --run, which names one). */
final class RunFilter {
  @Option(names = "--run", paramLabel = "NAME", description = "Only this run (repeatable).")
  List<String> runs;

  /** The runs named, in order; empty for every run. */
  Set<String> set() {
    return runs == null ? Set.of() : new LinkedHashSet<>(runs);
  }

  boolean isEmpty() {
    return runs == null || runs.isEmpty();
  }

  String describe() {
    return runs == null ? "" : String.join(", ", runs);
  }
}
