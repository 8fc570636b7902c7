package dev.tokentime.formats.vllm;

import dev.tokentime.formats.spec.SpecFormat;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.formats.spec.SpecReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;

/**
 * vllm-log: the whole vLLM server log, as {@code parsers/vllm-log.spec} describes its lines;
 * this class adds the request lifecycle across lines ({@link VllmRequestTracker}). Request ids
 * repeat across restarts, so they are unique within one file only (no id namespace).
 */
public final class VllmLogFormat extends SpecFormat {
  public VllmLogFormat() {
    super(SpecReader.load("vllm-log.spec"));
  }

  @Override
  protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink) {
    return new VllmRequestTracker(ctx, sink, parser);
  }
}
