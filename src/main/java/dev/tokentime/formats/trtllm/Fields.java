package dev.tokentime.formats.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.RequestRecord;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Reading TensorRT-LLM's JSON values, with reasons that name the field: its times are seconds of a
 * steady clock (Python {@code timedelta.total_seconds()}), or nanoseconds written as numbers or, by
 * the Triton LLM API backend, as strings.
 */
final class Fields {
  private Fields() {}


  /**
   * A time in seconds as integer ns, exactly as written (no binary rounding); NONE when absent,
   * null or 0 (an unset C++ time point is exported as 0).
   */
  static long seconds(JsonNode obj, String field, String path) throws PeerJson.Bad {
    BigDecimal d = decimal(obj, field, path);
    if (d == null || d.signum() == 0) {
      return RequestRecord.NONE;
    }
    if (d.signum() < 0) {
      throw new PeerJson.Bad(path + field + ": negative time " + d.toPlainString());
    }
    try {
      return dev.tokentime.ingest.Checked.secondsToNs(path + field, d);
    } catch (dev.tokentime.ingest.Checked.OutOfRange e) {
      throw new PeerJson.Bad(e.getMessage());
    }
  }

  /** A time already in ns (number, numeric string, or a one-element tensor); NONE when absent or 0. */
  static long nanos(JsonNode obj, String field, String path) throws PeerJson.Bad {
    BigDecimal d = decimal(obj, field, path);
    if (d == null || d.signum() == 0) {
      return RequestRecord.NONE;
    }
    if (d.signum() < 0 || d.stripTrailingZeros().scale() > 0) {
      throw new PeerJson.Bad(path + field + ": expected a whole, non-negative number of ns, got "
          + d.toPlainString());
    }
    try {
      return dev.tokentime.ingest.Checked.exactNs(path + field, d);
    } catch (dev.tokentime.ingest.Checked.OutOfRange e) {
      throw new PeerJson.Bad(e.getMessage());
    }
  }

  /** A number, a numeric string, or a one-element (nested) array of one; null when absent. */
  static BigDecimal decimal(JsonNode obj, String field, String path) throws PeerJson.Bad {
    JsonNode v = obj == null ? null : obj.get(field);
    while (v != null && v.isArray() && v.size() == 1) {
      v = v.get(0); // a Triton output tensor of shape [1] or [1, 1]
    }
    if (v == null || v.isNull()) {
      return null;
    }
    try {
      if (v.isNumber()) {
        if (v.isDouble() && !Double.isFinite(v.asDouble())) {
          throw new PeerJson.Bad(path + field + ": not a finite number");
        }
        return v.decimalValue();
      }
      if (v.isTextual()) {
        return new BigDecimal(v.asText().strip());
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw new PeerJson.Bad(path + field + ": expected a number, got "
        + PeerJson.quote(v.isTextual() ? v.asText() : v.toString()));
  }

  /** An integer (number or numeric text); null when absent. */
  static Long integer(JsonNode obj, String field, String path) throws PeerJson.Bad {
    BigDecimal d = decimal(obj, field, path);
    if (d == null) {
      return null;
    }
    try {
      return d.longValueExact();
    } catch (ArithmeticException e) {
      throw new PeerJson.Bad(path + field + ": expected an integer, got " + d.toPlainString());
    }
  }

  /** An object member that must be an object when present; null when absent or null. */
  static JsonNode object(JsonNode obj, String field, String path) throws PeerJson.Bad {
    JsonNode v = obj == null ? null : obj.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isObject()) {
      throw new PeerJson.Bad(path + field + ": expected an object, got " + PeerJson.quote(v.toString()));
    }
    return v;
  }

  /** A scalar as text (ids are integers or strings); null when absent. */
  static String id(JsonNode obj, String field, String path) throws PeerJson.Bad {
    JsonNode v = obj == null ? null : obj.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isValueNode()) {
      throw new PeerJson.Bad(path + field + ": expected an id, got " + PeerJson.quote(v.toString()));
    }
    return v.asText();
  }

  /** Copies the scalar members of an object into extras as text, keys prefixed. */
  static void scalars(JsonNode obj, String prefix, Map<String, String> extras) {
    if (obj == null || !obj.isObject()) {
      return;
    }
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      var e = it.next();
      JsonNode v = e.getValue();
      if (v.isValueNode() && !v.isNull()) {
        extras.put(prefix + e.getKey(), v.asText());
      }
    }
  }

  /** A number as a double; null when absent. */
  static Double number(JsonNode obj, String field, String path) throws PeerJson.Bad {
    BigDecimal d = decimal(obj, field, path);
    return d == null ? null : d.doubleValue();
  }

  /** A non-negative integer that fits a count column; null when absent. */
  static Integer count(JsonNode obj, String field, String path) throws PeerJson.Bad {
    Long v = integer(obj, field, path);
    if (v == null) {
      return null;
    }
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new PeerJson.Bad(path + field + ": expected a count, got " + v);
    }
    return v.intValue();
  }
}
