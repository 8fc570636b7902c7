package dev.tokentime.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sink built on {@link ForwardingSink} passes on every call of {@link RecordSink}, the optional
 * (default) ones too: a default method added to the interface and not forwarded would be
 * swallowed by every checking and counting sink in front of the store.
 */
class ForwardingSinkTest {

  @Test
  void everyCallOfTheInterfaceReachesTheSinkBehind() throws Exception {
    List<String> seen = new ArrayList<>();
    RecordSink behind = (RecordSink) Proxy.newProxyInstance(RecordSink.class.getClassLoader(),
        new Class<?>[] {RecordSink.class}, (proxy, m, args) -> {
          seen.add(m.getName());
          Class<?> r = m.getReturnType();
          if (r == int.class) {
            return 7;
          }
          if (r == long.class) {
            return 7L;
          }
          return null;
        });
    RecordSink forwarding = new ForwardingSink(behind) {};
    List<String> called = new ArrayList<>();
    for (Method m : RecordSink.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Object[] args = Arrays.stream(m.getParameterTypes()).map(ForwardingSinkTest::zero).toArray();
      Object result = m.invoke(forwarding, args);
      called.add(m.getName());
      if (m.getReturnType() == int.class || m.getReturnType() == long.class) {
        assertEquals(7L, ((Number) result).longValue(), m.getName() + " returns what the sink behind returned");
      }
    }
    assertEquals(called, seen);
    assertEquals(RecordSink.class.getMethods().length, seen.size());
  }

  private static Object zero(Class<?> t) {
    if (t == int.class) {
      return 0;
    }
    if (t == long.class) {
      return 0L;
    }
    if (t == double.class) {
      return 0.0;
    }
    return null;
  }
}
