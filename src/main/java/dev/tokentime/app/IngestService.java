package dev.tokentime.app;

import dev.tokentime.BadInputException;
import dev.tokentime.Timing;
import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.query.QueryLibrary;
import dev.tokentime.store.Database;
import dev.tokentime.store.Deriver;
import dev.tokentime.store.RequestLinker;
import dev.tokentime.store.StoredSources;
import dev.tokentime.store.IngestStore;
import dev.tokentime.store.SourceInfo;
import dev.tokentime.store.SourceWriter;
import dev.tokentime.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads files into a database: resolves inputs and picks each file's format first (so a file
 * named explicitly that cannot be read fails before anything is written), then ingests the files
 * — several at once, each in its own transaction on its own connection — then derives what the
 * reading could not and runs the invariant checks.
 */
public final class IngestService {

  /** Hears about progress; the CLI prints, tests listen. Calls may come from several threads. */
  public interface Listener {
    default void fileDone(IngestResult.FileResult r) {}

    default void note(String message) {}

    /** How far the current file has got (twice a second while it is read). */
    default void progress(Progress p) {}
  }

  /** A progress report: bytes of the file read so far, lines handled, seconds since its start. */
  public record Progress(String path, long bytesRead, long bytesTotal, long lines, double seconds) {

    /** Seconds left at the rate so far, or -1 when unknown. */
    public double etaSeconds() {
      if (bytesRead <= 0 || bytesTotal <= 0 || seconds <= 0) {
        return -1;
      }
      return seconds * (bytesTotal - bytesRead) / bytesRead;
    }

    public double linesPerSecond() {
      return seconds > 0 ? lines / seconds : 0;
    }
  }

  /**
   * A file to ingest, with what was learnt of it before ingesting; {@code embedded} a format whose
   * records stand among its lines (OpenedInput.embeddedIn), or null.
   */
  private record Planned(InputResolver.Input input, Path path, InputFormat format, InputFormat embedded,
      String compression, long size, String sha256, String run, String head) {

    Planned(InputResolver.Input input, Path path, InputFormat format, InputFormat embedded, String compression,
        long size, String sha256) {
      this(input, path, format, embedded, compression, size, sha256, null, null);
    }
  }

  private final FormatRegistry formats;

  public IngestService(FormatRegistry formats) {
    this.formats = formats;
  }

  /** Files ingested at once: one per core (each also keeps a core busy inserting), at most 4. */
  static int parallelism(int files) {
    return Math.max(1, Math.min(files, Math.min(4, Runtime.getRuntime().availableProcessors())));
  }

  public IngestResult ingest(Database db, IngestOptions o, Listener listener) throws SQLException {
    InputFormat forced = null;
    if (o.from() != null) {
      forced = formats.byId(o.from());
      if (forced == null) {
        throw new BadInputException("unknown format " + o.from() + " (tokentime formats lists them)");
      }
    }
    List<InputResolver.Input> inputs = InputResolver.resolve(o.inputs());
    if (inputs.isEmpty()) {
      // the names given, so that a wrong folder (the parent of the run's, an empty mount) shows
      List<String> given = o.inputs();
      throw new BadInputException("no input files: " + (given.size() <= 3 ? String.join(", ", given)
          : String.join(", ", given.subList(0, 3)) + ", …") + (given.size() == 1 ? " holds" : " hold")
          + " no file to read (folders are read recursively, expected/ folders skipped)");
    }
    long t = System.nanoTime();
    // writes outside a file's transaction go through the exit gate (Database.durableWrite)
    db.durableWrite(() -> {
      QueryLibrary.get().installIfChanged(db);
      return null;
    });
    t = Timing.since("views", t);
    List<IngestResult.Skipped> skipped = new ArrayList<>();
    List<Path> spooled = new ArrayList<>();
    List<IngestResult.FileResult> done = new ArrayList<>();
    boolean strictFailure = false;
    List<String> runs;
    if (Deriver.hasPending(db)) {
      // an ingest stopped (killed) after committing files and before deriving them: finish it
      // first, so this one starts from runs as they are and every run is derived
      db.durableWrite(() -> db.underLeanLimit(() -> Deriver.derive(db, formats.namespaceFormats(), List.of())));
      listener.note("finished deriving files an earlier ingest committed but did not derive");
    }
    try {
      Pairs pairs = storedPartners(db, inputs, forced, o.replace());
      if (!pairs.reread().isEmpty()) {
        Set<String> given = inputs.stream().filter(i -> !i.stdin()).map(i -> key(i.path()))
            .collect(java.util.stream.Collectors.toSet());
        inputs = new ArrayList<>(inputs);
        for (String path : pairs.reread().keySet()) {
          if (!given.contains(path)) {
            inputs.add(new InputResolver.Input(Path.of(path), false));
          }
        }
      }
      List<Planned> planned = plan(inputs, forced, o.strict(), skipped, spooled);
      List<Planned> plan = o.run() == null ? folderRuns(db, planned) : planned;
      pairs = pairs.leftOut(plan.stream().map(p -> key(p.path())).collect(java.util.stream.Collectors.toSet()));
      Pairs paired = pairs;
      t = Timing.since("plan (sniff, duplicate check)", t);
      // files load under DuckDB's load limit (Database.loadMemoryLimit); the derive step and the
      // checks after them under the lean one (Database.underLeanLimit)
      db.setMemoryLimit(Database.loadMemoryLimit());
      try (IngestStore store = db.durableWrite(() -> new IngestStore(db, formats.namespaceFormats()))) {
        int jobs = o.strict() ? 1 : o.jobs() > 0 ? Math.min(o.jobs(), plan.size()) : parallelism(plan.size());
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
          Thread thread = new Thread(r, "tokentime-ingest");
          thread.setDaemon(true);
          return thread;
        });
        try {
          // readings of one growing log are read one after the other (GrownChains), the rest at once
          List<java.util.concurrent.CompletableFuture<IngestResult.FileResult>> futures = new ArrayList<>();
          for (int i = 0; i < plan.size(); i++) {
            futures.add(new java.util.concurrent.CompletableFuture<>());
          }
          for (List<Integer> chain : runChains(plan, o, pairChains(plan, o.replace() || !paired.reread().isEmpty(),
              o.replace() || !paired.reread().isEmpty() ? StoredSources.paths(db) : Set.of(),
              GrownChains.of(plan.stream().map(p -> new GrownChains.File(
              p.input().stdin() ? null : p.path(), !p.compression().equals("none"), p.size(), p.head())).toList())))) {
            pool.submit(() -> {
              for (int i : chain) {
                if (futures.get(i).isDone() || Thread.currentThread().isInterrupted()) {
                  futures.get(i).cancel(false); // --strict stopped at a rejected line
                  continue;
                }
                try {
                  futures.get(i).complete(ingestOrRefuse(store, plan.get(i), o, paired, listener));
                } catch (RuntimeException | Error e) {
                  futures.get(i).completeExceptionally(e);
                }
              }
            });
          }
          for (Future<IngestResult.FileResult> f : futures) {
            IngestResult.FileResult r = get(f);
            done.add(r);
            listener.fileDone(r);
            if (o.strict() && r.rejected() > 0) {
              strictFailure = true;
              futures.forEach(x -> x.cancel(true));
              break;
            }
          }
        } finally {
          pool.shutdownNow();
        }
        runs = List.copyOf(store.touchedRuns());
      }
      Timing.since("files", t);
    } finally {
      db.setMemoryLimit(Database.memoryLimit());
      for (Path p : spooled) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // a temp file left behind is harmless
        }
      }
    }
    long t0 = System.nanoTime();
    boolean stopped = strictFailure;
    List<String> touched = runs;
    return db.durableWrite(() -> derive(db, touched, done, skipped, stopped, listener, t0));
  }

  /** After the files: the derive step, links, checks and the checkpoint. */
  private IngestResult derive(Database db, List<String> runs, List<IngestResult.FileResult> done,
      List<IngestResult.Skipped> skipped, boolean strictFailure, Listener listener, long t) throws SQLException {
    // each step is retry-safe (a transaction, or reads): see Database.underLeanLimit
    long dropped = db.underLeanLimit(() -> Deriver.derive(db, formats.namespaceFormats(), runs));
    if (dropped > 0) {
      listener.note(String.format(java.util.Locale.ROOT, "note: %,d token %s two files held (read at once, or a tokens"
          + " file's and its requests'): kept once, the first file's", dropped, dropped == 1 ? "position" : "positions"));
    }
    db.underLeanLimit(() -> {
      RequestLinker.link(db);
      return null;
    });
    t = Timing.since("derive and link", t);
    List<IngestResult.FailedCheck> failed = db.underLeanLimit(() -> failedChecks(db));
    t = Timing.since("checks", t);
    // The checkpoint that closing would run writes the loaded and derived tables to the file; run
    // here it keeps to the lean limit, where on close it ran under the general one and set the
    // ingest's peak memory (BENCHMARKS.md). It is retry-safe: a second checkpoint finds less to do.
    db.underLeanLimit(() -> {
      db.execute("CHECKPOINT");
      return null;
    });
    Timing.since("checkpoint", t);
    return new IngestResult(done, skipped, runs, strictFailure, failed);
  }

  /** A file the stored partner of its pair already gives (as the JSONL gives the per-record CSV's requests). */
  record Already(int source, String why) {}

  /**
   * What this ingest does about pairs (InputFormat.inFolder, leaveOut) whose other file was stored
   * by an earlier ingest, keyed by path: stored files read again beside their partner (their
   * source id), stored sources a file's reading deletes (a partner it leaves out), files refused
   * or already given, and notes for the files' reports.
   */
  record Pairs(Map<String, Integer> reread, Map<String, String> trigger, Map<String, List<Integer>> alsoReplace,
      Map<String, String> refusals, Map<String, Already> already, Map<String, String> notes) {

    static Pairs none() {
      return new Pairs(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
    }

    /**
     * A stored partner read again and then left out beside the new file (the per-record CSV
     * beside the JSONL): its reading is deleted by the transaction of the file that leaves it out.
     */
    Pairs leftOut(Set<String> planned) {
      Map<String, Integer> reread = new HashMap<>(this.reread);
      Map<String, List<Integer>> also = new HashMap<>();
      Map<String, String> notes = new HashMap<>(this.notes);
      for (Map.Entry<String, Integer> e : this.reread.entrySet()) {
        if (!planned.contains(e.getKey())) {
          reread.remove(e.getKey());
          notes.remove(e.getKey());
          String by = trigger.get(e.getKey());
          also.computeIfAbsent(by, k -> new ArrayList<>()).add(e.getValue());
          notes.merge(by, "read in place of source " + e.getValue() + " (" + e.getKey() + ", ingested before), whose"
              + " requests it holds", (a, b) -> a + "; " + b);
        }
      }
      return new Pairs(reread, trigger, also, refusals, already, notes);
    }
  }

  /** A file's path as sources.path holds it. */
  private static String key(Path path) {
    return path.toAbsolutePath().normalize().toString();
  }

  /**
   * The files of a pair meet by request id (AIPerf's profile_export.jsonl and its raw or per-record
   * file; InputFormat.inFolder): read in separate ingests, the second was read as if alone and
   * the run's requests were counted twice. A file of this ingest whose pair's other file is stored
   * (same folder, not read in this ingest) is read with that file read again beside it, in place
   * of its reading alone, as one ingest of the folder reads them; where the stored file's reading
   * gives this one's requests (the JSONL, for the per-record CSV) this file is already ingested; a
   * partner no longer there as it was read refuses the file, naming it. Under --replace the same
   * holds for a file read again, since read alone it takes back the requests.
   */
  private Pairs storedPartners(Database db, List<InputResolver.Input> inputs, InputFormat forced, boolean replace)
      throws SQLException {
    Map<String, String> folderNs = new HashMap<>();
    for (InputFormat f : formats.all()) {
      if (f.folderNamespace() != null) {
        folderNs.put(f.id(), f.folderNamespace());
      }
    }
    if (folderNs.isEmpty() || inputs.stream().allMatch(InputResolver.Input::stdin)) {
      return Pairs.none();
    }
    Map<String, List<StoredSources.Stored>> byDir = new HashMap<>();
    for (StoredSources.Stored s : StoredSources.ofFormats(db, folderNs.keySet())) {
      Path sp = Path.of(s.path());
      if (sp.getParent() != null) {
        byDir.computeIfAbsent(sp.getParent().toString(), d -> new ArrayList<>()).add(s);
      }
    }
    if (byDir.isEmpty()) {
      return Pairs.none();
    }
    Set<String> given = new java.util.HashSet<>();
    for (InputResolver.Input i : inputs) {
      if (!i.stdin()) {
        given.add(key(i.path()));
      }
    }
    Map<String, Integer> reread = new java.util.LinkedHashMap<>();
    Map<String, String> trigger = new HashMap<>();
    Map<String, String> refusals = new HashMap<>();
    Map<String, Already> already = new HashMap<>();
    Map<String, String> notes = new HashMap<>();
    for (InputResolver.Input i : inputs) {
      if (i.stdin() || i.problem() != null) {
        continue;
      }
      String n = key(i.path());
      Path np = Path.of(n);
      List<StoredSources.Stored> stored = np.getParent() == null ? null : byDir.get(np.getParent().toString());
      if (stored == null || !replace && stored.stream().anyMatch(x -> x.path().equals(n))) {
        continue; // read again without --replace it is "already ingested", and changes nothing
      }
      InputFormat f = forced;
      if (f == null) {
        try (OpenedInput probe = OpenedInput.open(i.path())) {
          f = probe.sniffed(formats);
        } catch (IOException | RuntimeException e) {
          continue; // its own reading says what is wrong
        }
      }
      if (f == null || f.folderNamespace() == null) {
        continue;
      }
      String nName = np.getFileName().toString();
      for (StoredSources.Stored x : stored) {
        InputFormat xf = formats.byId(x.format());
        // a partner given too is read again anyway under --replace; without, it would be "already
        // ingested", its reading alone kept beside this file's reading as the pair's
        if (x.path().equals(n) || replace && given.contains(x.path()) || xf == null
            || !f.folderNamespace().equals(folderNs.get(x.format()))) {
          continue;
        }
        String xName = Path.of(x.path()).getFileName().toString();
        Set<String> both = Set.of(nName, xName);
        String given1 = f.leaveOut(nName, both);
        if (given1 != null) {
          already.put(n, new Already(x.id(), "already ingested: " + given1.replace("beside it, which is read",
              "beside it, ingested before") + " as source " + x.id() + "; nothing of it is new"));
          break;
        }
        boolean pair = f.inFolder(nName, both).idNamespace() != null || xf.leaveOut(xName, both) != null
            || xf.inFolder(xName, both).idNamespace() != null;
        if (!pair) {
          continue;
        }
        if (unchanged(Path.of(x.path()), x.sha256())) {
          if (reread.putIfAbsent(x.path(), x.id()) == null) {
            trigger.put(x.path(), n);
            notes.put(x.path(), "read again beside " + nName + ", in place of its earlier reading (source " + x.id()
                + "): the two files of the pair are read together, each request counted once");
          }
        } else {
          refusals.put(n, "pairs with " + x.path() + ", ingested before without it (source " + x.id() + ") and no"
              + " longer there as it was read: read now, this file would count the run's requests a second time;"
              + " put that file back and ingest the folder again (tokentime ingest --replace "
              + np.getParent() + "), or ingest this file into another database");
          break;
        }
      }
    }
    return new Pairs(reread, trigger, Map.of(), refusals, already, notes);
  }

  /** Whether the file at {@code path} still holds the content stored with this SHA-256. */
  private static boolean unchanged(Path path, String sha) {
    try {
      if (!Files.isRegularFile(path)) {
        return false;
      }
      OpenedInput.Hashes h = OpenedInput.hashesOf(path);
      return h.content().equals(sha) || h.raw().equals(sha);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The files of one run whose request ids share a namespace (a run's requests and tokens files,
   * or two files of the same requests) are read one after the other, in the plan's order, so the
   * earlier file keeps a request id both carry: read at once, the copy kept would be the one whose
   * parse reaches the id first, and two runs of one command could keep different rows. Runs stay
   * parallel.
   */
  private static List<List<Integer>> runChains(List<Planned> plan, IngestOptions o, List<List<Integer>> chains) {
    Map<List<String>, List<Integer>> byRun = new java.util.LinkedHashMap<>();
    List<List<Integer>> out = new ArrayList<>();
    for (List<Integer> chain : chains) {
      List<String> key = null;
      for (int i : chain) {
        Planned p = plan.get(i);
        String ns = p.format().idNamespace() != null ? p.format().idNamespace() : p.format().folderNamespace();
        if (ns != null) {
          key = List.of(ns, o.run() != null ? o.run() : p.run() != null ? p.run() : defaultRun(p.input(), p.path()));
          break;
        }
      }
      if (key == null) {
        out.add(chain);
        continue;
      }
      List<Integer> merged = byRun.get(key);
      if (merged == null) {
        merged = new ArrayList<>(chain);
        byRun.put(key, merged);
        out.add(merged);
      } else {
        merged.addAll(chain);
      }
    }
    return out;
  }

  /**
   * Under --replace, or with a stored partner read again, the files of one folder whose rows meet
   * other files' by request id (a pair, a requests and a tokens CSV) are read one after the other:
   * read at once, a new file could take the keys of requests that another file's transaction was
   * deleting, its chunks then left without their request. Files read before ({@code stored}) go
   * first, so a new file meets their new reading, not chunks their old one gave (the JSONL read
   * alone rebuilds its chunks, which beside the raw file it leaves to that file).
   */
  private static List<List<Integer>> pairChains(List<Planned> plan, boolean replacing, Set<String> stored,
      List<List<Integer>> chains) {
    if (!replacing) {
      return chains;
    }
    List<List<Integer>> out = new ArrayList<>();
    Map<Path, List<List<Integer>>> byDir = new java.util.LinkedHashMap<>();
    for (List<Integer> chain : chains) {
      Path dir = null;
      for (int i : chain) {
        Planned p = plan.get(i);
        if (!p.input().stdin() && (p.format().idNamespace() != null || p.format().folderNamespace() != null)) {
          dir = p.path().toAbsolutePath().normalize().getParent();
          break;
        }
      }
      if (dir == null) {
        out.add(chain);
      } else {
        byDir.computeIfAbsent(dir, d -> new ArrayList<>()).add(chain);
      }
    }
    for (List<List<Integer>> dirChains : byDir.values()) {
      List<Integer> one = new ArrayList<>();
      dirChains.stream().sorted(java.util.Comparator.comparing((List<Integer> c) -> c.stream().noneMatch(
          i -> !plan.get(i).input().stdin() && stored.contains(key(plan.get(i).path()))))).forEach(one::addAll);
      out.add(one);
    }
    return out;
  }


  /**
   * Picks each file's format (an explicitly named file that no format claims is an error, and
   * under --strict any file; a file found in a directory is skipped and listed) and hashes files
   * whose size another file shares, so that two copies of one file in one call are ingested once.
   */
  private List<Planned> plan(List<InputResolver.Input> inputs, InputFormat forced, boolean strict,
      List<IngestResult.Skipped> skipped, List<Path> spooled) {
    List<Planned> plan = new ArrayList<>();
    Map<Long, Integer> sizes = new HashMap<>();
    Map<Path, Set<String>> neighbours = neighbours(inputs);
    for (InputResolver.Input in : inputs) {
      try {
        if (in.problem() != null) {
          throw new IOException(in.problem());
        }
        Path path = in.path();
        if (in.stdin()) {
          path = spoolStdin();
          spooled.add(path);
        }
        InputFormat format;
        InputFormat embedded;
        String compression;
        String looks = null;
        try (OpenedInput probe = OpenedInput.open(path)) {
          compression = probe.compression();
          format = forced != null ? forced : probe.sniffed(formats);
          if (format != null && !in.explicit() && Documents.isDocument(path)) {
            format = Documents.formatOf(format, forced != null, probe, formats);
            if (format == null) {
              skipped.add(new IngestResult.Skipped(in.display(), IngestResult.Skipped.LEFT_OUT + Documents.WHY));
              continue;
            }
          }
          embedded = probe.embeddedIn(format, formats);
          if (format == null) {
            looks = UnknownContent.describe(probe.sample());
          }
        }
        if (format == null) {
          boolean empty = Files.size(path) == 0;
          if (in.explicit() || strict && !empty) {
            // under --strict nothing is stored when a file found in a folder cannot be read
            throw new BadInputException(empty ? (in.stdin()
                ? "standard input (-) is empty: nothing was piped in (cat FILE | tokentime ingest -)"
                : in.display() + " is empty: nothing to ingest")
                : "cannot tell the format of " + in.display() + "; "
                + (looks != null ? looks : "name it with --from (tokentime formats lists them)")
                + (in.explicit() ? "" : ", or leave it out (--strict reads every file it finds, or stops)"));
          }
          skipped.add(new IngestResult.Skipped(in.display(), empty ? IngestResult.Skipped.EMPTY
              : IngestResult.Skipped.UNRECOGNISED + (looks == null ? "" : ": " + looks)));
          continue;
        }
        String leaveOut = in.stdin() ? null : leaveOut(format, path, neighbours);
        if (leaveOut != null) {
          skipped.add(new IngestResult.Skipped(in.display(), IngestResult.Skipped.LEFT_OUT + leaveOut));
          continue;
        }
        if (!in.stdin()) {
          format = inFolder(format, path, neighbours);
        }
        long size = Files.size(path);
        sizes.merge(size, 1, Integer::sum);
        plan.add(new Planned(in, path, format, embedded, compression, size, null));
      } catch (IOException e) {
        if (in.explicit() || strict) {
          throw new BadInputException("cannot read " + in.display() + ": " + e.getMessage(), e);
        }
        // one file of a folder that cannot be opened at all (a gzip header cut off) spoils no other
        skipped.add(new IngestResult.Skipped(in.display(), IngestResult.Skipped.UNREADABLE + e.getMessage()));
      }
    }
    List<Planned> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (Planned p : plan) {
      if (sizes.get(p.size()) < 2) {
        out.add(p);
        continue;
      }
      try {
        String sha = OpenedInput.sha256Of(p.path());
        String first = seen.putIfAbsent(sha, p.input().display());
        if (first != null) {
          skipped.add(new IngestResult.Skipped(p.input().display(), IngestResult.Skipped.SAME_AS + first));
          continue;
        }
        out.add(new Planned(p.input(), p.path(), p.format(), p.embedded(), p.compression(), p.size(), sha));
      } catch (IOException e) {
        throw new BadInputException("cannot read " + p.input().display() + ": " + e.getMessage(), e);
      }
    }
    return fileRuns(out);
  }

  /** The files of one ingest beside each file, by folder (a folder's, or a shell glob's over several folders). */
  static Map<Path, Set<String>> neighbours(List<InputResolver.Input> inputs) {
    Map<Path, Set<String>> neighbours = new HashMap<>();
    for (InputResolver.Input in : inputs) {
      if (!in.stdin()) {
        Path abs = in.path().toAbsolutePath().normalize();
        if (abs.getParent() != null && abs.getFileName() != null) {
          neighbours.computeIfAbsent(abs.getParent(), d -> new java.util.HashSet<>()).add(abs.getFileName().toString());
        }
      }
    }
    return neighbours;
  }

  /**
   * The format's reason to leave a file out, given the names of this ingest's files in its folder
   * (a sweep's summary.json is left out only when its run=N.json files are read too).
   */
  static String leaveOut(InputFormat format, Path path, Map<Path, Set<String>> neighbours) {
    Path abs = path.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    if (dir == null || abs.getFileName() == null) {
      return null;
    }
    return format.leaveOut(abs.getFileName().toString(), neighbours.getOrDefault(dir, Set.of()));
  }

  /** How the format reads the file among this ingest's files in its folder (InputFormat.inFolder). */
  static InputFormat inFolder(InputFormat format, Path path, Map<Path, Set<String>> neighbours) {
    Path abs = path.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    if (dir == null || abs.getFileName() == null) {
      return format;
    }
    return format.inFolder(abs.getFileName().toString(), neighbours.getOrDefault(dir, Set.of()));
  }

  /**
   * A tool's result file that holds its runs whole (InputFormat.runPerFile) beside others of its
   * format in one folder (a sweep's results directory: vllm-c2.json, vllm-c4.json) is a run of its
   * own, named by its folder and file ("results/vllm-c2"): named by the folder alone, the folder's
   * one run took the first file's level and refused the others'. A folder's other files (its
   * console log, a server log) keep the folder's name. The folder's files are sniffed once. Each
   * file's head is hashed here, once, for the growing-log checks.
   */
  private List<Planned> fileRuns(List<Planned> plan) {
    Map<Path, Map<String, Integer>> perDir = new HashMap<>();
    List<Planned> out = new ArrayList<>();
    for (Planned p : plan) {
      if (p.input().stdin()) {
        out.add(p);
        continue;
      }
      Path abs = p.path().toAbsolutePath().normalize();
      Path dir = abs.getParent();
      String run = p.format().runOf(abs);
      // a server log holding a tool's result block is that tool's run file too (CI logs of a sweep)
      InputFormat runs = p.format().runPerFile() || p.embedded() == null ? p.format() : p.embedded();
      if (run == null && runs.runPerFile() && dir != null && dir.getFileName() != null
          && perDir.computeIfAbsent(dir, this::formatCounts).getOrDefault(runs.id(), 0) >= 2) {
        run = dir.getFileName() + "/" + stem(abs.getFileName().toString());
      }
      out.add(new Planned(p.input(), p.path(), p.format(), p.embedded(), p.compression(), p.size(), p.sha256(), run,
          head(p)));
    }
    return out;
  }

  /**
   * Runs named by folders of one name kept apart (FolderRuns): every planned file gets its run
   * here, told apart from this ingest's other folders and from the stored sources' runs.
   */
  private static List<Planned> folderRuns(Database db, List<Planned> plan) throws SQLException {
    List<Path> files = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Planned p : plan) {
      files.add(p.input().stdin() ? null : p.path());
      names.add(p.input().stdin() ? null : p.run() != null ? p.run() : defaultRun(p.input(), p.path()));
    }
    List<String> runs = FolderRuns.name(files, names, StoredSources.runs(db));
    List<Planned> out = new ArrayList<>();
    for (int i = 0; i < plan.size(); i++) {
      Planned p = plan.get(i);
      out.add(new Planned(p.input(), p.path(), p.format(), p.embedded(), p.compression(), p.size(), p.sha256(),
          runs.get(i) == null ? p.run() : runs.get(i), p.head()));
    }
    return out;
  }

  /** The content's first 4 KiB hashed once per file (growing logs: GrownChains, IngestStore.grownSources). */
  private static String head(Planned p) {
    try {
      return Files.isRegularFile(p.path()) ? OpenedInput.headSha256(p.path(), !p.compression().equals("none")) : null;
    } catch (IOException e) {
      return null; // unreadable: its own ingest says so
    }
  }

  /** How many files of the folder (not its subfolders) each format claims, as theirs or as one embedded in their lines. */
  private Map<String, Integer> formatCounts(Path dir) {
    Map<String, Integer> counts = new HashMap<>();
    if (dir == null) {
      return counts;
    }
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        try (OpenedInput probe = OpenedInput.open(f)) {
          InputFormat format = probe.sniffed(formats);
          if (format != null) {
            counts.merge(format.id(), 1, Integer::sum);
            InputFormat embedded = probe.embeddedIn(format, formats);
            if (embedded != null) {
              counts.merge(embedded.id(), 1, Integer::sum);
            }
          }
        } catch (IOException | RuntimeException e) {
          // an unreadable neighbour counts for nothing
        }
      }
    } catch (IOException e) {
      // an unlisted folder: each file is taken as the folder's one
    }
    return counts;
  }

  /** A file's name without its compression and data suffixes: vllm-c16.json.gz is vllm-c16. */
  static String stem(String name) {
    String n = name.replaceFirst("(?i)\\.(?:gz|zst)$", "");
    return n.replaceFirst("(?i)\\.(?:json|jsonl|txt|log|csv)$", "");
  }

  private static IngestResult.FileResult get(Future<IngestResult.FileResult> f) throws SQLException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof SQLException s) {
        throw s;
      }
      if (c instanceof StoreException s && s.getCause() instanceof SQLException sql) {
        throw sql;
      }
      if (c instanceof IOException io) {
        throw new BadInputException("cannot read: " + io.getMessage(), io);
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }

  /** The invariant checks (the checks view) that find violations. */
  static List<IngestResult.FailedCheck> failedChecks(Database db) throws SQLException {
    List<IngestResult.FailedCheck> out = new ArrayList<>();
    try (var st = db.connection().createStatement();
        var rs = st.executeQuery("SELECT check_name, violations, invariant FROM checks WHERE violations > 0")) {
      while (rs.next()) {
        out.add(new IngestResult.FailedCheck(rs.getString(1), rs.getLong(2), rs.getString(3)));
      }
    }
    return out;
  }

  /**
   * Ingests one file; a failure of that file (a read error, a database error, a fault of ours)
   * rolls back that file alone and is reported as its outcome ("refused: …"), so the other files
   * of the command commit and are derived. Errors of the JVM (out of memory) still end the run.
   */
  private IngestResult.FileResult ingestOrRefuse(IngestStore store, Planned p, IngestOptions o, Pairs pairs,
      Listener listener) {
    try {
      String refusal = p.input().stdin() ? null : pairs.refusals().get(key(p.path()));
      if (refusal != null) {
        throw new BadInputException(refusal);
      }
      Already already = p.input().stdin() ? null : pairs.already().get(key(p.path()));
      if (already != null) {
        return new IngestResult.FileResult(p.input().display(), p.format().id(), p.compression(), already.source(),
            already.why(), 0, 0, 0, 0, 0, 0, List.of(), null, null, List.of(), List.of());
      }
      return ingestFile(store, p, o, pairs, listener);
    } catch (IOException | SQLException | RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw e instanceof RuntimeException r ? r : new IllegalStateException("interrupted", e);
      }
      return refused(p, e);
    }
  }

  static IngestResult.FileResult refused(Planned p, Exception e) {
    return new IngestResult.FileResult(p.input().display(), p.format().id(), p.compression(), null,
        IngestResult.REFUSED + reason(e), 0, 0, 0, 0, 0, 0, List.of(), null, null, List.of(), List.of());
  }

  /** What went wrong, in one line, for the file's report. */
  static String reason(Throwable e) {
    if (e instanceof StoreException s && s.getCause() instanceof SQLException sql) {
      e = sql;
    }
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      e = u.getCause();
    }
    String m = e instanceof SQLException sql ? Database.firstLine(sql) : e.getMessage();
    DatabaseErrors.remember(m);
    if (e instanceof dev.tokentime.ingest.InputRefused) {
      return m;
    }
    if (e instanceof IOException) {
      return "cannot read: " + m;
    }
    if (e instanceof SQLException && m != null && m.contains("Conflict on tuple deletion")) {
      // two files of one ingest replacing the same stored source at once (both grew from it)
      return "another file of this ingest replaced the same stored source at the same time (" + m
          + "); ingest this file again on its own (--jobs 1)";
    }
    if (e instanceof SQLException) {
      return "database error: " + m;
    }
    if (e instanceof BadInputException) {
      return m;
    }
    return "internal error (" + e.getClass().getSimpleName() + (m == null ? "" : ": " + m)
        + "); please report it";
  }

  /**
   * The stored source this file is the beginning of (an earlier copy of a log read after it
   * grew), or null. Proven where the source's file still is: its first bytes are still the
   * stored content, and this file is their beginning.
   */
  private static Integer beginningOf(IngestStore store, Planned p, String storedPath, String head)
      throws SQLException, IOException {
    String whole = null;
    for (IngestStore.StoredSource s : store.longerWithHead(storedPath, head, p.size())) {
      Path other = Path.of(s.path());
      if (!Files.isRegularFile(other) || Files.size(other) < s.bytes()) {
        continue;
      }
      List<String> prefixes = OpenedInput.prefixSha256(other, List.of(p.size(), s.bytes()), false);
      if (!s.sha256().equals(prefixes.get(1))) {
        continue; // the file there is no longer what was read
      }
      if (whole == null) {
        whole = OpenedInput.sha256Of(p.path());
      }
      if (whole.equals(prefixes.get(0))) {
        return s.id();
      }
    }
    return null;
  }

  private IngestResult.FileResult ingestFile(IngestStore store, Planned p, IngestOptions o, Pairs pairs,
      Listener listener) throws IOException, SQLException {
    InputResolver.Input in = p.input();
    String display = in.display();
    InputFormat format = p.format();
    String storedPath = in.stdin() ? "-" : p.path().toAbsolutePath().normalize().toString();
    // a stored file of a pair read again beside its partner, in place of its reading alone
    Integer reread = pairs.reread().get(storedPath);
    // Hash first only when it can matter: --replace, or a stored file of the same size.
    List<Integer> replace = List.of();
    // A compressed file's content may equal a stored file of another size (rotation)
    if (o.replace() || reread != null || store.anySourceOfSize(p.size()) || !p.compression().equals("none")
        || store.anyCompressedSource()) {
      OpenedInput.Hashes h = OpenedInput.hashesOf(p.path());
      String sha = h.content();
      Integer existing = store.sourceWithSha(sha);
      if (existing == null && !h.raw().equals(sha)) {
        existing = store.sourceWithSha(h.raw()); // stored by a version that hashed the file's bytes
      }
      if (o.replace() || reread != null) {
        replace = store.sourcesMatching(sha, storedPath);
      } else if (existing != null) {
        // read before as another format (--from names a new one): the same content twice would
        // count its data twice, so the new reading takes the old one's place only when asked
        String was = store.formatOf(existing);
        String why = was != null && !was.equals(format.id())
            ? "already ingested as source " + existing + ", read as " + was + " (same sha256); --replace reads it"
                + " again as " + format.id() + ", in place of that reading"
            : "already ingested as source " + existing + " (same sha256); --replace ingests it again";
        return new IngestResult.FileResult(display, format.id(), p.compression(), existing, why,
            0, 0, 0, 0, 0, 0, List.of(), null, null, List.of(), List.of());
      }
    }
    List<Integer> partnersGone = pairs.alsoReplace().getOrDefault(storedPath, List.of());
    if (!partnersGone.isEmpty()) {
      // a stored partner this file's reading leaves out (the per-record CSV beside the JSONL)
      replace = java.util.stream.Stream.concat(replace.stream(), partnersGone.stream()).distinct().toList();
    }
    List<Integer> grewFrom = List.of();
    boolean plain = p.compression().equals("none");
    String head = p.head();
    if (replace.isEmpty() && !in.stdin()) {
      // the same log read again after it grew (in place, rotated and compressed: server.log
      // read, then server.log.1.gz, or captured again under another name): its first reading
      // is replaced, not counted twice. A compressed file's size says nothing of its content's:
      // every candidate shorter in bytes is one, and its decompressed beginning is hashed
      grewFrom = store.grownSources(storedPath, plain ? p.size() : Long.MAX_VALUE, head,
          sizes -> OpenedInput.prefixSha256(p.path(), sizes, !plain));
      replace = grewFrom;
      Integer within = grewFrom.isEmpty() && plain && head != null ? beginningOf(store, p, storedPath, head) : null;
      if (within != null) {
        return new IngestResult.FileResult(display, format.id(), p.compression(), within,
            "already ingested: its content is the beginning of source " + within
                + ", read after this copy was made (the log grew since); nothing of it is new",
            0, 0, 0, 0, 0, 0, List.of(), null, null, List.of(), List.of());
      }
    }
    String defaultRun = o.run() != null ? o.run() : p.run() != null ? p.run() : defaultRun(in, p.path());
    if (o.levelKind() != null) {
      String conflict = store.levelConflict(defaultRun, o.levelKind(), o.level());
      if (conflict != null) {
        throw new BadInputException(conflict);
      }
    }
    SourceInfo info = new SourceInfo(storedPath, format.id(), p.compression(), defaultRun,
        format.idNamespace(), o.keepText(), o.levelKind(), o.level(),
        o.run() != null || in.stdin() ? List.of() : levelNameHints(p.path()));
    ParseContext ctx = new ParseContext(display, defaultRun, o.keepText(), o.zone(), o.year(),
        in.stdin() ? null : Files.getLastModifiedTime(p.path()).toInstant(), o.at());
    try (OpenedInput input = OpenedInput.open(p.path());
        SourceWriter writer = store.begin(info, replace)) {
      ParseContext read = ctx.withEmbedded(p.embedded()).withReopen(() -> OpenedInput.reopened(OpenedInput.open(p.path())));
      long lines;
      long t0 = System.nanoTime();
      try (ProgressTicker ticker = new ProgressTicker(display, p.size(), input::rawBytesRead,
          () -> writer.records() + writer.otherLines() + writer.rejected(), listener)) {
        lines = writer.load(() -> {
          long n = format.parse(input.content(), read, new dev.tokentime.ingest.CheckedSink(writer));
          if (input.damage() != null) {
            // the cut or corrupt end of a compressed file is a rejected line (--strict refuses
            // the file), not just a warning: its lines after the damage are lost
            writer.reject(n + 1, input.damage() + "; the lines before it were read", null, 0, 0);
            n++;
          }
          return n;
        });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      long t1 = System.nanoTime();
      String sha = input.sha256();
      if (o.strict() && writer.rejected() > 0) {
        writer.rollback();
        return result(display, format, p.compression(), null, "rolled back (--strict)", lines,
            writer, input.damage());
      }
      String repeated = writer.dropRepeatedChunks(); // refuses a file that repeats its own chunks
      writer.commit(sha, p.size(), lines, head, input.contentBytes());
      Timing.note("%s load %.2f s, commit %.2f s", display, (t1 - t0) / 1e9,
          (System.nanoTime() - t1) / 1e9);
      IngestResult.FileResult r = result(display, format, p.compression(), writer.sourceId(), "ingested", lines,
          writer, input.damage());
      List<String> notes = new ArrayList<>();
      String pairNote = pairs.notes().get(storedPath);
      if (pairNote != null) {
        notes.add(pairNote);
      }
      if (repeated != null) {
        notes.add(repeated);
      }
      if (o.run() != null && writer.records() > 0 && !writer.runs().isEmpty() && !writer.runs().contains(o.run())) {
        // --run names the run of records that name none: these all named theirs
        notes.add("--run " + o.run() + " did not apply: every record names its own run ("
            + String.join(", ", new java.util.TreeSet<>(writer.runs())) + ")");
      }
      return r.with(grewFrom, List.copyOf(notes));
    }
  }

  private static IngestResult.FileResult result(String display, InputFormat f, String compression,
      Integer sourceId, String outcome, long lines, SourceWriter w, String damage) {
    return new IngestResult.FileResult(display, f.id(), compression, sourceId, outcome, lines,
        w.records(), w.otherLines(), w.rejected(), w.requestRows(), w.tokenRows(),
        List.copyOf(w.firstRejects()), damage, w.nearMisses(), List.of(), List.of(), w.embeddedAccount());
  }

  /**
   * Names a run named after its directory may take its level from: the file's name, then the two
   * directories above the run's own, nearest first (sweep/concurrency=16/a/server.log).
   */
  static List<String> levelNameHints(Path path) {
    Path abs = path.toAbsolutePath().normalize();
    List<String> out = new ArrayList<>();
    out.add(abs.getFileName().toString());
    Path dir = abs.getParent() == null ? null : abs.getParent().getParent();
    for (int i = 0; i < 2 && dir != null && dir.getFileName() != null; i++, dir = dir.getParent()) {
      out.add(dir.getFileName().toString());
    }
    return out;
  }

  /** The parent directory's name; "stdin" for standard input. */
  static String defaultRun(InputResolver.Input in, Path path) {
    if (in.stdin()) {
      return "stdin";
    }
    Path parent = path.toAbsolutePath().normalize().getParent();
    return parent == null || parent.getFileName() == null ? "default" : parent.getFileName().toString();
  }

  /** Standard input is copied to a temporary file, so it can be sniffed, hashed and re-read. */
  private static Path spoolStdin() throws IOException {
    Path tmp = Files.createTempFile("tokentime-stdin-", ".in");
    // a copy of the whole input: an ingest interrupted by Ctrl-C left it in the temporary directory
    tmp.toFile().deleteOnExit();
    try (InputStream in = System.in) {
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
    }
    return tmp;
  }
}
