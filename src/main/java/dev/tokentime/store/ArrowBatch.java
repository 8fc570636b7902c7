package dev.tokentime.store;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A batch of rows being filled column by column, without boxing: typed setters write straight
 * into the Arrow vectors. A value that is never set stays NULL. When {@link #full()}, the owner
 * hands the batch to DuckDB ({@link StreamInserter}), which moves its buffers out; {@link
 * #allocate()} makes it ready for the next rows.
 */
final class ArrowBatch implements AutoCloseable {

  /** Column types the canonical tables need. */
  enum Type {
    BIGINT(new ArrowType.Int(64, true)),
    INT(new ArrowType.Int(32, true)),
    TINYINT(new ArrowType.Int(8, true)),
    DOUBLE(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)),
    BOOL(ArrowType.Bool.INSTANCE),
    VARCHAR(ArrowType.Utf8.INSTANCE),
    /** A list of strings (used in pairs to build a MAP on insert). */
    VARCHAR_LIST(ArrowType.List.INSTANCE),
    /** A list of doubles (the values of a MAP(VARCHAR, DOUBLE)). */
    DOUBLE_LIST(ArrowType.List.INSTANCE);

    final ArrowType arrow;

    Type(ArrowType arrow) {
      this.arrow = arrow;
    }
  }

  record Col(String name, Type type) {}

  static Schema schema(List<Col> cols) {
    return new Schema(cols.stream().map(c -> switch (c.type) {
      case VARCHAR_LIST -> new Field(c.name, FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE)));
      case DOUBLE_LIST -> new Field(c.name, FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", Type.DOUBLE.arrow)));
      default -> Field.nullable(c.name, c.type.arrow);
    }).toList());
  }

  private final VectorSchemaRoot root;
  private final FieldVector[] v;
  private final int capacity;
  private int rows;

  ArrowBatch(BufferAllocator allocator, List<Col> cols, int capacity) {
    this.root = VectorSchemaRoot.create(schema(cols), allocator);
    this.v = root.getFieldVectors().toArray(new FieldVector[0]);
    this.capacity = capacity;
    allocate();
  }

  /** (Re)allocates empty vectors for {@code capacity} rows. */
  void allocate() {
    for (FieldVector fv : v) {
      if (fv instanceof BaseFixedWidthVector fixed) {
        fixed.allocateNew(capacity);
      } else if (fv instanceof VarCharVector vc) {
        vc.allocateNew(capacity * 16L, capacity);
      } else {
        fv.setInitialCapacity(capacity);
        fv.allocateNew();
      }
    }
    rows = 0;
  }

  int rows() {
    return rows;
  }

  boolean full() {
    return rows >= capacity;
  }

  /** Closes the current row; the next setters write the next one. */
  void endRow() {
    rows++;
  }

  void setLong(int col, long value) {
    ((BigIntVector) v[col]).set(rows, value);
  }

  void setInt(int col, int value) {
    ((IntVector) v[col]).set(rows, value);
  }

  void setTiny(int col, byte value) {
    ((TinyIntVector) v[col]).set(rows, value);
  }

  void setDouble(int col, double value) {
    ((Float8Vector) v[col]).set(rows, value);
  }

  void setBool(int col, boolean value) {
    ((BitVector) v[col]).set(rows, value ? 1 : 0);
  }

  void setString(int col, String value) {
    if (value != null) {
      ((VarCharVector) v[col]).setSafe(rows, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  void setInteger(int col, Integer value) {
    if (value != null) {
      setInt(col, value);
    }
  }

  void setLongObj(int col, Long value) {
    if (value != null) {
      setLong(col, value);
    }
  }

  void setDoubleObj(int col, Double value) {
    if (value != null) {
      setDouble(col, value);
    }
  }

  /** Writes a map as two parallel string lists (keys at col, values at col + 1); empty = NULL. */
  void setStringMap(int col, Map<String, String> map) {
    if (map == null || map.isEmpty()) {
      return;
    }
    ListVector keys = (ListVector) v[col];
    ListVector vals = (ListVector) v[col + 1];
    VarCharVector kc = (VarCharVector) keys.getDataVector();
    VarCharVector vcv = (VarCharVector) vals.getDataVector();
    int ko = keys.startNewValue(rows);
    int vo = vals.startNewValue(rows);
    int i = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      kc.setSafe(ko + i, e.getKey().getBytes(StandardCharsets.UTF_8));
      if (e.getValue() != null) {
        vcv.setSafe(vo + i, e.getValue().getBytes(StandardCharsets.UTF_8));
      } else {
        vcv.setNull(vo + i);
      }
      i++;
    }
    keys.endValue(rows, i);
    vals.endValue(rows, i);
  }

  /** Writes a map as a key list at col and a double list at col + 1; empty = NULL. */
  void setDoubleMap(int col, Map<String, Double> map) {
    if (map == null || map.isEmpty()) {
      return;
    }
    ListVector keys = (ListVector) v[col];
    ListVector vals = (ListVector) v[col + 1];
    VarCharVector kc = (VarCharVector) keys.getDataVector();
    Float8Vector vc = (Float8Vector) vals.getDataVector();
    int ko = keys.startNewValue(rows);
    int vo = vals.startNewValue(rows);
    int i = 0;
    for (Map.Entry<String, Double> e : map.entrySet()) {
      kc.setSafe(ko + i, e.getKey().getBytes(StandardCharsets.UTF_8));
      if (e.getValue() != null) {
        vc.setSafe(vo + i, e.getValue());
      } else {
        vc.setNull(vo + i);
      }
      i++;
    }
    keys.endValue(rows, i);
    vals.endValue(rows, i);
  }

  /** The filled root, with its row count set, for export. */
  VectorSchemaRoot rootForExport() {
    for (FieldVector fv : v) {
      fv.setValueCount(rows);
    }
    root.setRowCount(rows);
    return root;
  }

  @Override
  public void close() {
    root.close();
  }
}
