package dev.tokentime.formats.peers;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one response payload of an OpenAI-style (or TGI / Triton generate) server carries: its
 * output text, split into content and reasoning, whether it is a role-only delta, and the usage
 * figures when the server sent them. Reads the payload shapes genai-perf reads, plus reasoning.
 */
final class ResponseText {
  String content = "";
  String reasoning = "";
  boolean roleOnly;
  boolean hasChoices;
  Integer completionTokens;
  Integer promptTokens;
  /** An error object the server sent in place of a chunk ({"error": {...}}), as text. */
  String error;
  /**
   * The payload answers a non-generative endpoint: embeddings ({@code data[].embedding}),
   * rankings ({@code rankings}, or Hugging Face's array of {@code {index, score}}). It carries no
   * tokens, yet it is the request's answer: genai-perf counts its latency and throughput.
   */
  boolean nonGenerative;

  /** Reads one JSON payload (an object, or TGI's array of objects). */
  static ResponseText of(JsonNode data) {
    ResponseText r = new ResponseText();
    if (data.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode e : data) {
        sb.append(textOf(e.get("generated_text")));
        r.nonGenerative |= e.isObject() && (e.has("score") || e.has("logit")) && !e.has("generated_text");
      }
      r.content = sb.toString();
      return r;
    }
    JsonNode err = data.get("error");
    if (err != null && !err.isNull()) {
      r.error = err.isObject() && err.hasNonNull("message") ? err.get("message").asText() : textOf(err);
    }
    JsonNode items = data.get("data");
    r.nonGenerative = data.has("rankings") || items != null && items.isArray() && items.size() > 0
        && items.get(0).isObject() && items.get(0).has("embedding");
    JsonNode choices = data.get("choices");
    if (choices != null && choices.isArray() && choices.size() > 0) {
      r.hasChoices = true;
      JsonNode c = choices.get(0);
      JsonNode delta = c.get("delta");
      JsonNode message = c.get("message");
      if (delta != null && delta.isObject()) {
        r.content = textOf(delta.get("content"));
        r.reasoning = textOf(delta.has("reasoning_content") ? delta.get("reasoning_content")
            : delta.get("reasoning"));
        r.roleOnly = delta.has("role") && r.content.isEmpty() && r.reasoning.isEmpty();
      } else if (message != null && message.isObject()) {
        r.content = textOf(message.get("content"));
        r.reasoning = textOf(message.has("reasoning_content") ? message.get("reasoning_content")
            : message.get("reasoning"));
      } else {
        r.content = textOf(c.get("text"));
      }
    } else if (data.has("text_output")) {
      r.content = textOf(data.get("text_output"));
    } else if (data.has("generated_text")) {
      r.content = textOf(data.get("generated_text"));
    } else if (data.has("token") && data.get("token").isObject()) {
      r.content = textOf(data.get("token").get("text")); // TGI generate_stream
    }
    JsonNode usage = data.get("usage");
    if (usage != null && usage.isObject()) {
      r.completionTokens = intOf(usage.get("completion_tokens"));
      r.promptTokens = intOf(usage.get("prompt_tokens"));
    }
    return r;
  }

  private static String textOf(JsonNode n) {
    return n == null || n.isNull() ? "" : n.isTextual() ? n.asText() : n.toString();
  }

  private static Integer intOf(JsonNode n) {
    return n != null && n.canConvertToInt() && n.isIntegralNumber() ? n.asInt() : null;
  }
}
