package dev.tokentime.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The files a report inlines, read from the classpath: ECharts (from its webjar), CSS and scripts. */
final class Assets {
  private Assets() {}

  /** ECharts' "common" build: line, bar, scatter, marks, legends, tooltips, decals; 650 KB instead of 1 MB. */
  static final String ECHARTS = "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.common.min.js";
  static final String ECHARTS_VERSION = "5.3.1";

  private static String echarts;

  static synchronized String echarts() {
    if (echarts == null) {
      echarts = read(ECHARTS);
    }
    return echarts;
  }

  static String read(String resource) {
    try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " (is the echarts webjar on the classpath?)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
