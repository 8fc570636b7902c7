package dev.tokentime.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A canonical JSONL log whose run name, request ids and error text are HTML, script and
 * Markdown: a report must show all of it as text. Twelve requests at concurrency 2; the last two
 * wait 300 ms in the queue, request 3 stalls 420 ms mid-stream, request 5 fails with a 500.
 */
public final class HostileLog {
  private HostileLog() {}

  public static final String RUN = "evil</script><script>document.title='PWNED'</script>";
  public static final String ID = "<script>document.title='PWNED'</script>-";
  public static final String FAILED_ID = "<img src=x onerror=\"document.title='PWNED'\">";
  public static final String ERROR = "<script>document.title='PWNED'</script> | *boom* [x](javascript:alert(1))";

  public static String jsonl() {
    long base = 1_767_225_600_000_000_000L;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      long a = base + i * 200_000_000L;
      long q = a + 1_000_000L;
      long s = q + (i < 10 ? 5_000_000L : 300_000_000L);
      long f = s + 30_000_000L;
      if (i == 5) {
        lines.add("{\"request_id\":" + json(FAILED_ID) + ",\"run\":" + json(RUN) + ",\"concurrency\":2,\"arrival_ns\":" + a
            + ",\"finished_ns\":" + (a + 5_000_000L) + ",\"status\":\"error\",\"http_status\":500,\"error\":" + json(ERROR) + "}");
        continue;
      }
      StringBuilder toks = new StringBuilder();
      long last = 0;
      for (int k = 0; k < 20; k++) {
        last = f + k * 20_000_000L + (i == 3 && k >= 10 ? 400_000_000L : 0);
        toks.append(k == 0 ? "" : ",").append(last);
      }
      lines.add("{\"request_id\":" + json(ID + i) + ",\"run\":" + json(RUN) + ",\"concurrency\":2,\"arrival_ns\":" + a
          + ",\"queued_ns\":" + q + ",\"scheduled_ns\":" + s + ",\"first_token_ns\":" + f + ",\"last_token_ns\":" + last
          + ",\"finished_ns\":" + (last + 1000) + ",\"prompt_tokens\":100,\"output_tokens\":20,\"status\":\"ok\",\"tokens_ns\":["
          + toks + "]}");
    }
    return String.join("\n", lines) + "\n";
  }

  private static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
