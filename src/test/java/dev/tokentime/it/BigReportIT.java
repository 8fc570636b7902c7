package dev.tokentime.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report of ten million tokens embeds buckets, not tokens: the chart data stays the size of a
 * report of a few thousand. Slow: run with mvn -B verify -Pslow -Dit.test=BigReportIT; the time
 * is printed for BENCHMARKS.md, never asserted.
 */
@Tag("slow")
class BigReportIT {
  static final long TOKENS = Long.getLong("tokentime.bigReportTokens", 10_000_000L);

  @TempDir
  Path tmp;

  @Test
  void tenMillionTokensMakeASmallReport() throws Exception {
    Path in = tmp.resolve("in");
    assertEquals(0, Cli.run("generate", "--out", in.toString(), "--levels", "16,32", "--tokens", Long.toString(TOKENS),
        "--mean-output", "500", "--slots", "16").code());
    Path db = tmp.resolve("big.duckdb");
    Cli.Result i = Cli.run("ingest", "--db", db.toString(), in.toString());
    assertEquals(0, i.code(), i.err());
    long t0 = System.nanoTime();
    Cli.Result r = Cli.run("report", "--db", db.toString(), "--slo", "ttft_p95<=1s", "-o", tmp.resolve("big.html").toString());
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, r.code(), r.err());
    String html = Files.readString(tmp.resolve("big.html"), StandardCharsets.UTF_8);
    int at = html.indexOf("id=\"tt-charts\">");
    int data = html.indexOf("</script>", at) - at;
    System.out.printf(Locale.ROOT, "BigReportIT: %d tokens, report %.2f s, %d bytes of HTML, %d of chart data%n",
        TOKENS, seconds, html.length(), data);
    assertTrue(data < 300_000, "chart data of " + data + " characters");
    assertTrue(html.length() < 1_500_000, "report of " + html.length() + " characters");
  }
}
