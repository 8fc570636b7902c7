package dev.tokentime.ingest.layoutfixture;

import dev.tokentime.formats.layoutfixture.CycleBack;

/** Breaks two layout rules on purpose (the contract names a family, and the family names it back). */
public final class ContractThatKnowsAFamily {
  private ContractThatKnowsAFamily() {}

  static Object family() {
    return CycleBack.contract();
  }
}
