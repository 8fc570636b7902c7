package dev.tokentime.app;

import java.io.IOException;

/**
 * A file refused for what it is, not for a failure to read it: an archive or a compression
 * tokentime does not read, with what to do. The Spark job skips such a file and says why; any
 * other IOException fails its task, which Spark retries.
 */
public final class RefusedInput extends IOException {
  public RefusedInput(String why) {
    super(why);
  }
}
