package dev.tokentime.formats.layoutfixture;

import dev.tokentime.formats.peers.PeerFormats;

/** Breaks a layout rule on purpose (a format family that uses another family's class): LayoutRulesTest shows the rule catches it. */
public final class FamilyThatBorrows {
  private FamilyThatBorrows() {}

  static Object borrowed() {
    return new PeerFormats();
  }
}
