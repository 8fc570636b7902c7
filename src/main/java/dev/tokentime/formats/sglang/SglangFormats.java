package dev.tokentime.formats.sglang;

import dev.tokentime.ingest.FormatFamily;
import dev.tokentime.ingest.InputFormat;
import java.util.List;

/** The input formats of this family (SGLang's server log), registered as a FormatFamily service. */
public final class SglangFormats implements FormatFamily {
  @Override
  public List<InputFormat> formats() {
    return List.of(new SglangLogFormat());
  }
}
