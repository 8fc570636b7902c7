package dev.tokentime.store;

import dev.tokentime.schema.CanonicalSchema;
import dev.tokentime.schema.Column;
import dev.tokentime.schema.TableDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How a canonical table's rows travel as Arrow columns, derived from its declaration: scalar
 * columns one to one, a MAP as two parallel lists (keys, values) rebuilt with {@code map()} on
 * insert, the chunk_kind ENUM as a one-byte code, and source_id not at all: every row of a
 * file's insert has the same one, so the INSERT names it as a constant (filling and scanning a
 * column of 50 million equal integers cost a tenth of the ingest).
 */
final class StagedTable {
  final TableDef table;
  final List<ArrowBatch.Col> cols = new ArrayList<>();
  /** The INSERT's select list; {@link #SOURCE_ID} stands for the file's source id. */
  final List<String> select = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();

  private StagedTable(TableDef table) {
    this.table = table;
    for (Column c : table.columns()) {
      if (c.name().equals("source_id")) {
        select.add(SOURCE_ID);
        continue;
      }
      index.put(c.name(), cols.size());
      switch (c.sqlType()) {
        case "BIGINT" -> add(c.name(), ArrowBatch.Type.BIGINT);
        case "INTEGER" -> add(c.name(), ArrowBatch.Type.INT);
        case "DOUBLE" -> add(c.name(), ArrowBatch.Type.DOUBLE);
        case "VARCHAR" -> add(c.name(), ArrowBatch.Type.VARCHAR);
        case "BOOLEAN" -> add(c.name(), ArrowBatch.Type.BOOL);
        case "MAP(VARCHAR, VARCHAR)", "MAP(VARCHAR, DOUBLE)" -> {
          String k = c.name() + "_keys";
          String v = c.name() + "_values";
          cols.add(new ArrowBatch.Col(k, ArrowBatch.Type.VARCHAR_LIST));
          cols.add(new ArrowBatch.Col(v, c.sqlType().endsWith("DOUBLE)")
              ? ArrowBatch.Type.DOUBLE_LIST : ArrowBatch.Type.VARCHAR_LIST));
          select.add("CASE WHEN " + k + " IS NULL THEN NULL ELSE map(" + k + ", " + v + ") END");
        }
        case "chunk_kind" -> {
          cols.add(new ArrowBatch.Col(c.name() + "_code", ArrowBatch.Type.TINYINT));
          // ENUM literals in the branches: casting a VARCHAR per row cost 2.5x as much
          String kinds = IntStream.range(0, CanonicalSchema.CHUNK_KINDS.size())
              .mapToObj(i -> "WHEN " + i + " THEN '" + CanonicalSchema.CHUNK_KINDS.get(i) + "'::chunk_kind")
              .collect(Collectors.joining(" "));
          select.add("CASE " + c.name() + "_code " + kinds + " END");
        }
        default -> throw new IllegalArgumentException("no staging for " + table.name() + "." + c);
      }
    }
  }

  /** Placeholder in {@link #select} for the file's source id. */
  static final String SOURCE_ID = "$source_id";

  /** The select list with the file's source id filled in. */
  String selectFor(int sourceId) {
    return String.join(", ", select).replace(SOURCE_ID, Integer.toString(sourceId));
  }

  private void add(String name, ArrowBatch.Type t) {
    cols.add(new ArrowBatch.Col(name, t));
    select.add(name);
  }

  static StagedTable of(TableDef t) {
    return new StagedTable(t);
  }

  /** The staged column where the table column starts (a MAP's keys; its values follow). */
  int col(String column) {
    Integer i = index.get(column);
    if (i == null) {
      throw new IllegalArgumentException(table.name() + " has no column " + column);
    }
    return i;
  }
}
