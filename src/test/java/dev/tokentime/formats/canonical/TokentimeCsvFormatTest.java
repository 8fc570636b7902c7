package dev.tokentime.formats.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.ingest.ChunkKind;
import dev.tokentime.ingest.ParseContext;
import dev.tokentime.testing.CollectingSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tokentime-csv on strings: the same meaning as the JSONL fields, header-driven. */
class TokentimeCsvFormatTest {
  final TokentimeCsvFormat format = new TokentimeCsvFormat();

  CollectingSink parse(byte[] input) throws IOException {
    CollectingSink sink = new CollectingSink();
    long lines = format.parse(new ByteArrayInputStream(input),
        new ParseContext("t.csv", "c2", false, null, null), sink);
    assertEquals(lines, sink.records + sink.other + sink.rejects.size(), "lines reconcile");
    return sink;
  }

  CollectingSink parse(String s) throws IOException {
    return parse(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsRequestRowsWithTokenListsAndTokenRows() throws IOException {
    CollectingSink s = parse("request_id,arrival_ns,first_token_ns,output_tokens,tokens_ns,model\n"
        + "a,100,200,2,200 300,llama\n"
        + "b,150,,,,\n"
        + "\n");
    assertEquals(2, s.requests.size());
    assertEquals(java.util.Map.of("model", "llama"), s.requests.get(0).extras());
    assertEquals(List.of(new CollectingSink.Tok(1, 0, 200, 1, ChunkKind.CONTENT),
        new CollectingSink.Tok(1, 1, 300, 1, ChunkKind.CONTENT)), s.tokens);
    assertEquals(dev.tokentime.ingest.RequestRecord.NONE, s.requests.get(1).firstTokenNs(), "empty cell = unknown");
    assertEquals(2, s.other, "header and blank line");

    CollectingSink t = parse("request_id,seq,ts_ns,n_tokens,chunk_kind\nr,0,10,,role\nr,1,20,3,\n");
    assertEquals(List.of(new CollectingSink.Tok(1, 0, 10, -1, ChunkKind.ROLE),
        new CollectingSink.Tok(1, 1, 20, 3, ChunkKind.CONTENT)), t.tokens);
  }

  /**
   * A CSV copied while its writer was still writing: the last row, cut inside its last field,
   * still parsed (output_tokens 128 stored as 1). A last row without its line end is rejected;
   * the same row with one is read.
   */
  @Test
  void aLastRowWithoutItsLineEndIsACutRow() throws IOException {
    String head = "request_id,arrival_ns,finished_ns,output_tokens\nq1,100,300,128\nq2,400,500,1";
    CollectingSink cut = parse(head);
    assertEquals(1, cut.requests.size());
    assertEquals(1, cut.rejects.size());
    org.junit.jupiter.api.Assertions.assertTrue(cut.rejects.get(0).reason().startsWith("truncated last line"), cut.rejects.toString());
    assertEquals(3, cut.rejects.get(0).lineNo());
    CollectingSink whole = parse(head + "\n");
    assertEquals(2, whole.requests.size());
    assertEquals(List.of(), whole.rejects);
  }

  @Test
  void rejectsBadRowsByLineAndKeepsTheRest() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(("request_id,arrival_ns,finish_reason\n"
        + "a,100,stop\n"
        + "b,yesterday,stop\n"
        + "c,300\n"
        + "\"d,400,\"\"quoted\"\" and\nspanning two lines\"\n"
        + "e,500,").getBytes(StandardCharsets.UTF_8));
    b.write(0xff);
    b.writeBytes("\nf,600,stop\n\"g,700,never closed\n".getBytes(StandardCharsets.UTF_8));
    CollectingSink s = parse(b.toByteArray());
    assertEquals(List.of("a", "f"), s.requests.stream().map(CollectingSink.Req::id).toList());
    assertEquals(List.of(
        "3 arrival_ns: expected an integer (ns), got \"yesterday\"",
        "4 row has 2 fields, the header has 3",
        "5 row has 1 fields, the header has 3",
        "7 invalid UTF-8 at byte 7",
        "9 the file ends inside a quoted field (truncated record)"),
        s.rejects.stream().map(r -> r.lineNo() + " " + r.reason()).toList());
  }

  @Test
  void aHeaderWithoutRequestIdIsRejectedNotGuessed() throws IOException {
    CollectingSink s = parse("id,ts\n1,2\n");
    assertEquals("the header row must name a request_id column", s.rejects.get(0).reason());
  }

  @Test
  void aHeaderThatNamesAColumnTwiceRejectsEveryRowSayingWhy() throws IOException {
    CollectingSink s = parse("request_id,arrival_ns,arrival_ns\na,100,90\nb,200,190\n");
    assertEquals(List.of("the header names column arrival_ns twice",
        "not read: the header (line 1) names column arrival_ns twice",
        "not read: the header (line 1) names column arrival_ns twice"),
        s.rejects.stream().map(CollectingSink.Rej::reason).toList());
    assertEquals(0, s.requests.size());
  }

  @Test
  void sniffsByHeader() {
    assertEquals(90, format.sniff(TokentimeJsonlFormatTest.sample("request_id,seq,ts_ns\nr,0,1\n")));
    assertEquals(90, format.sniff(TokentimeJsonlFormatTest.sample("\"request_id\",\"arrival_ns\"\n")));
    assertEquals(0, format.sniff(TokentimeJsonlFormatTest.sample("Metric,avg,min,max\n")));
    assertEquals(0, format.sniff(TokentimeJsonlFormatTest.sample("{\"request_id\":\"a\",\"ts_ns\":1}\n")));
  }
}
