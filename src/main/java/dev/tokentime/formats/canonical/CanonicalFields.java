package dev.tokentime.formats.canonical;

import java.util.Set;

/**
 * Field names of the canonical input formats (tokentime-jsonl, tokentime-csv): the same names as
 * the canonical columns, so what a user writes is what they later query. docs/formats.md lists
 * them with their meaning.
 */
final class CanonicalFields {
  private CanonicalFields() {}

  /** The canonical formats share request identity: a run's requests file and tokens file meet. */
  static final String ID_NAMESPACE = "tokentime";

  static final Set<String> NS_FIELDS = Set.of("arrival_ns", "queued_ns", "scheduled_ns",
      "first_token_ns", "last_token_ns", "finished_ns");

  static final Set<String> MS_FIELDS = Set.of("pre_queue_ms", "queue_ms", "prefill_ms", "ttft_ms",
      "decode_ms", "e2e_ms", "tpot_ms");

  static final Set<String> STATUSES = Set.of("ok", "error", "cancelled", "lost");

  static final Set<String> PHASES = Set.of("warmup", "measure");

  /** Fields that carry user text: dropped unless --keep-text (production logs hold user data). */
  static final Set<String> TEXT_FIELDS = Set.of("prompt", "messages", "output", "output_text",
      "generated_text", "text", "completion", "response");

  /** Fields that only the token-per-line form has. */
  static final Set<String> TOKEN_LINE_FIELDS = Set.of("seq", "ts_ns", "n_tokens", "chunk_kind");

  /** Every field a request line may have with a canonical meaning (others go to extras). */
  static final Set<String> REQUEST_FIELDS = Set.of("request_id", "run", "label", "concurrency",
      "request_rate", "repeat", "clock", "engine", "instance", "arrival_ns", "queued_ns",
      "scheduled_ns", "first_token_ns", "last_token_ns", "finished_ns", "pre_queue_ms", "queue_ms",
      "prefill_ms", "ttft_ms", "decode_ms", "e2e_ms", "tpot_ms", "prompt_tokens", "output_tokens",
      "cached_tokens", "status", "finish_reason", "http_status", "error", "phase", "first_iter",
      "last_iter", "tokens_ns", "tokens_n");
}
