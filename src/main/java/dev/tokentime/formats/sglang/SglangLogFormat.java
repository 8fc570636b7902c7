package dev.tokentime.formats.sglang;

import dev.tokentime.formats.spec.ExplainStats;
import dev.tokentime.formats.spec.LineSpec;
import dev.tokentime.formats.spec.SpecFormat;
import dev.tokentime.formats.spec.SpecParser;
import dev.tokentime.formats.spec.SpecReader;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.ingest.RecordSink;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.regex.Pattern;

/**
 * sglang-log: the SGLang server log, as {@code parsers/sglang-log.spec} describes its lines. The
 * spec engine stores the batch lines as steps; {@link SglangSteps} (a sink in front of the real
 * one) adds ranks, the decode sampling interval, range checks and the engine_stats row of each
 * line, and {@link SglangRequests} the request lifecycles of {@code --log-requests}. Request ids
 * are unique within one file only (no id namespace).
 */
public final class SglangLogFormat extends SpecFormat {
  private static final int SNIFF_LINES = 40;
  private static final Pattern ANSI = Pattern.compile("\\x1b\\[[0-9;]*[A-Za-z]");
  private static final Pattern JSON_START = Pattern.compile("\\{|\\[\\s*[\\[{\"\\]]");
  public SglangLogFormat() {
    super(SpecReader.load("sglang-log.spec"));
  }

  @Override
  protected SpecParser.Handler handler(SpecParser parser, ParseContext ctx, RecordSink sink) {
    SglangSteps steps = sink instanceof SglangSteps s ? s : new SglangSteps(sink);
    return new SglangRequests(ctx, steps, steps);
  }

  /**
   * The spec's sniff rules over the first lines, as {@link SpecFormat#sniff} runs them, except
   * that a first line starting with {@code [} is SGLang's own header ({@code [2026-04-08 14:05:21
   * TP0] …}), not a JSON array: only {@code {}, {@code [{}, {@code [[}, {@code ["} or {@code []}
   * start JSON here.
   */
  @Override
  public int sniff(Sample sample) {
    List<String> lines = sample.firstLines(SNIFF_LINES);
    if (lines.isEmpty() || JSON_START.matcher(lines.get(0)).lookingAt()) {
      return 0;
    }
    int best = 0;
    for (String raw : lines) {
      String line = ANSI.matcher(raw).replaceAll("");
      for (LineSpec.Sniff s : spec().sniffs()) {
        if (s.score() > best && s.pattern().matcher(line).find()) {
          best = s.score();
        }
      }
    }
    return best;
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
