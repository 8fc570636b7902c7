package dev.tokentime.formats.canonical;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (tokentime's own canonical JSONL and CSV), registered as a FormatFamily service. */
public final class CanonicalFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new TokentimeJsonlFormat(), new TokentimeCsvFormat());
  }
}
