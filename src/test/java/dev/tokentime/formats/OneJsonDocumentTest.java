package dev.tokentime.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tokentime.ingest.FormatRegistry;
import dev.tokentime.ingest.InputFormat;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A file that holds one JSON document, with a second copy appended (a shell's {@code >>}, a
 * re-run into the same name): the first is read as before and the rest is a reject naming its
 * line, never passed over. Before, the readers stopped after the first document and the file's
 * account said nothing of the second.
 */
class OneJsonDocumentTest {
  @ParameterizedTest
  @CsvSource({
      "genai-perf-summary, sample-logs/peers/genai-perf/profile_export_genai_perf.json, metrics object",
      "aiperf-summary, sample-logs/peers/aiperf/profile_export_aiperf.json, metrics object",
      "genai-perf-export, sample-logs/peers/genai-perf/profile_export.json, export object",
      "trtllm-bench-report, sample-logs/trtllm/trtllm-bench/report.json, report object",
      "vllm-bench-offline-json, src/test/resources/real-logs/tools/vllm-offline-dstack-2024-11/nvidia-latency_test_ip2048_op2048_np4.json, result object",
      "inference-benchmarker-json, src/test/resources/constructed/inference-benchmarker/deepseek-ai_DeepSeek-R1-Distill-Llama-8B_2025-06-13-14-06-05.json, results object"})
  void aSecondDocumentAppendedIsARejectNotPassedOver(String format, String sample, String what) throws Exception {
    InputFormat f = FormatRegistry.standard().byId(format);
    String one = Files.readString(Path.of(sample));
    CollectingSink once = parse(f, one);
    CollectingSink twice = parse(f, one.stripTrailing() + "\n" + one);
    assertEquals(once.records, twice.records, "the first document reads as it does alone");
    assertEquals(once.rejects.size() + 1, twice.rejects.size(), twice.rejects.toString());
    var extra = twice.rejects.get(twice.rejects.size() - 1);
    assertTrue(extra.reason().startsWith("more JSON after the " + what), extra.reason());
    assertEquals(one.lines().count() + 1, extra.lineNo(), "the line where the second copy starts");
  }

  private static CollectingSink parse(InputFormat f, String text) throws Exception {
    CollectingSink sink = new CollectingSink();
    long units = f.parse(new ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        new ParseContext("test.json", "r", false, null, null), sink);
    assertEquals(units, sink.records + sink.other + sink.rejects.size(), "units = records + other + rejects");
    return sink;
  }
}
