package dev.tokentime.formats.sglang;

import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (SGLang's server log), as registered in FormatRegistry. */
public final class SglangFormats {
  private SglangFormats() {}

  public static List<InputFormat> all() {
    return List.of(new SglangLogFormat());
  }
}
