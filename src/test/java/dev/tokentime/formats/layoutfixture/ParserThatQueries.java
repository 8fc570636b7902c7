package dev.tokentime.formats.layoutfixture;

import java.sql.Connection;
import java.sql.SQLException;

/** Breaks a layout rule on purpose (a parser that talks JDBC): LayoutRulesTest shows the rule catches it. */
public final class ParserThatQueries {
  private ParserThatQueries() {}

  static void store(Connection c) throws SQLException {
    c.createStatement().execute("SELECT 1");
  }
}
