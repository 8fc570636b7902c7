package dev.tokentime.formats.spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a spec made of one line: its prefixes' values, its time readings, its kind and groups. */
public final class MatchedLine {
  /** One time a prefix carried, as text in the groups its time rule names. */
  public record TimeReading(LineSpec.TimeRule rule, String[] parts) {}

  public long lineNo;
  /** The line as read, before an envelope was unwrapped (its JSON fields name the pod). */
  public String raw;
  /** The line after strip patterns (ANSI colour codes) were removed. */
  public String text;
  /** The line after its prefixes (what kinds are matched against), made when first asked for. */
  private String message;
  /** Where the message starts in {@link #text}. */
  private int messageStart;
  /** Values of the prefixes' groups; a prefix met twice (nested processes) joins with " / ". */
  public final Map<String, String> prefixValues = new LinkedHashMap<>();
  /** Names of the prefixes that matched, in order. */
  public final List<String> prefixes = new ArrayList<>();
  public final List<TimeReading> times = new ArrayList<>();
  /** The kind that matched, or null (an "other" line). */
  public LineSpec.Kind kind;
  /** The kind's groups that matched (absent when the group did not take part). */
  public final Map<String, String> groups = new LinkedHashMap<>();
  /**
   * The identity text a sticky prefix peeled ("gpu-1 vllm: ", from its first group after its time
   * to its end) and that prefix's index, or null: the file's later lines may be peeled by it.
   */
  String stickyText;
  int stickyPrefix;
  /** The section prefix that peeled this line (a heading of the lines after it), or -1. */
  int sectionPrefix = -1;
  /** The line before this one (its text and where its message starts), or null: set as it is read. */
  String previousText;
  int previousStart;

  /** The message of the line before this one (after its prefixes), or null. */
  public String previousMessage() {
    return previousText == null ? null : previousText.substring(Math.min(previousStart, previousText.length()));
  }

  /** What decoding and matching made of a line, before it is stored. */
  public static final class Prepared {
    /** Decoded and matched (the kind may still be null: an other line). */
    static final Prepared MATCHED = new Prepared(null);
    /** Blank: an other line. */
    static final Prepared BLANK = new Prepared(null);

    private final String rejectReason;

    private Prepared(String rejectReason) {
      this.rejectReason = rejectReason;
    }

    static Prepared reject(String reason) {
      return new Prepared(reason);
    }

    /** Why the line is rejected (not UTF-8, control characters), or null. */
    String rejectReason() {
      return rejectReason;
    }
  }

  MatchedLine reset(long lineNo) {
    this.lineNo = lineNo;
    text = message = null;
    messageStart = 0;
    prefixValues.clear();
    prefixes.clear();
    times.clear();
    kind = null;
    groups.clear();
    stickyText = null;
    sectionPrefix = -1;
    return this;
  }

  /** The line after its prefixes: what kinds are matched against. */
  public String message() {
    if (message == null && text != null) {
      message = text.substring(messageStart);
    }
    return message;
  }

  /** Where the message starts in {@link #text}. */
  int messageStart() {
    return messageStart;
  }

  /** The message is {@link #text} from {@code start} on (a copy is made only if it is asked for). */
  void messageFrom(int start) {
    messageStart = start;
    message = start == 0 ? text : null;
  }

  public String group(String name) {
    return groups.get(name);
  }

  public String prefixValue(String name) {
    return prefixValues.get(name);
  }

  /** Prefix groups that name where a line came from, outermost first (docs/formats.md, "Wrappers"). */
  static final String[] IDENTITY = {"host", "pod", "container", "service", "tag", "rank", "unit", "replica", "task"};

  /**
   * Where the line came from, from its prefixes: the wrapper's identity (host, pod, container,
   * compose service, tag, syslog/journald unit with its pid, a Ray Serve replica with its pid, a
   * launcher's task) and the process chain ({@code
   * APIServer pid=1}, nested ones joined), or null when the line names none.
   */
  public String origin() {
    String ident = identity();
    String proc = processChain();
    if (ident != null && proc != null) {
      return ident + " / " + proc;
    }
    return ident != null ? ident : proc;
  }

  /** The wrapper's identity alone (no process chain), or null. */
  public String identity() {
    return identity(true);
  }

  /**
   * The server the line came from: its wrapper identity without a rank's tag (torch.distributed's
   * "[rank0]:", torchrun's "[default0]:", mpirun's "[1,0]<stdout>:"), or null. The ranks of one engine log each under its own
   * tag; a rank is a part of its server, not a server: one death told by every rank is one crash,
   * and it ends the requests of that server.
   */
  public String server() {
    return identity(false);
  }

  /** {@link #server()} as a key: "" for a file of one server. */
  public String serverKey() {
    String id = server();
    return id == null ? "" : id;
  }

  /**
   * Whether a row's instance is of the server a line's wrapper names ({@code server}: a pod, a
   * host; null, a file of one server, names every row): the instance is the server, or a process
   * of it ("server / process").
   */
  public static boolean ofServer(String instance, String server) {
    return server == null || instance != null && (instance.equals(server) || instance.startsWith(server + " / "));
  }

  private String identity(boolean withRank) {
    if (prefixValues.isEmpty()) {
      return null;
    }
    StringBuilder sb = null;
    for (String g : IDENTITY) {
      String v = prefixValues.get(g);
      if (v == null || !withRank && g.equals("rank")) {
        continue;
      }
      if (g.equals("unit") && prefixValues.get("upid") != null) {
        v = v + "[" + prefixValues.get("upid") + "]";
      }
      if (g.equals("replica") && prefixValues.get("rpid") != null) {
        v = v + " pid=" + prefixValues.get("rpid"); // two replicas of one deployment differ by pid
      }
      if (g.equals("task")) {
        v = "task " + v; // a launcher's task number (srun --label) alone says nothing
      }
      if (sb == null) {
        sb = new StringBuilder(v);
      } else {
        sb.append('/').append(v);
      }
    }
    return sb == null ? null : sb.toString();
  }

  private String processChain() {
    String worker = prefixValues.get("wpid"); // a Ray worker named by its pid alone
    String chain = namedProcesses();
    if (worker == null) {
      return chain;
    }
    return chain == null ? "pid=" + worker : "pid=" + worker + " / " + chain;
  }

  private String namedProcesses() {
    String process = prefixValues.get("process");
    String pid = prefixValues.get("pid");
    if (process == null) {
      return null;
    }
    // nested processes were joined with " / " (prefixValues); each name gets its pid, in order.
    // Split by hand: String.split compiles a regex for a separator of more than one character,
    // and this runs for every request line.
    if (process.indexOf(JOIN) < 0 && (pid == null || pid.indexOf(JOIN) < 0)) {
      return pid == null ? process : process + " pid=" + pid;
    }
    List<String> names = parts(process);
    List<String> pids = pid == null ? List.of() : parts(pid);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        sb.append(JOIN);
      }
      sb.append(names.get(i));
      if (i < pids.size()) {
        sb.append(" pid=").append(pids.get(i));
      }
    }
    return sb.toString();
  }

  /** The parts of a value joined with " / ", as String.split gives them (trailing empty parts dropped). */
  private static List<String> parts(String joined) {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int end = joined.indexOf(JOIN, from);
      if (end < 0) {
        out.add(joined.substring(from));
        break;
      }
      out.add(joined.substring(from, end));
      from = end + JOIN.length();
    }
    while (out.size() > 1 && out.get(out.size() - 1).isEmpty()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  private static final String JOIN = " / ";
}
