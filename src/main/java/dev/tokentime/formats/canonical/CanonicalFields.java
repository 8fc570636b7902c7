package dev.tokentime.formats.canonical;

import dev.tokentime.ingest.RecordColumns;
import dev.tokentime.ingest.RequestRecord;
import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field names of the canonical input formats (tokentime-jsonl, tokentime-csv): the columns of
 * {@code requests} and {@code tokens} as {@link CanonicalSchema} declares them (what a user
 * writes is what they later query), plus the few fields that are no column: a run's level and
 * clock, and a request's token arrays. docs/formats.md lists them with their meaning.
 */
final class CanonicalFields {
  private CanonicalFields() {}

  /** The canonical formats share request identity: a run's requests file and tokens file meet. */
  static final String ID_NAMESPACE = "tokentime";

  /** How a field's value is read. */
  enum Type { INTEGER, NUMBER, TEXT }

  /** Fields that describe the record's run, not the request: the level, the repeat, the clock. */
  static final Map<String, Type> RUN_FIELDS = Map.of("label", Type.TEXT, "concurrency", Type.NUMBER,
      "request_rate", Type.NUMBER, "repeat", Type.INTEGER, "clock", Type.TEXT);

  /** A request's token stream given inline (tokens_ns, with tokens_n the tokens of each). */
  static final Set<String> ARRAY_FIELDS = Set.of("tokens_ns", "tokens_n");

  /** Columns of requests no line sets: where the line was read, its clock (from clock), extras. */
  private static final Set<String> REQUEST_COLUMNS_NOT_GIVEN = Set.of("line_no", "clock_id", "extras");

  /** Columns of tokens no line sets: the request's key, the file, and what the sink derives. */
  private static final Set<String> TOKEN_COLUMNS_NOT_GIVEN = Set.of("request_key", "source_id", "gap_ns");

  static final Set<String> STATUSES = Set.of("ok", "error", "cancelled", "lost");

  static final Set<String> PHASES = Set.of("warmup", "measure");

  /** Fields that carry user text: dropped unless --keep-text (production logs hold user data). */
  static final Set<String> TEXT_FIELDS = Set.of("prompt", "messages", "output", "output_text",
      "generated_text", "text", "completion", "response");

  /** The requests columns a line sets by name, each bound to its RequestRecord field. */
  private static final Map<String, RecordColumns.Binding<RequestRecord>> REQUEST_COLUMNS = new HashMap<>();

  /** The lifecycle timestamps (the ns columns of requests), in the order they happen. */
  static final List<RecordColumns.Binding<RequestRecord>> CHAIN = new ArrayList<>();

  /** Fields that only the token-per-line form has: seq, ts_ns, n_tokens, chunk_kind. */
  static final Set<String> TOKEN_LINE_FIELDS = new HashSet<>();

  /** Every field a request line may have with a canonical meaning (others go to extras). */
  static final Set<String> REQUEST_FIELDS = new HashSet<>();

  /** Fields either form may carry: the request's id and its run. */
  static final Set<String> SHARED_FIELDS = new HashSet<>(Set.of("request_id", "run"));

  private static final Map<String, Type> TYPES = new HashMap<>(RUN_FIELDS);

  static {
    for (RecordColumns.Binding<RequestRecord> c : RecordColumns.REQUESTS.all()) {
      if (!REQUEST_COLUMNS_NOT_GIVEN.contains(c.name())) {
        REQUEST_COLUMNS.put(c.name(), c);
        TYPES.put(c.name(), type(c.column()));
        if (c.kind() == RecordColumns.Kind.LONG && c.column().unit().equals("ns")) {
          CHAIN.add(c);
        }
      }
    }
    for (Column c : CanonicalSchema.TOKENS.columns()) {
      if (!TOKEN_COLUMNS_NOT_GIVEN.contains(c.name())) {
        TOKEN_LINE_FIELDS.add(c.name());
        TYPES.put(c.name(), type(c));
      }
    }
    REQUEST_FIELDS.addAll(REQUEST_COLUMNS.keySet());
    REQUEST_FIELDS.addAll(RUN_FIELDS.keySet());
    REQUEST_FIELDS.addAll(ARRAY_FIELDS);
    SHARED_FIELDS.addAll(RUN_FIELDS.keySet());
  }

  private static Type type(Column c) {
    return switch (c.sqlType()) {
      case "BIGINT", "INTEGER" -> Type.INTEGER;
      case "DOUBLE" -> Type.NUMBER;
      default -> Type.TEXT; // VARCHAR, and chunk_kind's ENUM written as its name
    };
  }

  /** The type of a field with a canonical meaning, or null for any other field. */
  static Type type(String field) {
    return TYPES.get(field);
  }

  /** The requests column a field sets, or null when it sets none. */
  static RecordColumns.Binding<RequestRecord> requestColumn(String field) {
    return REQUEST_COLUMNS.get(field);
  }
}
