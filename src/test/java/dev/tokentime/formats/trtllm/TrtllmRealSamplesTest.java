package dev.tokentime.formats.trtllm;

import dev.tokentime.testing.RecordingSink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every sample of real-logs/trtllm, as the registry sniffs it: which format claims it and what it
 * yields (records with their rows, other lines, rejects of the samples cut off by the search
 * excerpts or elided by the documentation). The sources tokentime does not read (Prometheus text,
 * the statistics extension, trace_summary.py's report) are claimed by no format, so `analyze`
 * lists them as skipped.
 */
class TrtllmRealSamplesTest {
  final FormatRegistry registry = FormatRegistry.standard();

  /** What one sample yields: format, records, other lines, rejects, request rows, step rows, reported figures. */
  record Yield(String format, long records, long other, long rejects, long requests, long steps, long reported) {}

  static Map<String, Yield> expected() {
    Map<String, Yield> m = new LinkedHashMap<>();
    m.put("iteration_stats_executor_complete.jsonl", new Yield("trtllm-iter-stats", 2, 0, 0, 0, 2, 0));
    m.put("IT-1", new Yield("trtllm-iter-stats", 1, 0, 1, 0, 1, 0)); // cut inside iter 1
    m.put("IT-2", new Yield("trtllm-iter-stats", 1, 0, 0, 0, 1, 0));
    m.put("IT-3", new Yield("trtllm-iter-stats", 0, 0, 1, 0, 0, 0)); // cut inside iter 587
    m.put("IT-4", new Yield("trtllm-iter-stats", 0, 0, 1, 0, 0, 0)); // "..." elisions
    m.put("IT-5", new Yield("trtllm-iter-stats", 0, 0, 1, 0, 0, 0)); // "..." elisions
    m.put("LG-1", new Yield("trtllm-iter-stats", 1, 0, 0, 0, 1, 0));
    m.put("LG-2", new Yield("trtllm-iter-stats", 1, 4, 0, 0, 1, 0)); // wrapped over 5 lines
    m.put("LG-3", new Yield("trtllm-iter-stats", 1, 0, 0, 0, 1, 0));
    m.put("PL-1", new Yield("trtllm-iter-stats", 1, 0, 0, 0, 1, 0));
    m.put("PL-2", new Yield("trtllm-iter-stats", 1, 0, 0, 0, 1, 0));
    m.put("PM-ILL-1", new Yield("trtllm-perf-metrics", 1, 0, 0, 1, 0, 0));
    m.put("PM-ILL-2", new Yield("trtllm-perf-metrics", 1, 0, 0, 1, 0, 0));
    m.put("PM-ILL-3", new Yield("trtllm-perf-metrics", 1, 0, 0, 1, 0, 0));
    m.put("request_perf_metrics_triton_llmapi.json", new Yield("trtllm-perf-metrics", 1, 0, 0, 1, 0, 0));
    m.put("triton_trace_docs_example.json", new Yield("triton-trace", 12, 0, 0, 1, 0, 0));
    m.put("TR-2", new Yield("triton-trace", 1, 0, 1, 1, 0, 0)); // 2019 format, cut in the 2nd object
    m.put("BR-1", new Yield("trtllm-bench-report", 65, 36, 0, 0, 0, 70));
    m.put("BR-2", new Yield("trtllm-bench-report", 21, 43, 0, 0, 0, 14));
    m.put("BR-3", new Yield("trtllm-bench-report", 19, 13, 0, 0, 0, 12));
    m.put("BR-4", new Yield("trtllm-bench-report", 35, 23, 0, 0, 0, 46));
    m.put("BR-5", new Yield("trtllm-bench-report", 31, 12, 0, 0, 0, 31)); // the overview only
    // Prometheus text without sample timestamps and no --at: claimed (issue 21), every sample line
    // other (a snapshot that cannot be placed in time), cut lines rejected
    m.put("PR-1", new Yield("triton-prometheus", 0, 32, 0, 0, 0, 0));
    m.put("PR-2", new Yield("trtllm-prometheus", 0, 15, 1, 0, 0, 0)); // cut in its last label
    m.put("PR-3", new Yield("trtllm-prometheus", 0, 29, 0, 0, 0, 0));
    m.put("PR-4", new Yield("triton-prometheus", 0, 19, 1, 0, 0, 0)); // "nv_inference_q"
    // a shell transcript: the time printed before each scrape dates it (the second is cut at "# HEL")
    m.put("PR-6", new Yield("triton-prometheus", 2, 10, 0, 0, 0, 0));
    m.put("PR-7", new Yield("triton-prometheus", 0, 62, 0, 0, 0, 0)); // failures per reason, a RHEL prompt; no time
    // not read by tokentime: aggregates, not per-request or per-iteration timing (PR-5: an
    // unmerged PR's pytrtllm: names)
    for (String s : new String[] {"TR-3", "TR-4", "PR-5",
        "triton_model_statistics_docs_example.json"}) {
      m.put(s, null);
    }
    return m;
  }

  /** Each sample by its id (multi-sample files split at their headers) or its file name. */
  static Map<String, String[]> samples() throws IOException {
    Map<String, String[]> out = new LinkedHashMap<>(); // id -> {file name, text}
    try (Stream<java.nio.file.Path> s = Files.list(Samples.REAL)) {
      for (var p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.equals("PROVENANCE.md")) {
          continue;
        }
        String text = Files.readString(p, StandardCharsets.UTF_8);
        if (text.contains("\n=== SAMPLE ") || text.startsWith("=== SAMPLE ")) {
          for (var e : Samples.split(name).entrySet()) {
            out.put(e.getKey(), new String[] {name, e.getValue()});
          }
        } else {
          out.put(name, new String[] {name, text});
        }
      }
    }
    return out;
  }

  @Test
  void everySampleIsClaimedByTheRightFormatAndYieldsWhatItHolds() throws IOException {
    Map<String, Yield> want = expected();
    Map<String, String[]> samples = samples();
    assertEquals(want.keySet(), samples.keySet(), "every sample has an expectation");
    List<String> diffs = new ArrayList<>();
    for (var e : samples.entrySet()) {
      byte[] bytes = e.getValue()[1].getBytes(StandardCharsets.UTF_8);
      InputFormat f = registry.sniff(new Sample(e.getValue()[0], bytes, Math.min(bytes.length, 64 << 10)));
      Yield w = want.get(e.getKey());
      if (w == null) {
        if (f != null) {
          diffs.add(e.getKey() + ": claimed by " + f.id() + ", expected no format");
        }
        continue;
      }
      if (f == null || !f.id().equals(w.format())) {
        diffs.add(e.getKey() + ": claimed by " + (f == null ? "nothing" : f.id()) + ", expected " + w.format());
        continue;
      }
      RecordingSink s = Samples.parse(f, bytes, null);
      Yield got = new Yield(f.id(), s.c.records, s.c.other, s.c.rejects.size(), s.requests.size(),
          s.steps.size(), s.c.reported.size());
      if (!got.equals(w)) {
        diffs.add(e.getKey() + ": " + got + " (rejects " + s.c.rejects + ")");
      }
    }
    assertEquals(List.of(), diffs);
  }
}
