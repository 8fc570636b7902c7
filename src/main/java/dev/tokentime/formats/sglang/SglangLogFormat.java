package dev.tokentime.formats.sglang;

import dev.tokentime.formats.spec.ExplainStats;
import dev.tokentime.formats.spec.SpecFormat;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.formats.spec.SpecReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import java.io.IOException;
import java.io.InputStream;

/**
 * sglang-log: the SGLang server log, as {@code parsers/sglang-log.spec} describes its lines. The
 * spec engine stores the batch lines as steps; {@link SglangSteps} (a sink in front of the real
 * one) adds ranks, the decode sampling interval, range checks and the engine_stats row of each
 * line, and {@link SglangRequests} the request lifecycles of {@code --log-requests}. Request ids
 * are unique within one file only (no id namespace).
 */
public final class SglangLogFormat extends SpecFormat {
  public SglangLogFormat() {
    super(SpecReader.load("sglang-log.spec"));
  }

  @Override
  protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink) {
    SglangSteps steps = sink instanceof SglangSteps s ? s : new SglangSteps(sink);
    return new SglangRequests(ctx, steps, steps, parser.times());
  }

  @Override
  public long parse(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    return super.parse(in, ctx, new SglangSteps(sink));
  }

  @Override
  public ExplainStats explain(InputStream in, ParseContext ctx, RecordSink sink) throws IOException {
    return super.explain(in, ctx, new SglangSteps(sink));
  }
}
