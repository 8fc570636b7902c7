package dev.tokentime.formats.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.testing.CollectingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The tools' own summaries (genai-perf, AIPerf; JSON and CSV) as reported_metrics. */
class ToolSummaryFormatTest {
  static final Path RUN1 = Path.of("src/test/resources/real-logs/peers-extra/aiperf-run1");
  final ToolSummaryFormat genai = new ToolSummaryFormat(ToolSummaryFormat.Tool.GENAI_PERF);
  final ToolSummaryFormat aiperf = new ToolSummaryFormat(ToolSummaryFormat.Tool.AIPERF);

  @Test
  void aiperfsRealCsvSummary() throws IOException {
    CollectingSink s = Parsing.parse(aiperf, Files.readAllBytes(RUN1.resolve("profile_export_aiperf.csv")), "run1");
    assertEquals(10 + 11, s.records, "10 distribution rows and 11 figures");
    assertEquals(3, s.other, "two headers and the blank line between the tables");
    assertTrue(s.reported.contains("run1 null time_to_first_token p99 3833.39 ms"), s.reported.toString());
    assertTrue(s.reported.contains("run1 null inter_chunk_latency std 23.88 ms"), s.reported.toString());
    assertTrue(s.reported.contains("run1 null request_throughput avg 9.55 requests/sec"), s.reported.toString());
    // no unit in the CSV: the JSON's, requests
    assertTrue(s.reported.contains("run1 null error_request_count avg 11.0 requests"), s.reported.toString());
  }

  /** One run's CSV and JSON store each figure under one name: the JSON's tag, not the CSV's display name. */
  @Test
  void aiperfsCsvAndJsonNameEachFigureAlike() throws IOException {
    java.util.function.Function<CollectingSink, java.util.Set<String>> names = s -> s.reported.stream()
        .map(r -> r.split(" ")[2]).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    // AIPerf 0.8.0, every request timed out: the error figures (run1's JSON here is an excerpt)
    Path dir = Path.of("src/test/resources/real-logs/tools/aiperf-databloom-timeouts");
    var csv = names.apply(Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.csv")), "r"));
    var json = names.apply(Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.json")), "r"));
    assertTrue(json.containsAll(csv), "only in the CSV: " + csv.stream().filter(n -> !json.contains(n)).toList());
    assertTrue(csv.contains("total_error_isl"), csv.toString());
    // an early-October-2025 full run's CSV: the four figures whose display names differ from their tags
    var run1 = names.apply(Parsing.parse(aiperf, Files.readAllBytes(RUN1.resolve("profile_export_aiperf.csv")), "r"));
    assertTrue(run1.containsAll(java.util.List.of("total_isl", "total_osl", "min_request_timestamp",
        "max_response_timestamp")), run1.toString());
    assertEquals("total_isl", dev.tokentime.formats.json.ToolMetricNames.tagged("Total Input Sequence Length (tokens)")[0]);
    assertEquals("max_response_timestamp", dev.tokentime.formats.json.ToolMetricNames.tagged("Maximum Response Timestamp (ns)")[0]);
  }

  /**
   * AIPerf's error-adjusted companions (adj_request_latency, "Request Latency (error-adjusted)"):
   * each failed request an unbounded latency, so past the failure share the statistics are
   * infinite, null in the JSON and "inf" in the CSV. Both files keep the finite ones under the
   * JSON's tag; the CSV's rows were rejected whole for "inf", under another name.
   */
  @Test
  void aiperfsErrorAdjustedRowsKeepTheirFiniteFiguresUnderTheJsonsTag() throws IOException {
    Path dir = Path.of("src/test/resources/constructed/aiperf-error-adjusted");
    CollectingSink csv = Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.csv")), "r");
    CollectingSink json = Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.json")), "r");
    assertEquals(java.util.List.of(), csv.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(7, csv.records, "4 distribution rows and 3 figures");
    assertTrue(csv.reported.contains("r null adj_request_latency p50 802.0 ms"), csv.reported.toString());
    assertTrue(csv.reported.contains("r null adj_request_latency min 640.12 ms"), csv.reported.toString());
    assertTrue(csv.reported.contains("r null adj_time_to_first_token p25 104.0 ms"), csv.reported.toString());
    assertTrue(json.reported.contains("r 16.0 adj_request_latency p50 802.0 ms"), json.reported.toString());
    java.util.function.Function<CollectingSink, java.util.Set<String>> adj = s -> s.reported.stream()
        .map(r -> r.split(" ")).filter(f -> f[2].startsWith("adj_")).map(f -> f[2] + " " + f[3])
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    java.util.Set<String> fromJson = adj.apply(json);
    fromJson.removeIf(n -> n.endsWith(" count")); // the CSV has no count column
    assertEquals(fromJson, adj.apply(csv), "the same finite statistics, none of the unbounded ones");
    assertEquals(6 * 2, adj.apply(csv).size(), "min, p1, p5, p10, p25 and p50 of each, no avg, max, sum or p75..p99");
    assertEquals("adj_effective_latency",
        dev.tokentime.formats.json.ToolMetricNames.tagged("Effective Latency (CO-aware) (error-adjusted) (ms)")[0]);
    // "inf" is the unbounded statistic of an error-adjusted row only: elsewhere it is no figure
    CollectingSink bad = Parsing.parse(aiperf, ("Metric,avg,min,max,sum,p1,p50,p99,std\r\n"
        + "Request Latency (ms),inf,1.0,2.0,3.0,1.0,1.5,2.0,0.1\r\n").getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(java.util.List.of("2: avg: expected a number, got \"inf\""),
        bad.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
  }

  /**
   * AIPerf 0.10's CSV beside its JSON (a real 2026 run): each CSV figure under the JSON's name and
   * unit. "Overall Usage Prompt Cache Read % (%)" is overall_usage_prompt_cache_read_pct, and the
   * counts shown without a unit have the JSON's (requests, count), not none.
   */
  @Test
  void aiperf010sCsvFiguresHaveTheJsonsNamesAndUnits() throws IOException {
    java.util.function.Function<CollectingSink, java.util.Set<String>> nameUnit = s -> s.reported.stream()
        .map(r -> r.split(" ")).map(f -> f[2] + " " + f[f.length - 1])
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    Path dir = Path.of("src/test/resources/real-logs/tools/aiperf-0.10-multiturn-ngrok-c2");
    var csv = nameUnit.apply(Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.csv")), "r"));
    var json = nameUnit.apply(Parsing.parse(aiperf, Files.readAllBytes(dir.resolve("profile_export_aiperf.json")), "r"));
    assertEquals(java.util.List.of(), csv.stream().filter(n -> !json.contains(n)).toList(), "CSV name and unit not in the JSON");
    assertTrue(csv.containsAll(java.util.List.of("overall_usage_prompt_cache_read_pct %", "request_count requests",
        "osl_mismatch_count requests", "http_req_chunks_received count")), csv.toString());
  }

  @Test
  void aiperfsEarlyJsonLayoutWithRecordsAndTags() throws IOException {
    CollectingSink s = Parsing.parse(aiperf, Files.readAllBytes(RUN1.resolve("profile_export_aiperf.json")), "run1");
    assertEquals(1, s.records);
    assertTrue(s.reported.contains("run1 100.0 time_to_first_token avg 2343.219436988764 ms"), "tag ttft, by its later name");
    // a count is how many values, in no unit of the metric
    assertTrue(s.reported.contains("run1 100.0 inter_chunk_latency count 21537.0 count"), s.reported.toString());
    assertEquals(100.0, s.levels.get("run1")[1], "the level from input_config.loadgen");
    assertTrue(s.reported.stream().noneMatch(r -> r.contains(" min ") && r.contains("request_throughput")), "nulls are no figures");
  }

  /**
   * AIPerf 0.10 sets a request-rate run's load per phase as {"type": "poisson", "rate": 1.0}
   * (anud18/qwen36-vllm-aiperf-benchmark); the warm-up phase, excluded from the results, is not the
   * run's. Before, the run had no level.
   */
  @Test
  void aiperf010PhaseRateIsTheRunsRequestRate() throws IOException {
    CollectingSink s = Parsing.parse(aiperf, ("{\"input_config\": {\"phases\": ["
        + "{\"name\": \"warmup\", \"type\": \"poisson\", \"exclude_from_results\": true, \"requests\": 16, \"rate\": 4.0},"
        + "{\"name\": \"profiling\", \"type\": \"poisson\", \"requests\": 96, \"rate\": 1.0}]},"
        + "\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1.0097}}").getBytes(StandardCharsets.UTF_8), "r1.0");
    assertEquals("request_rate", s.levels.get("r1.0")[0], s.reported.toString());
    assertEquals(1.0, s.levels.get("r1.0")[1]);
  }

  @Test
  void genaiPerfsCsvWithCrlfThousandsSeparatorsAndNa() throws IOException {
    // the zephyr-7b run of genai-perf's goodput docs, written as genai-perf writes its CSV
    String csv = "Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\r\n"
        + "Time To First Token (ms),78.10,63.55,111.13,109.61,N/A,95.91,73.07,N/A,N/A,N/A,N/A,N/A\r\n"
        + "Request Latency (ms),\"6,740.76\",\"4,387.10\",\"8,930.90\",\"8,929.88\",N/A,\"8,920.69\",\"8,905.37\",N/A,N/A,N/A,N/A,N/A\r\n"
        + "\r\n"
        + "Metric,Value\r\n"
        + "Output Token Throughput (per sec),51.20\r\n"
        + "Request Throughput (per sec),0.15\r\n"
        + "Request Goodput (per sec),0.12\r\n";
    CollectingSink s = Parsing.parse(genai, csv);
    assertEquals(5, s.records);
    assertTrue(s.reported.contains("dir null request_latency avg 6740.76 ms"), s.reported.toString());
    assertTrue(s.reported.contains("dir null request_goodput avg 0.12 requests/sec"), s.reported.toString());
    // "(per sec)" is the JSON's unit of each: one unit per metric whichever file it came from
    assertTrue(s.reported.contains("dir null output_token_throughput avg 51.2 tokens/sec"), s.reported.toString());
    assertTrue(s.reported.contains("dir null time_to_first_token p99 109.61 ms"), s.reported.toString());
  }

  /**
   * AIPerf's time-slice export holds the run's figures per slice, one level down: it was claimed
   * and rejected as having "no metric of the form {unit, avg}". Found in a folder it is left out,
   * named; read alone it is rejected for what it is.
   */
  /**
   * AIPerf's steady-state export (2026): the JSON was rejected as "no metric of the form {unit,
   * avg}" (it has them, under "metrics"), the CSV was "cannot tell the format". Both are now said to
   * be what they are, and left out and listed beside the run's files.
   */
  @Test
  void aiperfsSteadyStateExportIsSaidToBeOne() throws IOException {
    Path dir = Path.of("src/test/resources/constructed/aiperf-steady-state");
    byte[] csvBytes = Files.readAllBytes(dir.resolve("profile_export_aiperf_steady_state.csv"));
    assertEquals("aiperf-summary", new PeerSniffTest().sniff("profile_export_aiperf_steady_state.csv", csvBytes));
    for (String f : java.util.List.of("profile_export_aiperf_steady_state.json", "profile_export_aiperf_steady_state.csv")) {
      CollectingSink s = Parsing.parse(aiperf, Files.readAllBytes(dir.resolve(f)), "r");
      assertEquals(0, s.records, f);
      assertEquals(java.util.List.of(), s.reported, f);
      assertEquals(java.util.List.of("1: AIPerf's steady-state export"),
          s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason().substring(0, r.reason().indexOf(':'))).toList(), f);
      var beside = java.util.Set.of(f, "profile_export_aiperf.json", "profile_export.jsonl");
      assertTrue(aiperf.leaveOut(f, beside).startsWith("AIPerf's steady-state export"), f);
      assertEquals(null, aiperf.leaveOut(f, java.util.Set.of(f)), "alone: read");
    }
    CollectingSink csv = Parsing.parse(aiperf, csvBytes, "r");
    assertEquals(20, csv.other, "the file's other lines");
  }

  @Test
  void aiperfsTimeSliceExportIsSaidToBeOne() throws IOException {
    String json = "{\"timeslices\": [{\"start_ns\": 1780510243574377472, \"end_ns\": 1780510244574377472,"
        + " \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 10623.3, \"count\": 1}}], \"input_config\": {}}";
    CollectingSink s = Parsing.parse(aiperf, json);
    assertEquals(0, s.records);
    assertEquals(1, s.rejects.size());
    assertTrue(s.rejects.get(0).reason().startsWith("AIPerf's time-slice export"), s.rejects.toString());
    var beside = java.util.Set.of("profile_export_aiperf.json", "profile_export.jsonl");
    assertTrue(aiperf.leaveOut("profile_export_aiperf_timeslices.json", beside) != null);
    assertEquals(null, aiperf.leaveOut("profile_export_aiperf_timeslices.json", java.util.Set.of()), "alone: read");
    assertEquals(null, aiperf.leaveOut("profile_export_aiperf.json", java.util.Set.of("profile_export_aiperf_timeslices.json")));
  }

  @Test
  void genaiPerfsJson() throws IOException {
    String json = "{\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":0.15},"
        + "\"inter_token_latency\":{\"unit\":\"ms\",\"avg\":19.32,\"p99\":19.36,\"min\":19.3,\"std\":0.02},"
        + "\"input_config\":{\"perf_analyzer\":{\"stimulus\":{\"concurrency\":4}}}}";
    CollectingSink s = Parsing.parse(genai, json);
    assertTrue(s.reported.contains("dir 4.0 inter_token_latency p99 19.36 ms"), s.reported.toString());
    assertEquals("concurrency", s.levels.get("dir")[0]);
  }

  @Test
  void badSummariesAreRejected() throws IOException {
    CollectingSink a = Parsing.parse(genai, "{\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":0.");
    assertTrue(a.rejects.get(0).reason().startsWith("truncated JSON") || a.rejects.get(0).reason().startsWith("not valid JSON"),
        a.rejects.toString());
    CollectingSink b = Parsing.parse(genai, "{\"hello\":1}");
    assertTrue(b.rejects.get(0).reason().startsWith("no metric"), b.rejects.toString());
    CollectingSink c = Parsing.parse(aiperf, "Metric,avg,min\nRequest Latency (ms),fast,1\nRequest Count,1\n\"open\n");
    assertEquals(3, c.rejects.size(), c.rejects.toString());
    assertTrue(c.rejects.get(0).reason().startsWith("avg: expected a number"), c.rejects.toString());
    assertTrue(c.rejects.get(1).reason().startsWith("row has 2 fields but the header has 3"), c.rejects.toString());
    CollectingSink d = Parsing.parse(aiperf, Parsing.withInvalidUtf8("Metric,avg\nRequest @@ (ms),1\n"), "dir");
    assertTrue(d.rejects.get(0).reason().startsWith("invalid UTF-8"), d.rejects.toString());
    assertEquals(2, d.rejects.get(0).lineNo());
  }

  /**
   * The summaries' figures are range-checked before anything of the document (JSON) or the row
   * (CSV) is stored: a count past 10^12 or not whole, a latency past 30 days, a CSV cell Java's
   * parser would take (NaN, Infinity, 5f). genai-perf's and AIPerf's real negative figures stay.
   */
  @Test
  void aFigureOutOfRangeRejectsItsDocumentOrRowWhole() throws IOException {
    String json = "{\"request_count\": {\"unit\": \"requests\", \"avg\": 1e26},"
        + " \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 80.5, \"p99\": 120.0},"
        + " \"osl_mismatch_diff_pct\": {\"unit\": \"%\", \"avg\": -12.5}}";
    CollectingSink s = Parsing.parse(aiperf, json.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(java.util.List.of("1: request_count out of range: 100000000000000000000000000 (a count of requests or tokens, 0 to 10^12)"),
        s.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(java.util.List.of(), s.reported, "nothing of a rejected document stored");
    String withLevel = json.replace("{\"request_count\"", "{\"input_config\": {\"loadgen\": {\"concurrency\": 16}}, \"request_count\"");
    CollectingSink lv = Parsing.parse(aiperf, withLevel.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(1, lv.rejects.size());
    assertEquals(java.util.Map.of(), lv.levels, "no run of its own either");
    CollectingSink lvOk = Parsing.parse(aiperf, withLevel.replace("1e26", "640").getBytes(StandardCharsets.UTF_8), "r");
    assertEquals("[concurrency, 16.0, null]", java.util.Arrays.toString(lvOk.levels.get("r")));
    assertTrue(lvOk.reported.contains("r 16.0 request_count avg 640.0 requests"), lvOk.reported.toString());

    // a sweep's statistics are across trials: a request count's mean of 2044.5 and a confidence
    // bound below zero are figures of it, not corrupt counts
    String sweep = "{\"aggregation_type\": \"sweep\", \"per_combination_metrics\": ["
        + "{\"parameters\": {\"concurrency\": 16}, \"metrics\": {\"request_count\": {\"unit\": \"requests\","
        + " \"avg\": 2044.5, \"std\": 0.7, \"cv\": 0.0003, \"ci_low\": 2038.1, \"ci_high\": 2050.9},"
        + " \"error_request_count\": {\"unit\": \"requests\", \"avg\": 0.5, \"ci_low\": -5.85, \"ci_high\": 6.85}}},"
        + "{\"parameters\": {\"concurrency\": 32}, \"metrics\": {\"request_count\": {\"unit\": \"requests\", \"avg\": 3001.0}}}]}";
    CollectingSink sw = Parsing.parse(aiperf, sweep.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(java.util.List.of(), sw.rejects);
    assertEquals(1, sw.records);
    assertTrue(sw.reported.contains("r 16.0 request_count avg 2044.5 requests"), sw.reported.toString());
    assertTrue(sw.reported.contains("r#2 32.0 request_count avg 3001.0 requests"), sw.reported.toString());
    CollectingSink swBad = Parsing.parse(aiperf, sweep.replace("3001.0", "1e26").getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(1, swBad.rejects.size(), swBad.rejects.toString());
    assertEquals(java.util.Map.of(), swBad.levels, "no run of a rejected sweep");
    CollectingSink ok = Parsing.parse(aiperf, json.replace("1e26", "640").getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(1, ok.records);
    assertTrue(ok.reported.contains("r null osl_mismatch_diff_pct avg -12.5 %"), ok.reported.toString());
    CollectingSink late = Parsing.parse(genai, json.replace("1e26", "640").replace("120.0", "4e12")
        .getBytes(StandardCharsets.UTF_8), "r");
    assertEquals("time_to_first_token p99 out of range: 4.0E12 ms (a duration is within 30 days)", late.rejects.get(0).reason());

    String csv = "Metric,avg,min,max,p99\n"
        + "Time To First Token (ms),80.50,60.00,NaN,119.00\n"
        + "Inter Token Latency (ms),19.30,19.00,5f,19.50\n"
        + "Request Latency (ms),6740.76,4387.10,8930.90,8929.88\n"
        + "\n"
        + "Metric,Value\n"
        + "Request Count,12.5\n"
        + "Request Throughput (per sec),0.15\n";
    CollectingSink c = Parsing.parse(aiperf, csv.getBytes(StandardCharsets.UTF_8), "r");
    assertEquals(java.util.List.of("2: max: expected a number, got \"NaN\"", "3: max: expected a number, got \"5f\"",
        "7: request_count: 12.5 is no whole number (a count of requests or tokens)"),
        c.rejects.stream().map(r -> r.lineNo() + ": " + r.reason()).toList());
    assertEquals(java.util.List.of("r null request_latency avg 6740.76 ms", "r null request_latency min 4387.1 ms",
        "r null request_latency max 8930.9 ms", "r null request_latency p99 8929.88 ms",
        "r null request_throughput avg 0.15 requests/sec"), c.reported, "the rejected rows store nothing");
  }

  static String text(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
