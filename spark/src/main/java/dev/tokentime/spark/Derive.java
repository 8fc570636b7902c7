package dev.tokentime.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The derive step on Spark, with the definitions of the DuckDB side's {@code Deriver} (whose SQL
 * it follows clause by clause): each content chunk's gap to the previous content chunk of its
 * request in seq order (a repeated position takes the gap of its first row), and one
 * {@code _request_tokens} row per request. Both are window and group computations over each
 * request's rows: Spark hashes the rows by request_key into partitions and computes every
 * request inside its partition, whatever order its rows arrived in and however many files they
 * came from.
 */
final class Derive {
  private Derive() {}

  static final String CONTENT = "chunk_kind IN ('content', 'reasoning')";
  /** Chunks that carry choices (vLLM counts a role-only or empty delta), as the DuckDB derive step. */
  static final String CHOICE = "chunk_kind IN ('content', 'reasoning', 'role', 'empty')";

  /**
   * tokens with gap_ns set, from a view {@code tt_tokens_in} (the canonical columns plus
   * part_run).
   */
  static Dataset<Row> tokensWithGaps(SparkSession spark) {
    // within a request's content chunks ordered by (seq, ts): f marks the first row of each seq;
    // a first row's gap is its ts minus the previous seq's first ts; repeats take their seq's gap
    // (the last gap set at or before them). Non-content rows keep gap_ns NULL.
    return spark.sql("""
        WITH c AS (
            SELECT *,
                coalesce(lag(seq) OVER w <> seq, true) AS f
            FROM tt_tokens_in WHERE %1$s
            WINDOW w AS (PARTITION BY request_key ORDER BY seq, ts_ns)
        ),
        g AS (
            SELECT *,
                CASE WHEN f THEN ts_ns - last(CASE WHEN f THEN ts_ns END, true) OVER (
                    PARTITION BY request_key ORDER BY seq, ts_ns
                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) END AS g0
            FROM c
        ),
        gaps AS (
            SELECT request_key, seq, ts_ns, n_tokens, chunk_kind, source_id, part_run,
                CASE WHEN f THEN g0 ELSE last(g0, true) OVER (
                    PARTITION BY request_key ORDER BY seq, ts_ns
                    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) END AS gap_ns
            FROM g
        )
        SELECT request_key, seq, ts_ns, n_tokens, chunk_kind, source_id, gap_ns, part_run FROM gaps
        UNION ALL
        SELECT request_key, seq, ts_ns, n_tokens, chunk_kind, source_id, CAST(NULL AS BIGINT), part_run
        FROM tt_tokens_in WHERE NOT (%1$s)
        """.formatted(CONTENT));
  }

  /** _request_tokens (plus part_run) from a view {@code tt_tokens} with gap_ns set. */
  static Dataset<Row> requestTokens(SparkSession spark) {
    return spark.sql("""
        SELECT
            t.request_key,
            CAST(count(*) AS INT) AS chunks,
            CAST(count(*) FILTER (WHERE %1$s) AS INT) AS content_chunks,
            CASE WHEN count(*) FILTER (WHERE %1$s AND n_tokens IS NULL) = 0
                AND count(*) FILTER (WHERE %1$s) > 0
                THEN CAST(sum(n_tokens) FILTER (WHERE %1$s) AS INT) END AS content_tokens,
            min_by(ts_ns, seq) FILTER (WHERE %1$s) AS first_content_ns,
            max_by(ts_ns, seq) FILTER (WHERE %1$s) AS last_content_ns,
            min_by(ts_ns, seq) AS first_chunk_ns,
            max_by(ts_ns, seq) AS last_chunk_ns,
            max(gap_ns) AS max_gap_ns,
            coalesce(bool_or(decreases), false) AS ts_decreases,
            CAST(count(*) - count(DISTINCT seq) AS INT) AS seq_repeats,
            CAST(count(*) FILTER (WHERE %2$s) AS INT) AS choice_chunks,
            min_by(ts_ns, seq) FILTER (WHERE %2$s) AS first_choice_ns,
            max_by(ts_ns, seq) FILTER (WHERE %2$s) AS last_choice_ns,
            min(ts_ns) FILTER (WHERE seq = 1) AS second_chunk_ns,
            min_by(ts_ns, seq) FILTER (WHERE gap_ns IS NOT NULL) AS second_content_ns,
            min(gap_ns) AS min_gap_ns,
            CAST(count(*) FILTER (WHERE chunk_kind = 'reasoning') AS INT) AS reasoning_chunks,
            min(ts_ns) FILTER (WHERE chunk_kind = 'content') AS first_answer_ns,
            first(part_run) AS part_run
        FROM (SELECT *,
                ts_ns < lag(ts_ns) OVER (PARTITION BY request_key ORDER BY seq, ts_ns DESC) AS decreases
              FROM tt_tokens) t
        GROUP BY t.request_key
        """.formatted(CONTENT, CHOICE));
  }
}
