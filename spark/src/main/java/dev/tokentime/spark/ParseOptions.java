package dev.tokentime.spark;

import java.io.Serializable;

/**
 * The ingest options the parsers see, as on the CLI: --from (null: sniff), --keep-text, --tz and
 * --year.
 */
public record ParseOptions(String from, boolean keepText, String tz, Integer year)
    implements Serializable {}
