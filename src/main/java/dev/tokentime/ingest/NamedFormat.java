package dev.tokentime.ingest;

/**
 * An input format whose id, filled tables and line for {@code tokentime formats} are fixed: given
 * once to the constructor instead of written as three methods in every format.
 */
public abstract class NamedFormat implements InputFormat {
  private final String id;
  private final String fills;
  private final String description;

  /**
   * @param id the name users give with --from
   * @param fills the canonical tables the format fills, comma-separated
   * @param description one line for {@code tokentime formats}
   */
  protected NamedFormat(String id, String fills, String description) {
    this.id = id;
    this.fills = fills;
    this.description = description;
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final String fills() {
    return fills;
  }

  @Override
  public final String description() {
    return description;
  }
}
