package dev.tokentime.schema;

import static dev.tokentime.schema.Column.of;

import java.util.List;

/**
 * The canonical tables: the contract between parsers and SQL (docs/design.md, "Canonical schema").
 *
 * <p>Timestamps are BIGINT nanoseconds on the clock named by a {@code clock_id}; durations are
 * DOUBLE milliseconds. Tables prefixed {@code _} are derived by the derive step and are rebuilt
 * per run; everything else is written only by ingest.
 */
public final class CanonicalSchema {
  private CanonicalSchema() {}

  /** Bumped when a table changes shape; a database with another version is refused. */
  public static final int VERSION = 3;

  /** Kinds of streamed chunk, in the order of the {@code chunk_kind} ENUM (codes are indexes). */
  public static final List<String> CHUNK_KINDS =
      List.of("content", "reasoning", "role", "empty", "usage", "done", "error");

  public static final TableDef META = new TableDef("_meta",
      "One row per setting", "Schema version and the tokentime version that created the database.",
      List.of(of("key", "VARCHAR", "text", "Setting name."),
          of("value", "VARCHAR", "text", "Setting value.")));

  public static final TableDef RUNS = new TableDef("runs",
      "One row per run",
      "A run is one measured configuration (a concurrency level, a request rate, a label); repeats are separate runs. tokentime query runs lists them by level, then name.",
      List.of(of("run", "VARCHAR", "id", "Run name: the record's run/label, else --run, else the file's parent directory."),
          of("level_kind", "VARCHAR", "text", "What the level measures: concurrency, request_rate, or NULL when the run has no level."),
          of("level", "DOUBLE", "level_kind", "Concurrency (requests in flight) or request rate (requests/s) of the run."),
          of("repeat", "INTEGER", "count", "Repeat number of this level, when known."),
          of("notes", "VARCHAR", "text", "Where the level came from (record field or run name).")));

  public static final TableDef SOURCES = new TableDef("sources",
      "One row per ingested file",
      "Counts reconcile: lines = records + other_lines + rejected.",
      List.of(of("source_id", "INTEGER", "id", "Source key, referenced by every row read from this file."),
          of("run", "VARCHAR", "id", "Default run of the file's records (--run or parent directory)."),
          of("path", "VARCHAR", "text", "Path as given (absolute), or - for stdin."),
          of("sha256", "VARCHAR", "text", "SHA-256 of the file's content after decompression (a rotated log and its .gz are one source)."),
          of("format", "VARCHAR", "text", "Input format id (tokentime formats lists them)."),
          of("compression", "VARCHAR", "text", "none, gzip or zstd."),
          of("clock_ids", "INTEGER[]", "id", "Clocks the file's timestamps refer to."),
          of("bytes", "BIGINT", "bytes", "Size of the file as stored."),
          of("lines", "BIGINT", "count", "Lines read (after decompression)."),
          of("records", "BIGINT", "count", "Lines or records that produced canonical rows."),
          of("other_lines", "BIGINT", "count", "Lines that carry nothing to keep (blank lines, headers, other log lines)."),
          of("rejected", "BIGINT", "count", "Lines or records that could not be used; each has a row in rejects."),
          of("ingested_at", "TIMESTAMP", "ts", "When the file was ingested (UTC)."),
          of("tool_version", "VARCHAR", "text", "tokentime version that ingested the file.")));

  public static final TableDef CLOCKS = new TableDef("clocks",
      "One row per clock",
      "Two timestamps are subtracted only when they share a clock or clock_anchors relates the two.",
      List.of(of("clock_id", "INTEGER", "id", "Clock key."),
          of("kind", "VARCHAR", "text", "wall (Unix epoch, UTC), steady (monotonic, arbitrary epoch) or client (a load generator's clock)."),
          of("scope", "VARCHAR", "text", "Where readings of this clock are comparable (e.g. 'run c16', a host, a process)."),
          of("resolution_ns", "BIGINT", "ns", "Smallest step of the readings (1 s for vLLM's own log time, 1 ns for canonical input)."),
          of("tz", "VARCHAR", "text", "Time zone of local-time sources, NULL when the source is UTC or monotonic."),
          of("tz_assumed", "BOOLEAN", "bool", "True when tz was assumed rather than given.")));

  public static final TableDef REQUESTS = new TableDef("requests",
      "One row per request per source",
      "Timestamps on clock_id; durations the source reports itself are kept as reported.",
      List.of(of("request_key", "BIGINT", "id", "Surrogate key; tokens refer to it."),
          of("run", "VARCHAR", "id", "Run of the request."),
          of("request_id", "VARCHAR", "id", "Request id as the source wrote it."),
          of("source_id", "INTEGER", "id", "File the row came from (sources)."),
          of("line_no", "BIGINT", "count", "Line of the file the row came from (1-based)."),
          of("engine", "VARCHAR", "text", "Engine or tool kind (vllm, trtllm, genai-perf, ...), NULL when not stated."),
          of("instance", "VARCHAR", "text", "Host, engine index or DP rank, NULL when not stated."),
          of("clock_id", "INTEGER", "id", "Clock of the timestamps of this row and of its tokens."),
          of("arrival_ns", "BIGINT", "ns", "Request arrival (the source's definition: frontend, engine, or client send)."),
          of("queued_ns", "BIGINT", "ns", "Entered the scheduler's waiting queue."),
          of("scheduled_ns", "BIGINT", "ns", "First scheduled (prefill starts)."),
          of("first_token_ns", "BIGINT", "ns", "First output token produced or received."),
          of("last_token_ns", "BIGINT", "ns", "Last output token produced or received."),
          of("finished_ns", "BIGINT", "ns", "Request finished (response complete)."),
          of("pre_queue_ms", "DOUBLE", "ms", "Arrival to queued, as reported by the source."),
          of("queue_ms", "DOUBLE", "ms", "Queued to scheduled, as reported by the source."),
          of("prefill_ms", "DOUBLE", "ms", "Scheduled to first token, as reported by the source."),
          of("ttft_ms", "DOUBLE", "ms", "Time to first token, as reported by the source."),
          of("decode_ms", "DOUBLE", "ms", "First token to last token, as reported by the source."),
          of("e2e_ms", "DOUBLE", "ms", "End-to-end latency, as reported by the source."),
          of("tpot_ms", "DOUBLE", "ms", "Time per output token, as reported by the source."),
          of("prompt_tokens", "INTEGER", "tokens", "Input length."),
          of("output_tokens", "INTEGER", "tokens", "Output length."),
          of("cached_tokens", "INTEGER", "tokens", "Prompt tokens served from a prefix cache."),
          of("status", "VARCHAR", "text", "ok, error, cancelled or lost; NULL when the source does not say."),
          of("finish_reason", "VARCHAR", "text", "stop, length, abort, ... as the source wrote it."),
          of("http_status", "INTEGER", "code", "HTTP status of the response, when known."),
          of("error", "VARCHAR", "text", "Error message, when the request failed."),
          of("phase", "VARCHAR", "text", "warmup or measure; NULL counts as measure."),
          of("first_iter", "BIGINT", "count", "First engine iteration of the request (joins steps.iter)."),
          of("last_iter", "BIGINT", "count", "Last engine iteration of the request."),
          of("extras", "MAP(VARCHAR, VARCHAR)", "text", "Source fields without a canonical column, as text.")));

  public static final TableDef REQUEST_LINKS = new TableDef("request_links",
      "One row per match between two request rows",
      "Rows of one request seen by several sources of one run, and the normalisation rule that matched them.",
      List.of(of("key_a", "BIGINT", "id", "request_key of one row."),
          of("key_b", "BIGINT", "id", "request_key of the other row."),
          of("rule", "VARCHAR", "text", "The documented rule that made the match.")));

  public static final TableDef TOKENS = new TableDef("tokens",
      "One row per streamed token or chunk",
      "On the clock of the request row it refers to.",
      List.of(of("request_key", "BIGINT", "id", "Request the chunk belongs to (requests.request_key)."),
          of("seq", "INTEGER", "count", "Position of the chunk in the request's stream, from 0."),
          of("ts_ns", "BIGINT", "ns", "When the chunk was produced or received."),
          of("n_tokens", "INTEGER", "tokens", "Tokens in the chunk; NULL when unknown."),
          of("chunk_kind", "chunk_kind", "text", "content, reasoning, role, empty, usage, done or error."),
          of("source_id", "INTEGER", "id", "File the row came from."),
          of("gap_ns", "BIGINT", "ns", "Derived: time since the previous content chunk of the request in seq order; NULL for the first content chunk and for other kinds.")));

  public static final TableDef STEPS = new TableDef("steps",
      "One row per engine iteration",
      "Batch composition per scheduler step.",
      List.of(of("source_id", "INTEGER", "id", "File the row came from."),
          of("line_no", "BIGINT", "count", "Line of the file the row came from."),
          of("instance", "VARCHAR", "text", "Host or engine instance."),
          of("rank", "INTEGER", "id", "Rank (attention-DP or TP) that wrote the record."),
          of("epoch", "INTEGER", "count", "Bumped when the iteration counter goes back (a restart)."),
          of("iter", "BIGINT", "count", "Iteration counter as the engine wrote it."),
          of("ts_ns", "BIGINT", "ns", "When the step ran."),
          of("clock_id", "INTEGER", "id", "Clock of ts_ns."),
          of("duration_ms", "DOUBLE", "ms", "Step latency."),
          of("running", "INTEGER", "count", "Requests running (active) in the step."),
          of("waiting", "INTEGER", "count", "Requests waiting (queued) at the step."),
          of("ctx_requests", "INTEGER", "count", "Requests in prefill (context) in the step."),
          of("ctx_tokens", "INTEGER", "tokens", "Prefill tokens in the step."),
          of("gen_requests", "INTEGER", "count", "Requests decoding (generation) in the step."),
          of("gen_tokens", "INTEGER", "tokens", "Decode tokens in the step."),
          of("paused", "INTEGER", "count", "Requests paused or preempted."),
          of("kv_usage", "DOUBLE", "ratio", "KV cache usage, 0..1."),
          of("extras", "MAP(VARCHAR, DOUBLE)", "various", "Numeric fields without a canonical column.")));

  public static final TableDef ENGINE_STATS = new TableDef("engine_stats",
      "One row per periodic stats snapshot",
      "A gap in snapshots is no data, never the last value.",
      List.of(of("source_id", "INTEGER", "id", "File the row came from."),
          of("line_no", "BIGINT", "count", "Line of the file the row came from."),
          of("instance", "VARCHAR", "text", "Host or engine instance."),
          of("ts_ns", "BIGINT", "ns", "When the snapshot was taken."),
          of("clock_id", "INTEGER", "id", "Clock of ts_ns."),
          of("interval_s", "DOUBLE", "s", "Averaging interval of the throughput figures."),
          of("prompt_tokens_per_s", "DOUBLE", "tokens/s", "Prompt (prefill) throughput over the interval."),
          of("gen_tokens_per_s", "DOUBLE", "tokens/s", "Generation throughput over the interval."),
          of("running", "INTEGER", "count", "Requests running."),
          of("waiting", "INTEGER", "count", "Requests waiting."),
          of("swapped", "INTEGER", "count", "Requests swapped to CPU."),
          of("preemptions", "BIGINT", "count", "Preemptions (cumulative, as the engine reports)."),
          of("kv_usage", "DOUBLE", "ratio", "KV cache usage, 0..1."),
          of("prefix_hit_rate", "DOUBLE", "ratio", "Prefix cache hit rate, 0..1."),
          of("extras", "MAP(VARCHAR, DOUBLE)", "various", "Numeric fields without a canonical column.")));

  public static final TableDef ENGINE_EVENTS = new TableDef("engine_events",
      "One row per lifecycle event",
      "Engine starts, readiness, versions, configuration, crashes and restarts.",
      List.of(of("source_id", "INTEGER", "id", "File the row came from."),
          of("line_no", "BIGINT", "count", "Line of the file the row came from."),
          of("instance", "VARCHAR", "text", "Host or engine instance."),
          of("ts_ns", "BIGINT", "ns", "When the event happened."),
          of("clock_id", "INTEGER", "id", "Clock of ts_ns."),
          of("kind", "VARCHAR", "text", "start, ready, stop, version, config, crash, restart or retract (requests put back in the queue for want of KV cache)."),
          of("detail", "VARCHAR", "text", "What the log said.")));

  public static final TableDef METRIC_HISTOGRAMS = new TableDef("metric_histograms",
      "One row per histogram bucket per scrape interval",
      "Prometheus histogram deltas between consecutive scrapes.",
      List.of(of("source_id", "INTEGER", "id", "File the row came from."),
          of("metric", "VARCHAR", "text", "Metric name as exposed."),
          of("labels", "MAP(VARCHAR, VARCHAR)", "text", "Metric labels."),
          of("t0_ns", "BIGINT", "ns", "Start of the interval."),
          of("t1_ns", "BIGINT", "ns", "End of the interval."),
          of("clock_id", "INTEGER", "id", "Clock of t0_ns and t1_ns."),
          of("le", "DOUBLE", "metric unit", "Bucket upper bound (Prometheus le)."),
          of("count", "DOUBLE", "count", "Observations at or below le during the interval (cumulative over le).")));

  public static final TableDef REPORTED_METRICS = new TableDef("reported_metrics",
      "One row per figure a tool reported about itself",
      "Kept so a tool's own summary can be compared with tokentime's figures.",
      List.of(of("source_id", "INTEGER", "id", "File the row came from."),
          of("run", "VARCHAR", "id", "Run the figure describes."),
          of("level", "DOUBLE", "level_kind", "Level the figure describes."),
          of("metric", "VARCHAR", "text", "Metric name as the tool wrote it."),
          of("stat", "VARCHAR", "text", "Statistic (avg, p50, p99, ...)."),
          of("value", "DOUBLE", "unit", "Value in the unit of the unit column."),
          of("unit", "VARCHAR", "text", "Unit as the tool wrote it.")));

  public static final TableDef REJECTS = new TableDef("rejects",
      "One row per input line or record that could not be used",
      "Excerpts are cut before any prompt or output text unless --keep-text.",
      List.of(of("source_id", "INTEGER", "id", "File of the line."),
          of("line_no", "BIGINT", "count", "Line number in the (decompressed) file, from 1."),
          of("reason", "VARCHAR", "text", "Why the line could not be used."),
          of("excerpt", "VARCHAR", "text", "The start of the line, at most 200 characters.")));

  public static final TableDef CLOCK_ANCHORS = new TableDef("clock_anchors",
      "One row per known pair of readings of two clocks",
      "Relates two clocks so that timestamps on them can be compared.",
      List.of(of("clock_a", "INTEGER", "id", "One clock."),
          of("ns_a", "BIGINT", "ns", "Reading of clock_a."),
          of("clock_b", "INTEGER", "id", "The other clock."),
          of("ns_b", "BIGINT", "ns", "Reading of clock_b at the same instant."),
          of("method", "VARCHAR", "text", "How the pair was obtained.")));

  // ---- derived (rebuilt per run by the derive step) ----

  public static final TableDef DERIVED_REQUEST_TOKENS = new TableDef("_request_tokens",
      "One row per request with token rows",
      "Derived: per-request aggregates of the token stream.",
      List.of(of("request_key", "BIGINT", "id", "Request (requests.request_key)."),
          of("chunks", "INTEGER", "count", "Token rows of any kind."),
          of("content_chunks", "INTEGER", "count", "Content and reasoning chunks."),
          of("content_tokens", "INTEGER", "tokens", "Sum of n_tokens over content chunks; NULL when any is unknown."),
          of("first_content_ns", "BIGINT", "ns", "First content chunk."),
          of("last_content_ns", "BIGINT", "ns", "Last content chunk."),
          of("first_chunk_ns", "BIGINT", "ns", "First chunk of any kind."),
          of("last_chunk_ns", "BIGINT", "ns", "Last chunk of any kind."),
          of("max_gap_ns", "BIGINT", "ns", "Largest gap between consecutive content chunks."),
          of("ts_decreases", "BOOLEAN", "bool", "True when a chunk is earlier than the chunk before it in seq order."),
          of("seq_repeats", "INTEGER", "count", "Token rows beyond one per seq (0 when every position is unique)."),
          of("choice_chunks", "INTEGER", "count", "Chunks that carry choices: content, reasoning, role and empty."),
          of("first_choice_ns", "BIGINT", "ns", "First chunk that carries choices (vLLM's TTFT ends there)."),
          of("last_choice_ns", "BIGINT", "ns", "Last chunk that carries choices."),
          of("second_chunk_ns", "BIGINT", "ns", "The chunk at seq 1 (the second of the stream)."),
          of("second_content_ns", "BIGINT", "ns", "Second content chunk: the first with a gap."),
          of("min_gap_ns", "BIGINT", "ns", "Smallest gap between consecutive content chunks."),
          of("reasoning_chunks", "INTEGER", "count", "Reasoning chunks."),
          of("first_answer_ns", "BIGINT", "ns", "Earliest content chunk that is not reasoning (AIPerf's first output token).")));

  public static final TableDef DERIVED_DIRTY_REQUESTS = new TableDef("_dirty_requests",
      "One row per request whose derived data is out of date",
      "Requests whose chunks arrived out of order or from several files; the derive step rebuilds their gaps and aggregates from tokens, then clears this table.",
      List.of(of("request_key", "BIGINT", "id", "Request (requests.request_key).")));

  public static final TableDef DERIVED_PENDING_RUNS = new TableDef("_pending_runs",
      "One row per run of each file committed since the last derive step",
      "Each file's transaction adds the state of its runs here; the derive step writes the latest"
          + " into runs, recomputes those runs' statistics and clears this table in one transaction,"
          + " so a file committed by an ingest that was killed before deriving is derived by the next one.",
      List.of(of("seq", "BIGINT", "count", "Order of the rows: the highest per run is its latest state."),
          of("run", "VARCHAR", "id", "Run name."),
          of("level_kind", "VARCHAR", "text", "As runs.level_kind."),
          of("level", "DOUBLE", "level_kind", "As runs.level."),
          of("repeat", "INTEGER", "count", "As runs.repeat."),
          of("notes", "VARCHAR", "text", "As runs.notes.")));

  public static final TableDef DERIVED_GAP_STATS = new TableDef("_gap_stats",
      "One row per run with chunk gaps",
      "Derived: statistics of each run's pooled chunk gaps (the default ITL) over its ok requests not"
          + " marked warm-up, as _gap_quantiles_live('chunk_gap') gives them with no analysis window set;"
          + " the derive step recomputes the runs each ingest touched, and _gap_quantiles reads this"
          + " table instead of every gap while no window or warm-up variable is set.",
      List.of(of("run", "VARCHAR", "id", "Run name."),
          of("variant", "VARCHAR", "text", "chunk_gap (the only variant kept)."),
          of("n", "BIGINT", "count", "Gaps the statistics are over."),
          of("mean_ms", "DOUBLE", "ms", "Mean."),
          of("std_ms", "DOUBLE", "ms", "Population standard deviation."),
          of("min_ms", "DOUBLE", "ms", "Smallest gap."),
          of("max_ms", "DOUBLE", "ms", "Largest gap."),
          of("q", "DOUBLE[]", "ms", "Percentiles p1, p5, p10, p25, p50, p75, p90, p95, p99, then p0.1 and"
              + " p99.9 (a database derived before the tails were kept has the first nine only).")));

  public static final TableDef SOURCE_HEADS = new TableDef("_source_heads",
      "One row per source of at least 4,096 bytes of content",
      "The SHA-256 of each source's first 4,096 bytes of content: finds a log read again under another"
          + " name after it grew (a second capture of one pod), or an earlier copy of one already read,"
          + " whose content a stored source's beginning or end then proves.",
      List.of(of("source_id", "INTEGER", "id", "Source (sources.source_id)."),
          of("head_sha256", "VARCHAR", "text", "SHA-256 of the source's first 4,096 bytes of content."),
          of("content_bytes", "BIGINT", "bytes", "Bytes of content, decompressed (sources.bytes is the file's size).")));

  /** Canonical tables written by ingest, in creation order. */
  public static final List<TableDef> TABLES = List.of(RUNS, SOURCES, CLOCKS, REQUESTS, REQUEST_LINKS,
      TOKENS, STEPS, ENGINE_STATS, ENGINE_EVENTS, METRIC_HISTOGRAMS, REPORTED_METRICS, REJECTS,
      CLOCK_ANCHORS);

  /**
   * The order a table's rows are listed in when a user names the table alone (tokentime query
   * runs, export sources): a table has no order of its own, and runs came out in the order the
   * derive step happened to write them (c2, c1, c4). Runs as the per-run views list them: by kind
   * of level, level, repeat, then name in natural order (c1, c4, c16); the rest by their keys. The
   * tables of millions of rows (requests, tokens, steps) are listed as they are.
   */
  public static final java.util.Map<String, String> LISTING_ORDER = java.util.Map.of(
      "runs", "level_kind NULLS LAST, level NULLS LAST, \"repeat\" NULLS LAST, natural_sort_key(run), run",
      "sources", "source_id",
      "clocks", "clock_id",
      "rejects", "source_id, line_no");

  /** Tables rebuilt by the derive step. */
  public static final List<TableDef> DERIVED = List.of(DERIVED_REQUEST_TOKENS, DERIVED_DIRTY_REQUESTS,
      DERIVED_PENDING_RUNS, DERIVED_GAP_STATS);

  public static List<TableDef> all() {
    var all = new java.util.ArrayList<TableDef>();
    all.add(META);
    all.addAll(TABLES);
    all.addAll(DERIVED);
    all.add(SOURCE_HEADS);
    return all;
  }
}
