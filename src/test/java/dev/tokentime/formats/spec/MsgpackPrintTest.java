package dev.tokentime.formats.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * Fluent Bit's print of a record (msgpack-c's, strings unescaped): a string ends at the quote a
 * next key, a closing brace or bracket follows, so quotes, braces and commas inside a line stay in
 * it; a record the text ends inside (a line that ended in a newline) is kept up to there.
 */
class MsgpackPrintTest {
  private static String json(String text) {
    var node = MsgpackPrint.record(text, 0);
    return node == null ? null : node.toString();
  }

  @Test
  void stringsEndWhereAValueCanEnd() {
    assertEquals("{\"log\":\"a \\\"q\\\", \\\"b\\\": {\\\"c\\\": \\\"d\\\"} e\",\"stream\":\"stdout\"}",
        json("{\"log\"=>\"a \"q\", \"b\": {\"c\": \"d\"} e\", \"stream\"=>\"stdout\"}]"));
    assertEquals("{\"k\":{\"pod_name\":\"p\",\"labels\":{\"app\":\"x\"}},\"n\":12,\"f\":0.5,\"z\":null,\"t\":true,\"a\":[1,{\"b\":\"c\"}]}",
        json("{\"k\"=>{\"pod_name\"=>\"p\", \"labels\"=>{\"app\"=>\"x\"}}, \"n\"=>12, \"f\"=>0.5, \"z\"=>nil, \"t\"=>true, "
            + "\"a\"=>[1, {\"b\"=>\"c\"}]}]"));
    assertEquals("{}", json("{}]"));
  }

  @Test
  void aRecordCutByItsLinesNewlineKeepsWhatCameBefore() {
    assertEquals("{\"time\":\"t\",\"log\":\"INFO x \\\"y\\\"\"}", json("{\"time\"=>\"t\", \"log\"=>\"INFO x \"y\""));
  }

  @Test
  void otherTextIsNoRecord() {
    assertNull(json("{not a record"));
    assertNull(json("{\"a\"=>1} and more"));
    assertNull(json("{\"a\"=>(bin)}"));
    assertNull(json("[1]"));
  }
}
