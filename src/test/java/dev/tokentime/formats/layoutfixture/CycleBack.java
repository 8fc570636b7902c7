package dev.tokentime.formats.layoutfixture;

import dev.tokentime.ingest.layoutfixture.ContractThatKnowsAFamily;

/** The other half of the cycle in ContractThatKnowsAFamily. */
public final class CycleBack {
  private CycleBack() {}

  public static Class<?> contract() {
    return ContractThatKnowsAFamily.class;
  }
}
