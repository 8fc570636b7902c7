package dev.tokentime.ingest;

import java.io.IOException;

/**
 * A file a format reads but refuses whole, for a reason the user can act on (its lines newest
 * first): the ingest rolls the file back and reports the reason as it is, not as a read error.
 */
public final class InputRefused extends IOException {
  public InputRefused(String reason) {
    super(reason);
  }
}
