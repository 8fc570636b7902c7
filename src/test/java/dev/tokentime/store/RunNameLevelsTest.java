package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Levels read from names (RunRegistry.inferFromName): the names that state one, and those that must not. */
class RunNameLevelsTest {

  static String level(String name) {
    RunRegistry.Run r = new RunRegistry.Run(name);
    RunRegistry.inferFromName(r);
    if (r.levelKind == null) {
      return "-";
    }
    String v = r.level == Math.rint(r.level) ? Long.toString(r.level.longValue()) : r.level.toString();
    return r.levelKind + " " + v;
  }

  @Test
  void namesThatStateALevel() {
    String[][] cases = {
        {"c16", "concurrency 16"},
        {"c16.log", "concurrency 16"},
        {"conc16", "concurrency 16"},
        {"conc-16", "concurrency 16"},
        {"concurrency=16", "concurrency 16"},
        {"concurrency_16", "concurrency 16"},
        {"CONCURRENCY-16", "concurrency 16"},
        {"sweep-c64-r2", "concurrency 64"},
        {"vllm_c8.jsonl.gz", "concurrency 8"},
        {"rate-8", "request_rate 8"},
        {"rate=8", "request_rate 8"},
        {"qps8", "request_rate 8"},
        {"rps-2.5", "request_rate 2.5"},
        {"rps-2.5.log", "request_rate 2.5"},
        {"request_rate_4", "request_rate 4"},
        {"c16-concurrency_16", "concurrency 16"},
    };
    assertEquals(List.of(), mismatches(cases, RunNameLevelsTest::level));
  }

  @Test
  void namesThatMustNotStateALevel() {
    List<String> wrong = new ArrayList<>();
    for (String name : List.of("cuda12", "v0.7", "h100", "a100-80gb", "llama-3.1-8b", "server.log", "cc16",
        "conc", "c", "rate", "qps", "cpu4x", "vllm-0.10.1", "gen", "concurrency", "accuracy=16", "c16x",
        "ratelimit-8", "results-2025", "tp4", "dp2-pp4",
        // zero is no level (a record's concurrency 0 is refused), and two levels leave it unknown
        "c0", "rps-0", "rate_0.0", "c16-c32", "rate8-rate16")) {
      if (!level(name).equals("-")) {
        wrong.add(name + " -> " + level(name));
      }
    }
    assertEquals(List.of(), wrong);
  }

  static String repeat(String name) {
    RunRegistry.Run r = new RunRegistry.Run(name);
    RunRegistry.inferFromName(r);
    return r.repeat == null ? "-" : r.repeat.toString();
  }

  @Test
  void repeatsFromNamesAndBareRsOnlyBesideALevel() {
    String[][] cases = {
        {"c16-r2", "2"},
        {"sweep-c64-r2", "2"},
        {"r3_rate8", "3"},
        {"rate-2.5_r4", "4"},
        {"r2", "2"},
        {"r2.jsonl", "2"},
        // vllm bench sweep: a repeat per file (run=0.json, run=1.json)
        {"SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/run=1", "1"},
        {"run_3", "3"},
        {"c16-rep3", "3"},
        {"repeat_5", "5"},
        {"trial-1", "1"},
        {"llama-lora-rep2", "2"},
        // a bare r elsewhere is a LoRA rank, a revision, a region
        {"lora-r16", "-"},
        {"lora-r16-c16", "-"},
        {"llama-8b-r64", "-"},
        {"c16", "-"},
        {"rr2", "-"},
        {"r2d2", "-"},
        // a folder of AIPerf runs at 1.0 requests/s (anud18/qwen36-vllm-aiperf-benchmark): no repeat
        {"r1.0", "-"},
        {"results-2025", "-"},
    };
    assertEquals(List.of(), mismatches(cases, RunNameLevelsTest::repeat));
  }

  /** The cases {name, wanted} whose name reads otherwise, as "name -> got (want wanted)". */
  static List<String> mismatches(String[][] cases, java.util.function.Function<String, String> read) {
    List<String> wrong = new ArrayList<>();
    for (String[] c : cases) {
      if (!read.apply(c[0]).equals(c[1])) {
        wrong.add(c[0] + " -> " + read.apply(c[0]) + " (want " + c[1] + ")");
      }
    }
    return wrong;
  }
}
