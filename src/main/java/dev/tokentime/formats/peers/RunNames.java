package dev.tokentime.formats.peers;

/**
 * Names the runs of one file. A tool file usually holds one run, named like any other file's
 * (--run, else the parent directory); when it holds several (genai-perf experiments, a vLLM
 * --append-result file, SGLang's one line per run), the first keeps that name and the k-th is
 * named {@code <name>#k}, so the runs stay apart without guessing from their levels.
 */
final class RunNames {
  private final String base;
  private int count;

  RunNames(String base) {
    this.base = base;
  }

  /** The name of the next run in the file. */
  String next() {
    count++;
    return count == 1 ? base : base + "#" + count;
  }

  /** The name of the k-th run (1-based). */
  String nth(int k) {
    return k == 1 ? base : base + "#" + k;
  }
}
