package dev.tokentime.ingest;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import dev.tokentime.schema.TableDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;

/**
 * Where each column of a canonical table lives in the record a parser fills
 * ({@link RequestRecord}, {@link StepRecord}, {@link EngineStatsRecord}). The columns, their
 * order, types and units are {@link CanonicalSchema}'s; a binding only says which field holds a
 * column, so readers (set a column by its name) and writers (every column in table order) follow
 * the schema. Loading this class fails when a table has a column no field holds, a binding names
 * no column, or a field's Java type does not fit its column's SQL type.
 *
 * @param <R> the record type
 */
public final class RecordColumns<R> {

  /** How a column's value is held, and so which accessors of its binding apply. */
  public enum Kind {
    /** BIGINT in a primitive long, {@link RequestRecord#NONE} when absent (line_no is always set). */
    LONG,
    /** INTEGER in a primitive int, always set (steps.epoch). */
    INT,
    /** A clock id (INTEGER) in a primitive int, 0 when the record names no clock. */
    CLOCK,
    /** BIGINT in a nullable Long. */
    BIGINT,
    /** INTEGER in a nullable Integer. */
    INTEGER,
    /** DOUBLE in a nullable Double. */
    DOUBLE,
    /** VARCHAR in a nullable String. */
    TEXT,
    /** MAP(VARCHAR, VARCHAR) in a Map, empty for none. */
    TEXT_MAP,
    /** MAP(VARCHAR, DOUBLE) in a Map, empty for none. */
    DOUBLE_MAP;

    String sqlType() {
      return switch (this) {
        case LONG, BIGINT -> "BIGINT";
        case INT, CLOCK, INTEGER -> "INTEGER";
        case DOUBLE -> "DOUBLE";
        case TEXT -> "VARCHAR";
        case TEXT_MAP -> "MAP(VARCHAR, VARCHAR)";
        case DOUBLE_MAP -> "MAP(VARCHAR, DOUBLE)";
      };
    }

    /** Whether the value is a primitive, read and set with getLong/setLong. */
    public boolean primitive() {
      return this == LONG || this == INT || this == CLOCK;
    }
  }

  /** One column bound to its field; use the accessors of its kind. */
  public static final class Binding<R> {
    private final Column column;
    private final Kind kind;
    private final ToLongFunction<R> getLong;
    private final ObjLongConsumer<R> setLong;
    private final Function<R, Object> get;
    private final BiConsumer<R, Object> set;

    private Binding(Column column, Kind kind, ToLongFunction<R> getLong, ObjLongConsumer<R> setLong,
        Function<R, Object> get, BiConsumer<R, Object> set) {
      this.column = column;
      this.kind = kind;
      this.getLong = getLong;
      this.setLong = setLong;
      this.get = get;
      this.set = set;
    }

    public Column column() {
      return column;
    }

    public String name() {
      return column.name();
    }

    public Kind kind() {
      return kind;
    }

    /** The value of a column of a {@link Kind#primitive() primitive} kind. */
    public long getLong(R r) {
      return getLong.applyAsLong(r);
    }

    /** Sets a column of a primitive kind. */
    public void setLong(R r, long v) {
      setLong.accept(r, v);
    }

    /** The value of a column of the other kinds (a Long, Integer, Double, String or Map). */
    public Object get(R r) {
      return get.apply(r);
    }

    /** Sets a column of the other kinds (not the maps) with a value of its kind's Java type. */
    public void set(R r, Object v) {
      set.accept(r, v);
    }
  }

  public static final RecordColumns<RequestRecord> REQUESTS =
      new RecordColumns<RequestRecord>(CanonicalSchema.REQUESTS, List.of("request_key", "source_id"))
          .longs("line_no", r -> r.lineNo, (r, v) -> r.lineNo = v)
          .text("run", r -> r.run, (r, v) -> r.run = v)
          .text("request_id", r -> r.requestId, (r, v) -> r.requestId = v)
          .text("engine", r -> r.engine, (r, v) -> r.engine = v)
          .text("instance", r -> r.instance, (r, v) -> r.instance = v)
          .clock("clock_id", r -> r.clockId, (r, v) -> r.clockId = v)
          .longs("arrival_ns", r -> r.arrivalNs, (r, v) -> r.arrivalNs = v)
          .longs("queued_ns", r -> r.queuedNs, (r, v) -> r.queuedNs = v)
          .longs("scheduled_ns", r -> r.scheduledNs, (r, v) -> r.scheduledNs = v)
          .longs("first_token_ns", r -> r.firstTokenNs, (r, v) -> r.firstTokenNs = v)
          .longs("last_token_ns", r -> r.lastTokenNs, (r, v) -> r.lastTokenNs = v)
          .longs("finished_ns", r -> r.finishedNs, (r, v) -> r.finishedNs = v)
          .decimal("pre_queue_ms", r -> r.preQueueMs, (r, v) -> r.preQueueMs = v)
          .decimal("queue_ms", r -> r.queueMs, (r, v) -> r.queueMs = v)
          .decimal("prefill_ms", r -> r.prefillMs, (r, v) -> r.prefillMs = v)
          .decimal("ttft_ms", r -> r.ttftMs, (r, v) -> r.ttftMs = v)
          .decimal("decode_ms", r -> r.decodeMs, (r, v) -> r.decodeMs = v)
          .decimal("e2e_ms", r -> r.e2eMs, (r, v) -> r.e2eMs = v)
          .decimal("tpot_ms", r -> r.tpotMs, (r, v) -> r.tpotMs = v)
          .integer("prompt_tokens", r -> r.promptTokens, (r, v) -> r.promptTokens = v)
          .integer("output_tokens", r -> r.outputTokens, (r, v) -> r.outputTokens = v)
          .integer("cached_tokens", r -> r.cachedTokens, (r, v) -> r.cachedTokens = v)
          .text("status", r -> r.status, (r, v) -> r.status = v)
          .text("finish_reason", r -> r.finishReason, (r, v) -> r.finishReason = v)
          .integer("http_status", r -> r.httpStatus, (r, v) -> r.httpStatus = v)
          .text("error", r -> r.error, (r, v) -> r.error = v)
          .text("phase", r -> r.phase, (r, v) -> r.phase = v)
          .bigint("first_iter", r -> r.firstIter, (r, v) -> r.firstIter = v)
          .bigint("last_iter", r -> r.lastIter, (r, v) -> r.lastIter = v)
          .map("extras", Kind.TEXT_MAP, r -> r.extras)
          .done();

  public static final RecordColumns<StepRecord> STEPS =
      new RecordColumns<StepRecord>(CanonicalSchema.STEPS, List.of("source_id"))
          .longs("line_no", r -> r.lineNo, (r, v) -> r.lineNo = v)
          .text("instance", r -> r.instance, (r, v) -> r.instance = v)
          .integer("rank", r -> r.rank, (r, v) -> r.rank = v)
          .ints("epoch", r -> r.epoch, (r, v) -> r.epoch = v)
          .bigint("iter", r -> r.iter, (r, v) -> r.iter = v)
          .longs("ts_ns", r -> r.tsNs, (r, v) -> r.tsNs = v)
          .clock("clock_id", r -> r.clockId, (r, v) -> r.clockId = v)
          .decimal("duration_ms", r -> r.durationMs, (r, v) -> r.durationMs = v)
          .integer("running", r -> r.running, (r, v) -> r.running = v)
          .integer("waiting", r -> r.waiting, (r, v) -> r.waiting = v)
          .integer("ctx_requests", r -> r.ctxRequests, (r, v) -> r.ctxRequests = v)
          .integer("ctx_tokens", r -> r.ctxTokens, (r, v) -> r.ctxTokens = v)
          .integer("gen_requests", r -> r.genRequests, (r, v) -> r.genRequests = v)
          .integer("gen_tokens", r -> r.genTokens, (r, v) -> r.genTokens = v)
          .integer("paused", r -> r.paused, (r, v) -> r.paused = v)
          .decimal("kv_usage", r -> r.kvUsage, (r, v) -> r.kvUsage = v)
          .map("extras", Kind.DOUBLE_MAP, r -> r.extras)
          .done();

  public static final RecordColumns<EngineStatsRecord> ENGINE_STATS =
      new RecordColumns<EngineStatsRecord>(CanonicalSchema.ENGINE_STATS, List.of("source_id"))
          .longs("line_no", r -> r.lineNo, (r, v) -> r.lineNo = v)
          .text("instance", r -> r.instance, (r, v) -> r.instance = v)
          .longs("ts_ns", r -> r.tsNs, (r, v) -> r.tsNs = v)
          .clock("clock_id", r -> r.clockId, (r, v) -> r.clockId = v)
          .decimal("interval_s", r -> r.intervalS, (r, v) -> r.intervalS = v)
          .decimal("prompt_tokens_per_s", r -> r.promptTokensPerS, (r, v) -> r.promptTokensPerS = v)
          .decimal("gen_tokens_per_s", r -> r.genTokensPerS, (r, v) -> r.genTokensPerS = v)
          .integer("running", r -> r.running, (r, v) -> r.running = v)
          .integer("waiting", r -> r.waiting, (r, v) -> r.waiting = v)
          .integer("swapped", r -> r.swapped, (r, v) -> r.swapped = v)
          .bigint("preemptions", r -> r.preemptions, (r, v) -> r.preemptions = v)
          .decimal("kv_usage", r -> r.kvUsage, (r, v) -> r.kvUsage = v)
          .decimal("prefix_hit_rate", r -> r.prefixHitRate, (r, v) -> r.prefixHitRate = v)
          .map("extras", Kind.DOUBLE_MAP, r -> r.extras)
          .done();

  private final TableDef table;
  private final List<String> stored;
  private final Map<String, Binding<R>> byName = new HashMap<>();
  private List<Binding<R>> all;

  private RecordColumns(TableDef table, List<String> stored) {
    this.table = table;
    this.stored = stored;
  }

  public TableDef table() {
    return table;
  }

  /** Columns the record does not hold: the store fills them (keys, the file's source id). */
  public List<String> stored() {
    return stored;
  }

  /** The bound columns, in the order of the table (without {@link #stored()}). */
  public List<Binding<R>> all() {
    return all;
  }

  /** The binding of a column, or null when the record holds no such column. */
  public Binding<R> get(String column) {
    return byName.get(column);
  }

  private RecordColumns<R> longs(String name, ToLongFunction<R> get, ObjLongConsumer<R> set) {
    return bind(name, Kind.LONG, get, set, null, null);
  }

  private interface IntSetter<R> {
    void set(R r, int v);
  }

  private RecordColumns<R> ints(String name, ToLongFunction<R> get, IntSetter<R> set) {
    return bind(name, Kind.INT, get, (r, v) -> set.set(r, (int) v), null, null);
  }

  private RecordColumns<R> clock(String name, ToLongFunction<R> get, IntSetter<R> set) {
    return bind(name, Kind.CLOCK, get, (r, v) -> set.set(r, (int) v), null, null);
  }

  private RecordColumns<R> text(String name, Function<R, String> get, BiConsumer<R, String> set) {
    return bind(name, Kind.TEXT, null, null, get::apply, (r, v) -> set.accept(r, (String) v));
  }

  private RecordColumns<R> decimal(String name, Function<R, Double> get, BiConsumer<R, Double> set) {
    return bind(name, Kind.DOUBLE, null, null, get::apply, (r, v) -> set.accept(r, (Double) v));
  }

  private RecordColumns<R> integer(String name, Function<R, Integer> get, BiConsumer<R, Integer> set) {
    return bind(name, Kind.INTEGER, null, null, get::apply, (r, v) -> set.accept(r, (Integer) v));
  }

  private RecordColumns<R> bigint(String name, Function<R, Long> get, BiConsumer<R, Long> set) {
    return bind(name, Kind.BIGINT, null, null, get::apply, (r, v) -> set.accept(r, (Long) v));
  }

  /** A map column: filled entry by entry through the map itself, never replaced. */
  private RecordColumns<R> map(String name, Kind kind, Function<R, Map<String, ?>> get) {
    return bind(name, kind, null, null, get::apply, (r, v) -> {
      throw new UnsupportedOperationException(table.name() + "." + name + " is filled entry by entry");
    });
  }

  private RecordColumns<R> bind(String name, Kind kind, ToLongFunction<R> getLong, ObjLongConsumer<R> setLong,
      Function<R, Object> get, BiConsumer<R, Object> set) {
    Column c = table.column(name);
    if (!c.sqlType().equals(kind.sqlType())) {
      throw new IllegalStateException(table.name() + "." + name + " is " + c.sqlType() + ", its field holds "
          + kind.sqlType());
    }
    if (byName.put(name, new Binding<>(c, kind, getLong, setLong, get, set)) != null) {
      throw new IllegalStateException(table.name() + "." + name + " is bound twice");
    }
    return this;
  }

  private RecordColumns<R> done() {
    List<Binding<R>> ordered = new ArrayList<>();
    List<String> unbound = new ArrayList<>();
    for (Column c : table.columns()) {
      if (stored.contains(c.name())) {
        continue;
      }
      Binding<R> b = byName.get(c.name());
      if (b == null) {
        unbound.add(c.name());
      } else {
        ordered.add(b);
      }
    }
    if (!unbound.isEmpty()) {
      throw new IllegalStateException(table.name() + " has columns no record field holds: " + unbound);
    }
    all = List.copyOf(ordered);
    return this;
  }
}
