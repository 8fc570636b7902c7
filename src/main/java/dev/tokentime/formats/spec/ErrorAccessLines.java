package dev.tokentime.formats.spec;

import dev.tokentime.ingest.RequestRecord;

/**
 * An HTTP error on a uvicorn access line that no request line is next to (refused before
 * admission: a 404 for an unknown model; a 500 of a failing server; any error of a server that
 * logs no request lines) is a failed request of its own, in every server log that has access
 * lines (docs/formats.md, "Access lines"). It is never tied to the request that comes next, which
 * may be another client's seconds later.
 */
public final class ErrorAccessLines {
  private ErrorAccessLines() {}

  /**
   * The OpenAI-style and engine-native inference routes, with or without /v1, and SageMaker's
   * {@code /invocations}; KServe's v1
   * protocol ({@code /v1/models/NAME:predict}, the colon often percent-encoded as uvicorn logs it)
   * and the v2 (Open Inference) protocol's {@code /v2/models/NAME[/versions/N]/infer}, which
   * KServe and Triton serve, with Triton's {@code generate} and {@code generate_stream}.
   */
  private static final java.util.regex.Pattern INFERENCE_PATH = java.util.regex.Pattern.compile(
      "/(?:v1/)?(?:chat/)?(?:completions|embeddings|responses|messages|generate|generate_stream|score|rerank|pooling|classify|encode)\\b"
          // the image, video and audio routes (SGLang's diffusion runtime, vLLM's Whisper and speech)
          + "|/v1/(?:images/(?:generations|edits|variations)|videos|audio/(?:transcriptions|translations|speech))\\b"
          // SageMaker's one inference route, which vLLM and SGLang serve beside their own (the
          // body says which API it is): a 5xx there is a failed request as on /v1/completions
          + "|/invocations\\b"
          + "|/v1/models/[^/\\s]+(?::|%3[Aa])(?:predict|explain)\\b"
          + "|/v2/models/[^/\\s]+(?:/versions/[^/\\s]+)?/(?:infer|generate|generate_stream)\\b");

  /**
   * Whether an access line is a client's inference request: a POST to an inference route (text,
   * image, video or audio; or a PUT, which SGLang's /generate, /encode and /classify take too). Not /metrics, /health or
   * /v1/models, and not a GET, HEAD or OPTIONS of an inference route (a probe or a browser,
   * answered 405 Method Not Allowed), nor a DELETE of a stored response.
   */
  public static boolean inferenceRequest(String method, String path) {
    return ("POST".equals(method) || "PUT".equals(method)) && path != null && INFERENCE_PATH.matcher(path).find();
  }

  /**
   * Fills {@code into} (already reset) as the failed request of access line {@code m}: id
   * {@code http-STATUS-line-N}, status error, its HTTP status, and the line's time ({@code ts}, a
   * header's or a wrapper's) or else the time of the last line before it that had one, which
   * uvicorn's own lines lack ({@code extras.time_from} says which).
   *
   * @throws SpecParser.BadLine when no line up to this one had a time: a request needs one
   */
  public static void fill(RequestRecord into, MatchedLine m, int status, long ts, int clock, LogTimes times,
      String run, String engine, String instance) throws SpecParser.BadLine {
    Dated at = failed(into, m.lineNo, "http-" + status + "-line-" + m.lineNo, ts, clock, times,
        "an HTTP " + status + " access line", run, engine, instance);
    into.httpStatus = status;
    String cause = cause(m.previousMessage(), status);
    into.error = "HTTP " + status + " " + m.group("method") + " " + m.group("path")
        + " (access line only: no request line names it)"
        + (cause == null ? "" : "; the error logged right before it: " + cause);
    into.extras.put("time_from", at.from());
  }

  // the last line of a Python traceback: "vllm.exceptions.VLLMValidationError: 'max_tokens' or
  // 'max_completion_tokens' is too large: 16000. …", "ValueError: …", "openai.BadRequestError: …"
  private static final java.util.regex.Pattern EXCEPTION =
      java.util.regex.Pattern.compile("^\\s*((?:[A-Za-z_][\\w]*\\.)*[A-Z]\\w*(?:Error|Exception)): (.+)$");

  // vLLM's serving handlers log the error response they send: "Error with model object='error'
  // message='The model `QwQ-32B` does not exist.' type='NotFoundError' param=None code=404"
  private static final java.util.regex.Pattern ERROR_RESPONSE =
      java.util.regex.Pattern.compile("\\bmessage=(['\"])(.*?)\\1,? type=(['\"])(\\w+)\\3");

  private static final java.util.regex.Pattern CODE = java.util.regex.Pattern.compile("\\bcode=(\\d{3})\\b");

  /**
   * The exception a handler logged on the line right before an error's access line (the request's
   * own: uvicorn logs the response after the handler's error), shortened; or null.
   */
  public static String cause(String previous, int status) {
    if (previous == null) {
      return null;
    }
    java.util.regex.Matcher code = CODE.matcher(previous);
    if (code.find() && Integer.parseInt(code.group(1)) != status) {
      return null; // an error response of another status: another request's
    }
    java.util.regex.Matcher e = EXCEPTION.matcher(previous);
    String text;
    if (e.matches()) {
      text = e.group(1).substring(e.group(1).lastIndexOf('.') + 1) + ": " + e.group(2).strip();
    } else {
      java.util.regex.Matcher r = ERROR_RESPONSE.matcher(previous);
      if (!r.find()) {
        return null;
      }
      text = r.group(4) + ": " + r.group(2).strip();
    }
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }

  /** When a failed request known from one line happened, and where that time came from. */
  public record Dated(long ns, int clock, String from) {}

  /**
   * Fills {@code into} (already reset) as a failed request a line names by no id: {@code
   * requestId}, status error, arrived and finished at the line's time or else the last time the
   * log gave ({@link #dated}), which it returns.
   *
   * @throws SpecParser.BadLine when no line up to this one had a time: a request needs one
   */
  public static Dated failed(RequestRecord into, long lineNo, String requestId, long ts, int clock, LogTimes times,
      String what, String run, String engine, String instance) throws SpecParser.BadLine {
    Dated at = dated(ts, clock, times, what);
    into.lineNo = lineNo;
    into.run = run;
    into.requestId = requestId;
    into.engine = engine;
    into.instance = instance;
    into.clockId = at.clock();
    into.arrivalNs = at.ns();
    into.finishedNs = at.ns();
    into.status = "error";
    return at;
  }

  /**
   * Whether two lines' origins (wrapper identities) may be one server's: equal, or either unknown
   * (a line without a wrapper among wrapped ones), or one the other's with the process tag the
   * other line lacks ({@code host/vllm[2107]} and {@code host/vllm[2107] / APIServer pid=1}: vLLM
   * tags some of a server's lines and not others). What ties an access line to a request.
   */
  public static boolean sameOrigin(String a, String b) {
    return a == null || b == null || a.equals(b) || taggedOf(a, b) || taggedOf(b, a);
  }

  /** Whether {@code longer} is {@code origin + " / " + tag} (no string built: access lines test many). */
  private static boolean taggedOf(String longer, String origin) {
    return longer.length() > origin.length() + 3 && longer.startsWith(origin)
        && longer.startsWith(" / ", origin.length());
  }

  /**
   * The line's own time ({@code ts}), or else the time of the last line before it that had one,
   * which uvicorn's and some engine lines lack; {@code from} says which.
   *
   * @throws SpecParser.BadLine when no line up to this one had a time: a request needs one
   */
  public static Dated dated(long ts, int clock, LogTimes times, String what) throws SpecParser.BadLine {
    if (ts != RequestRecord.NONE) {
      return new Dated(ts, clock, "its own line");
    }
    if (times.lastNs() == RequestRecord.NONE) {
      throw new SpecParser.BadLine("no timestamp: " + what + " before any line with a time");
    }
    return new Dated(times.lastNs(), times.lastNsClock(), "the last timed line before it");
  }
}
