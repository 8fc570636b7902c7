package dev.tokentime.store;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Names (the sources whose rows meet by request) held by the file transactions that delete
 * stored rows of them. A file takes all its names at once, waiting while any is held, and holds
 * nothing while it waits, so two files never wait for each other; files whose deletions share no
 * request go on in parallel.
 */
final class DeletionLocks {
  private final Set<String> held = new HashSet<>();

  /** Waits until none of {@code names} is held, then holds them all; returns what to release. */
  synchronized Set<String> acquire(Collection<String> names) {
    while (names.stream().anyMatch(held::contains)) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    held.addAll(names);
    return Set.copyOf(names);
  }

  synchronized void release(Collection<String> names) {
    if (!names.isEmpty()) {
      held.removeAll(names);
      notifyAll();
    }
  }
}
