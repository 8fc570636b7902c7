package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentime.formats.json.PeerJson;
import dev.tokentime.ingest.ChunkKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The responses perf_analyzer recorded for one request of an OpenAI-style endpoint, cleaned up
 * the way genai-perf cleans them (llm_profile_data_parser._preprocess_response) and classified
 * into chunk kinds, one per recorded response so every timestamp keeps a row:
 *
 * <ul>
 *   <li>a response that does not start with {@code data:} continues the one before it
 *       (splintered SSE): its text is glued back and its own slot becomes an {@code empty} chunk;
 *   <li>several events in one response are merged into one chunk, whose text is theirs joined;
 *   <li>{@code :} comments and {@code event:} lines are not data ({@code empty});
 *   <li>{@code event: error} marks the chunk {@code error} and the request failed;
 *   <li>role-only deltas, empty content, usage-only chunks and {@code [DONE]} get the kinds
 *       role, empty, usage and done, so they count for neither TTFT nor ITL.
 * </ul>
 * Responses that are plain JSON (non-streaming, TGI's generate) are classified by their text.
 */
final class SseResponses {
  final ChunkKind[] kinds;
  String error;
  Integer completionTokens;
  Integer promptTokens;
  /** Some response answers a non-generative endpoint (embeddings, rankings): see ResponseText. */
  boolean nonGenerative;

  /** The name of the list the responses come from, for a reject's reason. */
  private final String list;

  private SseResponses(int n, String list) {
    kinds = new ChunkKind[n];
    this.list = list;
  }

  static SseResponses classify(List<String> responses) throws PeerJson.Bad {
    return classify(responses, "response_outputs");
  }

  /** The same, a reject naming the response as {@code list[i]}. */
  static SseResponses classify(List<String> responses, String list) throws PeerJson.Bad {
    int n = responses.size();
    SseResponses out = new SseResponses(n, list);
    List<String> r = new ArrayList<>(responses);
    boolean sse = false;
    for (String s : r) {
      String t = s.stripLeading();
      if (t.startsWith("data:") || t.startsWith(":") || t.startsWith("event:")) {
        sse = true;
        break;
      }
    }
    boolean[] glued = new boolean[n];
    if (sse) {
      // splintered events: glue a fragment back onto the response before it (back to front)
      for (int i = n - 1; i >= 1; i--) {
        String s = r.get(i);
        if (s.isEmpty() || isNotData(s) || s.startsWith("data:")) {
          continue;
        }
        if (!r.get(i - 1).contains("data:")) {
          continue; // nothing to continue: classified (and refused) below as it is
        }
        int at = s.indexOf("data:");
        if (at < 0) {
          r.set(i - 1, r.get(i - 1) + s);
          r.set(i, "");
          glued[i] = true;
        } else {
          r.set(i - 1, r.get(i - 1) + s.substring(0, at));
          r.set(i, s.substring(at));
        }
      }
    }
    for (int i = 0; i < n; i++) {
      out.kinds[i] = glued[i] ? ChunkKind.EMPTY
          : sse ? out.classifySse(i, r.get(i)) : out.classifyJson(i, r.get(i));
    }
    return out;
  }

  private static boolean isNotData(String s) {
    return s.startsWith(":") || s.startsWith("event:");
  }

  private ChunkKind classifySse(int i, String response) throws PeerJson.Bad {
    String body = response.strip();
    if (body.isEmpty()) {
      return ChunkKind.EMPTY;
    }
    StringBuilder content = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    boolean role = false;
    boolean usage = false;
    boolean done = false;
    for (String event : body.split("\n\n")) {
      for (String line : event.split("\n")) {
        String l = line.strip();
        if (l.startsWith("event:")) {
          String name = l.substring("event:".length()).strip();
          if (name.startsWith("error")) {
            String msg = name.substring("error".length()).replaceFirst("^[:\\s]+", "");
            error = "SSE event: error" + (msg.isEmpty() ? "" : ": " + msg);
            return ChunkKind.ERROR;
          }
          continue;
        }
        if (!l.startsWith("data:")) {
          continue; // comments, id:, retry: and unknown fields carry no data (the SSE spec ignores them)
        }
        String payload = l.substring("data:".length()).strip();
        if (payload.equals("[DONE]")) {
          done = true;
          continue;
        }
        ResponseText t = parse(list, i, payload);
        if (t.error != null) {
          error = "server error in the stream: " + t.error;
          return ChunkKind.ERROR;
        }
        nonGenerative |= t.nonGenerative;
        content.append(t.content);
        reasoning.append(t.reasoning);
        role |= t.roleOnly;
        usage |= !t.hasChoices && t.completionTokens != null;
        if (t.completionTokens != null) {
          completionTokens = t.completionTokens;
        }
        if (t.promptTokens != null) {
          promptTokens = t.promptTokens;
        }
      }
    }
    if (!content.isEmpty()) {
      return ChunkKind.CONTENT;
    }
    if (!reasoning.isEmpty()) {
      return ChunkKind.REASONING;
    }
    if (role) {
      return ChunkKind.ROLE;
    }
    if (usage) {
      return ChunkKind.USAGE;
    }
    if (done) {
      return ChunkKind.DONE;
    }
    return ChunkKind.EMPTY;
  }

  private ChunkKind classifyJson(int i, String response) throws PeerJson.Bad {
    if (response.isBlank()) {
      return ChunkKind.EMPTY;
    }
    ResponseText t = parse(list, i, response.strip());
    if (t.error != null) {
      error = "server error: " + t.error;
      return ChunkKind.ERROR;
    }
    nonGenerative |= t.nonGenerative;
    if (t.completionTokens != null) {
      completionTokens = t.completionTokens;
    }
    if (t.promptTokens != null) {
      promptTokens = t.promptTokens;
    }
    if (!t.content.isEmpty()) {
      return ChunkKind.CONTENT;
    }
    if (!t.reasoning.isEmpty()) {
      return ChunkKind.REASONING;
    }
    return t.roleOnly ? ChunkKind.ROLE : ChunkKind.EMPTY;
  }

  private static ResponseText parse(String list, int i, String payload) throws PeerJson.Bad {
    JsonNode node;
    try {
      node = PeerJson.TREE.readTree(payload);
    } catch (IOException e) {
      throw new PeerJson.Bad(list + "[" + i + "]: the response is not valid JSON ("
          + PeerJson.reason(e) + ")");
    }
    if (node == null || !(node.isObject() || node.isArray())) {
      throw new PeerJson.Bad(list + "[" + i + "]: expected a JSON object, got "
          + PeerJson.quote(payload));
    }
    return ResponseText.of(node);
  }
}
