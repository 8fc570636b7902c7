package dev.tokentime.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * After a write failed for want of space, DuckDB's next errors ("database has been invalidated",
 * "cannot commit - no transaction is active") do not say why; the message tokentime prints names
 * the write's own error (the device full, the file) after them. Reproduced by hand on a 30 MB
 * tmpfs: the refused file named "No space left on device", the command's last line did not.
 */
class FullDiskMessageTest {
  @Test
  void laterErrorsNameTheEarlierStorageFailure() {
    String full = "IO Error: Could not write file \"/mnt/small/f.duckdb\": No space left on device";
    DatabaseErrors.remember("Binder Error: something else"); // not a storage failure: not kept
    DatabaseErrors.remember(full);
    assertEquals("TransactionContext Error: cannot commit - no transaction is active (after an earlier failure: "
        + full + ")", DatabaseErrors.describe(new SQLException("TransactionContext Error: cannot commit - no transaction is active")));
    assertEquals("FATAL Error: database has been invalidated because of a previous fatal error (after an earlier failure: "
        + full + ")", DatabaseErrors.describe(new SQLException("FATAL Error: database has been invalidated because of a previous fatal error")));
    // other errors are told as they are
    assertEquals("Catalog Error: Table with name x does not exist!",
        DatabaseErrors.describe(new SQLException("Catalog Error: Table with name x does not exist!")));
  }
}
