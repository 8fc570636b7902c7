package dev.tokentime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.tokentime.app.IngestOptions;
import dev.tokentime.testing.TestDb;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The compact id table answers as a map of id to entry would, for any ids. */
class IdTableTest {

  /** Any ids (any characters, repeats, empty): each is found at the entry it was added as, with its values. */
  @Property(tries = 200)
  void findsWhatAMapWouldFind(@ForAll @Size(max = 300) List<@StringLength(max = 40) String> ids) {
    IdTable t = new IdTable();
    Map<String, Integer> oracle = new HashMap<>();
    long key = 100;
    for (String id : ids) {
      int e = t.find(id);
      Integer expected = oracle.get(id);
      assertEquals(expected == null ? -1 : expected, e, id);
      if (e < 0) {
        int added = t.add(id, key++, oracle.size() % 3 == 0, oracle.size() % 5 == 0 ? 7 : 3,
            oracle.size() % 4 == 0 ? null : (long) oracle.size());
        oracle.put(id, added);
      }
    }
    assertEquals(oracle.size(), t.size());
    for (Map.Entry<String, Integer> o : oracle.entrySet()) {
      int e = t.find(o.getKey());
      assertEquals(o.getValue(), e);
      assertEquals(100 + e, t.key(e));
      assertEquals(e % 3 == 0, t.stub(e));
      assertEquals(e % 5 == 0 ? 7 : 3, t.source(e));
      assertEquals(e % 4 == 0 ? null : Long.valueOf(e), t.line(e));
    }
  }

  @Test
  void idsOfOneStringHashCodeLongIdsAndNonAsciiIdsStayApart() {
    // "Aa" and "BB" have one String.hashCode, and so has every string made of them
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 1 << 12; i++) {
      StringBuilder b = new StringBuilder();
      for (int bit = 0; bit < 12; bit++) {
        b.append((i >> bit & 1) == 0 ? "Aa" : "BB");
      }
      ids.add(b.toString());
    }
    assertEquals(1, ids.stream().map(String::hashCode).distinct().count());
    ids.add("x".repeat(200_000)); // longer than a chunk's share: a chunk of its own
    ids.add("x".repeat(199_999) + "y");
    ids.add("réquest-é");
    ids.add("r\u00e9quest-\u00e9".replace("é", "e\u0301")); // the same text, decomposed: another id
    ids.add("请求-1");
    ids.add("");
    // lone surrogates (UTF-8 would write each as '?': three ids one)
    ids.add("id-\uD800");
    ids.add("id-\uDC00");
    ids.add("id-?");
    ids.add("id-\uD83D\uDE00"); // a pair: an emoji
    IdTable t = new IdTable();
    for (int i = 0; i < ids.size(); i++) {
      assertEquals(-1, t.find(ids.get(i)), "not yet added: " + i);
      assertEquals(i, t.add(ids.get(i), i, false, 1, (long) i));
    }
    for (int i = 0; i < ids.size(); i++) {
      assertEquals(i, t.find(ids.get(i)));
    }
    assertEquals(-1, t.find("x".repeat(199_999)));
    assertEquals(-1, t.find("AaAa"));
    assertEquals(-1, t.find("请求-2"));
  }

  /**
   * A stub's id adopted by a request row keeps both rows (one key) until the derive step: an id
   * table loaded from the database takes the request row as the id's entry, so a later copy of
   * the request is a duplicate, not a second adoption (found by review: two rows of one key).
   */
  @Test
  void aLoadedTableTakesTheRequestRowOverItsStub(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    try (TestDb t = new TestDb(tmp)) {
      Path tokens = t.write("r/T.jsonl", "{\"request_id\":\"X\",\"seq\":0,\"ts_ns\":1733140800500000000}\n");
      Path other = t.write("r/M.jsonl", "{\"request_id\":\"Y\",\"arrival_ns\":1733140800000000000,"
          + "\"finished_ns\":1733140801000000000}\n");
      t.ingest(tokens, other);
      Path request = t.write("r/R.jsonl", "{\"request_id\":\"X\",\"arrival_ns\":1733140800000000000,"
          + "\"finished_ns\":1733140801000000000}\n");
      Path copy = t.write("r/S.jsonl", "{\"request_id\":\"X\",\"arrival_ns\":1733140800100000000,"
          + "\"finished_ns\":1733140801100000000}\n");
      // M replaced clears the registry: X's table is loaded again while R's adoption is stored
      var r = t.ingest(new IngestOptions(List.of(request.toString(), other.toString(), copy.toString()), null, null,
          true, false, false, null, null, null, 1));
      assertEquals(1L, r.files().get(2).rejected(), r.toString());
      assertEquals(List.of(List.of("X", 1L), List.of("Y", 1L)),
          t.rows("SELECT request_id, count(*) FROM requests GROUP BY ALL ORDER BY 1"));
    }
  }

  @Test
  void aStubAdoptedTakesItsRowsSourceAndLineAndKeepsItsKey() {
    IdTable t = new IdTable();
    int a = t.add("a", 10, true, 1, 5L);
    int b = t.add("b", 11, false, 1, null);
    assertTrue(t.stub(a));
    assertFalse(t.hasTokens(a));
    t.setHasTokens(a);
    t.adopt(a, 2, 9L);
    assertFalse(t.stub(a));
    assertTrue(t.hasTokens(a));
    assertEquals(2, t.source(a));
    assertEquals(1, t.source(b));
    assertEquals(9L, t.line(a));
    assertNull(t.line(b));
    assertEquals(10, t.key(a));
  }
}
