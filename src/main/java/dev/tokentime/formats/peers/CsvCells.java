package dev.tokentime.formats.peers;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The cells of one line of a tool's CSV, read by Commons CSV (RFC 4180 quoting): for the formats
 * that read their file line by line, so that each bad line is a reject of its own.
 */
final class CsvCells {
  private CsvCells() {}

  /** The line's cells, or null when it is not one CSV record (an unclosed quote). */
  static List<String> of(String line) {
    try {
      List<CSVRecord> r = CSVFormat.DEFAULT.parse(new StringReader(line)).getRecords();
      return r.size() == 1 ? r.get(0).toList() : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
