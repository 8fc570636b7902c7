package dev.tokentime.ingest;

import java.io.IOException;
import java.io.InputStream;

/**
 * An input format: an id, a sniff rule and a parser to canonical rows. Implementations hold no
 * per-file state; {@link #parse} may run for several files at once on different threads.
 */
public interface InputFormat {

  /** Format id as users name it with --from (e.g. tokentime-jsonl). */
  String id();

  /** One line for `tokentime formats`. */
  String description();

  /** Which canonical tables the format fills, for `tokentime formats`. */
  String fills();

  /**
   * How sure the format is that a file is its own, from the first bytes of the (decompressed)
   * file and its name: 0 = not mine, 100 = certain. The highest score wins; below 50 is ignored.
   */
  int sniff(Sample sample);

  /**
   * Where this format's request ids are unique: a name shared by the formats whose files of one
   * run describe the same requests (a requests file and a tokens file), or null for "within one
   * file" (a server log whose ids may repeat across restarts).
   */
  default String idNamespace() {
    return null;
  }

  /**
   * Whether a file of this format is a tool's result that holds its runs whole (vllm bench serve's
   * --save-result JSON, a console summary): files of it side by side in one folder (a sweep's
   * results directory) are different runs, each named by its folder and file
   * ({@code results/vllm-c16}; a result and its console log of one name share it), where the files
   * of one run folder (a requests file, a tokens file, a result and its console log) share the
   * folder's name.
   */
  default boolean runPerFile() {
    return false;
  }

  /**
   * The run a file's place in a known layout names, where that layout keeps one run's files in
   * different folders (the LLMPerf leaderboard's {@code raw_data/individual/X.json} and
   * {@code raw_data/summary/X.json}: run {@code raw_data/X}); null for the usual rules (the
   * folder's name, or {@link #runPerFile()}). --run still wins.
   */
  default String runOf(java.nio.file.Path file) {
    return null;
  }

  /**
   * A second look, asked of every format only when none was sure enough of a file's first lines
   * ({@link FormatRegistry#sniff}): how sure this one is of the rest of the sample (a server log
   * after a container's own start-up of many lines). 0, by default: no second look.
   */
  default int sniffFurther(Sample sample) {
    return 0;
  }

  /**
   * Whether the format reads a tool's printed report (a console summary's block or tables): the
   * kind of text kept whole in a document (results.md, a post-mortem's notes), which is then read
   * for it; a document found in a folder is otherwise no input (app.Documents). False by default.
   */
  default boolean printedReport() {
    return false;
  }

  /**
   * Whether the format's records may come after anything else in a file, so that a file whose
   * head shows no format may still be its own by its last lines (a console summary printed at
   * the end of a run's log); its parser reads the lines before as other lines.
   */
  default boolean readsFromAnywhere() {
    return false;
  }

  /**
   * A reader of this format's records where they stand among another format's lines (a load-test
   * tool's result block printed into a server's log, as a CI job or a script's {@code &> run.log}
   * leaves them), or null when its records never do. It is offered the lines the other format
   * did not read, in order, and accounts for each line it takes.
   */
  default EmbeddedReader embeddedReader(ParseContext ctx, RecordSink sink) {
    return null;
  }

  /** Reads one format's records from the lines a line log's own format leaves. */
  interface EmbeddedReader {
    /**
     * Offers a line no kind of the host format read (its text as decoded, wrappers included):
     * true when this reader takes it and accounts for it (a record, an other line or a reject,
     * now or by {@link #end}); false leaves it to the host, to account as its own.
     */
    boolean offer(long lineNo, String line);

    /** The input ended: write and account for what is held. */
    void end();
  }

  /**
   * Whether a file this format was sniffed for by its head may still be a console summary's, by
   * its last lines ({@link #readsFromAnywhere}): true for a line log whose head can be start-up
   * lines alone (a bench client's log of the engine library's start-up), never for a structured
   * document, whose text (a request's output) may quote anything.
   */
  default boolean yieldsToATail() {
    return false;
  }

  /**
   * Why a file is left out, given the names of the same ingest's files in its folder (its own
   * among them): the others already hold what it holds (vllm bench sweep's {@code summary.json} beside its
   * {@code run=N.json}), or it is no measurement (the sweep's {@code warmup.json}); null to read
   * it. A file ingested alone is read.
   */
  default String leaveOut(String fileName, java.util.Set<String> folder) {
    return null;
  }

  /**
   * How a file is read given the names of the same ingest's files in its folder (its own among
   * them): this format, or a reading of it that leaves to a file beside it what that file gives
   * better (AIPerf's profile_export.jsonl takes its chunks from profile_export_raw.jsonl beside it,
   * which then gives only those). A file ingested alone is read as this format.
   */
  default InputFormat inFolder(String fileName, java.util.Set<String> folder) {
    return this;
  }

  /**
   * The run-wide id namespace a reading of this format from {@link #inFolder} uses (its rows meet
   * another format's by id there), or null: stored rows of the format are looked up in it when a
   * later ingest adds to or replaces a file of the pair.
   */
  default String folderNamespace() {
    return null;
  }

  /**
   * Reads the whole stream, handing rows, other lines and rejects to the sink. Returns the number
   * of lines (or records, for formats that are not line-oriented) read, which must equal records +
   * other lines + rejects as reported to the sink.
   */
  long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException;
}
