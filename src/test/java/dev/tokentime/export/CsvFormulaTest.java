package dev.tokentime.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tokentime.app.QueryService;
import dev.tokentime.output.OutputFormat;
import dev.tokentime.testing.TestDb;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV that a spreadsheet opens runs no formula from the logs: `export --format csv` and
 * `query --format csv` give a text cell starting with =, +, -, @, a tab or a CR a leading
 * apostrophe, leave numbers (-1.5), text that is a whole number ("-3", "+0.6", a lone "-") and
 * other text as they are, and --csv-raw keeps every cell.
 */
class CsvFormulaTest {
  @TempDir
  Path tmp;

  static final String SQL = "SELECT * FROM (VALUES ('=HYPERLINK(\"http://x\")', -1.5, '-3', '@SUM(A1)', 'plain', "
      + "'+x', chr(9) || 'tab', chr(13) || 'cr', -7::BIGINT, 'a=b', '+0.6 %', '-', '-2+3+cmd|'' /C calc''!A0')) "
      + "v(f, n, neg_text, at_sign, plain, plus, tab, cr, big, mid, plus_num, stdin, dde)";

  static final List<String> NEUTRALISED = List.of("'=HYPERLINK(\"http://x\")", "-1.5", "-3", "'@SUM(A1)", "plain",
      "'+x", "'\ttab", "'\rcr", "-7", "a=b", "+0.6 %", "-", "'-2+3+cmd|' /C calc'!A0");
  static final List<String> RAW = List.of("=HYPERLINK(\"http://x\")", "-1.5", "-3", "@SUM(A1)", "plain",
      "+x", "\ttab", "\rcr", "-7", "a=b", "+0.6 %", "-", "-2+3+cmd|' /C calc'!A0");

  private static List<String> secondRecord(String csv) throws Exception {
    List<CSVRecord> records = CSVFormat.DEFAULT.parse(new StringReader(csv)).getRecords();
    assertEquals(2, records.size(), csv);
    assertEquals(List.of("f", "n", "neg_text", "at_sign", "plain", "plus", "tab", "cr", "big", "mid", "plus_num",
        "stdin", "dde"), records.get(0).toList());
    return records.get(1).toList();
  }

  private String query(TestDb t, boolean raw) throws Exception {
    StringWriter w = new StringWriter();
    try (PrintWriter out = new PrintWriter(w)) {
      new QueryService().print(t.db, SQL, OutputFormat.CSV, 0, 80, out, raw);
    }
    return w.toString();
  }

  private String export(TestDb t, boolean raw) throws Exception {
    Path f = tmp.resolve(raw ? "raw.csv" : "safe.csv");
    new ExportService().export(t.db, SQL, ExportFormat.CSV, f, List.of(), raw);
    return Files.readString(f);
  }

  @Test
  void queryCsvNeutralisesFormulasInTextCellsOnlyUnlessRaw() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("q"))) {
      assertEquals(NEUTRALISED, secondRecord(query(t, false)));
      assertEquals(RAW, secondRecord(query(t, true)));
    }
  }

  @Test
  void exportCsvNeutralisesFormulasInTextCellsOnlyUnlessRaw() throws Exception {
    try (TestDb t = new TestDb(tmp.resolve("e"))) {
      assertEquals(NEUTRALISED, secondRecord(export(t, false)));
      assertEquals(RAW, secondRecord(export(t, true)));
    }
  }
}
