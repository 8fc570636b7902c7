package dev.tokentime.spark;

import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void samples() throws Exception {
    var out = SparkTests.tempDir("lake");
    var r = SparkTests.ingest(out, SparkTests.root().resolve("sample-logs").toString());
    System.err.println(r);
    var s = SparkTests.session();
    s.read().parquet(out.resolve("sources").toString()).show(100, false);
    s.read().parquet(out.resolve("runs").toString()).show(100, false);
    s.read().parquet(out.resolve("request_tokens").toString()).show(5, false);
  }
}
